"""Golden values for ember::audio::io::StreamReader (tests/audio/io_stream_test.cpp).

Run with Debian's interpreter (python3-torchaudio 0.13.1 with its FFmpeg extension)
after gen_audio_io.py, whose files under tests/golden/audio/io/ it reads:
    /usr/bin/python3 tools/golden/gen_audio_io_stream.py
Writes what torchaudio.io.StreamReader yields to tests/golden/audio_io_stream.golden
and its source stream info to tests/golden/audio/io/stream_info.txt.
"""
import os

import torch
from torchaudio.io import StreamReader

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
g.save()
