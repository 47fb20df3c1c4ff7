# A small model trained with Adam, then AdamW with a cosine schedule, gradient clipping and
# StepLR; losses and learning rates as PyTorch prints them.
import torch


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = torch.nn.Embedding(10, 6)
        self.proj = torch.nn.Linear(6, 10)

    def forward(self, tokens):
        return self.proj(torch.tanh(self.embed(tokens)))


def fresh():
    model = Net()
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_(torch.linspace(-0.8, 0.6, p.numel()).reshape(p.shape).sin() * (0.5 + 0.2 * i))
    return model


tokens = torch.tensor([1, 4, 2, 9, 7, 3, 3, 0])
targets = torch.tensor([4, 2, 9, 7, 3, 3, 0, 5])
model = fresh()
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for step in range(10):
    opt.zero_grad()
    loss = torch.nn.functional.cross_entropy(model(tokens), targets)
    loss.backward()
    opt.step()
    print(f"adam {step}: {loss.item():.4f}")

model = fresh()
opt = torch.optim.AdamW(model.parameters(), lr=0.02, weight_decay=0.1)
sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=5)
for step in range(10):
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(model(tokens), torch.nn.functional.one_hot(targets, 10).float())
    loss.backward()
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 0.05)
    opt.step()
    sched.step()
    print(f"adamw {step}: {loss.item():.4f} norm {norm.item():.4f} lr {sched.get_last_lr()[0]:.6f}")

opt = torch.optim.SGD(model.parameters(), lr=1.0)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.5)
lrs = []
for step in range(8):
    opt.step()
    sched.step()
    lrs.append(round(sched.get_last_lr()[0], 4))
print(lrs)
