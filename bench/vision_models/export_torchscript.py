"""TorchScript exports of the benchmarked architectures for
bench_vision_models_libtorch (random weights: the time does not depend on them).
Run: /usr/bin/python3 bench/vision_models/export_torchscript.py <out dir>"""
import os
import sys

import torch
import torchvision.models as M

out = sys.argv[1] if len(sys.argv) > 1 else "."
os.makedirs(out, exist_ok=True)
for name in ("resnet50", "mobilenet_v3_large"):
    model = getattr(M, name)().eval()
    torch.jit.script(model).save(os.path.join(out, name + ".pt"))
    print("wrote", os.path.join(out, name + ".pt"))
