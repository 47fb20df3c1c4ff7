# A ResNet-style CNN in miniature: a stem (Conv2d, BatchNorm2d, ReLU, MaxPool2d), two
# residual blocks (the second downsamples, with a 1x1 projection on its shortcut), global
# average pooling and a linear classifier. Weights are set from arange so the output does
# not depend on a random generator. Batch norm runs in both modes: training updates the
# running statistics, evaluation uses them.
import torch
import torch.nn as nn
import torch.nn.functional as F


class BasicBlock(nn.Module):
    def __init__(self, channels_in, channels_out, stride=1):
        super().__init__()
        self.conv1 = nn.Conv2d(channels_in, channels_out, 3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(channels_out)
        self.conv2 = nn.Conv2d(channels_out, channels_out, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels_out)
        self.shortcut = nn.Sequential()
        if stride != 1 or channels_in != channels_out:
            self.shortcut = nn.Sequential(
                nn.Conv2d(channels_in, channels_out, 1, stride=stride, bias=False),
                nn.BatchNorm2d(channels_out),
            )

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return F.relu(out + self.shortcut(x))


class TinyResNet(nn.Module):
    def __init__(self, classes=5):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1, bias=False), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2))
        self.layer1 = BasicBlock(8, 8)
        self.layer2 = BasicBlock(8, 16, stride=2)
        self.pool = nn.AdaptiveAvgPool2d((1, 1))
        self.head = nn.Linear(16, classes)

    def forward(self, x):
        x = self.layer2(self.layer1(self.stem(x)))
        return self.head(torch.flatten(self.pool(x), 1))


def set_weights(model):
    with torch.no_grad():
        for i, (name, p) in enumerate(model.named_parameters()):
            values = torch.arange(p.numel(), dtype=torch.float32) * 0.37 + i
            p.copy_(values.sin().reshape(p.shape) * (0.3 if "conv" in name or "shortcut.0" in name or "stem.0" in name else 1.0))


model = TinyResNet()
set_weights(model)
print(model)
print("parameters:", sum(p.numel() for p in model.parameters()))
print("buffers:", [name for name, _ in model.named_buffers()][:4], len(list(model.buffers())))
print("state_dict keys:", len(model.state_dict()))

x = (torch.arange(2 * 3 * 12 * 12, dtype=torch.float32).reshape(2, 3, 12, 12) * 0.05).cos()

model.train()
y = model(x)
print("train logits:", y.shape, [round(v, 2) for v in y.sum(dim=0).tolist()])
bn = model.stem[1]
print("stem running_mean:", [round(v, 4) for v in bn.running_mean.tolist()])
print("stem running_var:", [round(v, 4) for v in bn.running_var.tolist()])
print("batches tracked:", bn.num_batches_tracked.item(), model.layer2.shortcut[1].num_batches_tracked.item())

model.eval()
eager = model(x)
print("eval logits:", [[round(v, 3) for v in row] for row in eager.tolist()])
compiled = torch.compile(model)
out = compiled(x)
print("compiled matches eager:", torch.allclose(out, eager, atol=1e-4), out.shape)
unbatched = model.stem[0](x[0])
print("unbatched image:", unbatched.shape, torch.allclose(unbatched, model.stem[0](x)[0], atol=1e-5))

for bad in [lambda: model(x[:, :2]), lambda: model.stem[1](x[0]), lambda: F.max_pool2d(x, 3, 1, 2)]:
    try:
        bad()
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__ + ":", e)
