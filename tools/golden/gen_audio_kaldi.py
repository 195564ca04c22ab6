"""Golden values for ember::audio::compliance::kaldi from torchaudio 0.13.

Run with Debian's interpreter: /usr/bin/python3 tools/golden/gen_audio_kaldi.py
The calls are spelled out again in tests/audio/kaldi_test.cpp.
"""
import os
import sys

import torch
import torchaudio.compliance.kaldi as K

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden import GoldenWriter  # noqa: E402

torch.manual_seed(0)
w = GoldenWriter("audio_kaldi")

t = torch.arange(4000, dtype=torch.float64) / 16000
wave = (0.4 * torch.sin(2 * 3.14159 * 300 * t) + 0.1 * torch.randn(4000)).float().unsqueeze(0)
wave = torch.cat([wave, (torch.randn(1, 4000) * 0.2).float()])
w.add("wave", wave)

w.add("spec.default", K.spectrogram(wave))
w.add("spec.opts", K.spectrogram(wave, channel=1, frame_length=20.0, frame_shift=8.0, preemphasis_coefficient=0.5,
                                 raw_energy=False, remove_dc_offset=False, round_to_power_of_two=False,
                                 snip_edges=False, subtract_mean=True, window_type="hamming", energy_floor=0.0))
w.add("spec.blackman", K.spectrogram(wave, window_type="blackman", blackman_coeff=0.4, sample_frequency=8000.0))

w.add("fbank.default", K.fbank(wave))
w.add("fbank.energy", K.fbank(wave, use_energy=True, num_mel_bins=30, low_freq=50.0, high_freq=-400.0))
w.add("fbank.htk", K.fbank(wave, use_energy=True, htk_compat=True, use_log_fbank=False, use_power=False,
                           window_type="hanning", snip_edges=False))
w.add("fbank.vtln", K.fbank(wave, vtln_warp=1.1, vtln_low=120.0, vtln_high=-600.0, num_mel_bins=25))
w.add("fbank.vtln_low", K.fbank(wave, vtln_warp=0.9, subtract_mean=True, window_type="rectangular"))

w.add("mfcc.default", K.mfcc(wave))
w.add("mfcc.energy_htk", K.mfcc(wave, use_energy=True, htk_compat=True, num_ceps=10, cepstral_lifter=0.0))
w.add("mfcc.opts", K.mfcc(wave, channel=1, num_ceps=20, num_mel_bins=40, high_freq=7000.0, subtract_mean=True,
                          frame_length=32.0, frame_shift=12.5))
w.add("mfcc.htk_noenergy", K.mfcc(wave, htk_compat=True))

banks, centers = K.get_mel_banks(23, 512, 16000.0, 20.0, 0.0, 100.0, -500.0, 1.0)
w.add("banks.default", banks)
w.add("banks.centers", centers)
banks, centers = K.get_mel_banks(15, 256, 8000.0, 60.0, 3500.0, 200.0, 3000.0, 1.15)
w.add("banks.vtln", banks)
w.add("banks.vtln_centers", centers)

w.save()
