# Runs karpathy/makemore's six language models (makemore.py beside this file, verbatim but
# for its tensorboard import) on a few names through its own CharDataset and DataLoader:
# every parameter is a closed formula, so real PyTorch and Fusescope print the same loss
# eagerly and compiled (aot_eager and inductor), over two compiled SGD steps (not makemore's
# AdamW: attention's key bias has a gradient of zero up to rounding, which Adam's first step
# would turn into +-lr) and in greedy generation decoded back to names.
import os
import sys

import torch
from torch.utils.data import DataLoader

from makemore import RNN, BoW, Bigram, CharDataset, MLP, ModelConfig, Transformer, generate

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from driver_support import pattern  # tests/real_models/driver_support.py


words = ["emma", "olivia", "ava", "isabella", "sophia", "mia", "luna", "ella"]
chars = sorted(set("".join(words)))
dataset = CharDataset(words, chars, max(len(w) for w in words))
X, Y = next(iter(DataLoader(dataset, batch_size=len(words))))
print("vocabulary", dataset.get_vocab_size(), "inputs", tuple(X.shape), X[1].tolist(), Y[1].tolist())
config = ModelConfig(vocab_size=dataset.get_vocab_size(), block_size=dataset.get_output_length(), n_layer=2, n_embd=16,
                     n_embd2=16, n_head=2)
builders = {"transformer": lambda: Transformer(config), "bigram": lambda: Bigram(config), "mlp": lambda: MLP(config),
            "rnn": lambda: RNN(config, cell_type="rnn"), "gru": lambda: RNN(config, cell_type="gru"),
            "bow": lambda: BoW(config)}
for name, build in builders.items():
    model = build()
    with torch.no_grad():
        for index, param in enumerate(model.parameters()):
            param.copy_(pattern(param.numel(), index).reshape(param.shape) * 0.5)
    logits, loss = model(X, Y)
    aot_loss = torch.compile(model, backend="aot_eager")(X, Y)[1]
    compiled = torch.compile(model)
    print(f"{name}: {sum(p.numel() for p in model.parameters())} parameters, logits {tuple(logits.shape)} "
          f"loss {loss.item():.5g} aot_eager {aot_loss.item():.5g} inductor {compiled(X, Y)[1].item():.5g}")
    optimizer = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.9)
    for step in range(2):
        _, loss = compiled(X, Y)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
    model.eval()
    samples = generate(model, torch.zeros(2, 1, dtype=torch.long), dataset.get_output_length() - 1)
    print(f"  trained loss {model(X, Y)[1].item():.5g}, greedy:",
          [dataset.decode([i for i in row[1:] if i != 0]) for row in samples.tolist()])
