# Runs karpathy/minGPT's GPT (mingpt/ beside this file: a package whose utils.py imports json,
# random and ast.literal_eval; verbatim but for its numpy import) as its README does: the
# CfgNode config (printed, overridden from command-line style arguments, dumped to JSON),
# a "gpt-nano" model, its AdamW parameter groups and greedy and top-k generation. Every
# parameter is a closed formula; the prompt tokens come from Python's own random.
import os
import sys
import json
import random

import torch

from mingpt.model import GPT
from mingpt.utils import CfgNode as CN

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from driver_support import pattern, show  # tests/real_models/driver_support.py


config = GPT.get_default_config()
config.model_type = "gpt-nano"
config.vocab_size = 30
config.block_size = 8
config.merge_from_args(["--embd_pdrop=0.0", "--resid_pdrop=0.0", "--attn_pdrop=0.0"])
print(config)
print(json.dumps(config.to_dict(), indent=4))
model = GPT(config)
with torch.no_grad():
    for index, param in enumerate(model.parameters()):
        param.copy_(pattern(param.numel(), index).reshape(param.shape) * 0.5)
random.seed(1234)
tokens = torch.tensor([[random.randrange(30) for _ in range(8)] for _ in range(2)])
targets = (tokens * 3 + 2) % 30
print("tokens", tokens.tolist())
model.eval()
for backend, run in [("eager", model), ("aot_eager", torch.compile(model, backend="aot_eager")),
                     ("inductor", torch.compile(model))]:
    logits, loss = run(tokens, targets)
    show(f"{backend} logits", logits)
    print(f"{backend} loss {loss.item():.5g}")
print("greedy", model.generate(tokens[:, :3], max_new_tokens=6).tolist())
print("top-5 greedy", model.generate(tokens[:, :3], max_new_tokens=6, top_k=5).tolist())
train_config = CN(weight_decay=0.1, learning_rate=1e-2, betas=(0.9, 0.95))
optimizer = model.configure_optimizers(train_config)
print(type(optimizer).__name__, [len(group["params"]) for group in optimizer.param_groups],
      [group["weight_decay"] for group in optimizer.param_groups])
model.train()
compiled = torch.compile(model)
for step in range(3):
    logits, loss = compiled(tokens, targets)
    model.zero_grad(set_to_none=True)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    print(f"step {step} loss {loss.item():.5g}")
show("trained token embedding", model.transformer.wte.weight)
