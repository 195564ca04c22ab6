"""Golden values for tests/vision/models_vit_*.cpp: the transformer-era
torchvision classifiers (ViT; ConvNeXt and Swin where listed below).

Every floating parameter and buffer is filled by a formula the C++ tests
compute too (fill_deterministic; mirrored in tests/vision/models_vit_util.h),
then eval() forward runs on a seeded small input; input and logits are stored.
For each builder, the state_dict keys and shapes are stored as
"sd.<builder>/<key>" = [index, *shape].
Run: /usr/bin/python3 tools/golden/gen_vision_models_vit.py"""
import math

import torch
import torchvision.models as M
from torchvision.models.vision_transformer import ConvStemConfig, VisionTransformer, interpolate_embeddings

from golden import GoldenWriter

torch.manual_seed(0)
g = GoldenWriter("vision_models_vit")


def fill_deterministic(model):
    """Entry k of the state_dict (in order) of n elements gets, from
    s = sin(0.37 * arange(n) + k) in float64: running_var 1 + 0.5 s; other 1-D
    weights (norms) 1 + 0.2 s; other 1-D tensors 0.1 s; the rest
    s / sqrt(n / shape[0]). Integer tensors and the constant Swin tables
    (relative_position_index, relative_coords_table) keep their values."""
    with torch.no_grad():
        for k, (name, t) in enumerate(model.state_dict().items()):
            if not t.is_floating_point() or "relative_position_index" in name or "relative_coords_table" in name:
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


def add_keys(builder_name, model):
    for i, (k, t) in enumerate(model.state_dict().items()):
        g.add("sd.%s/%s" % (builder_name, k), torch.tensor([i] + list(t.shape), dtype=torch.int64))


def image_batch(name, *shape):
    """A seeded input on a 1/256 grid (short, exact in the golden text)."""
    x = torch.randint(0, 256, shape).float() / 256
    g.add(name, x)
    return x


def add_forward(case, model, x):
    fill_deterministic(model).eval()
    with torch.no_grad():
        y = model(x)
    g.add(case + ".y", y)
    return model


sections = ["vit", "convnext", "swin"]

if "vit" in sections:
    x = image_batch("vit.x", 2, 3, 32, 32)
    base = add_forward("vit_small", VisionTransformer(32, 8, 2, 2, 16, 32, num_classes=5), x)
    repr_model = add_forward("vit_repr", VisionTransformer(32, 8, 2, 2, 16, 32, num_classes=5, representation_size=6), x)
    add_keys("vit_repr", repr_model)
    stem = [ConvStemConfig(8, 3, 2), ConvStemConfig(8, 3, 2), ConvStemConfig(12, 3, 2)]
    add_forward("vit_stem", VisionTransformer(32, 8, 1, 2, 16, 24, num_classes=4, conv_stem_configs=stem), x)
    add_keys("vit_small", base)
    add_keys("vit_stem", VisionTransformer(32, 8, 1, 2, 16, 24, num_classes=4, conv_stem_configs=stem))
    for mode in ("bicubic", "bilinear"):
        st = interpolate_embeddings(48, 8, base.state_dict(), mode)
        g.add("vit_interp_%s.pos_embedding" % mode, st["encoder.pos_embedding"])
    for b in ("vit_b_16", "vit_b_32", "vit_l_16", "vit_l_32", "vit_h_14"):
        add_keys(b, getattr(M, b)())

if "convnext" in sections:
    from torchvision.models.convnext import CNBlockConfig, ConvNeXt
    x = image_batch("convnext.x", 2, 3, 32, 32)
    setting = [CNBlockConfig(8, 16, 1), CNBlockConfig(16, None, 2)]
    m = add_forward("convnext_small_cfg", ConvNeXt(setting, num_classes=5), x)
    add_keys("convnext_small_cfg", m)
    for b in ("convnext_tiny", "convnext_small", "convnext_base", "convnext_large"):
        add_keys(b, getattr(M, b)())

if "swin" in sections:
    from torchvision.models.swin_transformer import PatchMergingV2, SwinTransformer, SwinTransformerBlockV2
    # 36x36: the 9x9 and 5x5 token grids are padded to the 4x4 windows, and both stages shift.
    x = image_batch("swin.x", 2, 3, 36, 36)
    cfg = dict(patch_size=[4, 4], embed_dim=8, depths=[2, 2], num_heads=[2, 4], window_size=[4, 4], num_classes=5)
    m = add_forward("swin_small_cfg", SwinTransformer(**cfg), x)
    add_keys("swin_small_cfg", m)
    m = add_forward("swin_v2_small_cfg",
                    SwinTransformer(**cfg, block=SwinTransformerBlockV2, downsample_layer=PatchMergingV2), x)
    add_keys("swin_v2_small_cfg", m)
    rect = dict(patch_size=[4, 4], embed_dim=8, depths=[2], num_heads=[2], window_size=[3, 4], num_classes=3)
    add_forward("swin_rect_cfg", SwinTransformer(**rect), x)
    add_forward("swin_v2_rect_cfg",
                SwinTransformer(**rect, block=SwinTransformerBlockV2, downsample_layer=PatchMergingV2), x)
    for b in ("swin_t", "swin_s", "swin_b", "swin_v2_t", "swin_v2_s", "swin_v2_b"):
        add_keys(b, getattr(M, b)())

g.save()
