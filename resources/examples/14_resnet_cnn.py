# A ResNet-style CNN compiled as a whole model: convolutions run as extern kernels
# (oneDNN), batch norm in evaluation mode folds into the pointwise kernels around it, and
# pooling is a reduction over its window. Open the Fusion tab to step through how the
# blocks fuse, and the Code tab for extern_kernels.convolution between the fused kernels.
import torch
import torch.nn as nn
import torch.nn.functional as F


class ResidualBlock(nn.Module):
    def __init__(self, channels_in, channels_out, stride=1):
        super().__init__()
        self.conv1 = nn.Conv2d(channels_in, channels_out, 3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(channels_out)
        self.conv2 = nn.Conv2d(channels_out, channels_out, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels_out)
        self.shortcut = nn.Sequential()
        if stride != 1 or channels_in != channels_out:
            self.shortcut = nn.Sequential(nn.Conv2d(channels_in, channels_out, 1, stride=stride, bias=False),
                                          nn.BatchNorm2d(channels_out))

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        return F.relu(self.bn2(self.conv2(out)) + self.shortcut(x))


class SmallResNet(nn.Module):
    def __init__(self, classes=10):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1, bias=False), nn.BatchNorm2d(16), nn.ReLU(), nn.MaxPool2d(2))
        self.stage1 = ResidualBlock(16, 16)
        self.stage2 = ResidualBlock(16, 32, stride=2)
        self.pool = nn.AdaptiveAvgPool2d((1, 1))
        self.head = nn.Linear(32, classes)

    def forward(self, images):
        x = self.stage2(self.stage1(self.stem(images)))
        return self.head(torch.flatten(self.pool(x), 1))


model = SmallResNet()
with torch.no_grad():  # weights from arange, so the output does not depend on a random generator
    for i, p in enumerate(model.parameters()):
        p.copy_((torch.arange(p.numel(), dtype=torch.float32) * 0.37 + i).sin().reshape(p.shape) * 0.3)
model.eval()
print(model.stem)
print("parameters:", sum(p.numel() for p in model.parameters()))

images = (torch.arange(4 * 3 * 16 * 16, dtype=torch.float32).reshape(4, 3, 16, 16) * 0.01).cos()
compiled = torch.compile(model)
logits = compiled(images)
print("logits:", logits.shape, "classes:", logits.argmax(dim=1).tolist())
print("matches eager:", torch.allclose(logits, model(images), atol=1e-4))
