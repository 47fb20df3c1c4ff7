# torch.load of checkpoints PyTorch 2.15 wrote (tests/checkpoints/make_fixtures.py) into a
# model, and torch.save / torch.load round trips through a temporary directory: a state
# dict, tensors of each dtype, views sharing a storage, Parameters, numbers, strings,
# bytes, torch.Size, a device, nested containers, an optimizer's state. The same state dict
# saved by the safetensors package, loaded; safetensors' bytes as the package writes them.
import os
import sys
import tempfile

import torch
from safetensors.torch import load, load_file, save, save_file

checkpoints = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "checkpoints")
sys.path.insert(0, checkpoints)
from net import Net  # noqa: E402

state = torch.load(os.path.join(checkpoints, "pytorch_net.pt"))
print(type(state).__name__, len(state))
for name, t in state.items():
    print(name, t.dtype, tuple(t.shape), t.stride(), t.requires_grad, round(t.sum().item(), 4))
net = Net()
print(net.load_state_dict(state))
net.eval()
idx = torch.tensor([0, 3, 4, 1])
print(net(idx))

misc = torch.load(os.path.join(checkpoints, "pytorch_misc.pt"), map_location="cpu", weights_only=True)
for key, value in misc.items():
    print(key, "->", value)
print(type(misc["param"]).__name__, misc["param"].requires_grad, misc["frozen"].requires_grad, misc["base"].requires_grad)
print(misc["view"].stride(), misc["view"].storage_offset(), misc["view"].dtype)
misc["base"].add_(1)  # the view shares its storage, as saved
print(misc["view"])

with tempfile.TemporaryDirectory() as folder:
    path = os.path.join(folder, "roundtrip.pt")
    torch.save({"state": net.state_dict(), "misc": misc, "same": [misc["base"], misc["base"]]}, path)
    again = torch.load(path)
    print(sorted(again.keys()), list(again["state"].keys()) == list(state.keys()))
    print(all(torch.equal(again["state"][k], net.state_dict()[k]) for k in state))
    print(again["misc"]["view"], again["misc"]["ids"], again["misc"]["blob"], again["misc"]["shape"])
    print(again["same"][0] is again["same"][1])
    again["misc"]["base"].mul_(0)
    print(again["misc"]["view"])

    optimizer = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
    net.train()
    net(idx).pow(2).sum().backward()
    optimizer.step()
    torch.save(optimizer.state_dict(), os.path.join(folder, "optimizer.pt"))
    saved = torch.load(os.path.join(folder, "optimizer.pt"))
    print(sorted(saved["state"].keys()), saved["param_groups"][0]["lr"], saved["param_groups"][0]["params"])
    print(saved["state"][1]["momentum_buffer"])
    resumed = torch.optim.SGD(Net().parameters(), lr=0.5)
    resumed.load_state_dict(saved)
    print(resumed)
    print(torch.equal(resumed.state_dict()["state"][1]["momentum_buffer"], saved["state"][1]["momentum_buffer"]))
    print(os.path.exists(path))
print(os.path.exists(path))

tensors = load_file(os.path.join(checkpoints, "pytorch_net.safetensors"))
print(list(tensors.keys()))
again_net = Net()
print(again_net.load_state_dict(tensors))
again_net.eval()
print(again_net(idx))
blob = save({"w": torch.arange(4.0), "n": torch.tensor([1, 2]), "flag": torch.tensor(True)}, metadata={"format": "pt"})
print(len(blob), blob[:96])
print(sorted(load(blob).items()))  # the package's load() keeps no order
with tempfile.TemporaryDirectory() as folder:
    path = os.path.join(folder, "net.safetensors")
    save_file({k: v.contiguous() for k, v in net.state_dict().items()}, path)
    print(all(torch.equal(v, net.state_dict()[k]) for k, v in load_file(path).items()))
for bad in ({"view": torch.arange(6.0).reshape(2, 3).t()}, {"a": misc["base"], "b": misc["base"][0]}):
    try:
        save(bad)
    except (ValueError, RuntimeError) as e:
        print(type(e).__name__, " ".join(str(e).split()[:8]))
