"""Golden values for tests/vision/models_cnn_*.cpp: torchvision 0.14's
classification CNNs filled with deterministic weights that the C++ test
computes too, so no weight file is needed:
  tensor k of the state_dict (in its order), element i: h = (i 1103515245 + 12345
  + 7919 k) mod 2^31, h = (h 1103515245 + 12345) mod 2^31, b = h / 2^30 - 1:
    running_var 0.5 + 0.5 b^2, running_mean 0.1 b, num_batches_tracked 0,
    other 1-D tensors ending in "weight" 1 + 0.2 b, other 1-D ones 0.1 b,
    conv/linear weights gain sqrt(3) b / sqrt(fan_in), with a gain per
    architecture (stored) that keeps its logits O(1..50) and input-dependent
  input element i of [N, 3, S, S]: 0.5 sin(0.013 i) + 0.3 cos(0.071 i).
Writes tests/golden/vision_models_cnn.golden (eval-mode logits of every
architecture, feature-extractor outputs), vision_models_cnn_train.golden (a
train-mode step of resnet18) and, per architecture,
tests/golden/vision/models/cnn/<arch>.keys (state_dict names and shapes).
Run: /usr/bin/python3 tools/golden/gen_vision_models_cnn.py"""
import math
import os
import sys

import torch
import torchvision.models as M
from torchvision.models.feature_extraction import create_feature_extractor, get_graph_node_names

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden import GOLDEN_DIR, GoldenWriter  # noqa: E402

SIZE = 64
# name -> (builder, kwargs); the variants exercise the builders' keyword arguments.
ARCHS = {n: (n, {}) for n in [
    "resnet18", "resnet34", "resnet50", "resnet101", "resnet152", "resnext50_32x4d", "resnext101_32x8d",
    "resnext101_64x4d", "wide_resnet50_2", "wide_resnet101_2", "mobilenet_v2", "mobilenet_v3_large",
    "mobilenet_v3_small"] + ["efficientnet_b%d" % i for i in range(8)] + [
    "efficientnet_v2_s", "efficientnet_v2_m", "efficientnet_v2_l"] + [
    "regnet_y_%s" % s for s in ("400mf", "800mf", "1_6gf", "3_2gf", "8gf", "16gf", "32gf", "128gf")] + [
    "regnet_x_%s" % s for s in ("400mf", "800mf", "1_6gf", "3_2gf", "8gf", "16gf", "32gf")]}
ARCHS.update({
    "resnet50_dilated_c10": ("resnet50", {"replace_stride_with_dilation": [False, True, True], "num_classes": 10}),
    "mobilenet_v2_w050": ("mobilenet_v2", {"width_mult": 0.5}),
    "mobilenet_v3_large_tail_dilated": ("mobilenet_v3_large", {"reduced_tail": True, "dilated": True}),
    "mobilenet_v3_small_w075": ("mobilenet_v3_small", {"width_mult": 0.75}),
})
# Too large to build in a quick test run; their forward is checked only when asked for.
LARGE = {"regnet_y_128gf", "regnet_y_32gf", "regnet_x_32gf", "regnet_y_16gf", "regnet_x_16gf", "wide_resnet101_2",
         "efficientnet_v2_l", "efficientnet_v2_m", "efficientnet_b7", "efficientnet_b6", "resnext101_32x8d",
         "resnext101_64x4d", "resnet152", "efficientnet_b5"}


def fill(model, gain=1.0):
    with torch.no_grad():
        for k, (name, t) in enumerate(model.state_dict().items()):
            if not t.is_floating_point():
                t.zero_()
                continue
            i = torch.arange(t.numel(), dtype=torch.int64)
            h = (i * 1103515245 + 12345 + 7919 * k) % 2147483648
            h = (h * 1103515245 + 12345) % 2147483648
            b = (h.double() / 1073741824.0 - 1.0).reshape(t.shape)
            if name.endswith("running_var"):
                v = 0.5 + 0.5 * b * b
            elif name.endswith("running_mean"):
                v = 0.1 * b
            elif t.dim() == 1:
                v = 1 + 0.2 * b if name.endswith("weight") else 0.1 * b
            else:
                v = gain * math.sqrt(3.0) * b / math.sqrt(t.numel() / t.shape[0])
            t.copy_(v.to(t.dtype))


def image(n, size):
    i = torch.arange(n * 3 * size * size, dtype=torch.float64)
    return (0.5 * torch.sin(0.013 * i) + 0.3 * torch.cos(0.071 * i)).reshape(n, 3, size, size).float()


def main():
    only = set(sys.argv[1:])
    g = GoldenWriter("vision_models_cnn")
    keys_dir = os.path.join(GOLDEN_DIR, "vision", "models", "cnn")
    os.makedirs(keys_dir, exist_ok=True)
    x = image(1, SIZE)
    for name, (builder, kwargs) in ARCHS.items():
        if only and name not in only:
            continue
        torch.manual_seed(0)
        model = getattr(M, builder)(**kwargs).eval()
        x2 = x * 0.3 + 0.2
        for gain in (1.4, 1.3, 1.2, 1.1, 1.0, 0.9, 0.8, 0.7, 0.6, 0.5):
            fill(model, gain)
            with torch.no_grad():
                y = model(x)
                if y.abs().max() < 50 or gain == 0.5:
                    break
        g.add(name + ".gain", torch.tensor(gain, dtype=torch.float64))
        with open(os.path.join(keys_dir, name + ".keys"), "w") as f:
            for key, t in model.state_dict().items():
                f.write("%s %s\n" % (key, ",".join(str(s) for s in t.shape)))
        with torch.no_grad():
            dep = (y - model(x2)).std().item()
        g.add(name + ".logits", y)
        print(name, "gain", gain, "max |logit| %.3g" % y.abs().max().item(), "input dependence %.3g" % dep, flush=True)

    # Train-mode steps: batch statistics in every BatchNorm, running statistics, gradients.
    # (Its own file, tests/golden/vision_models_cnn_train.golden. Batch 2 at 64x64 keeps the
    # layer4 statistics well-conditioned: at 32x32 they come from two values per channel and
    # float rounding alone moves the gradients by percents.)
    if not only or "train" in only:
        gt = GoldenWriter("vision_models_cnn_train")
        model = M.resnet18(num_classes=10).train()
        fill(model)
        xt = image(2, 64)
        y = model(xt)
        loss = (y * torch.linspace(-1, 1, y.numel()).reshape(y.shape)).sum()
        loss.backward()
        gt.add("train_resnet18.logits", y.detach())
        # Matrices' gradients are stored by their first four rows (the files stay small).
        for name, p in model.named_parameters():
            if name in ("fc.weight", "layer4.0.bn1.weight", "layer4.0.bn1.bias", "layer4.0.conv1.weight",
                        "layer3.1.bn2.bias", "layer3.1.conv2.weight", "layer3.0.downsample.0.weight"):
                gt.add("train_resnet18.grad." + name, p.grad[:4] if p.dim() > 1 else p.grad)
        gt.add("train_resnet18.running_mean.layer1.0.bn1", model.layer1[0].bn1.running_mean)
        # ReLU's kink: some pre-activations here sit within 1e-5 of zero (layer3.0.bn1's
        # channel 114 at 3.9e-6), where float rounding decides the gradient below them, so
        # deep gradients are compared on a network without kinks: EfficientNet-B0's
        # stages (SiLU, sigmoid), without dropout or stochastic depth.
        setting, last = M.efficientnet._efficientnet_conf("efficientnet_b0", width_mult=1.0, depth_mult=1.0)
        eff = M.EfficientNet(setting, 0.0, stochastic_depth_prob=0.0, num_classes=10, last_channel=last).train()
        fill(eff)
        y = eff(xt)
        (y * torch.linspace(-1, 1, y.numel()).reshape(y.shape)).sum().backward()
        gt.add("train_efficientnet_b0.logits", y.detach())
        for name, p in eff.named_parameters():
            if name in ("features.0.0.weight", "features.0.1.weight", "features.1.0.block.0.0.weight",
                        "features.3.1.block.1.0.weight", "features.5.0.block.2.fc1.weight", "classifier.1.weight"):
                gt.add("train_efficientnet_b0.grad." + name, p.grad[:4] if p.dim() > 1 else p.grad)
        gt.add("train_efficientnet_b0.running_var.features.0.1", eff.features[0][1].running_var)
        gt.save()

    # Feature extraction by torchvision's FX node names.
    if not only or "features" in only:
        model = M.resnet18().eval()
        fill(model)
        train_nodes, eval_nodes = get_graph_node_names(model)
        with open(os.path.join(keys_dir, "resnet18.nodes"), "w") as f:
            f.write("\n".join(eval_nodes) + "\n")
        nodes = {"layer1": "l1", "layer2.0.relu_1": "l2r", "layer3.1.add": "l3add", "avgpool": "pool",
                 "flatten": "flat", "maxpool": "mp", "layer4.1.bn2": "l4bn"}
        fe = create_feature_extractor(model, nodes)
        with torch.no_grad():
            out = fe(x)
        for k, v in out.items():
            g.add("features_resnet18." + k, v)
        model = M.mobilenet_v3_small().eval()
        fill(model)
        _, eval_nodes = get_graph_node_names(model)
        with open(os.path.join(keys_dir, "mobilenet_v3_small.nodes"), "w") as f:
            f.write("\n".join(eval_nodes) + "\n")
        fe = create_feature_extractor(model, ["features.3", "features.12", "avgpool", "classifier.0"])
        with torch.no_grad():
            out = fe(x)
        for k, v in out.items():
            g.add("features_mobilenet_v3_small." + k, v)
    if not only:
        g.save()


main()
