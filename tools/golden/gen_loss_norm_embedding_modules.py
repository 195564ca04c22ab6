"""Golden values for tests/nn loss/norm/embedding modules .
Run: /usr/bin/python3 tools/golden/gen_loss_norm_embedding_modules.py"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from golden import GoldenWriter

torch.manual_seed(0)
g = GoldenWriter("loss_norm_embedding_modules")

# Regression-style losses on (4, 3) inputs, all three reductions.
x = torch.randn(4, 3)
y = torch.randn(4, 3)
g.add("reg.x", x)
g.add("reg.y", y)
for red in ["mean", "sum", "none"]:
    g.add(f"mse.{red}", F.mse_loss(x, y, reduction=red))
    g.add(f"l1.{red}", F.l1_loss(x, y, reduction=red))
    g.add(f"smooth_l1.{red}", F.smooth_l1_loss(x, y, reduction=red, beta=0.5))
    g.add(f"huber.{red}", F.huber_loss(x, y, reduction=red, delta=0.7))

# Binary cross entropy (probabilities and logits with pos_weight).
p = torch.rand(4, 3) * 0.9 + 0.05
t = torch.randint(0, 2, (4, 3)).double().float()
w = torch.rand(3) + 0.5
pw = torch.rand(3) + 0.5
g.add("bce.p", p)
g.add("bce.t", t)
g.add("bce.w", w)
g.add("bce.pw", pw)
g.add("bce.mean", F.binary_cross_entropy(p, t))
g.add("bce.weighted_sum", F.binary_cross_entropy(p, t, weight=w, reduction="sum"))
g.add("bcel.mean", F.binary_cross_entropy_with_logits(x, t))
g.add("bcel.pos_weight", F.binary_cross_entropy_with_logits(x, t, pos_weight=pw))
g.add("bcel.both_none", F.binary_cross_entropy_with_logits(x, t, weight=w, pos_weight=pw, reduction="none"))

# Classification: cross entropy and nll.
logits = torch.randn(5, 4)
cls = torch.tensor([0, 3, 1, 2, 1])
cw = torch.rand(4) + 0.5
g.add("ce.logits", logits)
g.add("ce.target", cls)
g.add("ce.weight", cw)
g.add("ce.mean", F.cross_entropy(logits, cls))
g.add("ce.full", F.cross_entropy(logits, cls, weight=cw, ignore_index=2, label_smoothing=0.1))
g.add("ce.sum", F.cross_entropy(logits, cls, reduction="sum"))
g.add("ce.none", F.cross_entropy(logits, cls, reduction="none"))
probs = torch.softmax(torch.randn(5, 4), 1)
g.add("ce.probs", probs)
g.add("ce.prob_target", F.cross_entropy(logits, probs))
lp = F.log_softmax(logits, 1)
g.add("nll.mean", F.nll_loss(lp, cls))
g.add("nll.weighted", F.nll_loss(lp, cls, weight=cw, ignore_index=1))
g.add("nll.none", F.nll_loss(lp, cls, reduction="none"))
# cross_entropy gradient w.r.t. logits.
lr = logits.clone().requires_grad_(True)
F.cross_entropy(lr, cls, label_smoothing=0.2).backward()
g.add("ce.grad", lr.grad)

# KL div (batchmean), poisson nll.
g.add("kl.batchmean", F.kl_div(lp, probs, reduction="batchmean"))
g.add("kl.sum_logtarget", F.kl_div(lp, probs.log(), reduction="sum", log_target=True))
g.add("poisson.mean", F.poisson_nll_loss(x, y.abs()))
g.add("poisson.full", F.poisson_nll_loss(x.abs() + 0.1, y.abs(), log_input=False, full=True))

# Margin / embedding losses.
a = torch.randn(4, 5)
b = torch.randn(4, 5)
c = torch.randn(4, 5)
sign = torch.tensor([1.0, -1.0, 1.0, -1.0])
g.add("emb.a", a)
g.add("emb.b", b)
g.add("emb.c", c)
g.add("emb.sign", sign)
g.add("cos_emb", F.cosine_embedding_loss(a, b, sign, margin=0.2))
g.add("margin_rank", F.margin_ranking_loss(a[:, 0], b[:, 0], sign, margin=0.1))
g.add("hinge", F.hinge_embedding_loss(a, torch.ones(4, 5) * torch.tensor([1.0, -1.0, 1.0, -1.0, 1.0]), margin=0.5))
g.add("hinge.target", torch.ones(4, 5) * torch.tensor([1.0, -1.0, 1.0, -1.0, 1.0]))
g.add("triplet", F.triplet_margin_loss(a, b, c, margin=0.5))
g.add("triplet.swap_p1", F.triplet_margin_loss(a, b, c, p=1, swap=True, reduction="none"))
g.add("soft_margin", F.soft_margin_loss(a, torch.sign(b)))
g.add("soft_margin.target", torch.sign(b))
ml_t = torch.randint(0, 2, (4, 5)).float()
g.add("mlsm.target", ml_t)
g.add("mlsm", F.multilabel_soft_margin_loss(a, ml_t))
mm_t = torch.tensor([1, 0, 4, 2])
g.add("mm.target", mm_t)
g.add("mm.p2", F.multi_margin_loss(a, mm_t, p=2, margin=0.5))
mlm_t = torch.tensor([[3, 0, -1, 1, 2], [1, 2, 4, -1, 0], [0, -1, 0, 0, 0], [4, 3, 2, 1, 0]])
g.add("mlm.target", mlm_t)
g.add("mlm", F.multilabel_margin_loss(a, mlm_t))

# Distances and normalize.
g.add("cos_sim", F.cosine_similarity(a, b))
g.add("cos_sim.dim0", F.cosine_similarity(a, b, dim=0, eps=1e-3))
g.add("pdist", F.pairwise_distance(a, b))
g.add("pdist.p1_keep", F.pairwise_distance(a, b, p=1, keepdim=True))
g.add("normalize", F.normalize(a))
g.add("normalize.p1_dim0", F.normalize(a, p=1, dim=0))

# CTC: T=6, N=2, C=4.
ctc_lp = torch.randn(6, 2, 4).log_softmax(2)
ctc_t = torch.tensor([[1, 2, 2], [3, 1, 0]])
g.add("ctc.lp", ctc_lp)
g.add("ctc.targets", ctc_t)
g.add("ctc.mean", F.ctc_loss(ctc_lp, ctc_t, torch.tensor([6, 5]), torch.tensor([3, 2])))
g.add("ctc.sum", F.ctc_loss(ctc_lp, ctc_t, torch.tensor([6, 5]), torch.tensor([3, 2]), reduction="sum"))


# BatchNorm2d: three training steps then eval, given affine weights.
bn = nn.BatchNorm2d(3)
with torch.no_grad():
    bn.weight.copy_(torch.rand(3) + 0.5)
    bn.bias.copy_(torch.randn(3))
g.add("bn.weight", bn.weight)
g.add("bn.bias", bn.bias)
for i in range(3):
    xi = torch.randn(4, 3, 2, 5) * (i + 1) + i
    g.add(f"bn.x{i}", xi)
    g.add(f"bn.y{i}", bn(xi))
g.add("bn.running_mean", bn.running_mean)
g.add("bn.running_var", bn.running_var)
bn.eval()
xe = torch.randn(2, 3, 2, 5)
g.add("bn.xe", xe)
g.add("bn.ye", bn(xe))
# Cumulative average (momentum=None) on BatchNorm1d, 3-D input.
bn1 = nn.BatchNorm1d(3, momentum=None, affine=False)
for i in range(3):
    xi = torch.randn(4, 3, 6) + i
    g.add(f"bn1.x{i}", xi)
    g.add(f"bn1.y{i}", bn1(xi))
g.add("bn1.running_mean", bn1.running_mean)
g.add("bn1.running_var", bn1.running_var)
# track_running_stats=False: batch statistics in eval too.
bn3 = nn.BatchNorm3d(2, track_running_stats=False).eval()
x3 = torch.randn(2, 2, 2, 3, 2)
g.add("bn3.x", x3)
g.add("bn3.y", bn3(x3))
# BatchNorm gradient.
xg = g_x = torch.randn(4, 3, 2, 5).requires_grad_(True)
bng = nn.BatchNorm2d(3)
(bng(xg) ** 2 * torch.arange(3.0).view(1, 3, 1, 1)).sum().backward()
g.add("bng.x", xg.detach())
g.add("bng.grad_x", xg.grad)
g.add("bng.grad_w", bng.weight.grad)

# LayerNorm over the last two dims with weights; without affine.
ln = nn.LayerNorm([4, 5])
with torch.no_grad():
    ln.weight.copy_(torch.randn(4, 5))
    ln.bias.copy_(torch.randn(4, 5))
xl = torch.randn(3, 4, 5)
g.add("ln.weight", ln.weight)
g.add("ln.bias", ln.bias)
g.add("ln.x", xl)
g.add("ln.y", ln(xl))
g.add("ln.noaffine", F.layer_norm(xl, [5], eps=1e-3))

# GroupNorm(2, 4).
gn = nn.GroupNorm(2, 4)
with torch.no_grad():
    gn.weight.copy_(torch.randn(4))
    gn.bias.copy_(torch.randn(4))
xg = torch.randn(3, 4, 6)
g.add("gn.weight", gn.weight)
g.add("gn.bias", gn.bias)
g.add("gn.x", xg)
g.add("gn.y", gn(xg))

# Softmax family and activations on (3, 4, 2) input.
xa = torch.randn(3, 4, 2) * 2
g.add("act.x", xa)
g.add("act.softmax1", F.softmax(xa, 1))
g.add("act.log_softmax2", F.log_softmax(xa, 2))
g.add("act.softmin0", F.softmin(xa, 0))
g.add("act.softmax_f64", F.softmax(xa, -1, dtype=torch.float64))
g.add("act.relu6", F.relu6(xa * 3))
g.add("act.celu", F.celu(xa, alpha=0.7))
g.add("act.hardtanh", F.hardtanh(xa, -0.5, 1.5))
g.add("act.softsign", F.softsign(xa))
g.add("act.softshrink", F.softshrink(xa, 0.3))
g.add("act.hardshrink", F.hardshrink(xa, 0.3))
g.add("act.tanhshrink", F.tanhshrink(xa))
g.add("act.logsigmoid", F.logsigmoid(xa))
g.add("act.threshold", F.threshold(xa, 0.1, 20.0))
g.add("act.glu1", F.glu(xa, 1))
g.add("act.rrelu_eval", F.rrelu(xa, 0.1, 0.3, training=False))
pr = nn.PReLU(4)
with torch.no_grad():
    pr.weight.copy_(torch.tensor([0.1, -0.2, 0.3, 0.5]))
g.add("act.prelu_w", pr.weight)
g.add("act.prelu", pr(xa))
g.add("act.prelu_default", nn.PReLU()(xa))

# Embedding with padding_idx and max_norm (renorms the weight in place), bags.
ew = torch.randn(10, 3) * 2
g.add("emb_w", ew)
idx = torch.tensor([[1, 2, 4, 5], [4, 3, 2, 9]])
g.add("embed.idx", idx)
e = nn.Embedding.from_pretrained(ew.clone(), freeze=False, padding_idx=2)
out = e(idx)
g.add("embed.y", out)
(out * torch.arange(3.0)).sum().backward()
g.add("embed.grad", e.weight.grad)
e2 = nn.Embedding.from_pretrained(ew.clone(), max_norm=1.5)
g.add("embed.maxnorm_y", e2(idx))
g.add("embed.maxnorm_w", e2.weight)
bi = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9])
bo = torch.tensor([0, 3, 3, 6])
psw = torch.rand(8)
g.add("bag.idx", bi)
g.add("bag.off", bo)
g.add("bag.psw", psw)
g.add("bag.mean", F.embedding_bag(bi, ew, bo))
g.add("bag.sum_psw", F.embedding_bag(bi, ew, bo, mode="sum", per_sample_weights=psw))
g.add("bag.max", F.embedding_bag(bi, ew, bo, mode="max"))
g.add("bag.last_offset_pad", F.embedding_bag(bi, ew, torch.tensor([0, 3, 6, 8]), mode="sum", include_last_offset=True, padding_idx=4))
g.add("bag.2d", F.embedding_bag(idx, ew, mode="mean"))

g.save()
