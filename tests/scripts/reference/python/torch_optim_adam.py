# Adam and AdamW written as PyTorch's adam.py: state made by _init_group, the single-tensor
# step (lerp_, addcmul_, addcdiv_), amsgrad, maximize, weight decay coupled and decoupled.
import torch

m = torch.nn.Linear(4, 3)
with torch.no_grad():
    m.weight.copy_(torch.arange(12.0).reshape(3, 4) / 7 - 0.8)
    m.bias.copy_(torch.tensor([0.1, -0.2, 0.3]))
for name, opt in [("adam", torch.optim.Adam(m.parameters(), lr=0.01)),
                  ("adamw", torch.optim.AdamW(m.parameters(), lr=0.01, weight_decay=0.1)),
                  ("amsgrad", torch.optim.Adam(m.parameters(), lr=0.01, amsgrad=True, maximize=True, weight_decay=0.05))]:
    for i in range(3):
        opt.zero_grad()
        loss = (m(torch.ones(2, 4) * (i + 1)) ** 2).sum()
        loss.backward()
        opt.step()
    print(name, [round(v, 6) for v in m.weight.flatten().tolist()], sorted(opt.state[m.weight].keys()), opt.state[m.weight]["step"])
print(torch.optim.AdamW([torch.zeros(1, requires_grad=True)], lr=0.5))
for bad in [dict(lr=-1.0), dict(betas=(1.0, 0.9)), dict(eps=-1e-3), dict(weight_decay=-1), dict(betas=(0.9, torch.tensor(0.99)))]:
    try:
        torch.optim.Adam([torch.zeros(1, requires_grad=True)], **bad)
    except ValueError as e:
        print("ValueError:", e)
