"""Golden values for tests/vision/models_detection_builders_test.cpp: every
full detection and segmentation builder of torchvision 0.14 (no weights, so
the backbones keep BatchNorm2d and all layers train) — its state_dict names
and shapes — and, for a few with small num_classes and small sizes, the eval
outputs on one image (MobileNetV3 ones: the ResNet-50 ones are slow to run in the tests) with the deterministic fill of gen_vision_detection.py
(entry k: scale * sin(0.37 * arange(numel) + k)).
Run: /usr/bin/python3 tools/golden/gen_vision_detection_builders.py"""
import math

import torch
from torchvision.models import detection, segmentation

from golden import GoldenWriter

g = GoldenWriter("vision_detection_builders")


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


# Names and shapes of every builder at its defaults (weights_backbone=None: nothing is downloaded).
names_only = {
    "fasterrcnn_resnet50_fpn": detection.fasterrcnn_resnet50_fpn,
    "fasterrcnn_resnet50_fpn_v2": detection.fasterrcnn_resnet50_fpn_v2,
    "fasterrcnn_mobilenet_v3_large_fpn": detection.fasterrcnn_mobilenet_v3_large_fpn,
    "fasterrcnn_mobilenet_v3_large_320_fpn": detection.fasterrcnn_mobilenet_v3_large_320_fpn,
    "retinanet_resnet50_fpn": detection.retinanet_resnet50_fpn,
    "retinanet_resnet50_fpn_v2": detection.retinanet_resnet50_fpn_v2,
    "fcos_resnet50_fpn": detection.fcos_resnet50_fpn,
    "maskrcnn_resnet50_fpn": detection.maskrcnn_resnet50_fpn,
    "keypointrcnn_resnet50_fpn": detection.keypointrcnn_resnet50_fpn,
    "fcn_resnet50": segmentation.fcn_resnet50,
    "fcn_resnet101": segmentation.fcn_resnet101,
    "deeplabv3_resnet50": segmentation.deeplabv3_resnet50,
    "deeplabv3_resnet101": segmentation.deeplabv3_resnet101,
    "deeplabv3_mobilenet_v3_large": segmentation.deeplabv3_mobilenet_v3_large,
    "lraspp_mobilenet_v3_large": segmentation.lraspp_mobilenet_v3_large,
}
for name, fn in names_only.items():
    add_state_dict_names(name, fn(weights_backbone=None))

# The aux variants' extra head.
add_state_dict_names("fcn_resnet50_aux", segmentation.fcn_resnet50(weights_backbone=None, num_classes=3,
                                                                    aux_loss=True))

torch.manual_seed(0)
x = torch.rand(3, 72, 88)
g.add("x", x)

detectors = {
    "frcnn_mnv3_320": lambda: detection.fasterrcnn_mobilenet_v3_large_320_fpn(
        weights_backbone=None, num_classes=5, min_size=72, max_size=96, rpn_post_nms_top_n_test=40,
        box_score_thresh=0.0, box_detections_per_img=1000),
}
for name, make in detectors.items():
    m = make()
    fill(m)
    m.eval()
    with torch.no_grad():
        out = m([x])[0]
    for k in ("boxes", "labels", "scores"):
        g.add("%s.%s" % (name, k), out[k])

segmenters = {
    "deeplabv3_mnv3": lambda: segmentation.deeplabv3_mobilenet_v3_large(weights_backbone=None, num_classes=3,
                                                                        aux_loss=True),
    "lraspp_mnv3": lambda: segmentation.lraspp_mobilenet_v3_large(weights_backbone=None, num_classes=3),
}
xs = x[:, :48, :56].unsqueeze(0)
g.add("xs", xs)
for name, make in segmenters.items():
    m = make()
    fill(m)
    m.eval()
    with torch.no_grad():
        out = m(xs)
    for k, v in out.items():
        g.add("%s.%s" % (name, k), v)

g.save()
