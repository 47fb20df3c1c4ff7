# Runs pytorch/examples' translation model (language_translation/src/model.py beside this
# file, verbatim): token embeddings with a sinusoidal positional encoding into nn.Transformer,
# with the masks its data.py makes (a causal target mask, padding masks from a pad token) and
# the greedy decoding of its main.py. Every parameter and input is a closed formula, so real
# PyTorch and Fusescope print the same eagerly, compiled (aot_eager and inductor), over three
# compiled SGD steps (cross entropy ignoring the pad token) and in decoding.
import os
import sys

import torch

from model import Translator

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from driver_support import pattern  # tests/real_models/driver_support.py

PAD, BOS, EOS = 1, 2, 3


def square_subsequent_mask(size):  # as language_translation/src/data.py makes it
    mask = (torch.triu(torch.ones((size, size))) == 1).transpose(0, 1)
    return mask.float().masked_fill(mask == 0, float("-inf")).masked_fill(mask == 1, float(0.0))


def masks(src, tgt):  # data.py's create_mask
    src_mask = torch.zeros((src.shape[0], src.shape[0])).type(torch.bool)
    return src_mask, square_subsequent_mask(tgt.shape[0]), (src == PAD).transpose(0, 1), (tgt == PAD).transpose(0, 1)


model = Translator(num_encoder_layers=2, num_decoder_layers=2, embed_size=16, num_heads=4, src_vocab_size=23,
                   tgt_vocab_size=19, dim_feedforward=24, dropout=0.0)
with torch.no_grad():
    for index, param in enumerate(model.parameters()):
        param.copy_(pattern(param.numel(), index).reshape(param.shape))
print(model.transformer.decoder.layers[0])
print(sum(p.numel() for p in model.parameters()), "weights")

src = (torch.arange(7 * 3).reshape(7, 3) * 5 + 4) % 23
src[5:, 1] = PAD  # the second sentence is shorter
src[0] = BOS
tgt = (torch.arange(6 * 3).reshape(6, 3) * 7 + 4) % 19
tgt[0] = BOS
tgt[4:, 2] = PAD
tgt_input, tgt_output = tgt[:-1], tgt[1:]
src_mask, tgt_mask, src_padding, tgt_padding = masks(src, tgt_input)
for name, run in [("eager", model), ("aot_eager", torch.compile(model, backend="aot_eager")), ("inductor", torch.compile(model))]:
    logits = run(src, tgt_input, src_mask, tgt_mask, src_padding, tgt_padding, src_padding)
    print(f"{name}: {tuple(logits.shape)} sum {logits.sum().item():.5g} first {logits.flatten()[0].item():.5g}")

loss_fn = torch.nn.CrossEntropyLoss(ignore_index=PAD)
optimizer = torch.optim.SGD(model.parameters(), lr=0.2)
compiled = torch.compile(model)
for step in range(3):
    logits = compiled(src, tgt_input, src_mask, tgt_mask, src_padding, tgt_padding, src_padding)
    loss = loss_fn(logits.reshape(-1, logits.shape[-1]), tgt_output.reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.5g}")

model.eval()
sentence = src[:, :1]
with torch.no_grad():  # main.py's greedy_decode
    memory = model.encode(sentence, torch.zeros(7, 7).type(torch.bool))
    ys = torch.ones(1, 1).fill_(BOS).type(torch.long)
    for _ in range(6):
        out = model.decode(ys, memory, square_subsequent_mask(ys.size(0)).type(torch.bool))
        prob = model.ff(out.transpose(0, 1)[:, -1])
        _, next_word = torch.max(prob, dim=1)
        next_word = next_word.item()
        ys = torch.cat([ys, torch.ones(1, 1).type_as(sentence.data).fill_(next_word)], dim=0)
        if next_word == EOS:
            break
print("decoded:", ys.flatten().tolist())
