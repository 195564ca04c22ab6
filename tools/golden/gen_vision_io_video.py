"""Test videos and golden values for ember::vision::io's video functions (tests/vision/io_video_test.cpp).

Writes small videos under tests/golden/vision/io/ with PyAV (Debian's python3-av on Debian's
FFmpeg): av.mp4 (mpeg4 video and AAC audio), h264.mp4 (libx264 with B-frames, no audio) and
hostile files; and in tests/golden/vision_io_video.golden what torchvision 0.14 returns for them:
read_video (PyAV backend) over several intervals in both pts units, read_video_timestamps,
VideoReader (its video_reader backend) frames, pts, seeks and metadata, and the file
torchvision's write_video produces. Run with Debian's /usr/bin/python3.
"""
import os
import subprocess
import sys
import warnings

import av
import numpy as np
import torch
import torchvision.io as tvio

from golden import GOLDEN_DIR, GoldenWriter

OUT = os.path.join(GOLDEN_DIR, "vision", "io")
warnings.filterwarnings("ignore")


def pattern(T, H, W):
    t = np.arange(T)[:, None, None, None]
    y = np.arange(H)[None, :, None, None]
    x = np.arange(W)[None, None, :, None]
    c = np.arange(3)[None, None, None, :]
    return ((t * 20 + x * 7 + y * 5 + c * 60) % 256).astype(np.uint8)


def make(path, vcodec, acodec=None, T=12, H=24, W=32, fps=5, sr=8000, opts=None):
    vid = pattern(T, H, W)
    with av.open(path, "w") as out:
        vs = out.add_stream(vcodec, rate=fps)
        vs.width, vs.height, vs.pix_fmt = W, H, "yuv420p"
        vs.options = opts or {}
        if acodec:
            ast = out.add_stream(acodec, rate=sr)
            ast.layout = "stereo"
        for i, img in enumerate(vid):
            fr = av.VideoFrame.from_ndarray(img, format="rgb24")
            fr.pts = i
            for p in vs.encode(fr):
                out.mux(p)
        for p in vs.encode():
            out.mux(p)
        if acodec:
            n = int(sr * T / fps)
            k = np.arange(n)
            aud = np.stack([np.sin(k * 2 * np.pi * 440 / sr), np.cos(k * 2 * np.pi * 300 / sr)]) * 0.5
            for s in range(0, n, 1024):
                fr = av.AudioFrame.from_ndarray(np.ascontiguousarray(aud[:, s:s + 1024].astype(np.float32)),
                                                format="fltp", layout="stereo")
                fr.sample_rate = sr
                fr.pts = s
                for p in ast.encode(fr):
                    out.mux(p)
            for p in ast.encode():
                out.mux(p)


def add_read_video(g, name, path, *args, full=False, **kw):
    """read_video's result: the video in full (full=True) or, to keep the file small, as its
    shape and per-frame sums; the audio as its shape, sum and first and last 16 samples."""
    v, a, info = tvio.read_video(path, *args, **kw)
    if full:
        g.add(name + ".video", v)
    g.add(name + ".video_shape", torch.tensor(v.shape, dtype=torch.int64))
    g.add(name + ".video_frame_sums", v.to(torch.int64).flatten(1).sum(1))
    g.add(name + ".audio_shape", torch.tensor(a.shape, dtype=torch.int64))
    g.add(name + ".audio_sum", a.to(torch.float64).sum())
    g.add(name + ".audio_head", a[:, :16])
    g.add(name + ".audio_tail", a[:, -16:])
    g.add(name + ".info", torch.tensor([info.get("video_fps", -1.0), float(info.get("audio_fps", -1))],
                                       dtype=torch.float64))


def reader_entries(av_path, h264_path, tmp):
    entries = {}

    class Sink:
        def add(self, name, t):
            entries[name] = torch.as_tensor(t)

    g = Sink()
    r = tvio.VideoReader(av_path, "video")
    frames = list(r)
    g.add("reader.av.video.data", torch.stack([f["data"] for f in frames]))
    g.add("reader.av.video.pts", torch.tensor([f["pts"] for f in frames], dtype=torch.float64))
    md = r.get_metadata()
    # A fresh reader per seek: torchvision's crashes when it seeks once exhausted.
    for t, kf in ((1.1, False), (1.0, False), (1.1, True), (0.0, False), (0.5, False)):
        r = tvio.VideoReader(av_path, "video")
        r.seek(t, kf)
        f = next(r)
        g.add("reader.av.seek_%s_%d.pts" % (t, kf), torch.tensor([f["pts"]], dtype=torch.float64))
        g.add("reader.av.seek_%s_%d.data" % (t, kf), f["data"])
        g.add("reader.av.seek_%s_%d.next_pts" % (t, kf), torch.tensor([next(r)["pts"]], dtype=torch.float64))
    g.add("reader.av.meta.video", torch.tensor(md["video"]["duration"] + md["video"]["fps"], dtype=torch.float64))
    g.add("reader.av.meta.audio", torch.tensor(md["audio"]["duration"] + md["audio"]["framerate"],
                                               dtype=torch.float64))
    ra = tvio.VideoReader(av_path, "audio")
    aframes = list(ra)
    g.add("reader.av.audio.pts", torch.tensor([f["pts"] for f in aframes], dtype=torch.float64))
    # torchvision's audio frames have the right shape [samples, channels] but hold planar
    # (fltp) data read as if interleaved; the samples expected are PyAV's, interleaved.
    with av.open(av_path) as c:
        pyav = [f.to_ndarray() for f in c.decode(audio=0)]
    g.add("reader.av.audio.first", torch.from_numpy(pyav[0].T.copy()))
    g.add("reader.av.audio.last", torch.from_numpy(pyav[-1].T.copy()))
    # torchvision's VideoReader crashes on h264.mp4 (heap corruption); the tests check Ember's
    # reader on it against read_video's PyAV frames instead.

    torch.save(entries, tmp)


def main():
    os.makedirs(OUT, exist_ok=True)
    g = GoldenWriter("vision_io_video")
    av_path = os.path.join(OUT, "av.mp4")
    h264_path = os.path.join(OUT, "h264.mp4")
    make(av_path, "mpeg4", "aac")
    make(h264_path, "libx264", None, T=10, H=16, W=24, fps=10, opts={"bf": "2", "g": "4"})
    data = open(av_path, "rb").read()
    with open(os.path.join(OUT, "bad_truncated.mp4"), "wb") as f:
        f.write(data[: len(data) // 2])
    with open(os.path.join(OUT, "bad_garbage.mp4"), "wb") as f:
        f.write(b"\x00\x00\x00\x18ftypisom" + bytes(np.random.default_rng(1).integers(0, 256, 500).astype(np.uint8)))

    add_read_video(g, "av.all_pts", av_path, full=True)
    add_read_video(g, "av.all_sec", av_path, pts_unit="sec")
    add_read_video(g, "av.sec_0.5_1.5", av_path, 0.5, 1.5, pts_unit="sec")
    add_read_video(g, "av.sec_0.3_1.0", av_path, 0.3, 1.0, pts_unit="sec")
    add_read_video(g, "av.sec_1.9_end", av_path, 1.9, None, pts_unit="sec")
    add_read_video(g, "av.pts_2048_8192", av_path, 2048, 8192)
    add_read_video(g, "av.pts_3000_9000_tchw", av_path, 3000, 9000, output_format="TCHW")
    add_read_video(g, "h264.all_sec", h264_path, pts_unit="sec", full=True)
    add_read_video(g, "h264.sec_0.25_0.55", h264_path, 0.25, 0.55, pts_unit="sec")
    for name, path in (("av", av_path), ("h264", h264_path)):
        pts, fps = tvio.read_video_timestamps(path)
        g.add(name + ".timestamps_pts", torch.tensor(pts, dtype=torch.float64))
        g.add(name + ".timestamps_fps", torch.tensor([fps], dtype=torch.float64))
        pts, _ = tvio.read_video_timestamps(path, pts_unit="sec")
        g.add(name + ".timestamps_sec", torch.tensor([float(p) for p in pts], dtype=torch.float64))

    # torchvision's VideoReader corrupts the heap when it runs after PyAV in the same
    # process, so it runs in a process of its own.
    tmp = os.path.join(OUT, "reader_golden.tmp.pt")
    subprocess.run([sys.executable, os.path.abspath(__file__), "--reader", av_path, h264_path, tmp], check=True)
    for name, t in torch.load(tmp).items():
        g.add(name, t)
    os.remove(tmp)

    # torchvision's write_video (mpeg4; its audio path fails with Debian's PyAV) as bytes.
    clip = torch.from_numpy(pattern(6, 16, 32))
    written = os.path.join(OUT, "written_mpeg4.mp4")
    tvio.write_video(written, clip, 8.0, video_codec="mpeg4")
    g.add("write.clip", clip)
    g.add("write.mpeg4_bytes", torch.frombuffer(bytearray(open(written, "rb").read()), dtype=torch.uint8))
    v, _, _ = tvio.read_video(written, pts_unit="sec")
    g.add("write.mpeg4_decoded", v)
    os.remove(written)
    written = os.path.join(OUT, "written_x264.mp4")
    tvio.write_video(written, clip, 8, video_codec="libx264", options={"threads": "1"})
    g.add("write.x264_bytes", torch.frombuffer(bytearray(open(written, "rb").read()), dtype=torch.uint8))
    os.remove(written)
    g.save()


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--reader":
        reader_entries(*sys.argv[2:])
    else:
        main()
