"""Golden values for softmax and the losses (tests/ops/softmax_test.cpp, tests/ops/loss_test.cpp).

Run: /usr/bin/python3 tools/golden/gen_loss.py

Inputs are stored as "in:<name>"; every case "<case>" stores the op's output, and
"<case>:grad" (where present) the gradient of out.sum() (or (out * in:g).sum() for
softmax) with respect to the first input. The C++ tests rebuild each case by name.
"""
import torch
import torch.nn.functional as F

from golden import GoldenWriter

torch.manual_seed(0)
w = GoldenWriter("loss")
nan, inf = float("nan"), float("inf")
inputs = {}


def inp(name, t):
    inputs[name] = t
    w.add("in:" + name, t)


def case(name, fn, *names, grad=False):
    args = [inputs[n].clone() for n in names]
    if grad:
        args[0].requires_grad_(True)
    out = fn(*args)
    w.add(name, out)
    if grad:
        out.sum().backward()
        w.add(name + ":grad", args[0].grad)


# ---- softmax ------------------------------------------------------------------------
inp("x3", torch.randn(4, 5, 6))
inp("x3d", torch.randn(4, 5, 6, dtype=torch.float64))
inp("big", torch.randn(3, 1000) * 50)
inp("wide", torch.randn(2, 300, 3))
s = torch.randn(4, 4)
s[0, 1] = nan
s[1, 2] = inf
s[2, :] = -inf
s[3, 0] = -inf
inp("special", s)
inp("scalar", torch.tensor(2.5))
inp("empty", torch.empty(0, 3))
inp("i64", torch.tensor([[1, 2, 3], [4, 5, 9]]))
for d in [0, 1, 2, -1]:
    case("softmax:x3:%d" % d, lambda x, d=d: torch.softmax(x, d), "x3")
    case("log_softmax:x3:%d" % d, lambda x, d=d: torch.log_softmax(x, d), "x3")
    case("softmax:x3d:%d" % d, lambda x, d=d: torch.softmax(x, d), "x3d")
    case("log_softmax:x3d:%d" % d, lambda x, d=d: torch.log_softmax(x, d), "x3d")
for name in ["big", "special", "wide"]:
    for d in [0, 1]:
        case("softmax:%s:%d" % (name, d), lambda x, d=d: torch.softmax(x, d), name)
        case("log_softmax:%s:%d" % (name, d), lambda x, d=d: torch.log_softmax(x, d), name)
case("softmax:scalar:0", lambda x: torch.softmax(x, 0), "scalar")
case("log_softmax:scalar:0", lambda x: torch.log_softmax(x, 0), "scalar")
case("softmax:i64:1:f64", lambda x: torch.softmax(x, 1, dtype=torch.float64), "i64")
case("log_softmax:i64:1:f32", lambda x: torch.log_softmax(x, 1, dtype=torch.float32), "i64")
case("softmax:x3:T1", lambda x: torch.softmax(x.transpose(0, 2), 1), "x3")
inp("g3", torch.randn(4, 5, 6, dtype=torch.float64))
for d in [0, 2]:
    for fname, f in [("softmax", torch.softmax), ("log_softmax", torch.log_softmax)]:
        x = inputs["x3d"].clone().requires_grad_(True)
        y = f(x, d)
        (y * inputs["g3"]).sum().backward()
        w.add("%s:x3d:%d:vjp" % (fname, d), x.grad)

# ---- nll / cross entropy ----------------------------------------------------------
inp("logits", torch.randn(6, 5))
inp("logits_d", torch.randn(6, 5, dtype=torch.float64))
inp("tgt", torch.tensor([0, 4, 2, 2, 1, 3]))
inp("tgt_ign", torch.tensor([0, 4, -100, 2, 1, -100]))
inp("tgt_ign2", torch.tensor([0, 4, 2, 2, 1, 3]))  # used with ignore_index=2
inp("cw", torch.rand(5) + 0.5)
inp("cw_d", torch.rand(5, dtype=torch.float64) + 0.5)
inp("img", torch.randn(2, 3, 4, 5))
inp("img_t", torch.randint(0, 3, (2, 4, 5)))
inp("seq", torch.randn(2, 3, 7))
inp("seq_t", torch.randint(0, 3, (2, 7)))
inp("vec", torch.randn(5))
inp("vec_t", torch.tensor(3))
inp("probs", torch.softmax(torch.randn(6, 5), 1))
inp("img_p", torch.softmax(torch.randn(2, 3, 4, 5), 1))
red_names = {0: "none", 1: "mean", 2: "sum"}
for r in [0, 1, 2]:
    R = red_names[r]
    case("nll:%s" % R, lambda x, t, r=R: F.nll_loss(x, t, reduction=r), "logits", "tgt", grad=True)
    case("nll:w:%s" % R, lambda x, t, wt, r=R: F.nll_loss(x, t, wt, reduction=r), "logits", "tgt", "cw", grad=True)
    case("nll:ign:%s" % R, lambda x, t, wt, r=R: F.nll_loss(x, t, wt, reduction=r), "logits", "tgt_ign", "cw", grad=True)
    case("nll:ign2:%s" % R, lambda x, t, r=R: F.nll_loss(x, t, reduction=r, ignore_index=2), "logits", "tgt_ign2", grad=True)
    case("nll:img:%s" % R, lambda x, t, r=R: F.nll_loss(x, t, reduction=r), "img", "img_t", grad=True)
    case("nll:seq:%s" % R, lambda x, t, wt, r=R: F.nll_loss(x, t, wt[:3], reduction=r), "seq", "seq_t", "cw", grad=True)
    case("nll:vec:%s" % R, lambda x, t, r=R: F.nll_loss(x, t, reduction=r), "vec", "vec_t", grad=True)
    case("ce:%s" % R, lambda x, t, r=R: F.cross_entropy(x, t, reduction=r), "logits", "tgt", grad=True)
    case("ce:d:%s" % R, lambda x, t, r=R: F.cross_entropy(x, t, reduction=r), "logits_d", "tgt", grad=True)
    case("ce:w:ign:%s" % R, lambda x, t, wt, r=R: F.cross_entropy(x, t, wt, reduction=r), "logits", "tgt_ign", "cw", grad=True)
    case("ce:ls:%s" % R, lambda x, t, r=R: F.cross_entropy(x, t, reduction=r, label_smoothing=0.1), "logits", "tgt_ign", grad=True)
    case("ce:w:ls:%s" % R, lambda x, t, wt, r=R: F.cross_entropy(x, t, wt, reduction=r, label_smoothing=0.2), "logits", "tgt_ign", "cw", grad=True)
    case("ce:img:%s" % R, lambda x, t, r=R: F.cross_entropy(x, t, reduction=r), "img", "img_t", grad=True)
    case("ce:vec:%s" % R, lambda x, t, r=R: F.cross_entropy(x, t, reduction=r), "vec", "vec_t", grad=True)
    case("ce:prob:%s" % R, lambda x, t, r=R: F.cross_entropy(x, t, reduction=r), "logits", "probs", grad=True)
    case("ce:prob:w:ls:%s" % R, lambda x, t, wt, r=R: F.cross_entropy(x, t, wt, reduction=r, label_smoothing=0.3), "logits", "probs", "cw", grad=True)
    case("ce:prob:img:%s" % R, lambda x, t, r=R: F.cross_entropy(x, t, reduction=r), "img", "img_p", grad=True)

# ---- pointwise losses -------------------------------------------------------------
inp("a", torch.randn(3, 4))
inp("b", torch.randn(3, 4))
inp("brow", torch.randn(4))
inp("sgn", torch.randint(0, 2, (3, 4)).float() * 2 - 1)
p = torch.rand(3, 4)
p[0, 0], p[0, 1], p[1, 0] = 0.0, 1.0, 1e-30
inp("p", p)
t = torch.rand(3, 4)
t[0, 0], t[0, 1], t[1, 0] = 1.0, 0.0, 1.0
inp("t", t)
inp("pw", torch.rand(4) * 2)
inp("ew", torch.rand(3, 4))
inp("kt", torch.cat([torch.zeros(1, 4), torch.rand(2, 4)]))
inp("counts", torch.randint(0, 6, (3, 4)).float())
inp("pos", torch.rand(3, 4) * 3 + 0.1)
for r in [0, 1, 2]:
    R = red_names[r]
    case("mse:%s" % R, lambda x, y, r=R: F.mse_loss(x, y, reduction=r), "a", "b", grad=True)
    case("mse:bcast:%s" % R, lambda x, y, r=r: torch._C._nn.mse_loss(x, y, r), "a", "brow", grad=True)
    case("l1:%s" % R, lambda x, y, r=R: F.l1_loss(x, y, reduction=r), "a", "b", grad=True)
    for beta in [1.0, 0.5, 0.0]:
        case("smooth_l1:%g:%s" % (beta, R), lambda x, y, r=R, beta=beta: F.smooth_l1_loss(x, y, reduction=r, beta=beta), "a", "b", grad=True)
    for delta in [1.0, 0.3]:
        case("huber:%g:%s" % (delta, R), lambda x, y, r=R, d=delta: F.huber_loss(x, y, reduction=r, delta=d), "a", "b", grad=True)
    case("soft_margin:%s" % R, lambda x, y, r=R: F.soft_margin_loss(x, y, reduction=r), "a", "sgn", grad=True)
    case("bce:%s" % R, lambda x, y, r=R: F.binary_cross_entropy(x, y, reduction=r), "p", "t", grad=True)
    case("bce:w:%s" % R, lambda x, y, ww, r=R: F.binary_cross_entropy(x, y, ww, reduction=r), "p", "t", "ew", grad=True)
    case("bcel:%s" % R, lambda x, y, r=R: F.binary_cross_entropy_with_logits(x, y, reduction=r), "a", "t", grad=True)
    case("bcel:w:pw:%s" % R, lambda x, y, ww, pw, r=R: F.binary_cross_entropy_with_logits(x, y, ww, reduction=r, pos_weight=pw), "a", "t", "ew", "pw", grad=True)
    case("kl:%s" % R, lambda x, y, r=r: torch.kl_div(x, y, r), "a", "kt", grad=True)
    case("kl:log:%s" % R, lambda x, y, r=r: torch.kl_div(x, y, r, log_target=True), "a", "b", grad=True)
    for log_input in [True, False]:
        for full in [True, False]:
            src = "a" if log_input else "pos"
            case("poisson:%d%d:%s" % (log_input, full, R),
                 lambda x, y, r=r, li=log_input, fu=full: torch.poisson_nll_loss(x, y, li, fu, 1e-8, r), src, "counts", grad=True)
    case("margin_ranking:%s" % R, lambda x, y, s, r=R: F.margin_ranking_loss(x, y, s, margin=0.3, reduction=r), "a", "b", "sgn", grad=True)
    case("hinge:%s" % R, lambda x, s, r=R: F.hinge_embedding_loss(x, s, margin=0.7, reduction=r), "a", "sgn", grad=True)
    case("mlsm:%s" % R, lambda x, y, r=R: F.multilabel_soft_margin_loss(x, y, reduction=r), "a", "t", grad=True)
    case("mlsm:w:%s" % R, lambda x, y, ww, r=R: F.multilabel_soft_margin_loss(x, y, ww, reduction=r), "a", "t", "pw", grad=True)

bce_in = inputs["p"].clone().requires_grad_(True)
mask = torch.ones(3, 4)
mask[0, 0] = mask[0, 1] = mask[1, 0] = 0  # PyTorch's own grad at exactly 0 / 1 is an eps-clamped special case
F.binary_cross_entropy(bce_in, inputs["t"], reduction="sum").backward()
w.add("bce:sum:grad_interior", bce_in.grad * mask)

# ---- margin losses over classes ----------------------------------------------------
inp("mm_t", torch.tensor([0, 4, 2, 2, 1, 3]))
inp("ml_t", torch.tensor([[0, 3, -1, 1, 1], [4, -1, 0, 0, 0], [1, 2, 3, 4, 0], [-1, 0, 0, 0, 0], [2, -1, 3, 3, 3], [1, 0, -1, 2, 2]]))
for r in [0, 1, 2]:
    R = red_names[r]
    for pp in [1, 2]:
        case("multi_margin:p%d:%s" % (pp, R), lambda x, t, r=R, pp=pp: F.multi_margin_loss(x, t, p=pp, margin=0.8, reduction=r), "logits", "mm_t", grad=True)
    case("multi_margin:w:%s" % R, lambda x, t, ww, r=R: F.multi_margin_loss(x, t, weight=ww, reduction=r), "logits", "mm_t", "cw", grad=True)
    case("multilabel_margin:%s" % R, lambda x, t, r=R: F.multilabel_margin_loss(x, t, reduction=r), "logits", "ml_t", grad=True)
case("multi_margin:vec:none", lambda x, t: F.multi_margin_loss(x, t, reduction="none"), "vec", "vec_t")

# ---- distances ---------------------------------------------------------------------
inp("u", torch.randn(5, 6))
inp("v", torch.randn(5, 6))
inp("n", torch.randn(5, 6))
inp("vrow", torch.randn(6))
inp("et", torch.tensor([1.0, -1.0, 1.0, -1.0, -1.0]))
for dim in [0, 1, -1]:
    case("cos_sim:%d" % dim, lambda x, y, d=dim: F.cosine_similarity(x, y, dim=d), "u", "v", grad=True)
case("cos_sim:bcast", lambda x, y: F.cosine_similarity(x, y, dim=1), "u", "vrow", grad=True)
for p in [2.0, 1.0, 3.0, inf]:
    case("pdist:%g" % p, lambda x, y, p=p: F.pairwise_distance(x, y, p=p), "u", "v", grad=True)
case("pdist:keep", lambda x, y: F.pairwise_distance(x, y, keepdim=True), "u", "v")
for r in [0, 1, 2]:
    R = red_names[r]
    case("cos_emb:%s" % R, lambda x, y, t, r=R: F.cosine_embedding_loss(x, y, t, margin=0.1, reduction=r), "u", "v", "et", grad=True)
    case("triplet:%s" % R, lambda a, p, n, r=R: F.triplet_margin_loss(a, p, n, reduction=r), "u", "v", "n", grad=True)
    case("triplet:swap:p1:%s" % R, lambda a, p, n, r=R: F.triplet_margin_loss(a, p, n, margin=2.0, p=1, swap=True, reduction=r), "u", "v", "n", grad=True)

# ---- ctc ---------------------------------------------------------------------------
inp("ctc_lp", torch.randn(12, 3, 6, dtype=torch.float64).log_softmax(2))
inp("ctc_lp_f", torch.randn(12, 3, 6).log_softmax(2))
inp("ctc_tg", torch.tensor([[1, 2, 2, 3, 0], [4, 1, 5, 0, 0], [3, 3, 3, 3, 3]]))
inp("ctc_tg_cat", torch.tensor([1, 2, 2, 3, 4, 1, 5, 3, 3, 3, 3, 3]))
inp("ctc_il", torch.tensor([12, 10, 9]))
inp("ctc_tl", torch.tensor([4, 3, 5]))
inp("ctc_tl_inf", torch.tensor([4, 3, 5]))
inp("ctc_il_inf", torch.tensor([12, 10, 6]))  # 5 repeated labels need 9 frames: infinite loss
for r in [0, 1, 2]:
    R = red_names[r]
    case("ctc:%s" % R, lambda lp, t, il, tl, r=R: F.ctc_loss(lp, t, il, tl, reduction=r), "ctc_lp", "ctc_tg", "ctc_il", "ctc_tl", grad=True)
    case("ctc:f:%s" % R, lambda lp, t, il, tl, r=R: F.ctc_loss(lp, t, il, tl, reduction=r), "ctc_lp_f", "ctc_tg", "ctc_il", "ctc_tl", grad=True)
    case("ctc:cat:blank5:%s" % R, lambda lp, t, il, tl, r=R: F.ctc_loss(lp, t.clamp(max=4), il, tl, blank=5, reduction=r), "ctc_lp", "ctc_tg_cat", "ctc_il", "ctc_tl", grad=True)
    case("ctc:zinf:%s" % R, lambda lp, t, il, tl, r=R: F.ctc_loss(lp, t, il, tl, reduction=r, zero_infinity=True), "ctc_lp", "ctc_tg", "ctc_il_inf", "ctc_tl_inf", grad=True)
    case("ctc:inf:%s" % R, lambda lp, t, il, tl, r=R: F.ctc_loss(lp, t, il, tl, reduction=r), "ctc_lp", "ctc_tg", "ctc_il_inf", "ctc_tl_inf")
case("ctc:unbatched:none", lambda lp, t: F.ctc_loss(lp[:, 0], t[0, :4], torch.tensor(12), torch.tensor(4), reduction="none"), "ctc_lp", "ctc_tg")

w.save()
