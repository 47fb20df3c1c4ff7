# torch._dynamo.optimize with guard_fail_fn: the function receives each failure.
import torch

failures = []


def on_guard_fail(failure):
    failures.append(failure[0])


def f(x):
    return torch.relu(x)


opt_f = torch._dynamo.optimize(backend="eager", guard_fail_fn=on_guard_fail, dynamic=False)(f)
for i in range(4):
    failures.clear()
    opt_f(torch.ones(8 + i))
print("\n".join(failures))
