# torch.autograd.Function: a custom forward and backward, run eagerly as PyTorch runs them.
import torch
from torch.autograd import Function
from torch.autograd.function import once_differentiable


class MyReLU(Function):
    @staticmethod
    def forward(ctx, input):
        ctx.save_for_backward(input)
        return input.clamp(min=0)

    @staticmethod
    def backward(ctx, grad_output):
        (input,) = ctx.saved_tensors
        grad_input = grad_output.clone()
        grad_input[input < 0] = 0
        return grad_input


x = torch.linspace(-1.0, 1.0, 6, requires_grad=True)
y = MyReLU.apply(x)
print(y)
print(y.grad_fn.name(), y.requires_grad, y.is_leaf)
(y * torch.arange(6.0)).sum().backward()
print(x.grad)


# A non-tensor argument gets None; needs_input_grad says which inputs want a gradient.
class Scale(Function):
    @staticmethod
    def forward(ctx, a, b, factor):
        ctx.factor = factor
        ctx.save_for_backward(a, b)
        print("needs_input_grad", ctx.needs_input_grad)
        return a * b * factor

    @staticmethod
    @once_differentiable
    def backward(ctx, grad):
        a, b = ctx.saved_tensors
        grad_a = grad * b * ctx.factor if ctx.needs_input_grad[0] else None
        grad_b = grad * a * ctx.factor if ctx.needs_input_grad[1] else None
        return grad_a, grad_b, None


a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = torch.tensor([4.0, 5.0, 6.0])
out = Scale.apply(a, b, 0.5)
out.sum().backward()
print(out, a.grad, b.grad)


# forward without ctx and a separate setup_context (PyTorch 2's style); two outputs, one of
# them unused: its gradient arrives as zeros.
class SplitHalves(Function):
    @staticmethod
    def forward(t):
        return t[:2] * 2, t[2:] * 3

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.sizes = inputs[0].shape

    @staticmethod
    def backward(ctx, grad_front, grad_back):
        print("grads", grad_front, grad_back)
        return torch.cat([grad_front * 2, grad_back * 3])


t = torch.arange(4.0, requires_grad=True)
front, back = SplitHalves.apply(t)
front.sum().backward()
print(t.grad, front.grad_fn.name())


# An output marked non-differentiable does not require grad.
class MaxWithIndex(Function):
    @staticmethod
    def forward(ctx, v):
        value, index = v.max(dim=0)
        ctx.mark_non_differentiable(index)
        ctx.save_for_backward(index)
        ctx.length = v.shape[0]
        return value, index

    @staticmethod
    def backward(ctx, grad_value, grad_index):
        (index,) = ctx.saved_tensors
        grad = torch.zeros(ctx.length)
        grad[index] = grad_value
        return grad


v = torch.tensor([0.5, 3.0, -1.0], requires_grad=True)
value, index = MaxWithIndex.apply(v)
print(value.requires_grad, index.requires_grad, index)
(value * 2).backward()
print(v.grad)

# Under no_grad, or with no input requiring grad, nothing is recorded.
with torch.no_grad():
    print(MyReLU.apply(x).grad_fn)
print(MyReLU.apply(torch.tensor([-2.0, 2.0])).requires_grad)


# Errors: a wrong number of gradients, and a second backward without retain_graph.
class TooFew(Function):
    @staticmethod
    def forward(ctx, p, q):
        return p + q

    @staticmethod
    def backward(ctx, grad):
        return grad


try:
    TooFew.apply(torch.ones(2, requires_grad=True), torch.ones(2)).sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
z = MyReLU.apply(x).sum()
z.backward()
try:
    z.backward()
except RuntimeError as e:
    print("RuntimeError:", str(e)[:60])
