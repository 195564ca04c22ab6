"""The reference side of bench_detection.cpp: torchvision 0.14's Faster R-CNN
ResNet-50 FPN (eager, on LibTorch's kernels) on one 800x800 image, eval mode,
median of reps after warm-up, at 1 and 2 threads.
Run: /usr/bin/python3 bench/vision_models/bench_detection_torchvision.py [reps]"""
import sys
import time

import torch
import torchvision

reps = int(sys.argv[1]) if len(sys.argv) > 1 else 3
torch.manual_seed(0)
model = torchvision.models.detection.fasterrcnn_resnet50_fpn(weights=None, weights_backbone=None).eval()
images = [torch.rand(3, 800, 800)]
with torch.no_grad():
    for threads in (1, 2):
        torch.set_num_threads(threads)
        model(images)
        times = []
        for _ in range(reps):
            t0 = time.perf_counter()
            model(images)
            times.append((time.perf_counter() - t0) * 1000)
        times.sort()
        print("fasterrcnn_resnet50_fpn_800 threads=%d median_ms=%.2f" % (threads, times[len(times) // 2]))
