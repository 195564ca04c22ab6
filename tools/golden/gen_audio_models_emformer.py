"""Golden values for ember::audio::models Emformer and the Emformer RNN-T from torchaudio 0.13.

Run with Debian's interpreter: /usr/bin/python3 tools/golden/gen_audio_models_emformer.py
Weights are filled by models_fill() (the formula of gen_audio_models.py, computed
again in tests/audio/models_common.cpp). Emformer: whole-utterance forward and
segment-by-segment infer with carried states, with and without memory, batch
1 and 2. RNN-T: forward, transcribe, transcribe_streaming, predict with state,
join; state_dict names and shapes of emformer_rnnt_base(4097).
"""
import os
import sys

import torch
import torchaudio.models as M

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden import GoldenWriter  # noqa: E402
from audio_models_fill import add_keys, models_fill  # noqa: E402


torch.manual_seed(0)
w = GoldenWriter("audio_models_emformer")

# Emformer with memory (batch 2, padded second utterance).
em = M.Emformer(8, 2, 16, 2, 4, left_context_length=3, right_context_length=2, max_memory_size=2).eval()
models_fill(em)
add_keys(w, "emformer_mem", em)
x = torch.randn(2, 15, 8)
lengths = torch.tensor([13, 10])
w.add("em.x", x)
with torch.no_grad():
    y, ylen = em(x, lengths)
    w.add("em.mem.out", y)
    states = None
    for i in range(3):
        seg = torch.randn(2, 6, 8)
        w.add("em.mem.seg%d" % i, seg)
        y, ylen, states = em.infer(seg, torch.tensor([6, 6]), states)
        w.add("em.mem.infer%d" % i, y)
        w.add("em.mem.infer_len%d" % i, ylen)
    for li, st in enumerate(states):
        for si, t in enumerate(st):
            w.add("em.mem.state%d.%d" % (li, si), t)

# Emformer without memory, gelu, tanh_on_mem, batch 1.
em = M.Emformer(6, 3, 10, 1, 3, activation="gelu", left_context_length=2, right_context_length=1,
                weight_init_scale_strategy=None, tanh_on_mem=True).eval()
models_fill(em)
x1 = torch.randn(1, 11, 6)
w.add("em.x1", x1)
with torch.no_grad():
    y, _ = em(x1, torch.tensor([10]))
    w.add("em.nomem.out", y)
    states = None
    for i in range(2):
        seg = torch.randn(1, 4, 6)
        w.add("em.nomem.seg%d" % i, seg)
        y, _, states = em.infer(seg, torch.tensor([4]), states)
        w.add("em.nomem.infer%d" % i, y)

# Emformer RNN-T, small.
RNNT_CFG = dict(input_dim=6, encoding_dim=8, num_symbols=7, segment_length=4, right_context_length=2,
                time_reduction_input_dim=4, time_reduction_stride=2, transformer_num_heads=2, transformer_ffn_dim=12,
                transformer_num_layers=2, transformer_dropout=0.1, transformer_activation="gelu",
                transformer_left_context_length=3, transformer_max_memory_size=0,
                transformer_weight_init_scale_strategy="depthwise", transformer_tanh_on_mem=True,
                symbol_embedding_dim=5, num_lstm_layers=2, lstm_layer_norm=True, lstm_layer_norm_epsilon=1e-3,
                lstm_dropout=0.3)
m = M.emformer_rnnt_model(**RNNT_CFG).eval()
models_fill(m)
add_keys(w, "rnnt_small", m)
src = torch.randn(2, 14, 6)
src_len = torch.tensor([12, 9])
tgt = torch.tensor([[1, 4, 2], [3, 6, 0]])
tgt_len = torch.tensor([3, 2])
w.add("rnnt.src", src)
w.add("rnnt.src_len", src_len)
w.add("rnnt.tgt", tgt)
w.add("rnnt.tgt_len", tgt_len)
with torch.no_grad():
    out, slen, tlen, pstate = m(src, src_len, tgt, tgt_len)
    w.add("rnnt.out", out)
    w.add("rnnt.out_slen", slen)
    enc, enc_len = m.transcribe(src, src_len)
    w.add("rnnt.enc", enc)
    w.add("rnnt.enc_len", enc_len)
    pred, _, st = m.predict(tgt[:, :1], torch.tensor([1, 1]), None)
    pred2, _, st2 = m.predict(tgt[:, 1:], torch.tensor([2, 2]), st)
    w.add("rnnt.pred1", pred)
    w.add("rnnt.pred2", pred2)
    for li, s in enumerate(st2):
        w.add("rnnt.pstate%d.h" % li, s[0])
        w.add("rnnt.pstate%d.c" % li, s[1])
    joint, _, _ = m.join(enc, enc_len, pred2, torch.tensor([2, 2]))
    w.add("rnnt.join", joint)
    states = None
    for i in range(2):
        seg = torch.randn(2, 6, 6)
        w.add("rnnt.stream.seg%d" % i, seg)
        e, el, states = m.transcribe_streaming(seg, torch.tensor([6, 6]), states)
        w.add("rnnt.stream.out%d" % i, e)
        w.add("rnnt.stream.len%d" % i, el)

add_keys(w, "emformer_rnnt_base", M.emformer_rnnt_base(4097))


# RNNTBeamSearch over the small model: whole utterance, temperature, streaming.
def add_hypos(prefix, hypos):
    w.add(prefix + ".count", torch.tensor([len(hypos)], dtype=torch.int64))
    for i, h in enumerate(hypos):
        w.add("%s.%d.tokens" % (prefix, i), torch.tensor(h[0], dtype=torch.int64))
        w.add("%s.%d.score" % (prefix, i), torch.tensor([h[3]], dtype=torch.float64))
        w.add("%s.%d.pred" % (prefix, i), h[1])


bs_src = torch.randn(20, 6) * 2
w.add("bs.src", bs_src)
with torch.no_grad():
    search = M.RNNTBeamSearch(m, blank=6)
    add_hypos("bs.fwd", search(bs_src, torch.tensor([20]), 3))
    search_t = M.RNNTBeamSearch(m, blank=0, temperature=2.0, step_max_tokens=2)
    add_hypos("bs.temp", search_t(bs_src.unsqueeze(0), torch.tensor(18), 4))
    state, hypo = None, None
    for i in range(2):
        seg = torch.randn(6, 6) * 2
        w.add("bs.stream.seg%d" % i, seg)
        hypos, state = search.infer(seg, torch.tensor([6]), 2, state, hypo)
        hypo = hypos[0]
        add_hypos("bs.stream%d" % i, hypos)

w.save()
