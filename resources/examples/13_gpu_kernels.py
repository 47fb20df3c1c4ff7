# GPU kernels without a GPU: on a machine with CUDA this runs on the GPU; with
# `fusescope-cli run 13_gpu_kernels.py --gpu-codegen-only` (or the workbench's Device
# "cuda (GPU code only)") the cuda tensors run on the CPU while every CUDA kernel the
# compiled function would launch is generated and compiled to PTX (see output_code.cu and
# output_code.ptx with --debug-dir).
import torch
import torch.nn.functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"


@torch.compile
def attention_scores(q, k, scale):
    scores = F.softmax(q @ k.transpose(0, 1) * scale, dim=-1)
    return F.gelu(F.layer_norm(scores, (scores.shape[-1],)))


q = torch.linspace(-1.0, 1.0, 64, device=device).view(8, 8)
k = torch.linspace(1.0, -1.0, 64, device=device).view(8, 8)
out = attention_scores(q, k, 0.5)
print(out.shape, out.device.type == device)
print(round(out.sum().item(), 4))
print(out[0, :4].cpu())
