"""Golden values for ember::audio::models::HDemucs from torchaudio 0.13.

Run with Debian's interpreter: /usr/bin/python3 tools/golden/gen_audio_models_hdemucs.py
A small HDemucs (every layer kind: spectral and waveform encoders, the innermost
frequency layer, a time-only layer, group norms, DConv with BLSTM over more than
200 steps and local attention) filled by models_fill() (the formula of
gen_audio_models.py, computed again in tests/audio/models_common.cpp), eval forward;
state_dict names and shapes of hdemucs_low.
"""
import math
import os
import sys

import torch
import torchaudio.models as M

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden import GoldenWriter  # noqa: E402


def models_fill(model):
    with torch.no_grad():
        for k, (name, t) in enumerate(model.state_dict().items()):
            if not t.is_floating_point():
                continue
            n = t.numel()
            base = torch.sin(0.37 * torch.arange(n, dtype=torch.float64) + k)
            if name.endswith("running_var"):
                v = 1.0 + 0.5 * base * base
            elif t.dim() >= 2:
                v = base / math.sqrt(n / t.shape[0])
            else:
                v = 0.1 * base + (1.0 if name.endswith("weight") else 0.0)
            t.copy_(v.reshape(t.shape).to(t.dtype))


def add_keys(w, prefix, model):
    sd = model.state_dict()
    w.add(prefix + ".keys", torch.tensor([len(sd)], dtype=torch.int64))
    for name, t in sd.items():
        w.add(prefix + ".key." + name, torch.tensor(list(t.shape), dtype=torch.int64))


torch.manual_seed(0)
w = GoldenWriter("audio_models_hdemucs")
m = M.HDemucs(["a", "b"], audio_channels=2, channels=4, nfft=64, depth=3, norm_starts=2, dconv_lstm=0,
              dconv_attn=1, dconv_comp=2).eval()
models_fill(m)
add_keys(w, "small", m)
x = torch.randn(1, 2, 1000) * 0.3
w.add("x", x)
with torch.no_grad():
    w.add("out", m(x))
add_keys(w, "low", M.hdemucs_low(["drums", "bass", "other", "vocals"]))
w.save()
