# A 3-D operand of a matrix product whose two leading dims both vary between calls (the
# compiled graph's sizes are then both symbolic): matmul and nn.Linear on a computed input.
# Once gave garbage silently: the operand's rows were realized with a 2-D layout's index.
import torch

w = (torch.arange(10 * 29).reshape(10, 29) * 0.37).cos()
linear = torch.nn.Linear(10, 29)
with torch.no_grad():
    linear.weight.copy_((torch.arange(29 * 10).reshape(29, 10) * 0.11).sin())
    linear.bias.copy_(torch.arange(29) * 0.01)


def product(x):
    return (x * 2) @ w


def projected(x):
    return linear(x.relu())


compiled_product = torch.compile(product)
compiled_projected = torch.compile(projected)
for shape in [(6, 4, 10), (5, 4, 10), (5, 3, 10), (7, 2, 10)]:
    x = (torch.arange(shape[0] * shape[1] * 10).reshape(shape) * 0.7).sin()
    got, expected = compiled_product(x), product(x)
    print(shape, f"{got.sum().item():.2f}", torch.allclose(got, expected, atol=1e-5))
    got, expected = compiled_projected(x), projected(x)
    print(shape, f"{got.sum().item():.2f}", torch.allclose(got, expected, atol=1e-5))
