# Runs jadore801120/attention-is-all-you-need-pytorch's encoder and decoder layers and its
# scheduled optimizer (transformer/ beside this file, verbatim; without the repository's
# transformer/__init__.py, which imports the numpy-using Models.py, so `transformer` is a
# namespace package here). Two encoder and two decoder layers with the masks the repository's
# Models.py builds (padding and subsequent-position masks); every parameter and input is a
# closed formula. Prints eager, aot_eager and inductor outputs and three compiled training
# steps under ScheduledOptim's warm-up learning rate.
import os
import sys

import torch
import torch.nn as nn

from transformer.Layers import DecoderLayer, EncoderLayer
from transformer.Optim import ScheduledOptim

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from driver_support import pattern  # tests/real_models/driver_support.py


def show(label, tensor):
    tensor = tensor.detach()
    print(f"{label}: {tuple(tensor.shape)} sum {tensor.sum().item():.5g} "
          f"abs mean {tensor.abs().mean().item():.5g} first {tensor.flatten()[0].item():.5g}")


class Stack(nn.Module):
    def __init__(self, dropout):
        super().__init__()
        self.enc = nn.ModuleList([EncoderLayer(16, 32, 2, 8, 8, dropout=dropout) for _ in range(2)])
        self.dec = nn.ModuleList([DecoderLayer(16, 32, 2, 8, 8, dropout=dropout) for _ in range(2)])

    def forward(self, src, src_mask, trg, trg_mask):
        for layer in self.enc:
            src, _ = layer(src, slf_attn_mask=src_mask)
        for layer in self.dec:
            trg, slf, enc = layer(trg, src, slf_attn_mask=trg_mask, dec_enc_attn_mask=src_mask)
        return trg, enc


src_seq = torch.tensor([[5, 3, 7, 2, 0, 0], [4, 4, 1, 6, 2, 8]])
src_mask = (src_seq != 0).unsqueeze(-2)
trg_len = 5
trg_mask = (1 - torch.triu(torch.ones((1, trg_len, trg_len)), diagonal=1)).bool()
src = pattern(2 * 6 * 16, 99).reshape(2, 6, 16)
trg = pattern(2 * trg_len * 16, 98).reshape(2, trg_len, 16)

model = Stack(dropout=0.0)
for module in model.modules():  # the attention's own dropout is 0.1 whatever the layers get
    if isinstance(module, nn.Dropout):
        module.p = 0.0
with torch.no_grad():
    for index, param in enumerate(model.parameters()):
        param.copy_(pattern(param.numel(), index).reshape(param.shape))
print(sum(p.numel() for p in model.parameters()), "weights,", len(list(model.modules())), "modules")
for mode in ("train", "eval"):
    model.train(mode == "train")
    for backend, run in [("eager", model), ("aot_eager", torch.compile(model, backend="aot_eager")),
                         ("inductor", torch.compile(model))]:
        out, attn = run(src, src_mask, trg, trg_mask)
        show(f"{mode} {backend} out", out)
        show(f"{mode} {backend} attention", attn)

model.train()
optimizer = ScheduledOptim(torch.optim.SGD(model.parameters(), lr=1.0, momentum=0.9), 2.0, 16, 4)
compiled = torch.compile(model)
target = pattern(2 * trg_len * 16, 5).reshape(2, trg_len, 16)
for step in range(3):
    out, _ = compiled(src, src_mask, trg, trg_mask)
    loss = ((out - target) ** 2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step_and_update_lr()
    print(f"step {step} lr {optimizer._optimizer.param_groups[0]['lr']:.5g} loss {loss.item():.5g}")
show("trained w_qs", model.enc[0].slf_attn.w_qs.weight)
