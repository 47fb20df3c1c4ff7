# Runs karpathy/nanoGPT's model.py (beside this file, verbatim) on a small configuration:
# every parameter and input is a closed formula, so real PyTorch and Fusescope print the
# same rounded statistics eagerly, compiled (aot_eager and inductor), over three compiled
# AdamW steps (the model's own configure_optimizers) and in greedy decoding (top_k=1).
import torch

from model import GPT, GPTConfig


def fill_parameters(model):
    with torch.no_grad():
        for index, (name, param) in enumerate(model.named_parameters()):
            values = torch.sin(torch.arange(param.numel(), dtype=torch.float32) * 0.731 + index) * 0.2
            param.copy_(values.reshape(param.shape))


def show(label, tensor):
    tensor = tensor.detach().float()
    print(f"{label}: shape {tuple(tensor.shape)} sum {tensor.sum().item():.5g} "
          f"abs mean {tensor.abs().mean().item():.5g} first {tensor.flatten()[0].item():.5g}")


config = GPTConfig(block_size=16, vocab_size=64, n_layer=2, n_head=2, n_embd=32, dropout=0.0, bias=True)
model = GPT(config)
fill_parameters(model)
print("parameters:", [name for name, _ in model.named_parameters()][:6], sum(p.numel() for p in model.parameters()))
idx = (torch.arange(24).reshape(2, 12) * 7 + 3) % config.vocab_size
targets = (idx * 5 + 1) % config.vocab_size

logits, loss = model(idx, targets)
show("eager logits", logits)
print(f"eager loss {loss.item():.5g}")
last, none = model(idx)
show("eager last-position logits", last)
print("no targets, no loss:", none)

for backend in ("aot_eager", "inductor"):
    compiled = torch.compile(model, backend=backend)
    logits, loss = compiled(idx, targets)
    show(f"{backend} logits", logits)
    print(f"{backend} loss {loss.item():.5g}")

optimizer = model.configure_optimizers(weight_decay=0.1, learning_rate=1e-2, betas=(0.9, 0.95), device_type="cpu")
compiled = torch.compile(model)
for step in range(3):
    _, loss = compiled(idx, targets)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.5g}")
show("trained lm_head", model.lm_head.weight)

model.eval()
generated = model.generate(idx[:, :4], max_new_tokens=6, temperature=1.0, top_k=1)
print("greedy decoding:", generated.tolist())
