"""Golden values for ember::audio::io::StreamReader (tests/audio/io_stream_test.cpp).

Run with Debian's interpreter (python3-torchaudio 0.13.1 with its FFmpeg extension)
after gen_audio_io.py, whose files under tests/golden/audio/io/ it reads:
    /usr/bin/python3 tools/golden/gen_audio_io_stream.py
Writes what torchaudio.io.StreamReader yields to tests/golden/audio_io_stream.golden
and its source stream info to tests/golden/audio/io/stream_info.txt.
"""
import os

import torch
import torchaudio
from torchaudio.io import StreamReader, StreamWriter

from golden import GOLDEN_DIR, GoldenWriter

IO_DIR = os.path.join(GOLDEN_DIR, "audio", "io")
g = GoldenWriter("audio_io_stream")


def path(name):
    return os.path.join(IO_DIR, name)


def record(tag, reader, how="stream"):
    """Every chunk of every output stream: the frames concatenated and each chunk's length."""
    outs = [[] for _ in range(reader.num_out_streams)]
    if how == "stream":
        for chunks in reader.stream():
            for k, c in enumerate(chunks):
                if c is not None:
                    outs[k].append(c)
    else:
        reader.process_all_packets()
        while True:
            chunks = reader.pop_chunks()
            if all(c is None for c in chunks):
                break
            for k, c in enumerate(chunks):
                if c is not None:
                    outs[k].append(c)
    for k, cs in enumerate(outs):
        g.add("%s.%d.data" % (tag, k), torch.cat(cs, 0))
        g.add("%s.%d.sizes" % (tag, k), torch.tensor([c.shape[0] for c in cs], dtype=torch.int64))


r = StreamReader(path("s16.wav"))
r.add_basic_audio_stream(256)
record("wav_fltp_256", r)

r = StreamReader(path("s16.wav"))
r.add_basic_audio_stream(500, format=None)
record("wav_native_500", r)

r = StreamReader(path("s24.flac"))
r.add_basic_audio_stream(300, format="s32")
r.add_basic_audio_stream(-1, format="dbl", sample_rate=16000)
record("flac_two", r)

r = StreamReader(path("a.mp3"))
r.add_basic_audio_stream(1000, sample_rate=8000)
record("mp3_8k", r)

r = StreamReader(path("vorbis.ogg"))
r.add_basic_audio_stream(400, buffer_chunk_size=100, format="s16", sample_rate=11025)
record("ogg_s16_11k", r)

r = StreamReader(path("s16.wav"))
r.add_basic_audio_stream(100, buffer_chunk_size=2)
record("wav_drop", r, how="all")

r = StreamReader(path("s16.wav"))
r.add_basic_audio_stream(200)
r.seek(0.05)
record("wav_seek", r)

with open(path("s16.flac"), "rb") as f:
    data = torch.frombuffer(bytearray(f.read()), dtype=torch.uint8)
r = StreamReader(data)
r.add_basic_audio_stream(512)
record("flac_bytes", r)

with open(path("stream_info.txt"), "w") as f:
    f.write("# file media_type codec format bit_rate num_frames bits_per_sample sample_rate num_channels\n")
    for name in ["s16.wav", "u8.wav", "f32.wav", "s24.flac", "vorbis.ogg", "a.mp3", "a.opus"]:
        r = StreamReader(path(name))
        assert r.num_src_streams == 1 and r.default_audio_stream == 0
        i = r.get_src_stream_info(0)
        f.write("%s %s %s %s %d %d %d %d %d\n" % (name, i.media_type, i.codec, i.format, i.bit_rate, i.num_frames,
                                                  i.bits_per_sample, int(i.sample_rate), i.num_channels))

# StreamWriter: what torchaudio writes, read back by torchaudio.load.
torch.manual_seed(0)
src = (torch.rand(1500, 2) * 2.2 - 1.1).to(torch.float32)
g.add("writer.src", src)
src16 = (src.clamp(-1, 1) * 32767).to(torch.int16)
g.add("writer.src16", src16)
t = torch.arange(3200, dtype=torch.float64) / 16000
tone = (0.5 * torch.sin(2 * 3.141592653589793 * 440 * t)).to(torch.float32).reshape(-1, 1)
g.add("writer.tone", tone)
tmp = os.path.join(IO_DIR, "_tmp")
cases = [
    ("wav_flt", "wav", 8000, 2, "flt", None, src, dict(normalize=False)),
    ("wav_flt_s32", "wav", 8000, 2, "flt", "pcm_s32le", src, dict(normalize=False)),
    ("flac_s16", "flac", 8000, 2, "s16", None, src16, dict()),
    ("mp3_tone", "mp3", 16000, 1, "flt", "libmp3lame", tone, dict()),
]
for tag, ext, rate, ch, fmt, enc, data, load_kw in cases:
    out = tmp + "." + ext
    w = StreamWriter(out)
    w.add_audio_stream(rate, ch, format=fmt, encoder=enc)
    with w.open():
        if ext == "flac":
            # torchaudio 0.13 zero-fills the rest of an encoder frame (4608 samples
            # for FLAC) after each chunk, so FLAC goes in as one chunk.
            w.write_audio_chunk(0, data)
        else:
            w.write_audio_chunk(0, data[:700])
            w.write_audio_chunk(0, data[700:])
    y, sr = torchaudio.load(out, **load_kw)
    assert sr == rate
    g.add("writer.%s" % tag, y)
    os.remove(out)

# torchaudio.load / info on a container libsox cannot read: its FFmpeg fallback.
m4a = path("aac.m4a")
w = StreamWriter(m4a)
w.add_audio_stream(16000, 2, encoder="aac")
with w.open():
    w.write_audio_chunk(0, tone.repeat(1, 2) * torch.tensor([[1.0, 0.5]]))
m = torchaudio.info(m4a)
g.add("fallback.info", torch.tensor([m.sample_rate, m.num_frames, m.num_channels, m.bits_per_sample]))
assert m.encoding == "AAC"
g.add("fallback.load", torchaudio.load(m4a)[0])
g.add("fallback.slice", torchaudio.load(m4a, 100, 500, channels_first=False)[0])

# Video through StreamReader: a small MPEG-4 clip torchaudio writes, read as rgb24
# (the default) and as scaled grey.
yy, xx = torch.meshgrid(torch.arange(32), torch.arange(48), indexing="ij")
frames = torch.stack([torch.stack([(xx * 5 + k * 20) % 256, (yy * 7) % 256, (xx + yy + k * 9) % 256]) for k in range(10)])
mp4 = path("video.mp4")
w = StreamWriter(mp4)
w.add_video_stream(5, 48, 32, format="rgb24", encoder="mpeg4")
with w.open():
    w.write_video_chunk(0, frames.to(torch.uint8))
r = StreamReader(mp4)
r.add_basic_video_stream(4)
r.add_basic_video_stream(3, format="gray", width=24, height=16)
record("video", r)
i = r.get_src_stream_info(0)
g.add("video.info", torch.tensor([i.width, i.height, int(i.frame_rate), i.num_frames]))
g.save()
