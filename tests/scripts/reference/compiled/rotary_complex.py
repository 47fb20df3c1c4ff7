# Rotary position embeddings in the complex form (as Meta's Llama writes them): frequencies
# as unit complex numbers from torch.polar, queries and keys viewed as complex pairs,
# multiplied, and viewed back as real. Eagerly, then compiled: the same values.
import torch


def precompute_freqs_cis(dim: int, end: int, theta: float = 10000.0):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: (dim // 2)].float() / dim))
    t = torch.arange(end, device=freqs.device)
    freqs = torch.outer(t, freqs).float()
    freqs_cis = torch.polar(torch.ones_like(freqs), freqs)  # complex64
    return freqs_cis


def reshape_for_broadcast(freqs_cis: torch.Tensor, x: torch.Tensor):
    ndim = x.ndim
    assert 0 <= 1 < ndim
    assert freqs_cis.shape == (x.shape[1], x.shape[-1])
    shape = [d if i == 1 or i == ndim - 1 else 1 for i, d in enumerate(x.shape)]
    return freqs_cis.view(*shape)


def apply_rotary_emb(xq, xk, freqs_cis):
    xq_ = torch.view_as_complex(xq.float().reshape(*xq.shape[:-1], -1, 2))
    xk_ = torch.view_as_complex(xk.float().reshape(*xk.shape[:-1], -1, 2))
    freqs_cis = reshape_for_broadcast(freqs_cis, xq_)
    xq_out = torch.view_as_real(xq_ * freqs_cis).flatten(3)
    xk_out = torch.view_as_real(xk_ * freqs_cis).flatten(3)
    return xq_out.type_as(xq), xk_out.type_as(xk)


bsz, seqlen, n_heads, head_dim = 2, 5, 2, 8
freqs_cis = precompute_freqs_cis(head_dim, seqlen * 2)
print(freqs_cis.dtype, freqs_cis.shape)
print(freqs_cis[:3])

xq = torch.arange(bsz * seqlen * n_heads * head_dim, dtype=torch.float32).reshape(bsz, seqlen, n_heads, head_dim).sin()
xk = torch.arange(bsz * seqlen * n_heads * head_dim, dtype=torch.float32).reshape(bsz, seqlen, n_heads, head_dim).cos()

q, k = apply_rotary_emb(xq, xk, freqs_cis[:seqlen])
print(q.dtype, q.shape)
print(q[0, :2])
print(k[1, -1])

compiled = torch.compile(apply_rotary_emb, backend="inductor")
cq, ck = compiled(xq, xk, freqs_cis[:seqlen])
print(cq[0, :2])
print(ck[1, -1])
print(torch.allclose(cq, q), torch.allclose(ck, k))
# The frequencies made inside a compiled function (complex values created in the graph), and
# the whole rotation in one graph.
cf = torch.compile(precompute_freqs_cis, fullgraph=True)(head_dim, seqlen * 2)
print(cf.dtype, torch.allclose(torch.view_as_real(cf), torch.view_as_real(freqs_cis)))
print(cf[-1])


@torch.compile(fullgraph=True)
def rotate(x, theta):
    rotation = torch.polar(torch.ones_like(theta), theta)
    return torch.view_as_real(torch.view_as_complex(x.reshape(*x.shape[:-1], -1, 2)) * rotation).flatten(-2)


print(rotate(xq[0, 0], torch.tensor([0.5, -1.0, 2.0, 0.25])))
# The rotation keeps each pair's length.
print(torch.allclose(q.reshape(-1, 2).norm(dim=-1), xq.reshape(-1, 2).norm(dim=-1), atol=1e-6))
