"""Golden values for tests/nn/bilinear_pool_norm_pad_module_test.cpp: Bilinear, adaptive pools, BatchNorm,
InstanceNorm, LocalResponseNorm, padding and distance modules (outputs and the
gradients of a fixed upstream gradient), and optim.swa_utils (AveragedModel SWA/EMA,
update_bn, SWALR). Run: /usr/bin/python3 tools/golden/gen_bilinear_pool_norm_pad_swa.py"""
import torch
import torch.nn as nn
from torch.optim import swa_utils

from golden import GoldenWriter

torch.manual_seed(0)
torch.set_default_dtype(torch.float64)
g = GoldenWriter("bilinear_pool_norm_pad_swa")


def run(name, module, *inputs, params=()):
    """Stores inputs, the module's parameters, the output, and the gradients of
    sum(output * gy) for a stored random gy."""
    for pname, p in module.named_parameters():
        g.add("%s.%s" % (name, pname), p)
    xs = [x.clone().requires_grad_(True) for x in inputs]
    for i, x in enumerate(xs):
        g.add("%s.x%d" % (name, i), x)
    out = module(*xs)
    y = out[0] if isinstance(out, tuple) else out
    g.add(name + ".y", y)
    if isinstance(out, tuple):
        g.add(name + ".indices", out[1])
    gy = torch.randn_like(y)
    g.add(name + ".gy", gy)
    y.backward(gy)
    for i, x in enumerate(xs):
        g.add("%s.gx%d" % (name, i), x.grad)
    for pname, p in module.named_parameters():
        g.add("%s.grad_%s" % (name, pname), p.grad)
    return module


# Bilinear
run("bilinear", nn.Bilinear(3, 4, 5), torch.randn(6, 3), torch.randn(6, 4))
run("bilinear3d", nn.Bilinear(2, 3, 2), torch.randn(2, 3, 2), torch.randn(2, 3, 3))
run("bilinear_nobias", nn.Bilinear(3, 2, 4, bias=False), torch.randn(5, 3), torch.randn(5, 2))

# Adaptive pools (windows of unequal size: 7 -> 3, 5 -> 2)
run("adaptive_avg1d", nn.AdaptiveAvgPool1d(3), torch.randn(2, 3, 7))
run("adaptive_avg2d", nn.AdaptiveAvgPool2d((3, None)), torch.randn(2, 2, 7, 5))
run("adaptive_avg2d_b", nn.AdaptiveAvgPool2d(2), torch.randn(3, 7, 5))
run("adaptive_avg3d", nn.AdaptiveAvgPool3d((2, 3, None)), torch.randn(1, 2, 5, 7, 3))
run("adaptive_max1d", nn.AdaptiveMaxPool1d(3, return_indices=True), torch.randn(2, 3, 7))
run("adaptive_max2d", nn.AdaptiveMaxPool2d((None, 2), return_indices=True), torch.randn(2, 2, 7, 5))
run("adaptive_max3d", nn.AdaptiveMaxPool3d(2, return_indices=True), torch.randn(1, 2, 5, 7, 3))


# Norm layers: two training steps (running statistics move), then eval.
def norm_case2(name, module, shape):
    with torch.no_grad():
        if module.weight is not None:
            module.weight.uniform_(0.5, 1.5)
            module.bias.uniform_(-0.5, 0.5)
    module.train()
    run(name, module, torch.randn(*shape) * 2 + 1)
    x2 = torch.randn(*shape) * 3 - 1
    g.add(name + ".train2_x", x2)
    module(x2)
    for bname, b in module.named_buffers():
        g.add("%s.after_train.%s" % (name, bname), b)
    module.eval()
    x = torch.randn(*shape)
    g.add(name + ".eval_x", x)
    g.add(name + ".eval_y", module(x))


norm_case2("batchnorm1d", nn.BatchNorm1d(3), (4, 3))
norm_case2("batchnorm1d_3d", nn.BatchNorm1d(3, momentum=None), (4, 3, 5))
norm_case2("batchnorm2d", nn.BatchNorm2d(3, momentum=0.3), (2, 3, 4, 3))
norm_case2("batchnorm3d", nn.BatchNorm3d(2, affine=False), (2, 2, 3, 2, 3))
norm_case2("instancenorm1d", nn.InstanceNorm1d(3, affine=True, track_running_stats=True), (2, 3, 6))
norm_case2("instancenorm2d", nn.InstanceNorm2d(3, affine=True), (2, 3, 4, 5))
norm_case2("instancenorm2d_unbatched", nn.InstanceNorm2d(3, track_running_stats=True, momentum=0.2), (3, 4, 5))
norm_case2("instancenorm3d", nn.InstanceNorm3d(2, affine=True, track_running_stats=True, eps=1e-3),
           (2, 2, 3, 4, 2))

# LocalResponseNorm
run("lrn3d", nn.LocalResponseNorm(3, alpha=0.1, beta=0.75, k=1.0), torch.randn(2, 5, 6))
run("lrn4d", nn.LocalResponseNorm(2), torch.randn(2, 5, 4, 3) * 10)
run("lrn5d", nn.LocalResponseNorm(4, alpha=0.5, beta=0.5, k=2.0), torch.randn(1, 6, 2, 3, 2))

# Padding
run("reflection1d", nn.ReflectionPad1d((2, 1)), torch.randn(2, 3, 5))
run("reflection2d", nn.ReflectionPad2d((1, 2, 2, 0)), torch.randn(1, 2, 4, 5))
run("reflection3d", nn.ReflectionPad3d(1), torch.randn(1, 2, 3, 3, 4))
run("replication1d", nn.ReplicationPad1d(2), torch.randn(3, 4))
run("replication2d", nn.ReplicationPad2d((0, 1, 3, 2)), torch.randn(2, 1, 3, 4))
run("replication3d", nn.ReplicationPad3d((1, 0, 2, 1, 0, 2)), torch.randn(1, 1, 2, 3, 2))
run("zeropad2d", nn.ZeroPad2d((1, 2, -1, 1)), torch.randn(1, 2, 3, 4))
run("constant1d", nn.ConstantPad1d(2, 3.5), torch.randn(2, 3))
run("constant2d", nn.ConstantPad2d((1, 0, 2, 1), -1.0), torch.randn(2, 3, 3))
run("constant3d", nn.ConstantPad3d(1, 0.5), torch.randn(1, 1, 2, 2, 2))

# Distances
run("cosine", nn.CosineSimilarity(), torch.randn(4, 5), torch.randn(4, 5))
run("cosine_dim0", nn.CosineSimilarity(dim=0, eps=1e-6), torch.randn(3, 4, 2), torch.randn(1, 4, 2))
run("pairwise", nn.PairwiseDistance(), torch.randn(4, 5), torch.randn(4, 5))
run("pairwise_p3", nn.PairwiseDistance(p=3, eps=1e-3, keepdim=True), torch.randn(4, 5), torch.randn(1, 5))

# Loss modules: input gradient only (the target is data).
def loss_case(name, module, x, target):
    x = x.clone().requires_grad_(True)
    g.add(name + ".x0", x)
    g.add(name + ".target", target)
    y = module(x, target)
    g.add(name + ".y", y)
    gy = torch.randn_like(y)
    g.add(name + ".gy", gy)
    y.backward(gy)
    g.add(name + ".gx0", x.grad)


loss_case("loss_l1_none", nn.L1Loss(reduction="none"), torch.randn(3, 4), torch.randn(3, 4))
loss_case("loss_mse_sum", nn.MSELoss(reduction="sum"), torch.randn(3, 4), torch.randn(3, 4))
loss_case("loss_bce_weight2", nn.BCELoss(weight=torch.arange(4.) / 4 + 0.5), torch.rand(3, 4) * 0.8 + 0.1,
          torch.rand(3, 4))
loss_case("loss_bcelogits_pos", nn.BCEWithLogitsLoss(pos_weight=torch.tensor([1.0, 2.0, 0.5, 3.0])),
          torch.randn(3, 4), torch.rand(3, 4))
loss_case("loss_nll_ignore", nn.NLLLoss(ignore_index=1), torch.log_softmax(torch.randn(5, 3), 1),
          torch.tensor([0, 1, 2, 2, 1]))
loss_case("loss_ce_smooth", nn.CrossEntropyLoss(weight=torch.tensor([1.0, 0.5, 2.0]), label_smoothing=0.1),
          torch.randn(5, 3), torch.tensor([0, 1, 2, 2, 1]))
loss_case("loss_smoothl1_beta", nn.SmoothL1Loss(beta=0.5), torch.randn(3, 4), torch.randn(3, 4))
loss_case("loss_huber_delta", nn.HuberLoss(delta=0.7, reduction="sum"), torch.randn(3, 4), torch.randn(3, 4))
loss_case("loss_kldiv_batchmean", nn.KLDivLoss(reduction="batchmean"), torch.log_softmax(torch.randn(3, 4), 1),
          torch.softmax(torch.randn(3, 4), 1))
loss_case("loss_kldiv_logtarget", nn.KLDivLoss(reduction="sum", log_target=True),
          torch.log_softmax(torch.randn(3, 4), 1), torch.log_softmax(torch.randn(3, 4), 1))

# AveragedModel: SWA and EMA over three updates, then update_bn. Float32 as
# a user's model would be.
torch.set_default_dtype(torch.float32)


def make_model():
    return nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 2))


model = make_model()
for name, p in model.state_dict().items():
    g.add("swa.init." + name, p)
swa = swa_utils.AveragedModel(model)
ema = swa_utils.AveragedModel(model, avg_fn=lambda a, m, n: 0.9 * a + 0.1 * m)
ema_buf = swa_utils.AveragedModel(model, avg_fn=lambda a, m, n: 0.9 * a + 0.1 * m, use_buffers=True)
for step in range(3):
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(torch.randn_like(p))
        model[1].running_mean.copy_(torch.randn(4))
        model[1].running_var.copy_(torch.rand(4) + 0.5)
        model[1].num_batches_tracked.fill_(step + 1)
    for name, p in model.state_dict().items():
        g.add("swa.step%d.%s" % (step, name), p)
    for tag, avg in (("swa", swa), ("ema", ema), ("ema_buf", ema_buf)):
        avg.update_parameters(model)
        for name, p in avg.state_dict().items():
            g.add("%s.after%d.%s" % (tag, step, name), p)

loader = [torch.randn(5, 3) * 2 + 0.5 for _ in range(3)]
for i, x in enumerate(loader):
    g.add("update_bn.x%d" % i, x)
swa.train(False)
swa_utils.update_bn(loader, swa)
for name, p in swa.state_dict().items():
    g.add("update_bn.after." + name, p)
g.add("update_bn.training", torch.tensor(swa.training))
xe = torch.randn(4, 3)
g.add("update_bn.eval_x", xe)
swa.eval()
g.add("update_bn.eval_y", swa(xe))


# SWALR lr sequences (two param groups, 12 steps).
def swalr_case(name, lrs, swa_lr, anneal_epochs, strategy):
    params = [torch.zeros(1, requires_grad=True) for _ in lrs]
    opt = torch.optim.SGD([{"params": [p], "lr": lr} for p, lr in zip(params, lrs)], lr=lrs[0])
    sched = swa_utils.SWALR(opt, swa_lr=swa_lr, anneal_epochs=anneal_epochs, anneal_strategy=strategy)
    seq = [[gr["lr"] for gr in opt.param_groups]]
    for _ in range(12):
        opt.step()
        sched.step()
        seq.append([gr["lr"] for gr in opt.param_groups])
    g.add("swalr." + name, torch.tensor(seq, dtype=torch.float64))


swalr_case("cos", [0.5, 0.1], 0.05, 5, "cos")
swalr_case("linear", [0.5, 0.1], [0.05, 0.2], 4, "linear")
swalr_case("zero", [0.5, 0.1], 0.05, 0, "cos")
swalr_case("one", [0.3, 0.1], 0.01, 1, "linear")

g.save()
