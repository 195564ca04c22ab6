#!/usr/bin/env python3
"""Lower bounds on bench/SPEC.md's training/inference workloads from their multiply-adds.

Counts the GEMM and convolution multiply-adds each workload must do (forward, and
for training the backward products autograd needs: weight gradients everywhere,
input gradients except for the network input, which does not require grad), and
turns them into the fastest time any framework could reach at the measured FP32
peak (bench/SPEC.md L0: `ember_bench L0`; pass it with --peak). Elementwise work,
reductions and memory traffic are ignored, so real times are above these.

With --results (a bench/results/*.jsonl of bench/run.sh), a second table puts the nn
issue's targets against the best LibTorch median in that file (stock or tuned) and says
which share of the peak the target needs: above 100 % no code can reach it on this CPU.

Usage: python3 bench/flop_bounds.py [--peak GFLOP/s per core] [--results FILE.jsonl]
"""
import argparse
import statistics

from summarize import LOWER_IS_BETTER, read_samples


def linear(m, k, n):  # [m, k] x [k, n]
    return m * k * n


def conv(batch, out_hw, c_out, c_in, kh, kw):
    return batch * out_hw[0] * out_hw[1] * c_out * c_in * kh * kw


def w5():
    fwd = [linear(128, 784, 512), linear(128, 512, 512), linear(128, 512, 10)]
    # weight grads for all three, input grads for layers 2 and 3
    return sum(fwd) + sum(fwd) + fwd[1] + fwd[2]


def w6a():
    c1 = conv(64, (32, 32), 32, 3, 3, 3)
    c2 = conv(64, (16, 16), 64, 32, 3, 3)
    fc = linear(64, 4096, 10)
    return (c1 + c2 + fc) + (c1 + 2 * c2 + 2 * fc)  # conv1 needs no input grad


def w6b():
    macs = conv(1, (112, 112), 64, 3, 7, 7)
    hw, c = 56, 64
    for width, stride in ((64, 1), (128, 2), (256, 2), (512, 2)):
        for block in range(2):
            s = stride if block == 0 else 1
            out = hw // s
            macs += conv(1, (out, out), width, c, 3, 3) + conv(1, (out, out), width, width, 3, 3)
            if block == 0 and s != 1:
                macs += conv(1, (out, out), width, c, 1, 1)
            hw, c = out, width
    return macs + linear(1, 512, 1000)


def w8():
    proj = linear(50 * 32, 128, 1024)
    rec = 50 * linear(32, 256, 1024)
    fwd = proj + rec
    return fwd, fwd + proj + 2 * rec  # no input grad for x


def w10():
    n, d, ff, heads, seq, batch = 2048, 256, 1024, 4, 128, 16
    qkv = linear(n, d, 3 * d)
    out = linear(n, d, d)
    ffn = linear(n, d, ff) + linear(n, ff, d)
    attn = 2 * batch * heads * linear(seq, d // heads, seq)
    fwd = qkv + out + ffn + attn
    return fwd, fwd + 2 * fwd - qkv  # no input grad through the input projection


def m1_step():
    c1 = conv(64, (28, 28), 32, 1, 3, 3)
    c2 = conv(64, (14, 14), 64, 32, 3, 3)
    fc1 = linear(64, 3136, 128)
    fc2 = linear(64, 128, 10)
    return (c1 + c2 + fc1 + fc2) + (c1 + 2 * c2 + 2 * fc1 + 2 * fc2)


# The nn issue's targets: (case, kind, factor): "speed" = Ember's rate >= factor x
# LibTorch's, "time" = Ember's time <= factor x LibTorch's.
TARGETS = [
    ("W5.mlp_step", "speed", 1.5),
    ("W6.cnn_step", "speed", 3.0),
    ("W6.resnet18_ms", "time", 0.5),
    ("W8.lstm_fwd", "time", 0.7),
    ("W8.lstm_fwd+bwd", "time", 0.7),
    ("W10.encoder_fwd", "time", 0.6),
    ("W10.encoder_fwd+bwd", "time", 0.6),
]


def best_libtorch(path):
    """{(case, threads): best median over LibTorch's configs} from a results file."""
    samples, metric, _ = read_samples(path)
    best = {}
    for (case, threads, config), values in samples.items():
        if not config.startswith("libtorch/"):
            continue
        med = statistics.median(values)
        faster = min if metric[case] in LOWER_IS_BETTER else max
        key = (case, threads)
        best[key] = med if key not in best else faster(best[key], med)
    return best


def target_table(gflops, peak, path):
    best = best_libtorch(path)
    print()
    print(f"| case | threads | LibTorch best median | target | GFLOP/s the target needs | share of {peak:g} x threads |")
    print("|---|---|---|---|---|---|")
    for case, kind, factor in TARGETS:
        for threads in (1, 2):
            if (case, threads) not in best:
                continue
            lt = best[(case, threads)]
            if kind == "speed":  # lt in steps/s
                need_rate = factor * lt
                target = f">= {factor:g} x = {need_rate:.1f} steps/s"
                need = gflops[case] * need_rate
                shown = f"{lt:.1f} steps/s"
            else:  # lt in ms
                need_ms = factor * lt
                target = f"<= {factor:g} x = {need_ms:.2f} ms"
                need = gflops[case] / (need_ms / 1e3)
                shown = f"{lt:.2f} ms"
            share = need / (peak * threads)
            mark = "**" if share > 1 else ""
            print(f"| {case} | {threads} | {shown} | {target} | {need:.0f} | {mark}{share * 100:.0f} %{mark} |")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--peak", type=float, default=117.0, help="FP32 GFLOP/s of one core (bench/SPEC.md L0)")
    ap.add_argument("--results", help="a bench/run.sh results file: the targets against its LibTorch medians")
    args = ap.parse_args()
    w8f, w8fb = w8()
    w10f, w10fb = w10()
    rows = [
        ("W5.mlp_step", w5(), "steps/s"),
        ("W6.cnn_step", w6a(), "steps/s"),
        ("W6.resnet18_ms", w6b(), "ms"),
        ("W8.lstm_fwd", w8f, "ms"),
        ("W8.lstm_fwd+bwd", w8fb, "ms"),
        ("W10.encoder_fwd", w10f, "ms"),
        ("W10.encoder_fwd+bwd", w10fb, "ms"),
        ("M1 training step", m1_step(), "steps/s"),
    ]
    print(f"| case | GFLOP per call | best possible at {args.peak:g} GFLOP/s (1 core) | at 2 cores |")
    print("|---|---|---|---|")
    for name, macs, unit in rows:
        gflop = 2 * macs / 1e9
        t1 = gflop / args.peak
        t2 = t1 / 2
        if unit == "ms":
            print(f"| {name} | {gflop:.3f} | {t1 * 1e3:.1f} ms | {t2 * 1e3:.1f} ms |")
        else:
            print(f"| {name} | {gflop:.3f} | {1 / t1:.0f} steps/s | {1 / t2:.0f} steps/s |")
    if args.results:
        target_table({name: 2 * macs / 1e9 for name, macs, _ in rows}, args.peak, args.results)


if __name__ == "__main__":
    main()
