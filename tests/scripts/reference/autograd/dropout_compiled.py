# A compiled model with dropout in training: backward goes through the dropped-out graph
# (which runs eagerly, as random draws come from the eager generator); eval mode recompiles.
import torch
import torch.nn.functional as F
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Dropout(0.5), torch.nn.Linear(8, 2))
with torch.no_grad():
    for i, p in enumerate(model.parameters()):
        p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape))
x = torch.linspace(-1.0, 1.0, 12).reshape(3, 4)
compiled = torch.compile(model)
for step in range(2):
    loss = compiled(x).pow(2).sum()
    loss.backward()
    print(loss.grad_fn.name(), model[0].weight.grad.abs().sum() > 0)
    model.zero_grad()
model.eval()
print(compiled(x).shape)
