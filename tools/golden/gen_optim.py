"""Golden trajectories for ember::optim (tests/optim/*.cpp).

Optimizers: parameters x [2,3], y [3] (float64, fixed seed) and an unused z,
loss = sum((A @ y - b)^2) + sum(0.25 x^4 - c x) + sum(x[0] * y) (see loss()),
20 steps; after each step the flattened (x, y) is recorded as one row of
"<case>.traj" [steps, 9]. Schedulers: SGD with two param groups (lr 0.1 and
0.05); "<case>.lr" [31, 2] holds the groups' lrs after construction and after
each of 30 steps ("<case>.momentum" likewise when momentum cycles).
"""
import math

import torch

from golden import GoldenWriter

D = torch.float64  # explicit everywhere: the default dtype stays float32, as users have it
g = GoldenWriter("optim")

torch.manual_seed(0)
A = torch.randn(4, 3, dtype=D)
b = torch.randn(4, dtype=D)
c = torch.randn(2, 3, dtype=D)
x0 = torch.randn(2, 3, dtype=D)
y0 = torch.randn(3, dtype=D)
for name, t in [("A", A), ("b", b), ("c", c), ("x0", x0), ("y0", y0)]:
    g.add(name, t)


def loss_fn(x, y):
    Ad, bd, cd = A.to(y.dtype), b.to(y.dtype), c.to(y.dtype)
    r = Ad.matmul(y) - bd
    return (r * r).sum() + (x * x * x * x * 0.25 - cd * x).sum() + (x[0] * y).sum()


def params():
    x = x0.clone().requires_grad_()
    y = y0.clone().requires_grad_()
    z = torch.zeros(2, dtype=D, requires_grad=True)  # never receives a gradient
    return x, y, z


O = torch.optim
STEPS = 20
cases = {
    "sgd": lambda p: O.SGD(p, lr=0.01),
    "sgd_momentum": lambda p: O.SGD(p, lr=0.01, momentum=0.9, dampening=0.1, weight_decay=0.05),
    "sgd_nesterov": lambda p: O.SGD(p, lr=0.01, momentum=0.9, nesterov=True, weight_decay=0.01),
    "adam": lambda p: O.Adam(p, lr=0.05),
    "adam_amsgrad": lambda p: O.Adam(p, lr=0.05, betas=(0.8, 0.9), eps=1e-6, weight_decay=0.1, amsgrad=True),
    "adamw": lambda p: O.AdamW(p, lr=0.05),
    "adamw_amsgrad": lambda p: O.AdamW(p, lr=0.05, weight_decay=0.1, amsgrad=True),
    "rmsprop": lambda p: O.RMSprop(p, lr=0.01),
    "rmsprop_centered": lambda p: O.RMSprop(p, lr=0.01, alpha=0.9, momentum=0.5, centered=True, weight_decay=0.1),
    "adagrad": lambda p: O.Adagrad(p, lr=0.1),
    "adagrad_decay": lambda p: O.Adagrad(p, lr=0.1, lr_decay=0.01, weight_decay=0.1, initial_accumulator_value=0.5),
    "adadelta": lambda p: O.Adadelta(p),
    "adadelta_wd": lambda p: O.Adadelta(p, lr=0.5, rho=0.8, weight_decay=0.1),
    "adamax": lambda p: O.Adamax(p, lr=0.05),
    "adamax_wd": lambda p: O.Adamax(p, lr=0.05, betas=(0.8, 0.9), weight_decay=0.1),
    "nadam": lambda p: O.NAdam(p, lr=0.05),
    "nadam_wd": lambda p: O.NAdam(p, lr=0.05, weight_decay=0.1, momentum_decay=0.01),
    "radam": lambda p: O.RAdam(p, lr=0.05),
    "radam_wd": lambda p: O.RAdam(p, lr=0.05, betas=(0.9, 0.99), weight_decay=0.1),
    # two groups: x with the defaults, y with its own lr and momentum
    "sgd_groups": lambda p: O.SGD([{"params": [p[0], p[2]]}, {"params": [p[1]], "lr": 0.05, "momentum": 0.5}],
                                  lr=0.01),
}


def record(name, opt_fn, steps=STEPS, dtype=torch.float64):
    x, y, z = params()
    x = x.detach().to(dtype).requires_grad_()
    y = y.detach().to(dtype).requires_grad_()
    opt = opt_fn([x, y, z])
    rows = []
    for _ in range(steps):
        opt.zero_grad()
        loss_fn(x, y).backward()
        opt.step()
        rows.append(torch.cat([x.detach().reshape(-1), y.detach()]).to(dtype))
    g.add(name + ".traj", torch.stack(rows))


for name, fn in cases.items():
    record(name, fn)
# float32 parameters and data
record("adam_f32", lambda p: O.Adam(p, lr=0.05), dtype=torch.float32)
record("sgd_momentum_f32", cases["sgd_momentum"], dtype=torch.float32)

# LBFGS: a few outer steps with a closure; records parameters and returned losses.
lbfgs_cases = {
    "lbfgs": dict(lr=1, max_iter=5, history_size=3),
    "lbfgs_wolfe": dict(lr=1, max_iter=5, history_size=3, line_search_fn="strong_wolfe"),
    "lbfgs_wolfe_default": dict(line_search_fn="strong_wolfe"),
}
for name, kw in lbfgs_cases.items():
    x, y, z = params()
    opt = O.LBFGS([x, y], **kw)
    rows, losses, evals = [], [], []

    def closure():
        opt.zero_grad()
        l = loss_fn(x, y)
        l.backward()
        return l

    for _ in range(4):
        losses.append(float(opt.step(closure)))
        rows.append(torch.cat([x.detach().reshape(-1), y.detach()]))
        evals.append(opt.state[x]["func_evals"])
    g.add(name + ".traj", torch.stack(rows))
    g.add(name + ".loss", torch.tensor(losses, dtype=D))
    g.add(name + ".func_evals", torch.tensor(evals, dtype=torch.int64))

# ---- schedulers ----------------------------------------------------------------
S = torch.optim.lr_scheduler
SCHED_STEPS = 30


def sched_opt(kind="sgd"):
    p1 = torch.zeros(1, dtype=D, requires_grad=True)
    p2 = torch.zeros(1, dtype=D, requires_grad=True)
    groups = [{"params": [p1]}, {"params": [p2], "lr": 0.05}]
    if kind == "adam":
        return O.Adam(groups, lr=0.1)
    return O.SGD(groups, lr=0.1, momentum=0.9)


def momentum_of(opt):
    return [grp["betas"][0] if "betas" in grp else grp["momentum"] for grp in opt.param_groups]


sched_cases = {
    "step": lambda o: S.StepLR(o, step_size=7, gamma=0.5),
    "multistep": lambda o: S.MultiStepLR(o, milestones=[5, 12, 12, 20], gamma=0.5),
    "exponential": lambda o: S.ExponentialLR(o, gamma=0.9),
    "cosine": lambda o: S.CosineAnnealingLR(o, T_max=10, eta_min=0.001),
    "warm_restarts": lambda o: S.CosineAnnealingWarmRestarts(o, T_0=5, T_mult=2, eta_min=0.001),
    "warm_restarts_1": lambda o: S.CosineAnnealingWarmRestarts(o, T_0=7),
    "onecycle": lambda o: S.OneCycleLR(o, max_lr=[1.0, 0.5], total_steps=35),
    "onecycle_linear3": lambda o: S.OneCycleLR(o, max_lr=0.8, epochs=4, steps_per_epoch=8, anneal_strategy="linear",
                                               three_phase=True, pct_start=0.25),
    "cyclic": lambda o: S.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=4, step_size_down=6),
    "cyclic_tri2": lambda o: S.CyclicLR(o, base_lr=[0.01, 0.02], max_lr=0.1, step_size_up=3, mode="triangular2",
                                        cycle_momentum=False),
    "cyclic_exp": lambda o: S.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=5, mode="exp_range", gamma=0.9),
    "linear": lambda o: S.LinearLR(o, start_factor=0.25, end_factor=1.0, total_iters=8),
    "constant": lambda o: S.ConstantLR(o, factor=0.5, total_iters=6),
    "polynomial": lambda o: S.PolynomialLR(o, total_iters=10, power=2.0),
    "lambda": lambda o: S.LambdaLR(o, lr_lambda=[lambda e: 0.95 ** e, lambda e: 1.0 / (1 + e)]),
    "multiplicative": lambda o: S.MultiplicativeLR(o, lr_lambda=lambda e: 0.9),
    "sequential": lambda o: S.SequentialLR(o, [S.LinearLR(o, start_factor=0.1, total_iters=5),
                                               S.ExponentialLR(o, gamma=0.9)], milestones=[5]),
    "sequential3": lambda o: S.SequentialLR(o, [S.ConstantLR(o, factor=0.5, total_iters=3), S.StepLR(o, step_size=4),
                                                S.CosineAnnealingLR(o, T_max=8)], milestones=[6, 15]),
    "sequential_lambda_warm": lambda o: S.SequentialLR(o, [S.ExponentialLR(o, gamma=0.8),
                                                           S.LambdaLR(o, lambda e: 1.0 / (1 + e)),
                                                           S.CosineAnnealingWarmRestarts(o, T_0=4)], milestones=[4, 10]),
    "chained": lambda o: S.ChainedScheduler([S.ConstantLR(o, factor=0.5, total_iters=4), S.ExponentialLR(o, gamma=0.9)]),
    "chained_step_cos": lambda o: S.ChainedScheduler([S.StepLR(o, step_size=5, gamma=0.5),
                                                      S.CosineAnnealingLR(o, T_max=12)]),
}
for name, fn in sched_cases.items():
    kind = "adam" if name == "onecycle_linear3" else "sgd"
    opt = sched_opt(kind)
    s = fn(opt)
    lrs = [[grp["lr"] for grp in opt.param_groups]]
    moms = [momentum_of(opt)]
    for _ in range(SCHED_STEPS):
        opt.step()
        s.step()
        lrs.append([grp["lr"] for grp in opt.param_groups])
        moms.append(momentum_of(opt))
    g.add(name + ".lr", torch.tensor(lrs, dtype=D))
    g.add(name + ".momentum", torch.tensor(moms, dtype=D))

# CosineAnnealingWarmRestarts.step(epoch) with fractional epochs
opt = sched_opt()
s = S.CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=2, eta_min=0.01)
lrs = [[grp["lr"] for grp in opt.param_groups]]
for i in range(SCHED_STEPS):
    opt.step()
    s.step(i * 0.7)
    lrs.append([grp["lr"] for grp in opt.param_groups])
g.add("warm_restarts_frac.lr", torch.tensor(lrs, dtype=D))

# ReduceLROnPlateau, driven by a fixed metric sequence
torch.manual_seed(1)
metrics = (torch.linspace(1.0, 0.5, SCHED_STEPS, dtype=D) + 0.05 * torch.randn(SCHED_STEPS, dtype=D)).tolist()
metrics[15:] = [metrics[15]] * (SCHED_STEPS - 15)  # a plateau
g.add("plateau.metrics", torch.tensor(metrics, dtype=D))
plateau_cases = {
    "plateau": dict(mode="min", factor=0.5, patience=2, threshold=0.01, cooldown=1, min_lr=0.01),
    "plateau_max_abs": dict(mode="max", factor=0.3, patience=1, threshold=0.02, threshold_mode="abs",
                            min_lr=[0.0, 0.02]),
}
for name, kw in plateau_cases.items():
    opt = sched_opt()
    s = S.ReduceLROnPlateau(opt, **kw)
    lrs = [[grp["lr"] for grp in opt.param_groups]]
    for m in metrics:
        opt.step()
        s.step(m)
        lrs.append([grp["lr"] for grp in opt.param_groups])
    g.add(name + ".lr", torch.tensor(lrs, dtype=D))

g.save()
