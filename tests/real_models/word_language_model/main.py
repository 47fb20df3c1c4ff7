# Runs pytorch/examples' word language model (word_language_model/model.py beside this file,
# verbatim): the LSTM and GRU RNNModel (tied weights) and the TransformerModel, a subclass of
# nn.Transformer that swaps its decoder for a Linear and masks causally with log(tril(1)).
# Every parameter and input is a closed formula, so real PyTorch and Fusescope print the same
# eagerly, compiled (aot_eager and inductor), over three compiled SGD steps with truncated
# backpropagation through time (repackaged hidden states, clipped gradients, as its main.py
# trains), and in greedy generation (as its generate.py does).
import os
import sys

import torch
import torch.nn.functional as F

import model as word_models

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from driver_support import pattern  # tests/real_models/driver_support.py


def fill(module):
    with torch.no_grad():
        for index, param in enumerate(module.parameters()):
            param.copy_(pattern(param.numel(), index).reshape(param.shape))


def repackage_hidden(h):
    return h.detach() if isinstance(h, torch.Tensor) else tuple(repackage_hidden(v) for v in h)


def summary(name, output):
    print(f"{name}: {tuple(output.shape)} sum {output.sum().item():.5g} first {output.flatten()[0].item():.5g}")


ntokens = 29
data = (torch.arange(6 * 4).reshape(6, 4) * 13 + 5) % ntokens
targets = ((torch.arange(6 * 4) * 13 + 18) % ntokens)

for rnn_type in ("LSTM", "GRU"):
    rnn = word_models.RNNModel(rnn_type, ntokens, 10, 10, 2, dropout=0.0, tie_weights=True)
    fill(rnn)
    print(rnn)
    print("tied:", rnn.decoder.weight is rnn.encoder.weight, len(list(rnn.parameters())))
    for name, run in [("eager", rnn), ("aot_eager", torch.compile(rnn, backend="aot_eager")), ("inductor", torch.compile(rnn))]:
        output, hidden = run(data, rnn.init_hidden(4))
        summary(f"{rnn_type} {name}", output)
    hidden = rnn.init_hidden(4)
    compiled = torch.compile(rnn)
    for step in range(3):
        hidden = repackage_hidden(hidden)
        rnn.zero_grad()
        output, hidden = compiled(data, hidden)
        loss = F.nll_loss(output, targets)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(rnn.parameters(), 0.25)
        for p in rnn.parameters():
            p.data.add_(p.grad, alpha=-0.5)
        print(f"{rnn_type} step {step} loss {loss.item():.5g}")

transformer = word_models.TransformerModel(ntokens, 8, 2, 16, 2, dropout=0.0)
for module in transformer.modules():  # the layers nn.Transformer made with its default dropout, 0.1
    if isinstance(module, torch.nn.Dropout):
        module.p = 0.0
    if isinstance(module, torch.nn.MultiheadAttention):
        module.dropout = 0.0
fill(transformer)
print(transformer)
for name, run in [("eager", transformer), ("aot_eager", torch.compile(transformer, backend="aot_eager")),
                  ("inductor", torch.compile(transformer))]:
    summary(f"Transformer {name}", run(data))
summary("Transformer unmasked", transformer(data, has_mask=False))
optimizer = torch.optim.SGD(transformer.parameters(), lr=0.1)
compiled = torch.compile(transformer)
for step in range(3):
    optimizer.zero_grad()
    loss = F.nll_loss(compiled(data).view(-1, ntokens), targets)
    loss.backward()
    optimizer.step()
    print(f"Transformer step {step} loss {loss.item():.5g}")

transformer.eval()
words = torch.tensor([[3]])
with torch.no_grad():
    for _ in range(6):
        output = transformer(words, False)
        word = output[-1].squeeze().argmax()
        words = torch.cat([words, word.view(1, 1)], 0)
print("generated:", words.flatten().tolist())
