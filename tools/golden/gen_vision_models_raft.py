"""Golden values for tests/vision/models_raft_test.cpp: torchvision 0.14's
raft_large and raft_small with every floating parameter and buffer filled by
the formula of gen_vision_models_vit.py (mirrored in
tests/vision/models_vit_fill.cpp), run in eval mode on two 128x128 images
given by a formula the test computes too (image2 is image1 moved by (3, -2)
pixels, so there is flow to find; on 64x64 torchvision gives nan, its last
pyramid level being 1 pixel wide). Stored: every flow prediction sampled at rows
1::7 and columns 2::7 (all positions modulo the 8x upsampling), and the
state_dict keys and shapes ("sd.<builder>/<key>" = [index, *shape]).
Run: /usr/bin/python3 tools/golden/gen_vision_models_raft.py"""
import math

import torch
import torchvision.models.optical_flow as OF

from golden import GoldenWriter

g = GoldenWriter("vision_models_raft")


def fill_deterministic(model):
    """gen_vision_models_vit.py's fill: entry k of n elements gets, from
    s = sin(0.37 * arange(n) + k) in float64: running_var 1 + 0.5 s; other 1-D
    weights 1 + 0.2 s; other 1-D tensors 0.1 s; the rest s / sqrt(n / shape[0]);
    integer tensors keep their values."""
    with torch.no_grad():
        for k, (name, t) in enumerate(model.state_dict().items()):
            if not t.is_floating_point():
                continue
            n = t.numel()
            s = torch.sin(0.37 * torch.arange(n, dtype=torch.float64) + k)
            if name.endswith("running_var"):
                v = 1 + 0.5 * s
            elif t.dim() <= 1 and name.endswith("weight"):
                v = 1 + 0.2 * s
            elif t.dim() <= 1:
                v = 0.1 * s
            else:
                v = s / math.sqrt(n / t.shape[0])
            t.copy_(v.reshape(t.shape).to(t.dtype))
    return model
UPDATES = 3


def image(dx, dy):
    """[1, 3, 128, 128]: 0.5 + 0.4 sin(0.21 (x - dx) + 0.13 (y - dy) + c) cos(0.17 (y - dy) - 0.05 (x - dx) c)."""
    y, x = torch.meshgrid(torch.arange(128, dtype=torch.float64), torch.arange(128, dtype=torch.float64), indexing="ij")
    chans = []
    for c in range(3):
        xs, ys = x - dx, y - dy
        chans.append(0.5 + 0.4 * torch.sin(0.21 * xs + 0.13 * ys + c) * torch.cos(0.17 * ys - 0.05 * xs * c))
    return torch.stack(chans).unsqueeze(0).float()


img1, img2 = image(0, 0), image(3, -2)
for b in ("raft_large", "raft_small"):
    torch.manual_seed(0)
    m = fill_deterministic(getattr(OF, b)()).eval()
    for i, (k, t) in enumerate(m.state_dict().items()):
        g.add("sd.%s/%s" % (b, k), torch.tensor([i] + list(t.shape), dtype=torch.int64))
    with torch.no_grad():
        flows = m(img1, img2, num_flow_updates=UPDATES)
    for i, f in enumerate(flows):
        g.add("%s.flow%d" % (b, i), f[:, :, 1::7, 2::7])

g.save()
