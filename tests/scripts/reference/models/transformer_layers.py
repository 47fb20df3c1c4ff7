# nn.MultiheadAttention and the transformer layers: parameter names and printing, bool and
# additive masks, key padding, kdim/vdim with bias_kv and zero attention, batch_first, the
# encoder's padded outputs on its nested-tensor path, norm_first, a backward pass, and the
# same transformer compiled (the causal-mask check breaks the graph, as in PyTorch).
import torch
import torch.nn as nn


def fill(model, seed=0):
    with torch.no_grad():
        for i, p in enumerate(model.parameters()):
            p.copy_((((torch.arange(p.numel()) * 7919 + (i + seed) * 104729) % 1009) / 1009 - 0.5).reshape(p.shape))


def show(label, t):
    t = t.detach()
    print(f"{label}: {tuple(t.shape)} sum {t.sum().item():.5g} abs {t.abs().mean().item():.5g} first {t.flatten()[0].item():.5g}")


mha = nn.MultiheadAttention(8, 2)
fill(mha)
print(mha)
print([n for n, _ in mha.named_parameters()])
x = (((torch.arange(5 * 3 * 8) * 37) % 101) / 101 - 0.5).reshape(5, 3, 8)
out, w = mha(x, x, x)
show("attention", out)
show("weights", w)
pad = torch.tensor([[False, False, False, True, True], [False] * 5, [False, False, False, False, True]])
out, w = mha(x, x, x, key_padding_mask=pad, average_attn_weights=False)
show("key padding", out)
show("weights per head", w)
out, w = mha(x[:, :1], x[:, :1], x[:, :1], need_weights=False, attn_mask=nn.Transformer.generate_square_subsequent_mask(5))
show("additive mask", out)
print("weights:", w)

cross = nn.MultiheadAttention(8, 4, kdim=6, vdim=5, add_bias_kv=True, add_zero_attn=True, batch_first=True)
fill(cross, 3)
print([n for n, _ in cross.named_parameters()])
q = x.transpose(0, 1)
k = (((torch.arange(3 * 7 * 6) * 11) % 23) / 23 - 0.5).reshape(3, 7, 6)
v = (((torch.arange(3 * 7 * 5) * 13) % 29) / 29 - 0.5).reshape(3, 7, 5)
out, w = cross(q, k, v, attn_mask=torch.zeros(5, 7).bool())
show("cross", out)
show("cross weights", w)
out, _ = nn.MultiheadAttention(8, 2)(x[:, 0], x[:, 0], x[:, 0])
print("unbatched:", tuple(out.shape))

layer = nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0)
encoder = nn.TransformerEncoder(layer, 2)
fill(encoder)
print(encoder)
mask = nn.Transformer.generate_square_subsequent_mask(5)
print(mask)
show("encoder", encoder(x))
show("encoder causal", encoder(x, mask=mask, is_causal=True))

layer = nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, dropout=0.0, batch_first=True, activation="gelu")
encoder = nn.TransformerEncoder(layer, 2, norm=nn.LayerNorm(8))
fill(encoder, 1)
encoder.eval()
with torch.no_grad():
    show("nested path", encoder(q, src_key_padding_mask=pad))
show("padded path", encoder(q, src_key_padding_mask=pad))

model = nn.Transformer(d_model=8, nhead=2, num_encoder_layers=1, num_decoder_layers=2, dim_feedforward=12, dropout=0.0,
                       norm_first=True)
fill(model, 2)
tgt = x[:4]
show("transformer", model(x, tgt, tgt_mask=model.generate_square_subsequent_mask(4)))
model(x, tgt).pow(2).mean().backward()
show("grad", model.decoder.layers[1].multihead_attn.in_proj_weight.grad)
for backend in ("aot_eager", "inductor"):
    show(backend, torch.compile(model, backend=backend)(x, tgt, tgt_mask=model.generate_square_subsequent_mask(4)))

# A query row every key is masked from: scaled_dot_product_attention gives zeros (PyTorch's
# safe softmax), so does attention without weights; with weights it is NaN, as in PyTorch.
q4 = (torch.arange(24) * 0.3).sin().reshape(1, 2, 3, 4).requires_grad_()
k4 = (torch.arange(40) * 0.7).cos().reshape(1, 2, 5, 4)
v4 = (torch.arange(40) * 0.2).sin().reshape(1, 2, 5, 4)
masked = torch.ones(3, 5, dtype=torch.bool)
masked[1] = False
out = torch.nn.functional.scaled_dot_product_attention(q4, k4, v4, attn_mask=masked)
print("masked row:", [round(v, 4) for v in out[0, 0, 1].tolist()], "others", round(out[0, 0, 0].sum().item(), 4))
out.sum().backward()
print("grad of the masked row:", q4.grad[0, :, 1].abs().sum().item())
everything = torch.ones(1, 5, dtype=torch.bool)
print("no weights NaN:", mha(x[:, :1], x[:, :1], x[:, :1], key_padding_mask=everything, need_weights=False)[0].isnan().any().item())
print("weights NaN:", mha(x[:, :1], x[:, :1], x[:, :1], key_padding_mask=everything)[0].isnan().all().item())
