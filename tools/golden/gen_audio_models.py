"""Golden values for ember::audio::models (Wav2Letter, ConvTasNet, WaveRNN) from torchaudio 0.13.

Run with Debian's interpreter: /usr/bin/python3 tools/golden/gen_audio_models.py
Every parameter and buffer is filled by models_fill() below, which
tests/audio/models_common.cpp computes again in C++; the inputs are stored. Each
builder's state_dict is stored as "<model>.keys" (key count) plus one entry per
key "<model>.key.<name>" holding its shape, so names and shapes are both checked.
Also writes tests/golden/audio/models/conv_tasnet_small.pth, a torchaudio
state_dict loaded by the C++ test through load_pytorch_state_dict.
"""
import os
import sys

import torch
import torchaudio.models as M

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden import GOLDEN_DIR, GoldenWriter  # noqa: E402
from audio_models_fill import add_keys, models_fill  # noqa: E402


torch.manual_seed(0)
w = GoldenWriter("audio_models")

# Wav2Letter: every input type.
wave = torch.randn(2, 1, 1600) * 0.5
w.add("w2l.wave", wave)
m = M.Wav2Letter(num_classes=10).eval()
models_fill(m)
add_keys(w, "w2l_waveform", m)
with torch.no_grad():
    w.add("w2l.waveform.out", m(wave))
mfcc = torch.randn(2, 13, 30)
w.add("w2l.mfcc", mfcc)
m = M.Wav2Letter(num_classes=7, input_type="mfcc", num_features=13).eval()
models_fill(m)
add_keys(w, "w2l_mfcc", m)
with torch.no_grad():
    w.add("w2l.mfcc.out", m(mfcc))

# ConvTasNet: a small config (odd kernel, frames needing padding) and the base builder's keys.
ct_cfg = dict(num_sources=3, enc_kernel_size=5, enc_num_feats=16, msk_kernel_size=3, msk_num_feats=8,
              msk_num_hidden_feats=12, msk_num_layers=3, msk_num_stacks=2, msk_activate="sigmoid")
m = M.ConvTasNet(**ct_cfg).eval()
models_fill(m)
add_keys(w, "convtasnet_small", m)
mix = torch.randn(2, 1, 203) * 0.5
w.add("convtasnet.mix", mix)
with torch.no_grad():
    w.add("convtasnet.small.out", m(mix))
m = M.conv_tasnet_base(num_sources=2).eval()
add_keys(w, "conv_tasnet_base", m)
models_fill(m)
mix2 = torch.randn(1, 1, 160) * 0.5
w.add("convtasnet.mix2", mix2)
with torch.no_grad():
    w.add("convtasnet.base.out", m(mix2))

# A real torchaudio state_dict file (default torch init) and that model's output.
torch.manual_seed(1)
m = M.ConvTasNet(**ct_cfg).eval()
torch.save(m.state_dict(), os.path.join(GOLDEN_DIR, "audio", "models", "conv_tasnet_small.pth"))
with torch.no_grad():
    w.add("convtasnet.pth.out", m(mix))

# WaveRNN: eval forward, train-mode forward + backward (BatchNorm batch statistics).
wr_cfg = dict(upsample_scales=[2, 3], n_classes=16, hop_length=6, n_res_block=2, n_rnn=12, n_fc=10, kernel_size=5,
              n_freq=8, n_hidden=6, n_output=8)
m = M.WaveRNN(**wr_cfg).eval()
models_fill(m)
add_keys(w, "wavernn_small", m)
spec = torch.randn(2, 1, 8, 9)
wav = torch.rand(2, 1, (9 - 5 + 1) * 6) * 2 - 1
w.add("wavernn.spec", spec)
w.add("wavernn.wav", wav)
with torch.no_grad():
    w.add("wavernn.eval.out", m(wav, spec))
    up, aux = m.upsample(spec.squeeze(1))
    w.add("wavernn.upsample.up", up)
    w.add("wavernn.upsample.aux", aux)
with torch.no_grad():
    torch.manual_seed(3)
    infer_wave, infer_len = m.infer(spec.squeeze(1), torch.tensor([9, 7]))
    w.add("wavernn.infer.seed3", infer_wave)
m.train()
out = m(wav, spec)
gy = torch.randn(out.shape)
w.add("wavernn.train.gy", gy)
w.add("wavernn.train.out", out.detach())
(out * gy).sum().backward()
w.add("wavernn.train.grad.fc.weight", m.fc.weight.grad)
w.add("wavernn.train.grad.rnn1.weight_hh_l0", m.rnn1.weight_hh_l0.grad)
w.add("wavernn.train.grad.conv0", m.upsample.resnet.melresnet_model[0].weight.grad)
w.add("wavernn.train.running_mean", m.upsample.resnet.melresnet_model[1].running_mean)

w.save()
