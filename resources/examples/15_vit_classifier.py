# A ViT-style image classifier compiled as a whole model: patches embedded by a strided
# Conv2d (an extern kernel), a class token, and encoder blocks whose attention
# (scaled_dot_product_attention) becomes matrix products around a fused softmax kernel.
import torch
import torch.nn as nn
import torch.nn.functional as F


class EncoderBlock(nn.Module):
    def __init__(self, width, heads):
        super().__init__()
        self.heads = heads
        self.norm1 = nn.LayerNorm(width)
        self.qkv = nn.Linear(width, 3 * width)
        self.proj = nn.Linear(width, width)
        self.norm2 = nn.LayerNorm(width)
        self.mlp = nn.Sequential(nn.Linear(width, 4 * width), nn.GELU(), nn.Linear(4 * width, width))

    def forward(self, x):
        batch, tokens, width = x.shape
        q, k, v = self.qkv(self.norm1(x)).chunk(3, dim=-1)
        heads = [t.reshape(batch, tokens, self.heads, width // self.heads).transpose(1, 2) for t in (q, k, v)]
        attended = F.scaled_dot_product_attention(heads[0], heads[1], heads[2])
        x = x + self.proj(attended.transpose(1, 2).reshape(batch, tokens, width))
        return x + self.mlp(self.norm2(x))


class TinyViT(nn.Module):
    def __init__(self, image=16, patch=4, width=32, heads=4, depth=2, classes=10):
        super().__init__()
        self.patches = nn.Conv2d(3, width, kernel_size=patch, stride=patch)
        self.cls = nn.Parameter(torch.zeros(1, 1, width))
        self.positions = nn.Parameter(torch.zeros(1, (image // patch) ** 2 + 1, width))
        self.blocks = nn.ModuleList([EncoderBlock(width, heads) for _ in range(depth)])
        self.norm = nn.LayerNorm(width)
        self.head = nn.Linear(width, classes)

    def forward(self, images):
        x = self.patches(images).flatten(2).transpose(1, 2)
        x = torch.cat([self.cls.expand(x.shape[0], -1, -1), x], dim=1) + self.positions
        for block in self.blocks:
            x = block(x)
        return self.head(self.norm(x)[:, 0])


model = TinyViT()
with torch.no_grad():  # weights from arange, so the output does not depend on a random generator
    for i, (name, p) in enumerate(model.named_parameters()):
        scale = 1.0 if "norm" in name else 0.2
        p.copy_((torch.arange(p.numel(), dtype=torch.float32) * 0.61 + i).cos().reshape(p.shape) * scale)
model.eval()
print(model.blocks[0])

images = (torch.arange(2 * 3 * 16 * 16, dtype=torch.float32).reshape(2, 3, 16, 16) * 0.03).sin()
compiled = torch.compile(model)
logits = compiled(images)
print("logits:", logits.shape, [round(v, 3) for v in logits[0].tolist()[:4]])
print("matches eager:", torch.allclose(logits, model(images), atol=1e-4))
