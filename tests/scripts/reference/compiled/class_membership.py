# Types and classes the compiled code compares: type(t) of a tensor input, `in` over a list of
# classes (each matched by id) and over a list of numbers (each by value).
import torch

classes = [torch.nn.Parameter, torch.Tensor, int]
sizes = [1, 2, 3]
w = torch.nn.Parameter(torch.ones(2))


@torch.compile
def scaled(x, n):
    if type(w) in classes and type(x) in classes and n in sizes:
        return x * w * n
    return x - n


with torch.no_grad():
    print(scaled(torch.ones(2), 2), scaled(torch.full((2,), 3.0), 2))
