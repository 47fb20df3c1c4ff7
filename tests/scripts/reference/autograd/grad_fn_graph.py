# tensor.grad_fn: each node's name(), its next_functions down to the leaves' AccumulateGrad
# nodes and their variable; printed nodes show an address, so names are printed instead.
import torch

x = torch.tensor([1.0, 2.0], requires_grad=True)
w = torch.tensor([3.0, 4.0], requires_grad=True)
y = (x * 2 + w).exp().sum()
print(x.grad_fn, type(y.grad_fn).__name__, y.grad_fn.name())
node = y.grad_fn
while node is not None:
    print(node.name(), [(None if f is None else f.name(), n) for f, n in node.next_functions])
    nexts = [f for f, n in node.next_functions if f is not None]
    node = nexts[0] if nexts else None
acc = (x * 2).grad_fn.next_functions[0][0]
print(acc.name(), acc.variable is x, torch.equal(acc.variable, x))
print(torch.cat([x, w]).grad_fn.next_functions[1][0].name())
