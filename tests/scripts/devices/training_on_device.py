# Training with tensors moved to a device explicitly (no default device): derivatives whose
# constants (aranges, zeros, masks) must be made on the gradients' device, in-place ops on
# computed tensors, and a compiled forward, backward and optimizer step. Tests run it as
# written and with DEVICE = "cpu", and expect the same output but for the device.
import torch
import torch.nn as nn
import torch.nn.functional as F

DEVICE = "cuda"
torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(10, 8, padding_idx=0)
        self.conv = nn.Conv2d(1, 4, 3, padding=1)
        self.fc = nn.Linear(8 + 4 * 2 * 2, 5)

    def forward(self, tokens, image):
        words = self.embed(tokens).amax(dim=1)
        pooled = F.adaptive_avg_pool2d(F.avg_pool2d(self.conv(image).clamp(min=-1.0), 2, divisor_override=3), 2)
        return self.fc(torch.cat([words, pooled.flatten(1)], dim=1))


model = Net().to(DEVICE)
tokens = torch.tensor([[1, 0, 3], [4, 5, 0]]).to(DEVICE)
image = torch.linspace(-1, 1, 2 * 64).reshape(2, 1, 8, 8).to(DEVICE)
target = torch.tensor([2, -100]).to(DEVICE)

loss = F.cross_entropy(model(tokens, image), target, ignore_index=-100, label_smoothing=0.1)
loss.backward()
print(round(loss.item(), 4), [round(p.grad.abs().sum().item(), 4) for p in model.parameters()])

x = torch.linspace(-2, 2, 12, device=DEVICE).reshape(3, 4).requires_grad_()
y = x * 2
y.mul_(x)  # an in-place op on a computed tensor: differentiated from y's values before it
values, where = y.max(dim=1)
first, *rest = torch.unbind(y, dim=0)
total = values.sum() + first.sum() + torch.gather(y, 1, where.unsqueeze(1)).sum()
total.backward()
print(x.grad)

q = torch.linspace(-1, 1, 2 * 4 * 3, device=DEVICE).reshape(1, 2, 4, 3).requires_grad_()
F.scaled_dot_product_attention(q, q, q, is_causal=True).sum().backward()
print(q.grad.abs().sum())


@torch.compile
def train_step(tokens, image, target):
    return F.cross_entropy(model(tokens, image), target, ignore_index=-100)


opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
for step in range(3):
    opt.zero_grad()
    loss = train_step(tokens, image, target)
    loss.backward()
    opt.step()
    print(step, round(loss.item(), 4))
print(model.fc.bias)
