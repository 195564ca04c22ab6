"""torchvision's side of bench/vision (run by run.sh with Debian's /usr/bin/python3):
the same cases on the inputs vision_bench wrote to <dir>, printed as "<case> <milliseconds>".
    bench_torchvision.py <dir> <threads>"""
import sys
import time

import numpy as np
import torch
import torchvision
from torchvision.io import decode_jpeg, read_file
import torchvision.transforms.functional as F


def median_ms(fn, reps):
    fn()
    t = []
    for _ in range(reps):
        a = time.perf_counter()
        fn()
        t.append((time.perf_counter() - a) * 1e3)
    t.sort()
    return t[len(t) // 2]


d, threads = sys.argv[1], int(sys.argv[2])
torch.set_num_threads(threads)
data = read_file(d + "/frame.jpg")
print("jpeg_decode_1080p.torchvision %.4f" % median_ms(lambda: decode_jpeg(data), 15))
frame = decode_jpeg(data)
print("resize_1080p_u8_to_224.torchvision %.4f" % median_ms(lambda: F.resize(frame, [224], antialias=True), 15))
batch = torch.from_numpy(np.fromfile(d + "/batch.f32", dtype=np.float32).reshape(64, 3, 256, 256))
print("resize_batch64_f32_256_to_224.torchvision %.4f" % median_ms(lambda: F.resize(batch, [224], antialias=True), 7))
boxes = torch.from_numpy(np.fromfile(d + "/nms_boxes.f32", dtype=np.float32).reshape(-1, 4))
scores = torch.from_numpy(np.fromfile(d + "/nms_scores.f32", dtype=np.float32))
print("nms_10000.torchvision %.4f" % median_ms(lambda: torch.ops.torchvision.nms(boxes, scores, 0.5), 15))
feat = torch.from_numpy(np.fromfile(d + "/roi_feat.f32", dtype=np.float32).reshape(2, 256, 50, 50))
rois = torch.from_numpy(np.fromfile(d + "/roi_boxes.f32", dtype=np.float32).reshape(-1, 5))
print("roi_align_1000.torchvision %.4f" % median_ms(
    lambda: torch.ops.torchvision.roi_align(feat, rois, 1.0, 7, 7, 2, True), 9))
