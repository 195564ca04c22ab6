"""Golden values for ember::audio::functional::apply_codec from torchaudio 0.13
(its sox_io backend).

Run with Debian's interpreter: /usr/bin/python3 tools/golden/gen_audio_codec.py
Lossless and companded WAV and FLAC outputs are compared sample for sample.
Vorbis is lossy and sox's encoder settings are not libsndfile's, so for it
only torchaudio's output length is kept (the test checks Ember's signal
against its input instead).
"""
import math
import os
import sys

import torch
import torchaudio.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden import GoldenWriter  # noqa: E402

torch.manual_seed(5)
w = GoldenWriter("audio_codec")

noise = ((torch.rand(2, 400) * 2 - 1) * 0.8).float()
w.add("noise", noise)
CASES = [
    ("wav", dict(format="wav")),
    ("wav_s16", dict(format="wav", encoding="PCM_S", bits_per_sample=16)),
    ("wav_s24", dict(format="wav", encoding="PCM_S", bits_per_sample=24)),
    ("wav_u8", dict(format="wav", encoding="PCM_U", bits_per_sample=8)),
    ("wav_ulaw", dict(format="wav", encoding="ULAW", bits_per_sample=8)),
    ("wav_alaw", dict(format="wav", encoding="ALAW", bits_per_sample=8)),
    ("flac", dict(format="flac")),
    ("flac_16_c0", dict(format="flac", compression=0, bits_per_sample=16)),
]
for name, kw in CASES:
    w.add("codec." + name, F.apply_codec(noise, 8000, **kw))
w.add("codec.ulaw_time_first", F.apply_codec(noise.t().contiguous(), 8000, "wav", False, None, "ULAW", 8))

t = torch.arange(16000) / 16000
sine = (0.5 * torch.sin(2 * math.pi * 440 * t)).float().unsqueeze(0)
vorbis = F.apply_codec(sine, 16000, "ogg")
w.add("vorbis.shape", torch.tensor(list(vorbis.shape), dtype=torch.int64))
w.save()
