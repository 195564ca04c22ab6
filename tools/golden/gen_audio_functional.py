"""Golden values for ember::audio::functional from torchaudio 0.13.

Run with Debian's interpreter: /usr/bin/python3 tools/golden/gen_audio_functional.py
Each case stores its inputs and torchaudio's output; the call and its
arguments are spelled out again in tests/audio/functional_*_test.cpp.
"""
import math
import os
import sys

import torch
import torchaudio.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden import GoldenWriter  # noqa: E402

torch.manual_seed(0)
w = GoldenWriter("audio_functional")

wave = (torch.randn(2, 600) * 0.3).float()
w.add("wave", wave)
wave3 = (torch.randn(2, 3, 200) * 0.3).float()
w.add("wave3", wave3)
t = torch.arange(4000, dtype=torch.float64) / 8000
sine = (0.5 * torch.sin(2 * math.pi * 440 * t) + 0.2 * torch.sin(2 * math.pi * 880 * t)).float().unsqueeze(0)
w.add("sine", sine)

# ---- spectrogram family -------------------------------------------------------------
win64 = torch.hann_window(64)
w.add("spec.power2", F.spectrogram(wave, 0, win64, 64, 16, 64, 2.0, False))
w.add("spec.power1", F.spectrogram(wave, 0, win64, 64, 16, 64, 1.0, False))
w.add("spec.complex", F.spectrogram(wave, 0, win64, 64, 16, 64, None, False))
w.add("spec.norm_window", F.spectrogram(wave, 0, win64, 64, 16, 64, 2.0, True))
w.add("spec.norm_frame", F.spectrogram(wave, 0, win64, 64, 16, 64, 2.0, "frame_length"))
w.add("spec.nocenter_pad", F.spectrogram(wave, 5, win64, 64, 20, 64, 2.0, False, center=False))
win48 = torch.hamming_window(48)
w.add("spec.win48_constant", F.spectrogram(wave3, 0, win48, 64, 12, 48, 2.0, False, pad_mode="constant"))
w.add("spec.twosided", F.spectrogram(wave, 0, win64, 64, 16, 64, None, False, onesided=False))

cspec = F.spectrogram(wave, 0, win64, 64, 16, 64, None, False)
w.add("ispec.out", F.inverse_spectrogram(cspec, 600, 0, win64, 64, 16, 64, False))
cspec_pad = F.spectrogram(wave, 3, win64, 64, 16, 64, None, True)
w.add("ispec.pad_norm", F.inverse_spectrogram(cspec_pad, 600, 3, win64, 64, 16, 64, True))
w.add("ispec.nolength", F.inverse_spectrogram(cspec, None, 0, win64, 64, 16, 64, False))

mag = F.spectrogram(wave, 0, win64, 64, 16, 64, 2.0, False)
w.add("griffinlim.out", F.griffinlim(mag, win64, 64, 16, 64, 2.0, 4, 0.99, 600, False))
w.add("griffinlim.nomomentum", F.griffinlim(mag, win64, 64, 16, 64, 2.0, 3, 0.0, None, False))

spec4 = torch.rand(2, 3, 10, 12) * 10
w.add("db.x", spec4)
w.add("db.power", F.amplitude_to_DB(spec4, 10.0, 1e-10, 0.0, None))
w.add("db.top", F.amplitude_to_DB(spec4, 20.0, 1e-5, math.log10(2.0), 20.0))
w.add("db.top2d", F.amplitude_to_DB(spec4[0, 0], 10.0, 1e-10, 0.0, 5.0))
w.add("db.inv", F.DB_to_amplitude(spec4 - 5, 1.5, 0.5))

w.add("fb.htk", F.melscale_fbanks(201, 0.0, 8000.0, 40, 16000))
w.add("fb.slaney", F.melscale_fbanks(129, 20.0, 7600.0, 48, 16000, "slaney", "slaney"))
w.add("fb.htk_norm", F.melscale_fbanks(129, 50.0, 4000.0, 23, 8000, "slaney", "htk"))
w.add("fb.linear", F.linear_fbanks(129, 0.0, 4000.0, 20, 8000))
w.add("dct.none", F.create_dct(13, 40, None))
w.add("dct.ortho", F.create_dct(20, 64, "ortho"))

w.add("mulaw.enc", F.mu_law_encoding(wave, 256))
w.add("mulaw.dec", F.mu_law_decoding(F.mu_law_encoding(wave, 256), 256))
w.add("mulaw.dec_float", F.mu_law_decoding(torch.linspace(0, 15, 31), 16))

cspec3 = F.spectrogram(wave3, 0, win64, 64, 16, 64, None, False)
adv = torch.linspace(0, math.pi * 16, 33)[..., None]
w.add("pv.fast", F.phase_vocoder(cspec3, 1.3, adv))
w.add("pv.slow", F.phase_vocoder(cspec3, 0.8, adv))

w.add("centroid", F.spectral_centroid(wave, 16000, 0, win64, 64, 16, 64))
specd = torch.randn(2, 5, 30)
w.add("deltas.x", specd)
w.add("deltas.w5", F.compute_deltas(specd))
w.add("deltas.w7", F.compute_deltas(specd, 7))
w.add("pitch_shift.up12", F.pitch_shift(wave, 16000, 12))
w.add("pitch_shift.odd", F.pitch_shift(wave, 100, 3, 12, 64))
w.add("pitch_shift.down", F.pitch_shift(wave3, 8000, -12, 12, 128))

# ---- resample -------------------------------------------------------------------------
w.add("resample.down", F.resample(wave, 16000, 8000))
w.add("resample.44k", F.resample(wave, 44100, 16000))
w.add("resample.up", F.resample(wave3, 8000, 11025))
w.add("resample.kaiser", F.resample(wave, 48000, 16000, 8, 0.9, "kaiser_window", 12.0))
w.add("resample.kaiser_default", F.resample(wave, 16000, 22050, 6, 0.95, "kaiser_window"))
w.add("resample.width4", F.resample(wave.double(), 3, 2, 4, 0.8))

w.add("pitch.sine", F.detect_pitch_frequency(sine, 8000))
w.add("pitch.sine_w5", F.detect_pitch_frequency(sine, 8000, 0.02, 5, 100, 2000))

feats = torch.randn(2, 150, 4) + 3
w.add("cmn.x", feats)
w.add("cmn.default", F.sliding_window_cmn(feats, 50, 20))
w.add("cmn.center", F.sliding_window_cmn(feats, 50, 20, True))
w.add("cmn.vars", F.sliding_window_cmn(feats, 60, 10, False, True))
w.add("cmn.center_vars", F.sliding_window_cmn(feats, 40, 10, True, True))
w.add("cmn.short", F.sliding_window_cmn(feats[0, :30], 600, 100))

# ---- filtering ------------------------------------------------------------------------
a = torch.tensor([1.0, -0.5, 0.2])
b = torch.tensor([0.4, 0.2, 0.1])
w.add("lfilter.a", a)
w.add("lfilter.b", b)
w.add("lfilter.out", F.lfilter(wave, a, b))
w.add("lfilter.noclamp", F.lfilter(wave * 4, a, b, clamp=False))
ab = torch.tensor([[1.0, -0.5, 0.2], [2.0, 0.3, -0.4]])
bb = torch.tensor([[0.4, 0.2, 0.1], [1.0, -0.6, 0.25]])
w.add("lfilter.ab", ab)
w.add("lfilter.bb", bb)
w.add("lfilter.batched", F.lfilter(wave3[:, :2], ab, bb, False, True))
w.add("lfilter.stacked", F.lfilter(wave, ab, bb, False, False))
w.add("filtfilt.out", F.filtfilt(wave, a, b))
w.with_grads("lfilter.grad", lambda x, aa, bbb: F.lfilter(x, aa, bbb, clamp=False),
             wave[:, :50].double(), torch.tensor([1.0, -0.3, 0.1], dtype=torch.float64),
             torch.tensor([0.5, 0.3, -0.2], dtype=torch.float64))

sr = 44100
w.add("biquad.allpass", F.allpass_biquad(wave, sr, 1000.0, 0.9))
w.add("biquad.band", F.band_biquad(wave, sr, 2000.0, 1.2))
w.add("biquad.band_noise", F.band_biquad(wave, sr, 2000.0, 1.2, True))
w.add("biquad.bandpass", F.bandpass_biquad(wave, sr, 3000.0))
w.add("biquad.bandpass_skirt", F.bandpass_biquad(wave, sr, 3000.0, 0.5, True))
w.add("biquad.bandreject", F.bandreject_biquad(wave, sr, 1500.0, 0.8))
w.add("biquad.bass", F.bass_biquad(wave, sr, 6.0))
w.add("biquad.bass_cut", F.bass_biquad(wave, sr, -4.0, 200.0, 0.5))
w.add("biquad.deemph", F.deemph_biquad(wave, 44100))
w.add("biquad.deemph48", F.deemph_biquad(wave, 48000))
w.add("biquad.equalizer", F.equalizer_biquad(wave, sr, 1000.0, 5.0, 1.1))
w.add("biquad.highpass", F.highpass_biquad(wave, sr, 500.0))
w.add("biquad.lowpass", F.lowpass_biquad(wave, sr, 3000.0, 0.6))
w.add("biquad.riaa", F.riaa_biquad(wave, 44100))
w.add("biquad.riaa96", F.riaa_biquad(wave, 96000))
w.add("biquad.treble", F.treble_biquad(wave, sr, -3.0))
w.add("biquad.raw", F.biquad(wave, 0.3, 0.2, 0.1, 1.1, -0.2, 0.05))

w.add("fx.contrast", F.contrast(wave, 60.0))
w.add("fx.dcshift", F.dcshift(wave.clone(), 0.3))
w.add("fx.dcshift_lim", F.dcshift(wave.clone(), 0.3, 0.05))
w.add("fx.dcshift_neg", F.dcshift(wave.clone(), -0.4, 0.1))
w.add("fx.gain", F.gain(wave, 3.0))
w.add("fx.overdrive", F.overdrive(wave, 15, 30))
w.add("fx.dither", F.dither(wave))
w.add("fx.dither_shaped", F.dither(wave, "TPDF", True))
wave_st = wave3[:, :2]
w.add("fx.flanger", F.flanger(wave_st, 8000))
w.add("fx.flanger_tri_quad", F.flanger(wave_st, 8000, 1.0, 3.0, 20.0, 50.0, 2.0, 40.0, "triangular", "quadratic"))
w.add("fx.phaser", F.phaser(wave, 8000))
w.add("fx.phaser_tri", F.phaser(wave, 8000, 0.6, 0.8, 2.0, 0.5, 1.5, False))

# ---- vad (appended last so the earlier cases keep their random draws) ---------------------
tv = torch.arange(16000, dtype=torch.float64) / 8000
burst = (tv > 0.8).double() * 0.5 * torch.sin(2 * math.pi * 300 * tv) * (1 + 0.3 * torch.sin(2 * math.pi * 3 * tv))
speechy = (burst + 0.002 * torch.randn(16000, dtype=torch.float64)).float()
w.add("vad.x", speechy)
w.add("vad.default", F.vad(speechy, 8000))
w.add("vad.opts", F.vad(torch.stack([speechy, speechy.roll(800)]), 8000, trigger_level=5.0, trigger_time=0.1,
                        pre_trigger_time=0.1, measure_freq=25.0, hp_filter_freq=80.0, lp_filter_freq=3000.0))
w.add("vad.silence", F.vad(0.001 * torch.randn(2, 4000), 8000))

# ---- torchaudio 2's convolve / fftconvolve / add_noise / speed / pre- and de-emphasis -----
# (not in Debian's torchaudio 0.13: the expected values come from numpy's convolve and
# from torchaudio 2.0's formulas written out with torch ops)
import numpy as np  # noqa: E402

cx = torch.randn(2, 3, 40, dtype=torch.float64)
cy = torch.randn(1, 3, 9, dtype=torch.float64)
w.add("conv.x", cx)
w.add("conv.y", cy)
full = torch.tensor(np.stack([[np.convolve(cx[b, c].numpy(), cy[0, c].numpy()) for c in range(3)] for b in range(2)]))
w.add("conv.full", full)
w.add("conv.valid", full[..., (full.shape[-1] - 32) // 2:(full.shape[-1] - 32) // 2 + 32])
w.add("conv.same", full[..., (full.shape[-1] - 40) // 2:(full.shape[-1] - 40) // 2 + 40])
sig = torch.randn(3, 200, dtype=torch.float64)
noi = torch.randn(3, 200, dtype=torch.float64)
snr = torch.tensor([10.0, 0.0, -5.0], dtype=torch.float64)
lens = torch.tensor([200, 150, 80])
w.add("noise.x", sig)
w.add("noise.n", noi)
w.add("noise.snr", snr)
w.add("noise.lengths", lens)
def add_noise(x, n, s, lengths=None):
    if lengths is not None:
        m = torch.arange(x.size(-1)) < lengths.unsqueeze(-1)
        xm, nm = x * m, n * m
    else:
        xm, nm = x, n
    es = torch.linalg.vector_norm(xm, ord=2, dim=-1) ** 2
    en = torch.linalg.vector_norm(nm, ord=2, dim=-1) ** 2
    scale = 10 ** ((10 * (torch.log10(es) - torch.log10(en)) - s) / 20.0)
    return x + scale.unsqueeze(-1) * n
w.add("noise.out", add_noise(sig, noi, snr))
w.add("noise.masked", add_noise(sig, noi, snr, lens))
w.add("speed.out", F.resample(wave, 3, 2))  # speed(wave, 16000, 1.5): 24000 -> 16000
w.add("speed.lengths", torch.ceil(torch.tensor([600, 451]) * 2 / 3).to(torch.int64))
pre = wave.clone()
pre[..., 1:] -= 0.9 * pre[..., :-1].clone()
w.add("emph.pre", pre)
w.add("emph.de", F.lfilter(wave, torch.tensor([1.0, -0.9]), torch.tensor([1.0, 0.0])))

# ---- loudness (appended last, as above) -------------------------------------------------------
lw = (torch.randn(2, 2, 20000) * torch.linspace(0.01, 0.5, 20000)).float()
w.add("loudness.x", lw)
w.add("loudness.out", F.loudness(lw, 16000))
w.add("loudness.5ch", F.loudness(torch.cat([lw[0], lw[1], lw[0, :1] * 0.3]), 16000))

# ---- edit_distance ---------------------------------------------------------------------------
w.add("edit.distances", torch.tensor([F.edit_distance("kitten", "sitting"),
                                      F.edit_distance(["a", "b", "c", "d"], ["a", "c", "d", "e", "f"]),
                                      F.edit_distance([1, 2, 3], []), F.edit_distance([], [4, 5]),
                                      F.edit_distance([1, 2, 3, 4], [4, 3, 2, 1])]))

w.save()
