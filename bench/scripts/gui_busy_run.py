# A run that keeps the workbench busy (bench_gui_responsiveness): a big graph, several
# compiles with generated code, thousands of compiled calls and eager ops, every one traced
# and streamed to the window as events.
import torch


@torch.compile
def block(x, w):
    h = torch.softmax(x @ w, dim=-1)
    return (h * torch.sigmoid(h) + x.sin()).sum(dim=0)


# A 600-node graph: big IR dumps, generated code and assembly, and a big diagram to lay out.
@torch.compile
def deep(x):
    for i in range(200):
        x = torch.sin(x) * 1.01 + torch.cos(x) if i % 2 else torch.relu(x) - 0.5
    return x


print(deep(torch.randn(256)).shape)
for n in [32, 48, 64, 96]:
    x = torch.randn(n, n)
    w = torch.randn(n, n)
    for step in range(300):
        y = block(x, w)
        z = x * 2 + 1
print(y.shape, z.shape)
