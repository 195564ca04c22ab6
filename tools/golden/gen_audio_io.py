"""Golden values for ember::audio load/save/info (tests/audio/io_*.cpp).

Run with Debian's interpreter (python3-torchaudio 0.13.1, sox_io backend):
    /usr/bin/python3 tools/golden/gen_audio_io.py
Writes the audio files under tests/golden/audio/io/ (made by torchaudio.save through
libsox, MP3 and Opus by torchaudio.io.StreamWriter through FFmpeg, and hostile files
built byte by byte), what torchaudio.load returns for them in
tests/golden/audio_io.golden, and torchaudio.info's fields in
tests/golden/audio/io/info.txt.
"""
import math
import os
import struct

import torch
import torchaudio
from torchaudio.io import StreamWriter

from golden import GOLDEN_DIR, GoldenWriter

IO_DIR = os.path.join(GOLDEN_DIR, "audio", "io")
os.makedirs(IO_DIR, exist_ok=True)
g = GoldenWriter("audio_io")
torch.manual_seed(0)


def path(name):
    return os.path.join(IO_DIR, name)


def tone(frames, rate, channels):
    t = torch.arange(frames, dtype=torch.float64) / rate
    rows = [(0.6 / (c + 1)) * torch.sin(2 * math.pi * (330 + 220 * c) * t) for c in range(channels)]
    return torch.stack(rows).to(torch.float32)


x = tone(1200, 8000, 2)
# Valid files written by libsox, one per encoding torchaudio documents for WAV.
sox_files = {
    "s16.wav": dict(encoding="PCM_S", bits_per_sample=16),
    "s24.wav": dict(encoding="PCM_S", bits_per_sample=24),
    "s32.wav": dict(encoding="PCM_S", bits_per_sample=32),
    "u8.wav": dict(encoding="PCM_U", bits_per_sample=8),
    "f32.wav": dict(encoding="PCM_F", bits_per_sample=32),
    "f64.wav": dict(encoding="PCM_F", bits_per_sample=64),
    "ulaw.wav": dict(encoding="ULAW"),
    "alaw.wav": dict(encoding="ALAW"),
    "s24.flac": dict(),
    "s16.flac": dict(bits_per_sample=16),
    "vorbis.ogg": dict(),
}
for name, kw in sox_files.items():
    torchaudio.save(path(name), x, 8000, **kw)
torchaudio.save(path("mono16.wav"), x[:1], 8000, encoding="PCM_S", bits_per_sample=16)


def ffmpeg_write(name, rate, encoder, fmt, data):
    w = StreamWriter(path(name), format=fmt)
    w.add_audio_stream(rate, data.shape[0], format="flt", encoder=encoder)
    with w.open():
        w.write_audio_chunk(0, data.t().contiguous())


ffmpeg_write("a.mp3", 16000, "libmp3lame", None, tone(4000, 16000, 2))
ffmpeg_write("a.opus", 48000, "libopus", "opus", tone(4800, 48000, 1))

valid = sorted(list(sox_files) + ["mono16.wav", "a.mp3", "a.opus"])
with open(path("info.txt"), "w") as f:
    f.write("# file sample_rate num_frames num_channels bits_per_sample encoding (torchaudio.info)\n")
    for name in valid:
        m = torchaudio.info(path(name))
        f.write("%s %d %d %d %d %s\n" % (name, m.sample_rate, m.num_frames, m.num_channels,
                                         m.bits_per_sample, m.encoding))
        y, sr = torchaudio.load(path(name))
        g.add("load.%s" % name, y)
        g.add("rate.%s" % name, torch.tensor([sr]))
        if name.endswith(".wav"):
            y, _ = torchaudio.load(path(name), normalize=False)
            g.add("raw.%s" % name, y)

# frame_offset / num_frames / channels_first.
g.add("slice.s16.wav", torchaudio.load(path("s16.wav"), 100, 300)[0])
g.add("tail.s16.wav", torchaudio.load(path("s16.wav"), 1150, 300)[0])
g.add("past.s16.wav", torchaudio.load(path("s16.wav"), 5000)[0])
g.add("slice.s24.flac", torchaudio.load(path("s24.flac"), 700, 64)[0])
g.add("last.vorbis.ogg", torchaudio.load(path("vorbis.ogg"), 1000)[0])
g.add("slice.a.mp3", torchaudio.load(path("a.mp3"), 1000, 500)[0])
g.add("slice.a.opus", torchaudio.load(path("a.opus"), 2000, 700)[0])
g.add("tc.s16.wav", torchaudio.load(path("s16.wav"), channels_first=False)[0])
g.add("tc.raw.u8.wav", torchaudio.load(path("u8.wav"), normalize=False, channels_first=False)[0])

# save: what torchaudio writes, read back without normalisation. Inputs go past
# +-1 to exercise the clamp, and land between integer steps to exercise rounding.
src = torch.cat([torch.rand(2, 300) * 2.4 - 1.2, torch.tensor([[1.0, -1.0, 0.0, 0.5], [-0.5, 2.0, -2.0, 1e-6]])], 1)
g.add("save.src", src)
src16 = (torch.rand(2, 200) * 65535 - 32768).to(torch.int16)
g.add("save.src16", src16)
src_u8 = (torch.rand(2, 200) * 255).to(torch.uint8)
g.add("save.srcu8", src_u8)
src32 = (torch.rand(2, 200) * 4.29e9 - 2.147e9).to(torch.int32)
g.add("save.src32", src32)
cases = {
    "f_s16": (src, dict(encoding="PCM_S", bits_per_sample=16)),
    "f_s24": (src, dict(encoding="PCM_S", bits_per_sample=24)),
    "f_s32": (src, dict(encoding="PCM_S", bits_per_sample=32)),
    "f_u8": (src, dict(encoding="PCM_U", bits_per_sample=8)),
    "f_f32": (src, dict()),
    "f_ulaw": (src, dict(encoding="ULAW")),
    "f_alaw": (src, dict(encoding="ALAW")),
    "i16_default": (src16, dict()),
    "i16_s24": (src16, dict(bits_per_sample=24)),
    "i16_u8": (src16, dict(bits_per_sample=8)),
    "u8_default": (src_u8, dict()),
    "u8_s16": (src_u8, dict(encoding="PCM_S")),
    "i32_default": (src32, dict()),
    "i32_s16": (src32, dict(bits_per_sample=16)),
}
tmp = path("_tmp.wav")
for tag, (s, kw) in cases.items():
    torchaudio.save(tmp, s, 8000, **kw)
    y, _ = torchaudio.load(tmp, normalize=False)
    g.add("save.%s" % tag, y)
for tag, bits in [("flac24", None), ("flac16", 16)]:
    tmpf = path("_tmp.flac")
    torchaudio.save(tmpf, src, 8000, bits_per_sample=bits)
    g.add("save.%s" % tag, torchaudio.load(tmpf)[0])
    os.remove(tmpf)
os.remove(tmp)


# Hostile files: WAV headers that lie, cut files.
def wav_bytes(channels, rate, bits, data, data_size=None, fmt_tag=1):
    block = channels * bits // 8
    fmt = struct.pack("<HHIIHH", fmt_tag, channels, rate, rate * block, block, bits)
    size = len(data) if data_size is None else data_size
    body = b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt + b"data" + struct.pack("<I", size) + data
    return b"RIFF" + struct.pack("<I", len(body)) + body


pcm = (x[:, :200].t().contiguous() * 32767).to(torch.int16).numpy().tobytes()
hostile = {
    "bad_datasize.wav": wav_bytes(2, 8000, 16, pcm, data_size=0x7FFFFF00),
    "bad_zero_channels.wav": wav_bytes(0, 8000, 16, pcm),
    "bad_bits12.wav": wav_bytes(2, 8000, 12, pcm),
    "bad_bits0.wav": wav_bytes(2, 8000, 0, pcm),
    "bad_zero_rate.wav": wav_bytes(2, 0, 16, pcm),
    "bad_cut_header.wav": wav_bytes(2, 8000, 16, pcm)[:30],
    "bad_empty.wav": b"",
    "bad_noise.wav": bytes(range(256)) * 4,
}
for name in ["s24.flac", "vorbis.ogg", "a.mp3", "a.opus"]:
    with open(path(name), "rb") as f:
        b = f.read()
    stem, ext = name.rsplit(".", 1)
    hostile["bad_truncated_%s.%s" % (stem, ext)] = b[: len(b) // 2]
    hostile["bad_cut_%s.%s" % (stem, ext)] = b[:60]
for name, b in hostile.items():
    with open(path(name), "wb") as f:
        f.write(b)

g.save()
