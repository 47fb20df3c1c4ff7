# A GPT-style model (token and position embeddings, causal self-attention, an MLP with GELU,
# LayerNorms) trained 20 steps with AdamW on cross_entropy, eagerly, then with the model and
# its loss in one compiled function (forward and backward graphs through AOT Autograd);
# parameters set explicitly.
import math

import torch


class Block(torch.nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.ln1 = torch.nn.LayerNorm(dim)
        self.qkv = torch.nn.Linear(dim, 3 * dim)
        self.out = torch.nn.Linear(dim, dim)
        self.ln2 = torch.nn.LayerNorm(dim)
        self.fc = torch.nn.Linear(dim, 4 * dim)
        self.act = torch.nn.GELU(approximate="tanh")
        self.proj = torch.nn.Linear(4 * dim, dim)

    def attention(self, x):
        b, t, c = x.shape
        q, k, v = self.qkv(x).split(c, dim=2)
        q = q.view(b, t, self.heads, c // self.heads).transpose(1, 2)
        k = k.view(b, t, self.heads, c // self.heads).transpose(1, 2)
        v = v.view(b, t, self.heads, c // self.heads).transpose(1, 2)
        scores = (q @ k.transpose(-2, -1)) / math.sqrt(c // self.heads)
        causal = torch.tril(torch.ones(t, t, dtype=torch.bool))
        scores = scores.masked_fill(causal.logical_not(), float("-inf"))
        y = torch.softmax(scores, dim=-1) @ v
        return self.out(y.transpose(1, 2).contiguous().view(b, t, c))

    def forward(self, x):
        x = x + self.attention(self.ln1(x))
        return x + self.proj(self.act(self.fc(self.ln2(x))))


class TinyGPT(torch.nn.Module):
    def __init__(self, vocab=11, dim=8, heads=2, context=6):
        super().__init__()
        self.tokens = torch.nn.Embedding(vocab, dim)
        self.positions = torch.nn.Embedding(context, dim)
        self.blocks = torch.nn.ModuleList([Block(dim, heads), Block(dim, heads)])
        self.ln = torch.nn.LayerNorm(dim)
        self.head = torch.nn.Linear(dim, vocab, bias=False)

    def forward(self, idx):
        t = idx.shape[1]
        x = self.tokens(idx) + self.positions(torch.arange(t))
        for block in self.blocks:
            x = block(x)
        return self.head(self.ln(x))


def fresh_model():
    model = TinyGPT()
    with torch.no_grad():
        for i, (name, p) in enumerate(model.named_parameters()):
            p.copy_((torch.arange(p.numel()).float() * 0.37 + i).sin().reshape(p.shape) * 0.3)
    return model


data = torch.tensor([[1, 5, 2, 7, 3, 9, 4], [8, 2, 6, 1, 10, 0, 3]])
inputs, targets = data[:, :-1], data[:, 1:]


def train(model, compute_loss):
    opt = torch.optim.AdamW(model.parameters(), lr=0.01, weight_decay=0.05)
    for step in range(20):
        loss = compute_loss(model, inputs, targets)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step}: loss {loss.item():.4f}")
    return loss


def compute_loss(model, inputs, targets):
    logits = model(inputs)
    return torch.nn.functional.cross_entropy(logits.reshape(-1, 11), targets.reshape(-1))


model = fresh_model()
train(model, compute_loss)
print(sum(p.numel() for p in model.parameters()), "parameters")
loss = train(fresh_model(), torch.compile(compute_loss))
print("compiled:", loss.grad_fn.name())
