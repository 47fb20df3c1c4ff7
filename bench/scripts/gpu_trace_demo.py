# A compiled transformer-like block (layer_norm, two products, GELU, softmax, a reduction)
# called five times on cuda tensors: the run whose bundle shows the GPU 0 track of the trace
# (docs/screenshots/gpu-trace.png). Run on a machine with a GPU:
#     fusescope-cli run bench/scripts/gpu_trace_demo.py --bundle gpu_trace_demo.fscope
import torch
import torch.nn.functional as F
@torch.compile
def block(x, w1, w2):
    h = F.gelu(F.layer_norm(x, (x.shape[-1],)) @ w1)
    return torch.softmax(h @ w2, dim=-1).sum(dim=0)
x = torch.randn(4096, 1024, device="cuda")
w1 = torch.randn(1024, 4096, device="cuda") / 32
w2 = torch.randn(4096, 1024, device="cuda") / 64
for step in range(5):
    y = block(x, w1, w2)
print(y.shape, round(y.sum().item()))
