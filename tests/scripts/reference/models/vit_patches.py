# A ViT-style classifier in miniature: patches embedded by a strided Conv2d, a class token
# and learned positions, pre-norm encoder blocks with scaled_dot_product_attention and a
# GELU MLP, and a linear head on the class token. Weights are set from arange so the output
# does not depend on a random generator.
import torch
import torch.nn as nn
import torch.nn.functional as F


class PatchEmbedding(nn.Module):
    def __init__(self, channels, patch, width):
        super().__init__()
        self.proj = nn.Conv2d(channels, width, kernel_size=patch, stride=patch)

    def forward(self, images):
        return self.proj(images).flatten(2).transpose(1, 2)  # (batch, patches, width)


class EncoderBlock(nn.Module):
    def __init__(self, width, heads):
        super().__init__()
        self.heads = heads
        self.norm1 = nn.LayerNorm(width)
        self.qkv = nn.Linear(width, 3 * width)
        self.out = nn.Linear(width, width)
        self.norm2 = nn.LayerNorm(width)
        self.mlp = nn.Sequential(nn.Linear(width, 2 * width), nn.GELU(), nn.Linear(2 * width, width))

    def forward(self, x):
        batch, tokens, width = x.shape
        q, k, v = self.qkv(self.norm1(x)).chunk(3, dim=-1)
        split = lambda t: t.reshape(batch, tokens, self.heads, width // self.heads).transpose(1, 2)
        attended = F.scaled_dot_product_attention(split(q), split(k), split(v))
        x = x + self.out(attended.transpose(1, 2).reshape(batch, tokens, width))
        return x + self.mlp(self.norm2(x))


class TinyViT(nn.Module):
    def __init__(self, image=8, patch=4, channels=3, width=16, heads=2, depth=2, classes=4):
        super().__init__()
        self.embed = PatchEmbedding(channels, patch, width)
        self.cls = nn.Parameter(torch.zeros(1, 1, width))
        self.positions = nn.Parameter(torch.zeros(1, (image // patch) ** 2 + 1, width))
        self.blocks = nn.ModuleList([EncoderBlock(width, heads) for _ in range(depth)])
        self.norm = nn.LayerNorm(width)
        self.head = nn.Linear(width, classes)

    def forward(self, images):
        x = self.embed(images)
        x = torch.cat([self.cls.expand(x.shape[0], -1, -1), x], dim=1) + self.positions
        for block in self.blocks:
            x = block(x)
        return self.head(self.norm(x)[:, 0])


model = TinyViT()
with torch.no_grad():
    for i, (name, p) in enumerate(model.named_parameters()):
        scale = 1.0 if "norm" in name else 0.25
        p.copy_((torch.arange(p.numel(), dtype=torch.float32) * 0.61 + i).cos().reshape(p.shape) * scale)
model.eval()
print(model)
print("parameters:", sum(p.numel() for p in model.parameters()), "names:", [n for n, _ in model.named_parameters()][:5])

images = (torch.arange(2 * 3 * 8 * 8, dtype=torch.float32).reshape(2, 3, 8, 8) * 0.07).sin()
print("patches:", model.embed(images).shape)
eager = model(images)
print("logits:", [[round(v, 3) for v in row] for row in eager.tolist()])
compiled = torch.compile(model)
print("compiled matches eager:", torch.allclose(compiled(images), eager, atol=1e-4))
try:
    model(images[:, :, :6])
except RuntimeError as e:
    print("RuntimeError:", e)
