"""Golden values for ember::vision::transforms::v2 (tests/vision/transforms_v2_*_test.cpp).

torchvision 0.14 has no transforms.v2, so the boxes are checked by independent routes:
  * each box is drawn as a filled mask, the mask goes through torchvision 0.14's v1 op
    (nearest, fill 0) and masks_to_boxes of the result is stored (`<case>.mask_boxes`, with
    the max edge +1 so a box [x1, x2) of pixels compares directly; rows of `<case>.mask_valid`
    mark masks that kept a pixel);
  * for the warps, the four corners of each box go through the forward affine matrix
    torchvision's _get_inverse_affine_matrix(..., inverted=False) returns (numpy), or the inverse
    of _get_perspective_coeffs's homography, and the box around them, clamped, is
    `<case>.corners`.
Elastic boxes are checked on a constant displacement (`elastic_shift`), where the corners'
approximate inverse grid is exact. Images and masks themselves are torchvision's v1 outputs (`<case>.image`, `<case>.mask`).
Seeded module cases (`mod.<name>.image`) hold v1's module output for torch.manual_seed(s):
v2's modules draw the same parameters, so their images must equal these.
Run: /usr/bin/python3 tools/golden/gen_vision_transforms_v2.py"""
import math

import numpy as np
import torch
import torchvision.transforms as T
import torchvision.transforms.functional as F
from torchvision.ops import masks_to_boxes
from torchvision.transforms import InterpolationMode as IM

from golden import GoldenWriter

torch.manual_seed(0)
g = GoldenWriter("vision_transforms_v2")

H, W = 24, 32
boxes = torch.tensor([[2, 3, 12, 10], [15, 5, 30, 20], [0, 0, 8, 24], [20, 18, 32, 24]], dtype=torch.float32)
masks = torch.zeros(len(boxes), H, W, dtype=torch.uint8)
for i, (x1, y1, x2, y2) in enumerate(boxes.long().tolist()):
    masks[i, y1:y2, x1:x2] = 1
image = torch.randint(0, 256, (3, H, W), dtype=torch.uint8)
fimage = torch.rand(3, H, W)
g.add("in.boxes", boxes)
g.add("in.masks", masks)
g.add("in.image", image)
g.add("in.fimage", fimage)
disp = torch.randn(1, H, W, 2) * 0.05
g.add("in.disp", disp)


def add_mask_route(name, out_masks):
    valid = out_masks.flatten(1).bool().any(1)
    mb = torch.zeros(len(out_masks), 4)
    if valid.any():
        mb[valid] = masks_to_boxes(out_masks[valid])
        mb[valid, 2:] += 1
    g.add(name + ".mask_boxes", mb)
    g.add(name + ".mask_valid", valid.to(torch.uint8))


def clamp_xyxy(b, h, w):
    b = b.clone()
    b[:, 0::2] = b[:, 0::2].clamp(0, w)
    b[:, 1::2] = b[:, 1::2].clamp(0, h)
    return b


def corner_boxes(b, m):
    """Corners of xyxy boxes through the 2x3 matrix m (numpy float64), boxed."""
    out = []
    for x1, y1, x2, y2 in b.tolist():
        pts = np.array([[x1, y1, 1], [x2, y1, 1], [x2, y2, 1], [x1, y2, 1]], dtype=np.float64)
        q = pts @ np.asarray(m, dtype=np.float64).reshape(2, 3).T
        out.append([q[:, 0].min(), q[:, 1].min(), q[:, 0].max(), q[:, 1].max()])
    return torch.tensor(out, dtype=torch.float32)


def case(name, img_fn, mask_fn=None, fimg=False):
    g.add(name + ".image", img_fn(image.clone()))
    if fimg:
        g.add(name + ".fimage", img_fn(fimage.clone()))
    m = (mask_fn or img_fn)(masks.clone())
    g.add(name + ".mask", m)
    add_mask_route(name, m)


case("hflip", F.hflip, fimg=True)
case("vflip", F.vflip)
case("resize_up", lambda x: F.resize(x, [48, 64], antialias=True),
     lambda m: F.resize(m, [48, 64], interpolation=IM.NEAREST))
case("resize_down", lambda x: F.resize(x, [12, 16], antialias=True),
     lambda m: F.resize(m, [12, 16], interpolation=IM.NEAREST), fimg=True)
case("resize_short", lambda x: F.resize(x, [16], max_size=20, antialias=True),
     lambda m: F.resize(m, [16], interpolation=IM.NEAREST, max_size=20))
case("crop", lambda x: F.crop(x, 2, 4, 18, 20))
case("crop_out", lambda x: F.crop(x, -3, -2, 20, 30))
case("center_crop", lambda x: F.center_crop(x, [16, 20]))
case("resized_crop", lambda x: F.resized_crop(x, 2, 4, 18, 20, [36, 40], antialias=True),
     lambda m: F.resized_crop(m, 2, 4, 18, 20, [36, 40], interpolation=IM.NEAREST))
for mode in ["constant", "edge", "reflect", "symmetric"]:
    case("pad_" + mode, lambda x, mode=mode: F.pad(x, [3, 5, 2, 1], fill=0, padding_mode=mode),
         lambda m: F.pad(m, [3, 5, 2, 1], fill=0, padding_mode="constant"))
    if mode != "constant":
        g.add("pad_%s.mask_mode" % mode, F.pad(masks.clone(), [3, 5, 2, 1], padding_mode=mode))

# Warps: images with NEAREST (and BILINEAR for float), masks NEAREST fill 0.
rot_cases = {
    "rotate30": dict(angle=30.0, expand=False, center=None),
    "rotate30_expand": dict(angle=30.0, expand=True, center=None),
    "rotate_m45_center": dict(angle=-45.0, expand=False, center=[10, 8]),
    "rotate90_expand": dict(angle=90.0, expand=True, center=None),
}
for name, kw in rot_cases.items():
    case(name, lambda x, kw=kw: F.rotate(x, kw["angle"], IM.NEAREST, kw["expand"], kw["center"], fill=[0.0]))
    c = kw["center"] if kw["center"] is not None and not kw["expand"] else [W * 0.5, H * 0.5]
    m = F._get_inverse_affine_matrix(c, -kw["angle"], [0.0, 0.0], 1.0, [0.0, 0.0], inverted=False)
    b = corner_boxes(boxes, m)
    h, w = H, W
    if kw["expand"]:
        frame = corner_boxes(torch.tensor([[0.0, 0.0, W, H]]), m)[0]
        b[:, 0::2] -= frame[0]
        b[:, 1::2] -= frame[1]
        out = F.rotate(image, kw["angle"], IM.NEAREST, True)
        h, w = out.shape[-2:]
    g.add(name + ".corners", clamp_xyxy(b, h, w))
    g.add(name + ".canvas", torch.tensor([h, w]))

aff = dict(angle=15.0, translate=[3, -2], scale=1.2, shear=[10.0, 5.0])
case("affine", lambda x: F.affine(x, aff["angle"], aff["translate"], aff["scale"], aff["shear"], IM.NEAREST, fill=[0.0]),
     fimg=True)
m = F._get_inverse_affine_matrix([W * 0.5, H * 0.5], aff["angle"], aff["translate"], aff["scale"], aff["shear"],
                                 inverted=False)
g.add("affine.corners", clamp_xyxy(corner_boxes(boxes, m), H, W))
aff2 = dict(angle=-20.0, translate=[-4, 1], scale=0.8, shear=[0.0, 0.0], center=[6, 9])
case("affine_center", lambda x: F.affine(x, aff2["angle"], aff2["translate"], aff2["scale"], aff2["shear"],
                                         IM.NEAREST, fill=[0.0], center=aff2["center"]))
m = F._get_inverse_affine_matrix([6.0, 9.0], aff2["angle"], aff2["translate"], aff2["scale"], aff2["shear"],
                                 inverted=False)
g.add("affine_center.corners", clamp_xyxy(corner_boxes(boxes, m), H, W))

start = [[0, 0], [31, 0], [31, 23], [0, 23]]
end = [[3, 2], [28, 1], [30, 22], [1, 20]]
case("perspective", lambda x: F.perspective(x, start, end, IM.NEAREST, fill=[0.0]))
coeffs = F._get_perspective_coeffs(start, end)  # output -> input; boxes need input -> output
Hm = np.array([[coeffs[0], coeffs[1], coeffs[2]], [coeffs[3], coeffs[4], coeffs[5]], [coeffs[6], coeffs[7], 1.0]])
Hinv = np.linalg.inv(Hm)
out = []
for x1, y1, x2, y2 in boxes.tolist():
    pts = np.array([[x1, y1, 1], [x2, y1, 1], [x2, y2, 1], [x1, y2, 1]], dtype=np.float64) @ Hinv.T
    q = pts[:, :2] / pts[:, 2:]
    out.append([q[:, 0].min(), q[:, 1].min(), q[:, 0].max(), q[:, 1].max()])
g.add("perspective.corners", clamp_xyxy(torch.tensor(out, dtype=torch.float32), H, W))

case("elastic", lambda x: F.elastic_transform(x, disp, IM.NEAREST, fill=[0.0]))
# A constant displacement (3 px left, 2 px down) moves the content rigidly, so the boxes'
# corner approximation has an exact mask route.
disp_shift = torch.empty(1, H, W, 2)
disp_shift[..., 0] = 2 * 3.0 / W
disp_shift[..., 1] = 2 * -2.0 / H
g.add("in.disp_shift", disp_shift)
case("elastic_shift", lambda x: F.elastic_transform(x, disp_shift, IM.NEAREST, fill=[0.0]))

# Seeded modules: v1's module output for manual_seed(s) (v2 draws the same parameters).
modules = {
    "hflip": lambda: T.RandomHorizontalFlip(p=1.0),
    "rotation": lambda: T.RandomRotation([-40, 40], interpolation=IM.NEAREST),
    "affine": lambda: T.RandomAffine(25, translate=(0.1, 0.2), scale=(0.8, 1.2), shear=[-10, 10, -5, 5]),
    "perspective": lambda: T.RandomPerspective(0.4, p=1.0, interpolation=IM.NEAREST),
    "resized_crop": lambda: T.RandomResizedCrop([20, 24], antialias=True),
    "color_jitter": lambda: T.ColorJitter(0.4, 0.4, 0.4, 0.1),
}
for name, make in modules.items():
    t = make()
    torch.manual_seed(7)
    g.add("mod.%s.image" % name, t(image.clone()))

g.save()
