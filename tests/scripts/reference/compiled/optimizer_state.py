# A compiled training step with a fresh optimizer: Dynamo runs the optimizer's _init_group itself
# and guards the state it leaves, so the second step recompiles (the first made the state's
# dicts, empty). The step function reads no torch itself: after the break at zero_grad the rest
# runs eagerly and opt.step()'s frames are compiled on their own. Every step must print eager's
# numbers.
import torch

w = torch.nn.Parameter(torch.tensor([1.0, -2.0, 3.0]))
b = torch.nn.Parameter(torch.tensor([0.5]))
sgd = torch.optim.SGD([w, b], lr=0.1, momentum=0.9, foreach=False)


@torch.compile
def sgd_step():
    sgd.zero_grad()
    loss = (w * w).sum() + (b * w).sum()
    loss.backward()
    sgd.step()
    return loss


for i in range(3):
    loss = sgd_step()
    print("sgd", i, round(loss.item(), 4), [round(v, 4) for v in w.tolist()], [round(v, 4) for v in sgd.state[w]["momentum_buffer"].tolist()])
