# A compiled module is a module whose one child is the model: it prints as OptimizedModule,
# and the names it lists (a checkpoint's keys) start with "_orig_mod.".
import torch
m = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.LayerNorm(3))
m.register_buffer("steps", torch.zeros(1))
c = torch.compile(m)
print(c)
print(list(c.state_dict().keys()))
print([n for n, _ in c.named_parameters()], [n for n, _ in c.named_buffers()])
print([n for n, _ in c.named_parameters(prefix="net")], list(c.state_dict(prefix="top.").keys())[:2])
print(len(list(c.parameters())), c._orig_mod[0] is m[0], type(c).__name__)
m.load_state_dict({k.removeprefix("_orig_mod."): v for k, v in c.state_dict().items()})
print(torch.allclose(c(torch.ones(4, 2)), m(torch.ones(4, 2))))
print("loaded")
