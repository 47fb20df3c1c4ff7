# torch.optim for Fusescope scripts: optimizers over parameters' .grad, written as PyTorch's
# single-tensor ("for-loop") implementations are, so a step computes what PyTorch's computes
# (lerp_, addcmul_ and addcdiv_ spelled with the ops they stand for).
import math

import torch


def _profiled(kind):
    """As PyTorch's optimizers: each call is an "Optimizer.step#SGD.step" (or zero_grad) span
    in the profiler's trace, so a timeline shows where each step's update runs."""
    def decorate(method):
        def run(self, *args, **kwargs):
            with torch.profiler.record_function(f"Optimizer.{kind}#{type(self).__name__}.{kind}"):
                return method(self, *args, **kwargs)
        run.__name__, run.__qualname__ = method.__name__, method.__qualname__
        return run
    return decorate


class Optimizer:
    def __init__(self, params, defaults):
        self.defaults = defaults
        self.state = {}  # per parameter
        self.param_groups = []
        if isinstance(params, torch.Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of Tensors or dicts, but got "
                            "torch.FloatTensor")
        groups = list(params)
        if len(groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    def add_param_group(self, param_group):
        group = dict(param_group)
        params = group["params"]
        group["params"] = [params] if isinstance(params, torch.Tensor) else list(params)
        for name, default in self.defaults.items():
            group.setdefault(name, default)
        self.param_groups.append(group)

    @torch._disable_dynamo
    @_profiled("zero_grad")
    def zero_grad(self, set_to_none=True):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is not None:
                    if set_to_none:
                        p.grad = None
                    else:
                        p.grad.zero_()

    def _closure_loss(self, closure):
        # step(closure): the closure recomputes the loss, with grad on, before the update.
        if closure is None:
            return None
        with torch.enable_grad():
            return closure()

    def _state(self, p):
        if p not in self.state:  # keyed by the parameter itself, as PyTorch's
            self.state[p] = {}
        return self.state[p]

    def state_dict(self):
        """As PyTorch's: each parameter named by its index over all the groups, in order."""
        index = {}
        groups = []
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            packed["params"] = [index.setdefault(id(p), len(index)) for p in group["params"]]
            groups.append(packed)
        return {"state": {index[id(p)]: state for p, state in self.state.items()}, "param_groups": groups}

    def load_state_dict(self, state_dict):
        """As PyTorch's: the saved state of each parameter index goes to this optimizer's parameter at
        that index (its tensors cast to the parameter's dtype, all but "step"); the saved
        hyperparameters replace each group's."""
        saved_groups = state_dict["param_groups"]
        if len(self.param_groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        for group, saved in zip(self.param_groups, saved_groups):
            if len(group["params"]) != len(saved["params"]):
                raise ValueError("loaded state dict contains a parameter group that doesn't match the size of optimizer's group")
        params = {index: p for group, saved in zip(self.param_groups, saved_groups) for index, p in zip(saved["params"], group["params"])}
        self.state = {}
        for index, state in state_dict["state"].items():
            if index in params:
                p = params[index]
                self.state[p] = {key: value.to(dtype=p.dtype) if isinstance(value, torch.Tensor) and key != "step" and p.is_floating_point()
                                 else value.clone() if isinstance(value, torch.Tensor) else value
                                 for key, value in state.items()}
        groups = []
        for group, saved in zip(self.param_groups, saved_groups):
            new_group = dict(saved)
            new_group["params"] = group["params"]
            groups.append(new_group)
        self.param_groups = groups

    def __repr__(self):
        text = self.__class__.__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += "\nParameter Group " + str(i)
            for key in sorted(group.keys()):
                if key != "params":
                    text += "\n    " + key + ": " + str(group[key])
        return text + "\n)"


class SGD(Optimizer):
    def __init__(self, params, lr=0.001, momentum=0, dampening=0, weight_decay=0, nesterov=False, *, maximize=False,
                 foreach=None, differentiable=False, fused=None):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay,
                                      nesterov=nesterov, maximize=maximize, foreach=foreach,
                                      differentiable=differentiable, fused=fused))

    @_profiled("step")
    def step(self, closure=None):
        loss = self._closure_loss(closure)
        with torch.no_grad():
            for group in self.param_groups:
                lr, momentum, dampening = group["lr"], group["momentum"], group["dampening"]
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    grad = p.grad if not group["maximize"] else -p.grad
                    if group["weight_decay"] != 0:
                        grad = grad.add(p, alpha=group["weight_decay"])
                    if momentum != 0:
                        state = self._state(p)
                        buf = state.get("momentum_buffer")
                        if buf is None:
                            buf = torch.clone(grad).detach()
                            state["momentum_buffer"] = buf
                        else:
                            buf.mul_(momentum).add_(grad, alpha=1 - dampening)
                        grad = grad.add(buf, alpha=momentum) if group["nesterov"] else buf
                    p.add_(grad, alpha=-lr)
        return loss


class Adam(Optimizer):
    def __init__(self, params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0, amsgrad=False, *,
                 foreach=None, maximize=False, capturable=False, differentiable=False, fused=None,
                 decoupled_weight_decay=False):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if eps < 0.0:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad,
                                      maximize=maximize, foreach=foreach, capturable=capturable,
                                      differentiable=differentiable, fused=fused,
                                      decoupled_weight_decay=decoupled_weight_decay))

    @_profiled("step")
    def step(self, closure=None):
        loss = self._closure_loss(closure)
        with torch.no_grad():
            for group in self.param_groups:
                lr, eps, weight_decay = group["lr"], group["eps"], group["weight_decay"]
                beta1, beta2 = group["betas"]
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    grad = p.grad if not group["maximize"] else -p.grad
                    state = self._state(p)
                    if len(state) == 0:
                        state["step"] = torch.tensor(0.0)  # a tensor, as PyTorch's
                        state["exp_avg"] = torch.zeros_like(p)
                        state["exp_avg_sq"] = torch.zeros_like(p)
                        if group["amsgrad"]:
                            state["max_exp_avg_sq"] = torch.zeros_like(p)
                    state["step"] += 1
                    # Traced, the count stays a tensor: a compiled step reads it rather than
                    # baking each step's value into a new graph (PyTorch's _get_value).
                    step = state["step"] if torch.compiler.is_compiling() else state["step"].item()
                    if weight_decay != 0:
                        if group["decoupled_weight_decay"]:
                            p.mul_(1 - lr * weight_decay)
                        else:
                            grad = grad.add(p, alpha=weight_decay)
                    exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
                    exp_avg.add_((grad - exp_avg) * (1 - beta1))  # lerp_(grad, 1 - beta1)
                    exp_avg_sq.mul_(beta2).add_(grad * grad, alpha=1 - beta2)  # addcmul_
                    bias_correction1 = 1 - beta1 ** step
                    bias_correction2 = 1 - beta2 ** step
                    step_size = lr / bias_correction1
                    bias_correction2_sqrt = bias_correction2 ** 0.5
                    if group["amsgrad"]:
                        state["max_exp_avg_sq"] = torch.maximum(state["max_exp_avg_sq"], exp_avg_sq)
                        denom = (state["max_exp_avg_sq"].sqrt() / bias_correction2_sqrt).add_(eps)
                    else:
                        denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
                    if isinstance(step_size, torch.Tensor):
                        p.add_(exp_avg / denom * -step_size)
                    else:
                        p.add_(exp_avg / denom, alpha=-step_size)  # addcdiv_
        return loss


class Adadelta(Optimizer):
    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-06, weight_decay=0, foreach=None, *, capturable=False,
                 maximize=False, differentiable=False):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        super().__init__(params, dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize,
                                      capturable=capturable, foreach=foreach, differentiable=differentiable))

    @_profiled("step")
    def step(self, closure=None):
        loss = self._closure_loss(closure)
        with torch.no_grad():
            for group in self.param_groups:
                lr, rho, eps = group["lr"], group["rho"], group["eps"]
                for p in [p for p in group["params"] if p.grad is not None]:
                    grad = -p.grad if group["maximize"] else p.grad
                    if group["weight_decay"] != 0:
                        grad = grad.add(p, alpha=group["weight_decay"])
                    state = self._state(p)
                    if len(state) == 0:
                        state["step"] = torch.tensor(0.0)
                        state["square_avg"] = torch.zeros_like(p)
                        state["acc_delta"] = torch.zeros_like(p)
                    state["step"] += 1
                    square_avg, acc_delta = state["square_avg"], state["acc_delta"]
                    square_avg.mul_(rho).add_(grad * grad, alpha=1 - rho)  # addcmul_
                    delta = (acc_delta + eps).sqrt() / (square_avg + eps).sqrt() * grad
                    acc_delta.mul_(rho).add_(delta * delta, alpha=1 - rho)
                    p.add_(delta, alpha=-lr)
        return loss


class LBFGS(Optimizer):
    """L-BFGS over all parameters as one flat vector, as PyTorch's: each step(closure) runs up
    to max_iter iterations, each a two-loop recursion over the last history_size (s, y) pairs
    and a fixed step of lr (the first scaled by the gradient's size); strong Wolfe line
    search is not there yet."""

    def __init__(self, params, lr=1, max_iter=20, max_eval=None, tolerance_grad=1e-7, tolerance_change=1e-9,
                 history_size=100, line_search_fn=None):
        if isinstance(lr, torch.Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if max_eval is None:
            max_eval = max_iter * 5 // 4
        if line_search_fn is not None:
            raise NotImplementedError(f"LBFGS(line_search_fn={line_search_fn!r}) is not supported by Fusescope yet; "
                                      "line_search_fn=None is")
        super().__init__(params, dict(lr=lr, max_iter=max_iter, max_eval=max_eval, tolerance_grad=tolerance_grad,
                                      tolerance_change=tolerance_change, history_size=history_size,
                                      line_search_fn=line_search_fn, maximize=False))
        if len(self.param_groups) != 1:
            raise ValueError("LBFGS doesn't support per-parameter options (parameter groups)")
        self._params = self.param_groups[0]["params"]

    def _gather_flat_grad(self):
        views = [p.new_zeros(p.numel()) if p.grad is None else p.grad.reshape(-1) for p in self._params]
        return torch.cat(views, 0)

    def _add_grad(self, step_size, update):
        offset = 0
        for p in self._params:
            numel = p.numel()
            p.add_(update[offset:offset + numel].view_as(p), alpha=step_size)
            offset += numel

    @_profiled("step")
    def step(self, closure):
        if closure is None:
            raise RuntimeError("LBFGS requires a closure")
        with torch.no_grad():
            return self._step(closure)

    def _step(self, closure):
        group = self.param_groups[0]
        lr, max_iter, max_eval = group["lr"], group["max_iter"], group["max_eval"]
        tolerance_grad, tolerance_change, history_size = group["tolerance_grad"], group["tolerance_change"], group["history_size"]
        state = self._state(self._params[0])
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)
        orig_loss = self._closure_loss(closure)
        loss = float(orig_loss)
        current_evals = 1
        state["func_evals"] += 1
        flat_grad = self._gather_flat_grad()
        if flat_grad.abs().max() <= tolerance_grad:
            return orig_loss
        d, t = state.get("d"), state.get("t")
        old_dirs, old_stps, ro, H_diag = state.get("old_dirs"), state.get("old_stps"), state.get("ro"), state.get("H_diag")
        prev_flat_grad, prev_loss = state.get("prev_flat_grad"), state.get("prev_loss")
        n_iter = 0
        while n_iter < max_iter:
            n_iter += 1
            state["n_iter"] += 1
            if state["n_iter"] == 1:
                d = flat_grad.neg()
                old_dirs, old_stps, ro = [], [], []
                H_diag = 1
            else:
                y = flat_grad.sub(prev_flat_grad)
                s = d.mul(t)
                ys = y.dot(s)
                if ys > 1e-10:  # the pair keeps the approximation positive definite
                    if len(old_dirs) == history_size:
                        old_dirs.pop(0)
                        old_stps.pop(0)
                        ro.pop(0)
                    old_dirs.append(y)
                    old_stps.append(s)
                    ro.append(1.0 / ys)
                    H_diag = ys / y.dot(y)
                al = [None] * len(old_dirs)
                q = flat_grad.neg()
                for i in range(len(old_dirs) - 1, -1, -1):
                    al[i] = old_stps[i].dot(q) * ro[i]
                    q.add_(old_dirs[i], alpha=-al[i])
                d = r = torch.mul(q, H_diag)
                for i in range(len(old_dirs)):
                    be_i = old_dirs[i].dot(r) * ro[i]
                    r.add_(old_stps[i], alpha=al[i] - be_i)
            prev_flat_grad = flat_grad.clone()
            prev_loss = loss
            t = min(1.0, 1.0 / flat_grad.abs().sum()) * lr if state["n_iter"] == 1 else lr
            if flat_grad.dot(d) > -tolerance_change:  # not a descent direction
                break
            self._add_grad(t, d)
            evals = 0
            if n_iter != max_iter:
                loss = float(self._closure_loss(closure))
                flat_grad = self._gather_flat_grad()
                evals = 1
            current_evals += evals
            state["func_evals"] += evals
            if n_iter == max_iter or current_evals >= max_eval:
                break
            if flat_grad.abs().max() <= tolerance_grad:
                break
            if d.mul(t).abs().max() <= tolerance_change or abs(loss - prev_loss) < tolerance_change:
                break
        state.update(d=d, t=t, old_dirs=old_dirs, old_stps=old_stps, ro=ro, H_diag=H_diag, prev_flat_grad=prev_flat_grad,
                     prev_loss=prev_loss)
        return orig_loss


class AdamW(Adam):
    def __init__(self, params, lr=0.001, betas=(0.9, 0.999), eps=1e-08, weight_decay=0.01, amsgrad=False, *,
                 maximize=False, foreach=None, capturable=False, differentiable=False, fused=None):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach, maximize=maximize,
                         capturable=capturable, differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)
