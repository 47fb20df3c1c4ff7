# Runs pytorch/examples' super-resolution Net (model.py beside this file, verbatim: its
# orthogonal init, then every parameter and input set by a closed formula), so real PyTorch
# and Fusescope print the same rounded statistics eagerly, compiled (aot_eager and inductor)
# and over three compiled Adam steps towards a target image.
import torch

from model import Net


def show(label, tensor):
    tensor = tensor.detach()
    print(f"{label}: shape {tuple(tensor.shape)} sum {tensor.sum().item():.5g} "
          f"abs mean {tensor.abs().mean().item():.5g} first {tensor.flatten()[0].item():.5g}")


model = Net(upscale_factor=3)
weight = model.conv2.weight.detach().reshape(64, -1)  # orthogonal_ made its rows orthonormal, times relu's gain
print("orthogonal rows:", torch.allclose(weight @ weight.t(), 2.0 * torch.eye(64), atol=1e-4))
with torch.no_grad():
    for index, param in enumerate(model.parameters()):
        param.copy_((torch.sin(torch.arange(param.numel(), dtype=torch.float32) * 0.613 + index) * 0.1).reshape(param.shape))
print(model)
image = torch.cos(torch.arange(2 * 1 * 8 * 8, dtype=torch.float32) * 0.09).reshape(2, 1, 8, 8)

show("eager", model(image))
for backend in ("aot_eager", "inductor"):
    show(backend, torch.compile(model, backend=backend)(image))

target = torch.sin(torch.arange(2 * 24 * 24, dtype=torch.float32) * 0.01).reshape(2, 1, 24, 24)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
compiled = torch.compile(model)
for step in range(3):
    loss = torch.nn.functional.mse_loss(compiled(image), target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.5g}")
show("trained conv4", model.conv4.weight)
