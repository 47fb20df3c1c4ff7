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
# torch.dropout as F.dropout; p == 0 gives the input itself and p == 1 zeros (nothing drawn).
x.grad = None
d = torch.dropout(x, 0.5, True)
print(d.grad_fn.name(), torch.dropout(x, 0.0, True) is x, F.dropout(x, 0.0) is x)
gone = F.dropout(x, 1.0)
(gone.sum() + torch.dropout(x, 1.0, True).sum()).backward()
print(gone, x.grad)
