"""Golden values for StreamReader's filter graphs (tests/audio/stream_reader_filter_test.cpp).

What torchaudio 0.13.1's StreamReader (FFmpeg, libavfilter) yields through
add_audio_stream / add_video_stream filter descriptions, on the small files
gen_audio_io.py wrote under tests/golden/audio/io/. Run with Debian's interpreter:
    /usr/bin/python3 tools/golden/gen_audio_stream_filter.py
"""
import os

import torch
from torchaudio.io import StreamReader

from golden import GOLDEN_DIR, GoldenWriter

IO_DIR = os.path.join(GOLDEN_DIR, "audio", "io")
g = GoldenWriter("audio_stream_filter")


def path(name):
    return os.path.join(IO_DIR, name)


def record(tag, reader):
    """Every chunk of every output stream: the frames concatenated and each chunk's length."""
    outs = [[] for _ in range(reader.num_out_streams)]
    for chunks in reader.stream():
        for k, c in enumerate(chunks):
            if c is not None:
                outs[k].append(c)
    for k, cs in enumerate(outs):
        g.add("%s.%d.data" % (tag, k), torch.cat(cs, 0))
        g.add("%s.%d.sizes" % (tag, k), torch.tensor([c.shape[0] for c in cs], dtype=torch.int64))


# Keep this list in step with the C++ test's.
AUDIO = [
    ("resample_fltp", "s16.wav", 256, "aresample=4000,aformat=sample_fmts=fltp"),
    ("atempo", "s16.wav", 300, "atempo=1.5"),
    ("lowpass", "s16.wav", 200, "lowpass=f=1000"),
    ("pan_mono", "s16.wav", 500, "pan=mono|c0=0.5*c0+0.5*c1"),
    ("volume_s16", "vorbis.ogg", 400, "volume=0.5,aformat=sample_fmts=s16"),
    ("mp3_chain", "a.mp3", 1000, "highpass=f=200,aresample=11025,aformat=sample_fmts=dbl"),
    ("flac_s32", "s24.flac", 333, "areverse"),
]
for tag, name, fpc, desc in AUDIO:
    r = StreamReader(path(name))
    r.add_audio_stream(fpc, buffer_chunk_size=20, filter_desc=desc)
    assert r.get_out_stream_info(0).filter_description == desc
    record(tag, r)

# Two outputs of one source, each with its own graph.
r = StreamReader(path("s16.wav"))
r.add_audio_stream(128, filter_desc="aformat=sample_fmts=s16")
r.add_audio_stream(-1, filter_desc="aresample=16000,volume=2.0")
record("two", r)

# The basic stream's options are the same graphs.
r = StreamReader(path("a.mp3"))
r.add_basic_audio_stream(700, sample_rate=8000, format="s16")
assert r.get_out_stream_info(0).filter_description == "aresample=8000,aformat=sample_fmts=s16"
record("basic_mp3", r)

# Video: flipping, frame-rate conversion, scaling and a pixel format, all one graph.
VIDEO = [
    ("hflip", 4, "hflip,format=pix_fmts=rgb24"),
    ("fps_gray", 2, "fps=5,scale=width=16:height=12,format=pix_fmts=gray"),
    # Planar outputs: Y, U, V planes (4:2:0 chroma repeated over 2x2 blocks).
    ("yuv444p", 3, "format=pix_fmts=yuv444p"),
    ("nv12", 5, "vflip,format=pix_fmts=nv12"),
]
for tag, fpc, desc in VIDEO:
    r = StreamReader(path("video.mp4"))
    r.add_video_stream(fpc, buffer_chunk_size=20, filter_desc=desc)
    record(tag, r)

r = StreamReader(path("video.mp4"))
r.add_basic_video_stream(3, frame_rate=4, width=20, height=10, format="bgr24")
assert r.get_out_stream_info(0).filter_description == "fps=4,scale=width=20:height=10,format=pix_fmts=bgr24", \
    r.get_out_stream_info(0).filter_description
record("basic_video", r)

r = StreamReader(path("video.mp4"))
r.add_basic_video_stream(4, format="yuv420p")
record("basic_yuv420p", r)

g.save()
