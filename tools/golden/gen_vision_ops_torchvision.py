"""Golden values for tests/vision/ops_*_test.cpp: torchvision 0.14's ops (box
geometry, NMS, the box losses, sigmoid_focal_loss, roi_align, roi_pool,
ps_roi_align, ps_roi_pool, deform_conv2d) on seeded inputs: outputs and, for
the differentiable ones, the input gradients of sum(y * gy) (golden.py's
with_grads layout: <case>.x<i>, .y, .gy, .gx<i>).
Run: /usr/bin/python3 tools/golden/gen_vision_ops_torchvision.py"""
import os
import sys

import torch
import torchvision
from torchvision import ops

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden import GoldenWriter  # noqa: E402

torch.manual_seed(0)
g = GoldenWriter("vision_ops_torchvision")
with_grads = g.with_grads
assert torchvision.__version__.startswith("0.14"), torchvision.__version__


def rand_boxes(n, size=20.0, dtype=torch.float64):
    xy = torch.rand(n, 2, dtype=dtype) * size
    wh = torch.rand(n, 2, dtype=dtype) * size / 2 + 0.5
    return torch.cat([xy, xy + wh], 1)


# ---- box geometry (differentiable compositions)
b1 = rand_boxes(5)
b2 = rand_boxes(4)
b2[0] = b1[0] + 0.3  # one overlapping pair at least
with_grads("box_area", ops.box_area, b1)
with_grads("box_iou", ops.box_iou, b1, b2)
with_grads("generalized_box_iou", ops.generalized_box_iou, b1, b2)
with_grads("complete_box_iou", ops.complete_box_iou, b1, b2)
with_grads("distance_box_iou", ops.distance_box_iou, b1, b2)
with_grads("complete_box_iou_eps", lambda a, b: ops.complete_box_iou(a, b, eps=0.5), b1, b2)
for fi in ("xyxy", "xywh", "cxcywh"):
    for fo in ("xyxy", "xywh", "cxcywh"):
        with_grads("box_convert_%s_%s" % (fi, fo), lambda b, i=fi, o=fo: ops.box_convert(b, i, o), b1)
wide = torch.tensor([[-3.0, 2.0, 30.0, 9.0], [4.0, -1.0, 8.0, 25.0], [1.0, 1.0, 2.0, 2.0]], dtype=torch.float64)
with_grads("clip_boxes_to_image", lambda b: ops.clip_boxes_to_image(b, (12, 20)), wide)
with_grads("clip_boxes_to_image_3d", lambda b: ops.clip_boxes_to_image(b, (12, 20)), wide.view(3, 1, 4))
g.add("box_iou_int.x0", (b1 * 3).long())
g.add("box_iou_int.x1", (b2 * 3).long())
g.add("box_iou_int.y", ops.box_iou((b1 * 3).long(), (b2 * 3).long()))
g.add("box_area_int.y", ops.box_area((b1 * 3).long()))

# ---- losses over matching boxes (b2 partly disjoint from b1)
p1 = rand_boxes(6)
p2 = rand_boxes(6)
p2[:3] = p1[:3] + torch.rand(3, 4, dtype=torch.float64)
for name, fn in (("generalized_box_iou_loss", ops.generalized_box_iou_loss),
                 ("distance_box_iou_loss", ops.distance_box_iou_loss),
                 ("complete_box_iou_loss", ops.complete_box_iou_loss)):
    for red in ("none", "mean", "sum"):
        with_grads("%s_%s" % (name, red), lambda a, b, f=fn, r=red: f(a, b, reduction=r), p1, p2)
    with_grads(name + "_eps", lambda a, b, f=fn: f(a, b, eps=0.25), p1, p2)
    with_grads(name + "_1d", lambda a, b, f=fn: f(a, b), p1[0], p2[0])

logits = torch.randn(3, 5, dtype=torch.float64)
targets = (torch.rand(3, 5) > 0.6).double()
for red in ("none", "mean", "sum"):
    with_grads("sigmoid_focal_loss_" + red, lambda x, t, r=red: ops.sigmoid_focal_loss(x, t, reduction=r), logits,
               targets)
with_grads("sigmoid_focal_loss_noalpha",
           lambda x, t: ops.sigmoid_focal_loss(x, t, alpha=-1, gamma=1.5), logits, targets)

# ---- nms and friends (integer outputs)
for dt, name in ((torch.float32, "f32"), (torch.float64, "f64")):
    boxes = rand_boxes(300, 50.0, dt)
    scores = torch.rand(300, dtype=dt)
    g.add("nms_%s.boxes" % name, boxes)
    g.add("nms_%s.scores" % name, scores)
    for thr in (0.2, 0.5, 0.8):
        g.add("nms_%s.keep_%g" % (name, thr), ops.nms(boxes, scores, thr))
ties = torch.tensor([[0, 0, 10, 10], [1, 1, 11, 11], [0, 0, 10, 10], [20, 20, 30, 30]], dtype=torch.float32)
g.add("nms_ties.boxes", ties)
g.add("nms_ties.scores", torch.tensor([0.5, 0.5, 0.9, 0.5]))
g.add("nms_ties.keep", ops.nms(ties, torch.tensor([0.5, 0.5, 0.9, 0.5]), 0.5))
for n, name in ((200, "small"), (1500, "large")):  # > 4000 numbers takes torchvision's per-class path
    boxes = rand_boxes(n, 40.0, torch.float32)
    scores = torch.rand(n)
    idxs = torch.randint(0, 5, (n,))
    g.add("batched_nms_%s.boxes" % name, boxes)
    g.add("batched_nms_%s.scores" % name, scores)
    g.add("batched_nms_%s.idxs" % name, idxs)
    g.add("batched_nms_%s.keep" % name, ops.batched_nms(boxes, scores, idxs, 0.4))
small = rand_boxes(20, 10.0)
g.add("remove_small_boxes.boxes", small)
g.add("remove_small_boxes.keep", ops.remove_small_boxes(small, 2.5))
masks = torch.zeros(3, 7, 9, dtype=torch.uint8)
masks[0, 2:5, 1:8] = 1
masks[1, 6, 0] = 3
masks[2, 0:7, 4] = 1
masks[2, 3, 8] = 1
g.add("masks_to_boxes.masks", masks)
g.add("masks_to_boxes.boxes", ops.masks_to_boxes(masks))

# ---- RoI ops: boxes partly outside the image, one degenerate, one tiny.
rois = torch.tensor([[0, 1.3, 2.2, 9.1, 7.7], [1, -2.0, -1.5, 4.0, 3.2], [1, 3.0, 3.0, 3.0, 3.0],
                     [0, 6.6, 0.4, 14.9, 11.6], [1, 0.2, 0.3, 0.9, 0.8]], dtype=torch.float64)
x = torch.randn(2, 8, 9, 12, dtype=torch.float64)
for aligned in (False, True):
    for sr in (-1, 2):
        for scale in (1.0, 0.5):
            name = "roi_align_a%d_s%d_sc%g" % (aligned, sr, scale)
            with_grads(name, lambda t, r, a=aligned, s=sr, sc=scale: ops.roi_align(t, r, (3, 4), sc, s, a), x, rois)
with_grads("roi_align_f32", lambda t, r: ops.roi_align(t, r, 2, 0.7, -1, True), x.float(), rois.float())
for scale in (1.0, 0.5, 0.33):
    with_grads("roi_pool_sc%g" % scale, lambda t, r, sc=scale: ops.roi_pool(t, r, (3, 2), sc), x, rois)
with_grads("roi_pool_f32", lambda t, r: ops.roi_pool(t, r, 3, 0.6), x.float(), rois.float())
for sr in (-1, 2):
    for scale in (1.0, 0.5):
        name = "ps_roi_align_s%d_sc%g" % (sr, scale)
        with_grads(name, lambda t, r, s=sr, sc=scale: ops.ps_roi_align(t, r, (2, 2), sc, s), x, rois)
with_grads("ps_roi_align_f32", lambda t, r: ops.ps_roi_align(t, r, (2, 4), 0.7, -1), x.float(), rois.float())
for scale in (1.0, 0.5):
    with_grads("ps_roi_pool_sc%g" % scale, lambda t, r, sc=scale: ops.ps_roi_pool(t, r, (2, 2), sc), x, rois)
with_grads("ps_roi_pool_f32", lambda t, r: ops.ps_roi_pool(t, r, (4, 2), 0.6), x.float(), rois.float())
# the list-of-boxes form
lx = torch.randn(2, 3, 6, 7, dtype=torch.float64)
la = torch.tensor([[0.5, 0.5, 4.0, 5.0], [1.0, 2.0, 6.0, 5.5]], dtype=torch.float64)
lb = torch.tensor([[2.0, 1.0, 5.0, 4.0]], dtype=torch.float64)
with_grads("roi_align_list", lambda t, a, b: ops.roi_align(t, [a, b], 2, 1.0, 2, False), lx, la, lb)

# ---- deform_conv2d: groups 2, offset groups 2, offsets sending samples past the border
dx = torch.randn(2, 4, 6, 7, dtype=torch.float64)
dw = torch.randn(6, 2, 3, 3, dtype=torch.float64)
db = torch.randn(6, dtype=torch.float64)
off = torch.randn(2, 36, 6, 4, dtype=torch.float64) * 1.5
msk = torch.rand(2, 18, 6, 4, dtype=torch.float64)
with_grads("deform_conv2d_mask", lambda x, o, w, b, m: ops.deform_conv2d(x, o, w, b, (1, 2), 1, 1, m),
           dx, off, dw, db, msk)
with_grads("deform_conv2d_nomask", lambda x, o, w, b: ops.deform_conv2d(x, o, w, b, (1, 2), 1), dx, off, dw, db)
off2 = torch.randn(1, 18, 2, 3, dtype=torch.float64)
with_grads("deform_conv2d_dilated", lambda x, o, w: ops.deform_conv2d(x, o, w, None, 1, 0, (2, 2)),
           dx[:1, :3, :, :], off2, torch.randn(2, 3, 3, 3, dtype=torch.float64))
with_grads("deform_conv2d_f32", lambda x, o, w, b, m: ops.deform_conv2d(x, o, w, b, 1, 1, 1, m),
           dx.float(), (torch.randn(2, 72, 6, 7) * 2), torch.randn(3, 4, 3, 3), torch.randn(3),
           torch.rand(2, 36, 6, 7))


# ---- modules: state_dict (<case>.sd.<key>), input <case>.x and output <case>.y
def module_case(name, m, x):
    m.eval()
    with torch.no_grad():
        for k, v in m.state_dict().items():
            if v.is_floating_point():
                v.copy_(torch.rand_like(v) + 0.5 if "var" in k else torch.randn_like(v))
        for k, v in m.state_dict().items():
            g.add("%s.sd.%s" % (name, k), v)
        g.add(name + ".x", x)
        g.add(name + ".y", m(x))


module_case("frozen_bn", ops.FrozenBatchNorm2d(3, eps=1e-3), torch.randn(2, 3, 4, 5))
module_case("conv2d_norm_act", ops.Conv2dNormActivation(3, 4, 3, stride=2), torch.randn(2, 3, 7, 6))
module_case("conv2d_norm_act_nonorm",
            ops.Conv2dNormActivation(4, 6, (3, 1), groups=2, norm_layer=None, dilation=2), torch.randn(1, 4, 7, 6))
module_case("conv3d_norm_act", ops.Conv3dNormActivation(2, 3, 3, activation_layer=None), torch.randn(1, 2, 4, 5, 3))
module_case("squeeze_excitation", ops.SqueezeExcitation(6, 2), torch.randn(2, 6, 3, 4))
module_case("mlp", ops.MLP(5, [7, 3], norm_layer=torch.nn.LayerNorm), torch.randn(4, 5))
module_case("permute", ops.Permute([0, 2, 3, 1]), torch.randn(2, 3, 4, 5))


# ---- MultiScaleRoIAlign: three levels of a 64 x 64 image (the boxes spread
# over them with canonical_scale 32), two images; and a single level.
from collections import OrderedDict  # noqa: E402

feats = OrderedDict([("f0", torch.randn(2, 3, 16, 16, dtype=torch.float64)),
                     ("skip", torch.randn(2, 3, 8, 8, dtype=torch.float64)),
                     ("f1", torch.randn(2, 3, 8, 8, dtype=torch.float64)),
                     ("f2", torch.randn(2, 3, 4, 4, dtype=torch.float64))])
ms_boxes = [torch.tensor([[2.0, 3.0, 10.0, 11.0], [5.0, 5.0, 21.0, 20.0], [0.0, 0.0, 60.0, 50.0]], dtype=torch.float64),
            torch.tensor([[10.0, 12.0, 50.0, 52.0], [30.0, 2.0, 37.0, 8.0]], dtype=torch.float64)]
for k, v in feats.items():
    g.add("msroi.x.%s" % k, v)
for i, b in enumerate(ms_boxes):
    g.add("msroi.boxes%d" % i, b)
msroi = ops.MultiScaleRoIAlign(["f0", "f1", "f2"], (3, 2), 2, canonical_scale=32)
g.add("msroi.y", msroi(feats, ms_boxes, [(64, 64), (60, 62)]))
msroi1 = ops.MultiScaleRoIAlign(["f1"], 2, -1)
g.add("msroi_single.y", msroi1(feats, ms_boxes, [(64, 64), (60, 62)]))
msroi2 = ops.MultiScaleRoIAlign(["f0", "f2"], 2, 2, canonical_scale=32)  # level 1 has no map: zeros
g.add("msroi_gap.y", msroi2(feats, ms_boxes, [(64, 64), (64, 64)]))

# ---- FeaturePyramidNetwork with each extra block
from torchvision.ops.feature_pyramid_network import LastLevelMaxPool, LastLevelP6P7  # noqa: E402

fx = OrderedDict([("a", torch.randn(1, 2, 16, 16)), ("b", torch.randn(1, 3, 8, 7)), ("c", torch.randn(1, 4, 4, 3))])
for name, extra in (("fpn_maxpool", LastLevelMaxPool()), ("fpn_p6p7", LastLevelP6P7(4, 5))):
    fpn = ops.FeaturePyramidNetwork([2, 3, 4], 5, extra_blocks=extra)
    with torch.no_grad():
        for k, v in fpn.state_dict().items():
            v.copy_(torch.randn_like(v))
            g.add("%s.sd.%s" % (name, k), v)
        for k, v in fx.items():
            g.add("%s.x.%s" % (name, k), v)
        for k, v in fpn(fx).items():
            g.add("%s.y.%s" % (name, k), v)

g.save()
