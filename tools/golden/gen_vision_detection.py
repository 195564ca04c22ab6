"""Golden values for tests/vision/models_detection_*.cpp: torchvision 0.14's
detection building blocks (BoxCoder, Matcher, the sampler's draws,
AnchorGenerator, DefaultBoxGenerator, GeneralizedRCNNTransform) and a
FasterRCNN over a tiny BackboneWithFPN, in eval (detections) and train
(losses) mode, with state_dict names and shapes.

Parameters are not random: entry k of the state_dict (in order) is
    scale * sin(0.37 * arange(numel) + k),  scale = 1/sqrt(numel/shape[0]) for
weights of 2+ dims and 0.1 for vectors; BatchNorm running_var is
0.5 + 0.25 * (1 + sin(...)) and num_batches_tracked is left alone. The C++
tests compute the same. The training run uses a sampler batch larger than
every anchor and proposal set, so the sampled minibatch is all positives and
negatives and the losses do not depend on the random permutation.
Run: /usr/bin/python3 tools/golden/gen_vision_detection.py"""
import math
from collections import OrderedDict

import torch
from torch import nn
from functools import partial

from torchvision.models._utils import IntermediateLayerGetter
from torchvision.models.detection import FCOS, FasterRCNN, RetinaNet
from torchvision.models.detection.ssd import SSD, SSDFeatureExtractorVGG
from torchvision.models.detection.ssdlite import SSDLiteHead
from torchvision.models.detection.faster_rcnn import FastRCNNPredictor, TwoMLPHead
from torchvision.models.detection.keypoint_rcnn import KeypointRCNN, KeypointRCNNHeads, KeypointRCNNPredictor
from torchvision.models.detection.mask_rcnn import MaskRCNN, MaskRCNNHeads, MaskRCNNPredictor
from torchvision.models.detection import _utils as det_utils
from torchvision.models.detection.anchor_utils import AnchorGenerator, DefaultBoxGenerator
from torchvision.models.detection.backbone_utils import BackboneWithFPN
from torchvision.models.detection.image_list import ImageList
from torchvision.models.detection.transform import GeneralizedRCNNTransform
from torchvision.ops import MultiScaleRoIAlign
from torchvision.ops.feature_pyramid_network import LastLevelP6P7

from golden import GoldenWriter

g = GoldenWriter("vision_detection")


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


def image(k, c, h, w, dtype=torch.float32):
    """Test image k: 0.5 + 0.5 * sin(0.05 * (1 + 0.1 * k) * arange(numel) + k) (the C++ tests compute it too)."""
    i = torch.arange(c * h * w, dtype=torch.float64)
    return (0.5 + 0.5 * torch.sin(0.05 * (1 + 0.1 * k) * i + k)).reshape(c, h, w).to(dtype)


def add_state_dict_names(prefix, module):
    for i, (name, t) in enumerate(module.state_dict().items()):
        g.add("%s.sd.%s" % (prefix, name), torch.tensor([i] + list(t.shape), dtype=torch.int64))


# ---- BoxCoder, BoxLinearCoder
torch.manual_seed(0)
ref = torch.rand(6, 2, dtype=torch.float64) * 40
ref = torch.cat([ref, ref + 1 + torch.rand(6, 2, dtype=torch.float64) * 30], 1)
prop = torch.rand(6, 2, dtype=torch.float64) * 40
prop = torch.cat([prop, prop + 1 + torch.rand(6, 2, dtype=torch.float64) * 30], 1)
coder = det_utils.BoxCoder((10.0, 10.0, 5.0, 5.0))
g.add("coder.ref", ref)
g.add("coder.prop", prop)
g.add("coder.encode", coder.encode_single(ref, prop))
codes = torch.randn(6, 8, dtype=torch.float64)
codes[0, 2] = 9.0  # beyond bbox_xform_clip
g.add("coder.codes", codes)
g.add("coder.decode", coder.decode(codes, [prop[:4], prop[4:]]))
lin = det_utils.BoxLinearCoder(True)
g.add("linear.encode", lin.encode(prop, ref))
g.add("linear.decode", lin.decode(codes[:, :4], prop))

# ---- Matcher
iou = torch.rand(3, 9, dtype=torch.float64)
iou[1, 4] = 0.95
iou[:, 7] = 0.1
iou[2, 8] = iou[2].max().item()  # a tie for gt 2's best prediction
g.add("matcher.iou", iou)
g.add("matcher.plain", det_utils.Matcher(0.7, 0.3, False)(iou))
g.add("matcher.low_quality", det_utils.Matcher(0.7, 0.3, True)(iou))
g.add("matcher.ssd", det_utils.SSDMatcher(0.5)(iou))

# ---- BalancedPositiveNegativeSampler: the draws of torch.randperm after manual_seed(7)
labels = [torch.tensor([1, 0, -1, 0, 2, 0, 0, 1, 0, 3, 0, 0, -1, 0, 1, 0], dtype=torch.int64),
          torch.tensor([0, 0, 1, 0, 0, 0, 2, 0, 0, 0], dtype=torch.int64)]
g.add("sampler.labels0", labels[0])
g.add("sampler.labels1", labels[1])
torch.manual_seed(7)
pos, neg = det_utils.BalancedPositiveNegativeSampler(6, 0.5)(labels)
for i in range(2):
    g.add("sampler.pos%d" % i, pos[i])
    g.add("sampler.neg%d" % i, neg[i])

# ---- AnchorGenerator, DefaultBoxGenerator
feats = [torch.zeros(2, 4, 5, 7), torch.zeros(2, 4, 3, 4)]
il = ImageList(torch.zeros(2, 3, 40, 56), [(40, 56), (37, 50)])
ag = AnchorGenerator(((16, 24), (40,)), ((0.5, 1.0, 2.0), (0.7, 1.3)))
g.add("anchors", ag(il, feats)[1])
dbg = DefaultBoxGenerator([[2], [2, 3]])
g.add("default_boxes", dbg(il, feats)[0])
dbg2 = DefaultBoxGenerator([[2], [3]], scales=[0.1, 0.3, 0.6], steps=[8, 16], clip=False)
g.add("default_boxes_steps", dbg2(il, feats)[1])

# ---- GeneralizedRCNNTransform
torch.manual_seed(1)
imgs = [image(0, 3, 20, 28), image(1, 3, 25, 16)]
tboxes = [torch.tensor([[3.0, 4.0, 10.0, 15.0], [10.0, 2.0, 26.0, 20.0]]), torch.tensor([[1.0, 1.0, 12.0, 20.0]])]
tr = GeneralizedRCNNTransform(32, 44, [0.485, 0.456, 0.406], [0.229, 0.224, 0.225], size_divisible=16)
tr.eval()
out, tt = tr(imgs, [{"boxes": b, "labels": torch.tensor([1] * len(b))} for b in tboxes])
g.add("transform.batch", out.tensors)
g.add("transform.sizes", torch.tensor(out.image_sizes, dtype=torch.int64))
g.add("transform.boxes0", tt[0]["boxes"])
g.add("transform.boxes1", tt[1]["boxes"])
pp = tr.postprocess([{"boxes": tt[0]["boxes"]}, {"boxes": tt[1]["boxes"]}], out.image_sizes, [(20, 28), (25, 16)])
g.add("transform.post0", pp[0]["boxes"])
g.add("transform.post1", pp[1]["boxes"])
trf = GeneralizedRCNNTransform(64, 96, [0.5, 0.5, 0.5], [0.25, 0.25, 0.25], fixed_size=(24, 20))
trf.eval()
g.add("transform.fixed", trf(imgs)[0].tensors)


# ---- FasterRCNN over a tiny BackboneWithFPN
def tiny_frcnn(small_heads=True, **kw):
    body = nn.Sequential(OrderedDict([
        ("c1", nn.Conv2d(3, 4, 3, stride=2, padding=1)), ("r1", nn.ReLU()),
        ("c2", nn.Conv2d(4, 6, 3, stride=2, padding=1)), ("r2", nn.ReLU()),
        ("c3", nn.Conv2d(6, 8, 3, stride=2, padding=1)), ("r3", nn.ReLU()),
        ("c4", nn.Conv2d(8, 8, 3, stride=1, padding=1))]))
    backbone = BackboneWithFPN(body, {"r1": "0", "r2": "1", "r3": "2"}, [4, 6, 8], 8)
    anchors = AnchorGenerator(((8,), (16,), (32,), (64,)), ((0.5, 1.0, 2.0),) * 4)
    pool = MultiScaleRoIAlign(["0", "1", "2"], 7, 2)
    if small_heads:
        kw.update(box_head=TwoMLPHead(8 * 7 * 7, 32), box_predictor=FastRCNNPredictor(32, 4))
    else:
        kw.update(num_classes=4)
    model = FasterRCNN(backbone, min_size=64, max_size=96, rpn_anchor_generator=anchors,
                       box_roi_pool=pool, rpn_pre_nms_top_n_test=60, rpn_post_nms_top_n_test=40,
                       box_detections_per_img=12, box_score_thresh=0.2, **kw)
    fill(model)
    return model.double()


torch.manual_seed(2)
fimgs = [image(2, 3, 50, 70, torch.float64), image(3, 3, 60, 44, torch.float64)]
add_state_dict_names("frcnn_default", tiny_frcnn(small_heads=False))
model = tiny_frcnn()
add_state_dict_names("frcnn", model)
model.eval()
with torch.no_grad():
    dets = model(fimgs)
for i, d in enumerate(dets):
    for k in ("boxes", "labels", "scores"):
        g.add("frcnn.eval%d.%s" % (i, k), d[k])

targets = [{"boxes": torch.tensor([[5.0, 6.0, 40.0, 30.0], [20.0, 10.0, 60.0, 45.0]], dtype=torch.float64),
            "labels": torch.tensor([1, 3])},
           {"boxes": torch.tensor([[2.0, 3.0, 30.0, 50.0]], dtype=torch.float64), "labels": torch.tensor([2])}]
for i, t in enumerate(targets):
    g.add("frcnn.target%d.boxes" % i, t["boxes"])
    g.add("frcnn.target%d.labels" % i, t["labels"])
model = tiny_frcnn(rpn_batch_size_per_image=100000, box_batch_size_per_image=100000, rpn_pre_nms_top_n_train=80,
                   rpn_post_nms_top_n_train=50)
model.train()
losses = model(fimgs, targets)
for k, v in losses.items():
    g.add("frcnn.loss.%s" % k, v.detach())



# ---- RetinaNet over the tiny backbone with P6/P7
def tiny_body():
    return nn.Sequential(OrderedDict([
        ("c1", nn.Conv2d(3, 4, 3, stride=2, padding=1)), ("r1", nn.ReLU()),
        ("c2", nn.Conv2d(4, 6, 3, stride=2, padding=1)), ("r2", nn.ReLU()),
        ("c3", nn.Conv2d(6, 8, 3, stride=2, padding=1)), ("r3", nn.ReLU())]))


def tiny_retinanet():
    backbone = BackboneWithFPN(tiny_body(), {"r1": "0", "r2": "1", "r3": "2"}, [4, 6, 8], 8,
                               extra_blocks=LastLevelP6P7(8, 8))
    anchors = AnchorGenerator(((8,), (16,), (32,), (48,), (64,)), ((0.5, 1.0, 2.0),) * 5)
    model = RetinaNet(backbone, 4, min_size=64, max_size=96, anchor_generator=anchors, score_thresh=0.3,
                      detections_per_img=10, topk_candidates=20)
    fill(model)
    return model.double()


model = tiny_retinanet()
add_state_dict_names("retinanet", model)
model.eval()
with torch.no_grad():
    dets = model(fimgs)
for i, d in enumerate(dets):
    for k in ("boxes", "labels", "scores"):
        g.add("retinanet.eval%d.%s" % (i, k), d[k])
model.train()
for k, v in model(fimgs, targets).items():
    g.add("retinanet.loss.%s" % k, v.detach())


# ---- FCOS over the tiny backbone (32 FPN channels for its GroupNorm(32)), one anchor per location
def tiny_fcos():
    backbone = BackboneWithFPN(tiny_body(), {"r1": "0", "r2": "1", "r3": "2"}, [4, 6, 8], 32,
                               extra_blocks=LastLevelP6P7(32, 32))
    anchors = AnchorGenerator(((2,), (4,), (8,), (16,), (32,)), ((1.0,),) * 5)
    model = FCOS(backbone, 4, min_size=64, max_size=96, anchor_generator=anchors, detections_per_img=10,
                 topk_candidates=20)
    fill(model)
    return model.double()


model = tiny_fcos()
add_state_dict_names("fcos", model)
model.eval()
with torch.no_grad():
    dets = model(fimgs)
for i, d in enumerate(dets):
    for k in ("boxes", "labels", "scores"):
        g.add("fcos.eval%d.%s" % (i, k), d[k])
model.train()
for k, v in model(fimgs, targets).items():
    g.add("fcos.loss.%s" % k, v.detach())


# ---- SSD and SSDlite over an IntermediateLayerGetter of the tiny body, 2 feature maps
def tiny_ssd(lite):
    backbone = IntermediateLayerGetter(tiny_body(), {"r2": "0", "r3": "1"})
    anchors = DefaultBoxGenerator([[2], [2, 3]])
    kw = {}
    if lite:
        kw["head"] = SSDLiteHead([6, 8], anchors.num_anchors_per_location(), 4,
                                 partial(nn.BatchNorm2d, eps=0.001, momentum=0.03))
    model = SSD(backbone, anchors, (40, 48), 4, score_thresh=0.2, detections_per_img=10, topk_candidates=20, **kw)
    fill(model)
    return model.double()


for name, lite in (("ssd", False), ("ssdlite", True)):
    model = tiny_ssd(lite)
    add_state_dict_names(name, model)
    model.eval()
    with torch.no_grad():
        dets = model(fimgs)
    for i, d in enumerate(dets):
        for k in ("boxes", "labels", "scores"):
            g.add("%s.eval%d.%s" % (name, i, k), d[k])
    model.train()
    for k, v in model(fimgs, targets).items():
        g.add("%s.loss.%s" % (name, k), v.detach())


# ---- MaskRCNN: the tiny FasterRCNN plus a small mask branch; masks compared on a 5-pixel grid
def tiny_maskrcnn(**kw):
    body = nn.Sequential(OrderedDict([
        ("c1", nn.Conv2d(3, 4, 3, stride=2, padding=1)), ("r1", nn.ReLU()),
        ("c2", nn.Conv2d(4, 6, 3, stride=2, padding=1)), ("r2", nn.ReLU()),
        ("c3", nn.Conv2d(6, 8, 3, stride=2, padding=1)), ("r3", nn.ReLU())]))
    backbone = BackboneWithFPN(body, {"r1": "0", "r2": "1", "r3": "2"}, [4, 6, 8], 8)
    anchors = AnchorGenerator(((8,), (16,), (32,), (64,)), ((0.5, 1.0, 2.0),) * 4)
    model = MaskRCNN(backbone, min_size=64, max_size=96, rpn_anchor_generator=anchors,
                     box_roi_pool=MultiScaleRoIAlign(["0", "1", "2"], 7, 2), box_head=TwoMLPHead(8 * 7 * 7, 32),
                     box_predictor=FastRCNNPredictor(32, 4), rpn_pre_nms_top_n_test=60, rpn_post_nms_top_n_test=40,
                     box_detections_per_img=3, box_score_thresh=0.2,
                     mask_roi_pool=MultiScaleRoIAlign(["0", "1", "2"], 14, 2), mask_head=MaskRCNNHeads(8, [8, 8], 1),
                     mask_predictor=MaskRCNNPredictor(8, 8, 4), **kw)
    fill(model)
    return model.double()


model = tiny_maskrcnn()
add_state_dict_names("maskrcnn", model)
model.eval()
with torch.no_grad():
    dets = model(fimgs)
for i, d in enumerate(dets):
    for k in ("boxes", "labels", "scores"):
        g.add("maskrcnn.eval%d.%s" % (i, k), d[k])
    g.add("maskrcnn.eval%d.masks_grid" % i, d["masks"][:, :, ::5, ::5])
    g.add("maskrcnn.eval%d.masks_sum" % i, d["masks"].sum((1, 2, 3)))
mtargets = []
for i, t in enumerate(targets):
    h, w = fimgs[i].shape[-2:]
    masks = torch.zeros(len(t["boxes"]), h, w, dtype=torch.uint8)
    for j, b in enumerate(t["boxes"].long().tolist()):
        masks[j, b[1]:b[3], b[0]:b[2]] = 1
    g.add("maskrcnn.target%d.masks" % i, masks)
    mtargets.append({"boxes": t["boxes"], "labels": t["labels"], "masks": masks})
model = tiny_maskrcnn(rpn_batch_size_per_image=100000, box_batch_size_per_image=100000, rpn_pre_nms_top_n_train=80,
                      rpn_post_nms_top_n_train=50)
model.train()
for k, v in model(fimgs, mtargets).items():
    g.add("maskrcnn.loss.%s" % k, v.detach())


# ---- KeypointRCNN: the tiny FasterRCNN plus a small keypoint branch (5 keypoints)
def tiny_keypointrcnn(**kw):
    body = nn.Sequential(OrderedDict([
        ("c1", nn.Conv2d(3, 4, 3, stride=2, padding=1)), ("r1", nn.ReLU()),
        ("c2", nn.Conv2d(4, 6, 3, stride=2, padding=1)), ("r2", nn.ReLU()),
        ("c3", nn.Conv2d(6, 8, 3, stride=2, padding=1)), ("r3", nn.ReLU())]))
    backbone = BackboneWithFPN(body, {"r1": "0", "r2": "1", "r3": "2"}, [4, 6, 8], 8)
    anchors = AnchorGenerator(((8,), (16,), (32,), (64,)), ((0.5, 1.0, 2.0),) * 4)
    model = KeypointRCNN(backbone, min_size=64, max_size=96, rpn_anchor_generator=anchors,
                         box_roi_pool=MultiScaleRoIAlign(["0", "1", "2"], 7, 2), box_head=TwoMLPHead(8 * 7 * 7, 32),
                         box_predictor=FastRCNNPredictor(32, 4), rpn_pre_nms_top_n_test=60,
                         rpn_post_nms_top_n_test=40, box_detections_per_img=3, box_score_thresh=0.2,
                         keypoint_roi_pool=MultiScaleRoIAlign(["0", "1", "2"], 14, 2),
                         keypoint_head=KeypointRCNNHeads(8, [8, 8]), keypoint_predictor=KeypointRCNNPredictor(8, 5),
                         **kw)
    fill(model)
    return model.double()


model = tiny_keypointrcnn()
add_state_dict_names("keypointrcnn", model)
model.eval()
with torch.no_grad():
    dets = model(fimgs)
for i, d in enumerate(dets):
    for k in ("boxes", "labels", "scores", "keypoints", "keypoints_scores"):
        g.add("keypointrcnn.eval%d.%s" % (i, k), d[k])
ktargets = []
for i, t in enumerate(targets):
    kps = []
    for b in t["boxes"].tolist():
        kps.append([[b[0] + (j + 1) / 6 * (b[2] - b[0]), b[1] + ((j * 2) % 5 + 1) / 6 * (b[3] - b[1]),
                     0.0 if j == 4 else 1.0] for j in range(5)])
    kp = torch.tensor(kps, dtype=torch.float32)
    g.add("keypointrcnn.target%d.keypoints" % i, kp)
    ktargets.append({"boxes": t["boxes"], "labels": t["labels"], "keypoints": kp})
model = tiny_keypointrcnn(rpn_batch_size_per_image=100000, box_batch_size_per_image=100000,
                          rpn_pre_nms_top_n_train=80, rpn_post_nms_top_n_train=50)
model.train()
for k, v in model(fimgs, ktargets).items():
    g.add("keypointrcnn.loss.%s" % k, v.detach())


# ---- SSDFeatureExtractorVGG over a thin VGG-shaped features (5 max pools, conv4_3/conv5_3 with 512
# channels), float32 at 268 x 268 (the smallest size whose last extra block is 1 x 1); each map
# compared by its sum, absolute sum and every 331st value
def thin_vgg():
    def c(i, o):
        return nn.Conv2d(i, o, 3, padding=1)
    return nn.Sequential(c(3, 8), nn.ReLU(), nn.MaxPool2d(2, 2), c(8, 8), nn.ReLU(), nn.MaxPool2d(2, 2),
                         c(8, 16), nn.ReLU(), nn.MaxPool2d(2, 2), c(16, 512), nn.ReLU(), nn.MaxPool2d(2, 2),
                         nn.Conv2d(512, 512, 1), nn.ReLU(), nn.MaxPool2d(2, 2))


ext = SSDFeatureExtractorVGG(thin_vgg(), False)
fill(ext)
add_state_dict_names("ssdvgg", ext)
with torch.no_grad():
    feats = ext(image(4, 3, 268, 268).unsqueeze(0))
for k, v in feats.items():
    g.add("ssdvgg.%s.shape" % k, torch.tensor(v.shape, dtype=torch.int64))
    g.add("ssdvgg.%s.sum" % k, v.to(torch.float64).sum())
    g.add("ssdvgg.%s.abssum" % k, v.to(torch.float64).abs().sum())
    g.add("ssdvgg.%s.samples" % k, v.flatten()[::331])

g.save()
