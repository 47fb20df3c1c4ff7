# Runs karpathy/llama2.c's Llama-style Transformer (model.py beside this file, verbatim but
# for its unused numpy import): RMSNorm, rotary embeddings in real arithmetic, grouped-query
# attention (repeat_kv), SwiGLU feed-forward, weight tying. Every parameter and input is a
# closed formula, so real PyTorch and Fusescope print the same rounded statistics eagerly,
# compiled (aot_eager and inductor), over three compiled SGD steps (the model's own AdamW would
# turn rounding-sized gradients into +-lr steps) and in greedy decoding (temperature 0).
import os
import sys

import torch

from model import ModelArgs, Transformer

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from driver_support import pattern  # tests/real_models/driver_support.py


def show(label, tensor):
    tensor = tensor.detach()
    print(f"{label}: shape {tuple(tensor.shape)} sum {tensor.sum().item():.5g} "
          f"abs mean {tensor.abs().mean().item():.5g} first {tensor.flatten()[0].item():.5g}")


args = ModelArgs(dim=32, n_layers=2, n_heads=4, n_kv_heads=2, vocab_size=48, multiple_of=16, max_seq_len=16)
model = Transformer(args)
with torch.no_grad():
    for index, param in enumerate(model.parameters()):
        param.copy_(pattern(param.numel(), index).reshape(param.shape) * 0.3)
print(model.layers[0].feed_forward.w1, model.layers[0].attention.n_rep, sum(p.numel() for p in model.parameters()))
tokens = (torch.arange(20).reshape(2, 10) * 7 + 1) % args.vocab_size
targets = (tokens * 3 + 2) % args.vocab_size

show("eager logits", model(tokens, targets))
print(f"eager loss {model.last_loss.item():.5g}")
show("eager last-position logits", model(tokens))
for backend in ("aot_eager", "inductor"):
    compiled = torch.compile(model, backend=backend)
    show(f"{backend} logits", compiled(tokens, targets))
    print(f"{backend} loss {model.last_loss.item():.5g}")

model.configure_optimizers(weight_decay=0.1, learning_rate=1e-3, betas=(0.9, 0.95), device_type="cpu")
optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
compiled = torch.compile(model)
for step in range(3):
    compiled(tokens, targets)
    loss = model.last_loss
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.5g}")
show("trained output", model.output.weight)
print("greedy decoding:", model.generate(tokens[:, :3], max_new_tokens=6, temperature=0.0).tolist())
