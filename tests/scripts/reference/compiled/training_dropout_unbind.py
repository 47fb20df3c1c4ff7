# Compiled training through nn.Dropout that draws nothing (p=0, nanoGPT's default; and a
# model in eval mode) and through unbind, whose parts each get a gradient; parameters set
# explicitly.
import torch


class Pairs(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 6)
        self.drop = torch.nn.Dropout(0.0)
        self.out = torch.nn.Linear(3, 2)
        self.late_drop = torch.nn.Dropout(0.5)

    def forward(self, x):
        a, b = self.drop(self.fc(x)).unbind(0)
        left, middle, right = a.view(2, 3).unbind(0)[0], b.view(3, 2).unbind(1)[1], b.view(2, 3)[1]
        return self.late_drop(self.out(left * right + middle)).pow(2).sum()


def fresh_model():
    model = Pairs()
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_((torch.arange(p.numel()).float() * 0.37 + i).sin().reshape(p.shape) * 0.5)
    return model


x = torch.arange(8.0).reshape(2, 4) / 8
for compiled in [False, True]:
    model = fresh_model()
    model.late_drop.eval()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    step = torch.compile(model) if compiled else model
    for i in range(4):
        loss = step(x)
        loss.backward()
        print(compiled, i, f"{loss.item():.5f}", f"{model.fc.weight.grad.abs().sum().item():.5f}", f"{model.fc.bias.grad[4].item():.5f}")
        optimizer.step()
        optimizer.zero_grad()
    print(f"{model.out.bias.sum().item():.5f}")
