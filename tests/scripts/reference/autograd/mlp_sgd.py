# An MLP classifier trained with SGD (momentum, weight decay) on cross_entropy for 20 steps,
# eagerly, then under torch.compile: the module compiled (its forward and backward graphs
# through AOT Autograd), the loss compiled with it, and a whole step compiled, which breaks
# the graph at loss.backward() as Dynamo does; each prints eager's losses.
import torch
import torch.nn.functional as F

torch.manual_seed(0)


class MLP(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(4, 8)
        self.fc2 = torch.nn.Linear(8, 3)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


def fresh_model():
    model = MLP()
    # Values set explicitly: our random generator is not PyTorch's.
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(torch.linspace(-0.5, 0.5, p.numel()).reshape(p.shape) * (1.0 + 0.1 * i))
    return model


model = fresh_model()
x = torch.linspace(-1.0, 1.0, 24).reshape(6, 4)
y = torch.tensor([0, 1, 2, 1, 0, 2])
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-4)
for step in range(20):
    opt.zero_grad()
    loss = torch.nn.functional.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    print(f"step {step}: loss {loss.item():.4f}")
print(model.fc2.bias)
print(opt)

# Nesterov momentum, and zero_grad keeping the gradients' tensors (zeroed).
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.5, nesterov=True)
for step in range(3):
    opt.zero_grad(set_to_none=False)
    loss = torch.nn.functional.cross_entropy(model(x), y, label_smoothing=0.1)
    loss.backward()
    opt.step()
    print(f"nesterov step {step}: loss {loss.item():.4f}")
print(model.fc1.weight.grad.shape, model.fc1.bias.grad)
try:
    torch.optim.SGD([], lr=0.1)
except ValueError as e:
    print("ValueError:", e)

# Compiled.
model = fresh_model()
compiled = torch.compile(model)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-4)
for step in range(20):
    opt.zero_grad()
    out = compiled(x)
    loss = F.cross_entropy(out, y)
    loss.backward()
    opt.step()
    print(f"step {step}: loss {loss.item():.4f}")
print(out.grad_fn.name(), out.requires_grad)
print(model.fc2.bias)

# The same with the loss inside the compiled function and a second output that needs no
# gradient.
model = fresh_model()
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-4)


@torch.compile
def loss_and_predictions(x, y):
    logits = model(x)
    return F.cross_entropy(logits, y), logits.argmax(dim=1)


for step in range(20):
    opt.zero_grad()
    loss, predicted = loss_and_predictions(x, y)
    loss.backward()
    opt.step()
    if step % 5 == 4:
        print(f"step {step}: loss {loss.item():.4f} predicted {predicted.tolist()}")
print(loss.grad_fn.name(), predicted.requires_grad)
with torch.no_grad():
    loss, _ = loss_and_predictions(x, y)
print(loss.requires_grad, f"{loss.item():.4f}")


# A whole step compiled: Dynamo breaks the graph at backward().
@torch.compile
def train_step(x, y):
    opt.zero_grad()
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    return loss


for step in range(3):
    print(f"compiled step {step}: loss {train_step(x, y).item():.4f}")
