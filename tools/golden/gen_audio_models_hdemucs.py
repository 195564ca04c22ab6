"""Golden values for ember::audio::models::HDemucs from torchaudio 0.13.

Run with Debian's interpreter: /usr/bin/python3 tools/golden/gen_audio_models_hdemucs.py
A small HDemucs (every layer kind: spectral and waveform encoders, the innermost
frequency layer, a time-only layer, group norms, DConv with BLSTM over more than
200 steps and local attention) filled by models_fill() (the formula of
gen_audio_models.py, computed again in tests/audio/models_common.cpp), eval forward;
state_dict names and shapes of hdemucs_low.
"""
import os
import sys

import torch
import torchaudio.models as M

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden import GoldenWriter  # noqa: E402
from audio_models_fill import add_keys, models_fill  # noqa: E402


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
