# torch.nn's recurrent layers: LSTM, GRU and RNN (several layers, bidirectional, batch_first,
# without bias, relu, unbatched input, a given initial state) and their cells, with PyTorch's
# parameter names, printing, outputs, final states and gradients; a GRU in a compiled function
# (the graph breaks at its call, as Dynamo does not trace RNN modules) and GRU cells traced
# step by step (PyTorch 2.15 printed the .out).
import torch
import torch.nn as nn


def pattern(count, seed):
    return ((torch.arange(count) * 7919 + seed * 104729) % 1009).float() / 1009 - 0.5


def fill(module):
    with torch.no_grad():
        for index, param in enumerate(module.parameters()):
            param.copy_(pattern(param.numel(), index).reshape(param.shape))


x = pattern(5 * 3 * 4, 1).reshape(5, 3, 4)
for layer in [nn.LSTM(4, 6), nn.LSTM(4, 6, num_layers=2, bidirectional=True), nn.GRU(4, 5, batch_first=True),
              nn.RNN(4, 3, num_layers=2, nonlinearity="relu", bias=False), nn.LSTM(4, 2, batch_first=True, bidirectional=True)]:
    fill(layer)
    out, hidden = layer(x)
    hs = hidden if isinstance(hidden, tuple) else (hidden,)
    print(layer, [n for n, _ in layer.named_parameters()][:4], tuple(out.shape), [tuple(h.shape) for h in hs])
    print(round(out.sum().item(), 4), [round(h.sum().item(), 4) for h in hs])
    out.sum().backward()
    print(round(sum(p.grad.abs().sum().item() for p in layer.parameters()), 3))
lstm = nn.LSTM(4, 6)
fill(lstm)
out, (h, c) = lstm(x[:, 0], (torch.ones(1, 6) * 0.1, torch.zeros(1, 6)))
print(tuple(out.shape), tuple(h.shape), round(out.sum().item(), 4))
for cell in [nn.LSTMCell(4, 3), nn.GRUCell(4, 3), nn.RNNCell(4, 3, nonlinearity="relu"), nn.LSTMCell(4, 3, bias=False)]:
    fill(cell)
    state = cell(x[0])
    hs = state if isinstance(state, tuple) else (state,)
    print(cell, [round(h.sum().item(), 4) for h in hs], [round(h.sum().item(), 4) for h in (cell(x[0, 0]) if isinstance(state, tuple) else (cell(x[0, 0]),))])


@torch.compile
def run(module, t):
    return module(t)[0].sum()


gru = nn.GRU(4, 5)
fill(gru)
print(round(run(gru, x).item(), 4))


@torch.compile
def cell_steps(cell, t):
    h = torch.zeros(t.size(1), 3)
    for step in range(t.size(0)):
        h = cell(t[step], h)
    return h.tanh() * 2 + 1


gru_cell = nn.GRUCell(4, 3)
fill(gru_cell)
print(cell_steps(gru_cell, x).detach())
