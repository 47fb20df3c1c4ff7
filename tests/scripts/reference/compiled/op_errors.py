# An op's error inside compiled code, as PyTorch 2.15 raises it: a try block of the traced
# code catches the fake-tensor run's RuntimeError; one no try block catches ends the compile
# with torch._dynamo.exc.TorchRuntimeError (a RuntimeError), in the graph-break registry's
# words. fullgraph=True's graph break is torch._dynamo.exc.Unsupported.
import torch
import torch._dynamo.exc
import torch.nn.functional as F
from torch._dynamo.exc import TorchRuntimeError, Unsupported

cases = [
    ("reshape", lambda x: x.sin().reshape(-1, 2), (torch.ones(5),)),
    ("view", lambda x: x.cos().view((4, 2)), (torch.ones(2, 3),)),
    ("add", lambda x, y: x + y, (torch.ones(2, 3), torch.ones(4, 3))),
    ("mul", lambda x, y: x.mul(y), (torch.ones(2, 3), torch.ones(3, 2))),
    ("expand", lambda x: x.expand(3, 4), (torch.ones(2, 4),)),
    ("matmul", lambda x, w: x.sin() @ w, (torch.ones(2, 3), torch.ones(4, 5))),
    ("linear", lambda x, w: F.linear(x, w), (torch.ones(2, 3), torch.ones(5, 4))),
]
for name, fn, args in cases:
    try:
        fn(*args)
    except RuntimeError as e:
        print(name, "eager:", e)
    torch._dynamo.reset()
    try:
        torch.compile(fn)(*args)
    except TorchRuntimeError as e:
        print(name, "compiled:", type(e).__name__, isinstance(e, torch._dynamo.exc.TorchDynamoException))
        print(str(e).replace(__file__, "op_errors.py"))  # the file as the command line named it


@torch.compile
def caught(x, y):
    try:
        return x + y
    except RuntimeError:
        return x - 1


print(caught(torch.ones(2), torch.ones(3)))


@torch.compile(fullgraph=True)
def breaks(x):
    print("tracing")
    return x + 1


try:
    breaks(torch.ones(2))
except RuntimeError as e:
    print(type(e).__name__, isinstance(e, Unsupported), [c.__name__ for c in type(e).__mro__])
    print(str(e).replace(__file__, "op_errors.py"))
