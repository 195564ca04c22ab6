"""Golden values for tests/vision/models_segmentation_test.cpp: torchvision
0.14's FCN, DeepLabV3 and LRASPP (with FCNHead, DeepLabHead/ASPP, LRASPPHead)
over a tiny IntermediateLayerGetter backbone, in eval mode, and their
state_dict names and shapes. Parameters follow the formula of
gen_vision_detection.py (entry k: scale * sin(0.37 * arange(numel) + k)).
Run: /usr/bin/python3 tools/golden/gen_vision_segmentation.py"""
import math
from collections import OrderedDict

import torch
from torch import nn
from torchvision.models._utils import IntermediateLayerGetter
from torchvision.models.segmentation.deeplabv3 import DeepLabHead, DeepLabV3
from torchvision.models.segmentation.fcn import FCN, FCNHead
from torchvision.models.segmentation.lraspp import LRASPP

from golden import GoldenWriter

g = GoldenWriter("vision_segmentation")


def fill(module):
    with torch.no_grad():
        for k, (name, t) in enumerate(module.state_dict().items()):
            if name.endswith("num_batches_tracked"):
                continue
            n = t.numel()
            s = torch.sin(0.37 * torch.arange(n, dtype=torch.float64) + k)
            if name.endswith("running_var"):
                v = 0.5 + 0.25 * (1 + s)
            else:
                scale = 1.0 / math.sqrt(n / t.shape[0]) if t.dim() >= 2 else 0.1
                v = scale * s
            t.copy_(v.reshape(t.shape).to(t.dtype))


def add_state_dict_names(prefix, module):
    for i, (name, t) in enumerate(module.state_dict().items()):
        g.add("%s.sd.%s" % (prefix, name), torch.tensor([i] + list(t.shape), dtype=torch.int64))


def body():
    return nn.Sequential(OrderedDict([
        ("c1", nn.Conv2d(3, 8, 3, stride=2, padding=1)), ("r1", nn.ReLU()),
        ("c2", nn.Conv2d(8, 16, 3, stride=2, padding=1)), ("r2", nn.ReLU()),
        ("c3", nn.Conv2d(16, 16, 3, stride=1, padding=1))]))


torch.manual_seed(0)
x = torch.rand(2, 3, 11, 13)
g.add("x", x)

cases = {
    "fcn": lambda: FCN(IntermediateLayerGetter(body(), {"r2": "out", "r1": "aux"}), FCNHead(16, 5), FCNHead(8, 5)),
    "fcn_noaux": lambda: FCN(IntermediateLayerGetter(body(), {"r2": "out"}), FCNHead(16, 5)),
    "deeplabv3": lambda: DeepLabV3(IntermediateLayerGetter(body(), {"r2": "out", "r1": "aux"}), DeepLabHead(16, 5),
                                   FCNHead(8, 5)),
    "lraspp": lambda: LRASPP(IntermediateLayerGetter(body(), {"r1": "low", "r2": "high"}), 8, 16, 5, 12),
}
for name, make in cases.items():
    m = make()
    fill(m)
    add_state_dict_names(name, m)
    m.eval()
    with torch.no_grad():
        out = m(x)
    for k, v in out.items():
        g.add("%s.%s" % (name, k), v)

g.save()
