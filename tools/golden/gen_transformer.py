"""Golden values for tests/nn/transformer_test.cpp: MultiheadAttention, the Transformer
layers and models with PyTorch's weights (every named parameter is written, so the test
also checks that Ember's state_dict names match), outputs in eval mode (dropout off),
gradients of (out * gy).sum() (+ (weights * gw).sum()) w.r.t. the inputs and parameters.
Run: /usr/bin/python3 tools/golden/gen_transformer.py"""
import torch
import torch.nn as nn

from golden import GoldenWriter

torch.manual_seed(0)
g = GoldenWriter("transformer")


def dump_params(name, m):
    for pname, p in m.named_parameters():
        g.add("%s.p.%s" % (name, pname), p)


def dump_grads(name, m):
    for pname, p in m.named_parameters():
        g.add("%s.g.%s" % (name, pname), p.grad)


def leaf(*shape):
    return torch.randn(*shape).requires_grad_()


def finish(name, m, out, weights=None, inputs=()):
    """Adds out, its seed gy (and gw), then the input and parameter gradients."""
    gy = torch.randn_like(out)
    loss = (out * gy).sum()
    g.add(name + ".y", out)
    g.add(name + ".gy", gy)
    if weights is not None:
        gw = torch.randn_like(weights)
        loss = loss + (weights * gw).sum()
        g.add(name + ".w", weights)
        g.add(name + ".gw", gw)
    loss.backward()
    for iname, t in inputs:
        g.add("%s.%s" % (name, iname), t)
        g.add("%s.grad_%s" % (name, iname), t.grad)
    dump_grads(name, m)


def mha_case(name, m, q, k, v, inputs, **kw):
    m.eval()
    dump_params(name, m)
    for mname in ("attn_mask", "key_padding_mask"):
        if kw.get(mname) is not None:
            g.add("%s.%s" % (name, mname), kw[mname])
    out, w = m(q, k, v, **kw)
    finish(name, m, out, w, inputs)


# Self-attention (q, k and v are one tensor: the packed projection), averaged weights.
m = nn.MultiheadAttention(8, 2)
x = leaf(3, 2, 8)
mha_case("mha_self", m, x, x, x, [("x", x)])

# Encoder-decoder attention (k is v) with a bool attn_mask and a bool key_padding_mask,
# per-head weights.
m = nn.MultiheadAttention(8, 2)
q, kv = leaf(3, 2, 8), leaf(4, 2, 8)
am = torch.tensor([[False, True, False, False], [False, False, True, True], [True, False, False, False]])
kpm = torch.tensor([[False, False, False, False], [False, False, False, True]])
mha_case("mha_cross", m, q, kv, kv, [("q", q), ("kv", kv)], attn_mask=am, key_padding_mask=kpm,
         average_attn_weights=False)

# Distinct q, k, v; a 3-D float attn_mask; no weights returned.
m = nn.MultiheadAttention(8, 2)
q, k, v = leaf(3, 2, 8), leaf(4, 2, 8), leaf(4, 2, 8)
am = torch.randn(4, 3, 4)
mha_case("mha_float3d", m, q, k, v, [("q", q), ("k", k), ("v", v)], attn_mask=am, need_weights=False)

# kdim / vdim (separate projection weights), bias_k/bias_v, add_zero_attn, float attn_mask + bool padding.
m = nn.MultiheadAttention(8, 2, kdim=5, vdim=7, add_bias_kv=True, add_zero_attn=True)
q, k, v = leaf(3, 2, 8), leaf(4, 2, 5), leaf(4, 2, 7)
am = torch.randn(3, 4)
kpm = torch.tensor([[False, True, False, False], [False, False, False, True]])
mha_case("mha_kvdim", m, q, k, v, [("q", q), ("k", k), ("v", v)], attn_mask=am, key_padding_mask=kpm)

# No biases, 4 heads, unbatched input.
m = nn.MultiheadAttention(8, 4, bias=False)
x = leaf(3, 8)
mha_case("mha_nobias_unbatched", m, x, x, x, [("x", x)])

# batch_first with a float key_padding_mask (added to the scores).
m = nn.MultiheadAttention(8, 2, batch_first=True)
q, kv = leaf(2, 3, 8), leaf(2, 4, 8)
kpm = torch.randn(2, 4)
mha_case("mha_batch_first", m, q, kv, kv, [("q", q), ("kv", kv)], key_padding_mask=kpm)


def causal_bool(n):
    return torch.triu(torch.ones(n, n, dtype=torch.bool), 1)


def layer_case(name, m, args, inputs, masks):
    m.eval()
    dump_params(name, m)
    for mname, t in masks:
        g.add("%s.%s" % (name, mname), t)
    finish(name, m, m(*args, **dict(masks)), None, inputs)


# Encoder layer, post-norm ReLU, bool causal mask + bool padding.
m = nn.TransformerEncoderLayer(8, 2, dim_feedforward=16)
src = leaf(5, 2, 8)
kpm = torch.tensor([[False] * 5, [False, False, False, False, True]])
layer_case("enc", m, (src,), [("src", src)], [("src_mask", causal_bool(5)), ("src_key_padding_mask", kpm)])

# Encoder layer, pre-norm GELU, batch_first, eps 1e-6, float causal mask.
m = nn.TransformerEncoderLayer(8, 2, dim_feedforward=16, activation="gelu", norm_first=True, batch_first=True,
                               layer_norm_eps=1e-6)
src = leaf(2, 5, 8)
layer_case("enc_nf", m, (src,), [("src", src)], [("src_mask", nn.Transformer.generate_square_subsequent_mask(5))])

# Decoder layer, post-norm: float causal tgt mask, bool memory padding.
m = nn.TransformerDecoderLayer(8, 2, dim_feedforward=16)
tgt, mem = leaf(4, 2, 8), leaf(5, 2, 8)
mkpm = torch.tensor([[False, False, False, True, True], [False] * 5])
layer_case("dec", m, (tgt, mem), [("tgt", tgt), ("memory", mem)],
           [("tgt_mask", nn.Transformer.generate_square_subsequent_mask(4)), ("memory_key_padding_mask", mkpm)])

# Decoder layer, pre-norm GELU, batch_first, bool tgt padding.
m = nn.TransformerDecoderLayer(8, 2, dim_feedforward=16, activation="gelu", norm_first=True, batch_first=True)
tgt, mem = leaf(2, 4, 8), leaf(2, 5, 8)
tkpm = torch.tensor([[False, False, False, True], [False] * 4])
layer_case("dec_nf", m, (tgt, mem), [("tgt", tgt), ("memory", mem)], [("tgt_key_padding_mask", tkpm)])

# A 2-layer encoder stack with a final LayerNorm, called as encoder(src, mask).
m = nn.TransformerEncoder(nn.TransformerEncoderLayer(8, 2, dim_feedforward=16), 2, norm=nn.LayerNorm(8))
src = leaf(5, 2, 8)
layer_case("encoder", m, (src,), [("src", src)], [("mask", nn.Transformer.generate_square_subsequent_mask(5))])

# A 2-layer decoder stack without final norm.
m = nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 2, dim_feedforward=16), 2)
tgt, mem = leaf(4, 2, 8), leaf(5, 2, 8)
layer_case("decoder", m, (tgt, mem), [("tgt", tgt), ("memory", mem)],
           [("tgt_mask", nn.Transformer.generate_square_subsequent_mask(4))])

# The full model.
m = nn.Transformer(d_model=8, nhead=2, num_encoder_layers=2, num_decoder_layers=2, dim_feedforward=16)
src, tgt = leaf(5, 2, 8), leaf(4, 2, 8)
skpm = torch.tensor([[False] * 5, [False, False, False, True, True]])
layer_case("transformer", m, (src, tgt), [("src", src), ("tgt", tgt)],
           [("tgt_mask", nn.Transformer.generate_square_subsequent_mask(4)), ("src_key_padding_mask", skpm)])

g.add("square_mask4", nn.Transformer.generate_square_subsequent_mask(4))
g.save()
