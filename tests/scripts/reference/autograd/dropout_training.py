# Dropout in training where a gradient flows: the kept elements' gradient is the scale, the dropped
# ones' zero; the same draws with or without grad; the input itself when not training.
import torch
import torch.nn.functional as F
torch.manual_seed(3)
x = torch.linspace(-1.0, 1.0, 12).reshape(3, 4).requires_grad_()
y = F.dropout(x, 0.5)
print(y.grad_fn.name())
y.sum().backward()
print(torch.equal(x.grad, (y != 0).float() * 2.0))
torch.manual_seed(3)
with torch.no_grad():
    z = F.dropout(x, 0.5)
print(torch.equal(z, y.detach()))
print(F.dropout(x, 0.5, training=False) is x)
m = torch.nn.Dropout(0.25)
out = m(x * 1)
out.sum().backward()
print(out.grad_fn.name())
m.eval()
print(m(x) is x)
