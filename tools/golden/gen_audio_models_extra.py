"""Golden values for ember::audio::models Conformer and DeepSpeech from torchaudio 0.13.

Run with Debian's interpreter: /usr/bin/python3 tools/golden/gen_audio_models_extra.py
Weights are filled by models_fill() (the formula of gen_audio_models.py, computed
again in tests/audio/models_common.cpp); outputs in eval mode.
"""
import os
import sys

import torch
import torchaudio.models as M

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden import GoldenWriter  # noqa: E402
from audio_models_fill import add_keys, models_fill  # noqa: E402


torch.manual_seed(0)
w = GoldenWriter("audio_models_extra")

x = torch.randn(3, 9, 8)
lengths = torch.tensor([9, 6, 4])
w.add("conformer.x", x)
w.add("conformer.lengths", lengths)
m = M.Conformer(input_dim=8, num_heads=2, ffn_dim=12, num_layers=2, depthwise_conv_kernel_size=3).eval()
models_fill(m)
add_keys(w, "conformer_bn", m)
with torch.no_grad():
    w.add("conformer.bn.out", m(x, lengths)[0])
m = M.Conformer(input_dim=8, num_heads=4, ffn_dim=6, num_layers=1, depthwise_conv_kernel_size=5, dropout=0.1,
                use_group_norm=True, convolution_first=True).eval()
models_fill(m)
add_keys(w, "conformer_gn", m)
with torch.no_grad():
    w.add("conformer.gn.out", m(x, lengths)[0])

ds_x = torch.randn(2, 1, 7, 5)
w.add("deepspeech.x", ds_x)
m = M.DeepSpeech(5, n_hidden=6, n_class=4).eval()
models_fill(m)
add_keys(w, "deepspeech", m)
with torch.no_grad():
    w.add("deepspeech.out", m(ds_x))

w.save()
