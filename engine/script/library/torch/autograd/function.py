# torch.autograd.Function for Fusescope scripts: a custom forward and backward, as PyTorch
# runs them eagerly (the engine's torch.autograd._custom_function records the backward
# node). ctx.save_for_backward / saved_tensors, needs_input_grad, mark_non_differentiable,
# set_materialize_grads, and forward with a separate setup_context (PyTorch 2's style).
import torch


class FunctionCtx:
    def save_for_backward(self, *tensors):
        for t in tensors:
            if t is not None and not isinstance(t, torch.Tensor):
                raise TypeError("save_for_backward can only save variables, but argument " + str(tensors.index(t))
                                + " is of type " + type(t).__name__)
        self.saved_tensors = tensors

    def save_for_forward(self, *tensors):
        self.saved_for_forward = tensors

    def mark_dirty(self, *tensors):
        self.dirty_tensors = tensors

    def mark_non_differentiable(self, *tensors):
        self.non_differentiable = tensors

    def set_materialize_grads(self, value):
        self.materialize_grads = value


class Function:
    @staticmethod
    def forward(*args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def setup_context(ctx, inputs, output):
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for your custom "
                                  "autograd.Function to use it with backward mode AD.")

    @classmethod
    @torch.autograd._untraced("torch.autograd.Function.apply: Fusescope does not trace custom autograd Functions "
                              "into the graph yet; it runs eagerly")
    def apply(cls, *args, **kwargs):
        ctx = FunctionCtx()
        ctx.saved_tensors = ()
        ctx.non_differentiable = ()
        ctx.materialize_grads = True
        grad = torch.is_grad_enabled()
        ctx.needs_input_grad = tuple(grad and isinstance(a, torch.Tensor) and a.requires_grad for a in args)
        separate_context = cls.setup_context is not Function.setup_context

        def forward():  # what forward returned, and what it said of its outputs
            if separate_context:
                output = cls.forward(*args, **kwargs)
                cls.setup_context(ctx, args, output)
            else:
                output = cls.forward(ctx, *args, **kwargs)
            return output, ctx.non_differentiable, ctx.materialize_grads

        def backward(*grads):
            return cls.backward(ctx, *grads)

        return torch.autograd._custom_function(cls.__name__ + "Backward", args, forward, backward)


def once_differentiable(fn):
    return fn
