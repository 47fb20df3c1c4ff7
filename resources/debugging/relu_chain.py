# A 30-node graph (two inputs, 28 ops) with one relu, compiled by a backend that refuses
# relu: `fusescope-cli minify resources/debugging/relu_chain.py` shrinks it to the relu
# alone and writes repro.py (docs/debugging.md). tests/engine/minifier_test.cpp swaps in the
# other injectors.
import torch

def chain(x, w):
    a = x * 2
    b = a + w
    c = b.sin()
    d = c * c
    e = d - 1.5
    f = e.cos()
    g = f + a
    h = g * 0.5
    i = h.exp()
    j = i / 3.0
    k = j + b
    l = k.tanh()
    m = l * w
    n = m - c
    o = torch.relu(n)
    p = o + 1
    q = p * d
    r = q.sigmoid()
    s = r + e
    t = s * 2
    u = t.abs()
    v = u + f
    y = v.sqrt()
    z = y * g
    aa = z + h
    bb = aa - i
    cc = bb * 3
    return cc.sum(), cc

compiled = torch.compile(chain, backend="relu_compile_error_TESTING_ONLY")
x = torch.linspace(-2.0, 2.0, 8)
w = torch.full((8,), 0.25)
print(compiled(x, w)[0])
