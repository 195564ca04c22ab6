"""Golden values for ember::audio::transforms from torchaudio 0.13.

Run with Debian's interpreter: /usr/bin/python3 tools/golden/gen_audio_transforms.py
Each transform's construction is spelled out again in tests/audio/transforms_test.cpp;
state_dict key lists are stored as the count of keys (names are checked in the test).
"""
import math
import os
import sys

import torch
import torchaudio.transforms as T

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden import GoldenWriter  # noqa: E402

torch.manual_seed(0)
w = GoldenWriter("audio_transforms")

wave = (torch.randn(2, 1600) * 0.3).float()
w.add("wave", wave)
wave3 = (torch.randn(2, 2, 800) * 0.3).float()
w.add("wave3", wave3)

spec = T.Spectrogram(n_fft=128)
w.add("spectrogram.default", spec(wave))
w.add("spectrogram.window", spec.state_dict()["window"])
w.add("spectrogram.complex", T.Spectrogram(n_fft=64, hop_length=20, power=None, normalized=True)(wave3))
w.add("spectrogram.hamming", T.Spectrogram(n_fft=100, win_length=80, window_fn=torch.hamming_window, power=1.0,
                                            center=False, pad=7)(wave))
cs = T.Spectrogram(n_fft=128, power=None)(wave)
w.add("ispec.out", T.InverseSpectrogram(n_fft=128)(cs, 1600))
w.add("griffinlim.out", T.GriffinLim(n_fft=128, n_iter=3, rand_init=False, length=1600)(spec(wave)))

x = torch.rand(2, 3, 20, 15) * 4
w.add("db.x", x)
w.add("db.power", T.AmplitudeToDB()(x))
w.add("db.mag_top", T.AmplitudeToDB("magnitude", 30.0)(x))

mel = T.MelScale(n_mels=32, sample_rate=16000, n_stft=65)
w.add("melscale.fb", mel.fb)
w.add("melscale.out", mel(spec(wave)))
w.add("melscale.slaney", T.MelScale(n_mels=20, sample_rate=8000, f_min=40.0, f_max=3800.0, n_stft=65, norm="slaney",
                                    mel_scale="slaney")(spec(wave)))

ms = T.MelSpectrogram(sample_rate=16000, n_fft=256, n_mels=40)
w.add("melspec.default", ms(wave))
w.add("melspec.batched", ms(wave3))
w.add("melspec.opts", T.MelSpectrogram(sample_rate=22050, n_fft=200, win_length=160, hop_length=40, f_min=30.0,
                                       f_max=9000.0, n_mels=24, power=1.0, normalized=True, norm="slaney",
                                       mel_scale="slaney", pad=4)(wave))

w.add("mfcc.default", T.MFCC(sample_rate=16000, n_mfcc=13, melkwargs={"n_fft": 256, "n_mels": 40})(wave))
w.add("mfcc.logmels", T.MFCC(sample_rate=8000, n_mfcc=10, norm=None, log_mels=True,
                             melkwargs={"n_fft": 128, "n_mels": 23, "hop_length": 32})(wave3))
w.add("lfcc.default", T.LFCC(sample_rate=16000, n_filter=32, n_lfcc=12, speckwargs={"n_fft": 128})(wave))
w.add("lfcc.loglf", T.LFCC(sample_rate=8000, n_filter=20, f_min=100.0, f_max=3000.0, n_lfcc=8, log_lf=True,
                           speckwargs={"n_fft": 64, "hop_length": 16})(wave3))

w.add("mulaw.enc", T.MuLawEncoding(64)(wave))
w.add("mulaw.dec", T.MuLawDecoding(64)(T.MuLawEncoding(64)(wave)))

r = T.Resample(16000, 12000)
w.add("resample.kernel", r.kernel)
w.add("resample.out", r(wave))
w.add("resample.kaiser", T.Resample(44100, 16000, resampling_method="kaiser_window", lowpass_filter_width=8,
                                    rolloff=0.95, beta=10.0)(wave3))
w.add("resample.double", T.Resample(3, 4, dtype=torch.float64)(wave.double()))

w.add("deltas.out", T.ComputeDeltas(win_length=7)(spec(wave)))
ts = T.TimeStretch(hop_length=16, n_freq=33, fixed_rate=1.25)
w.add("timestretch.phase_advance", ts.phase_advance)
csp = T.Spectrogram(n_fft=64, hop_length=16, power=None)(wave[:, :800])
w.add("timestretch.x", csp)
w.add("timestretch.fixed", ts(csp))
w.add("timestretch.override", ts(csp, 0.7))
for shape in ["linear", "exponential", "logarithmic", "quarter_sine", "half_sine"]:
    w.add("fade." + shape, T.Fade(fade_in_len=300, fade_out_len=500, fade_shape=shape)(wave))
w.add("vol.amplitude", T.Vol(3.0)(wave))
w.add("vol.db", T.Vol(-6.0, "db")(wave))
w.add("vol.power", T.Vol(2.0, "power")(wave))
feats = torch.randn(2, 120, 6)
w.add("cmn.x", feats)
w.add("cmn.out", T.SlidingWindowCmn(cmn_window=40, min_cmn_window=10, norm_vars=True)(feats))
w.add("centroid.out", T.SpectralCentroid(16000, n_fft=128, hop_length=40)(wave))
w.add("pitchshift.up", T.PitchShift(8000, 12, n_fft=128)(wave))
w.add("pitchshift.down", T.PitchShift(8000, -12, n_fft=128, hop_length=16)(wave3))

w.save()
