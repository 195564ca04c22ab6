"""Golden values for examples/audio_features (log_mel_image.h) from torchaudio 0.13.

Run with Debian's interpreter: /usr/bin/python3 tools/golden/gen_audio_models_example.py
Writes the fixture tests/golden/audio/models/chirp.wav (stereo 16-bit PCM, 0.3 s at
16 kHz: a rising chirp and a tone) and the picture torchaudio's transforms give for it.
"""
import math
import os
import sys

import torch
import torchaudio
import torchaudio.transforms as T

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden import GOLDEN_DIR, GoldenWriter  # noqa: E402

sr = 16000
t = torch.arange(int(0.3 * sr), dtype=torch.float64) / sr
chirp = 0.5 * torch.sin(2 * math.pi * (200 * t + 0.5 * 12000 * t * t))
tone = 0.25 * torch.sin(2 * math.pi * 1000 * t) * torch.linspace(0, 1, t.numel(), dtype=torch.float64)
wave = torch.stack([chirp, tone]).float()
path = os.path.join(GOLDEN_DIR, "audio", "models", "chirp.wav")
torchaudio.save(path, wave, sr, encoding="PCM_S", bits_per_sample=16)

w = GoldenWriter("audio_models_example")
meta = torchaudio.info(path)
w.add("info", torch.tensor([meta.sample_rate, meta.num_frames, meta.num_channels, meta.bits_per_sample]))
loaded, _ = torchaudio.load(path)
mono = loaded.mean(0, keepdim=True)
db = T.AmplitudeToDB("power", 80.0)(T.MelSpectrogram(sample_rate=sr, n_fft=400, hop_length=160, n_mels=64)(mono))
unit = (db - db.min()) / (db.max() - db.min())
w.add("image", (unit * 255.0).round().clamp(0, 255).flip(1).to(torch.uint8))
w.save()
