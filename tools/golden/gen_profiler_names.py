"""Op names torch 1.13's profiler records (tests/profiler/op_names_test.cpp).

For each case the same call runs under torch.profiler.profile (CPU only) and
profiler_names.golden gets one line:
    <case>|<top-level op>|<every aten:: name recorded, sorted, space-separated>
The top-level op is the first aten:: event without a parent. Inputs are made
before the profile starts, so only the call itself is recorded.

Run with Debian's interpreter (python3-torch):
    /usr/bin/python3 tools/golden/gen_profiler_names.py
"""
import os

import torch
import torch.nn.functional as F
from torch.profiler import ProfilerActivity, profile

from golden import GOLDEN_DIR

torch.manual_seed(0)


def t(*shape):
    return torch.randn(*shape)


def spd(n):
    a = torch.randn(n, n, dtype=torch.float64)
    return a @ a.T + n * torch.eye(n, dtype=torch.float64)


def lstm_params(inp, hid):
    return [t(4 * hid, inp), t(4 * hid, hid), t(4 * hid), t(4 * hid)]


# name: (make inputs, call). Names match the TEST cases in op_names_test.cpp.
cases = {
    # binary, in-place and out= forms
    "add": (lambda: (t(3), t(3)), lambda a, b: a + b),
    "add_scalar": (lambda: (t(3),), lambda a: a + 2.0),
    "add_alpha": (lambda: (t(3), t(3)), lambda a, b: torch.add(a, b, alpha=2)),
    "add_": (lambda: (t(3), t(3)), lambda a, b: a.add_(b)),
    "add_out": (lambda: (t(3), t(3), t(3)), lambda a, b, c: torch.add(a, b, out=c)),
    "sub_": (lambda: (t(3), t(3)), lambda a, b: a.sub_(b)),
    "mul_": (lambda: (t(3), t(3)), lambda a, b: a.mul_(b)),
    "mul_scalar_": (lambda: (t(3),), lambda a: a.mul_(2.0)),
    "div_": (lambda: (t(3), t(3)), lambda a, b: a.div_(b)),
    "div_trunc": (lambda: (t(3), t(3)), lambda a, b: torch.div(a, b, rounding_mode="trunc")),
    "div_floor_": (lambda: (t(3), t(3)), lambda a, b: a.div_(b, rounding_mode="floor")),
    "pow_": (lambda: (t(3).abs(),), lambda a: a.pow_(2.0)),
    "maximum": (lambda: (t(3), t(3)), lambda a, b: torch.maximum(a, b)),
    "eq": (lambda: (t(3), t(3)), lambda a, b: torch.eq(a, b)),
    "iadd": (lambda: (t(3), t(3)), lambda a, b: a.__iadd__(b)),
    # unary
    "exp": (lambda: (t(3),), lambda a: torch.exp(a)),
    "exp_": (lambda: (t(3),), lambda a: a.exp_()),
    "exp_out": (lambda: (t(3), t(3)), lambda a, c: torch.exp(a, out=c)),
    "relu": (lambda: (t(3),), lambda a: torch.relu(a)),
    "relu_": (lambda: (t(3),), lambda a: torch.relu_(a)),
    "sigmoid_": (lambda: (t(3),), lambda a: a.sigmoid_()),
    "neg_": (lambda: (t(3),), lambda a: a.neg_()),
    "gelu": (lambda: (t(3),), lambda a: F.gelu(a)),
    "elu": (lambda: (t(3),), lambda a: F.elu(a)),
    "leaky_relu_": (lambda: (t(3),), lambda a: F.leaky_relu_(a, 0.1)),
    "hardtanh_": (lambda: (t(3),), lambda a: F.hardtanh_(a)),
    # copies and fills
    "copy_": (lambda: (t(3), t(3)), lambda a, b: a.copy_(b)),
    "fill_": (lambda: (t(3),), lambda a: a.fill_(1.5)),
    "zero_": (lambda: (t(3),), lambda a: a.zero_()),
    "clone": (lambda: (t(3),), lambda a: a.clone()),
    "contiguous": (lambda: (t(3, 4).t(),), lambda a: a.contiguous()),
    "to_dtype": (lambda: (t(3),), lambda a: a.to(torch.float64)),
    # ternary and clamp
    "addcmul": (lambda: (t(3), t(3), t(3)), lambda a, b, c: torch.addcmul(a, b, c, value=0.5)),
    "addcmul_": (lambda: (t(3), t(3), t(3)), lambda a, b, c: a.addcmul_(b, c)),
    "addcdiv": (lambda: (t(3), t(3), t(3)), lambda a, b, c: torch.addcdiv(a, b, c, value=0.5)),
    "addcdiv_": (lambda: (t(3), t(3), t(3)), lambda a, b, c: a.addcdiv_(b, c)),
    "where": (lambda: (t(3) > 0, t(3), t(3)), lambda m, a, b: torch.where(m, a, b)),
    "lerp": (lambda: (t(3), t(3)), lambda a, b: torch.lerp(a, b, 0.3)),
    "lerp_": (lambda: (t(3), t(3)), lambda a, b: a.lerp_(b, 0.3)),
    "clamp": (lambda: (t(3),), lambda a: torch.clamp(a, -0.5, 0.5)),
    "clamp_min": (lambda: (t(3),), lambda a: torch.clamp(a, min=0.0)),
    "clamp_": (lambda: (t(3),), lambda a: a.clamp_(-0.5, 0.5)),
    "clamp_tensor": (lambda: (t(3), t(3) - 1, t(3) + 1), lambda a, lo, hi: torch.clamp(a, lo, hi)),
    "masked_fill": (lambda: (t(3), t(3) > 0), lambda a, m: a.masked_fill(m, 0.0)),
    "masked_fill_": (lambda: (t(3), t(3) > 0), lambda a, m: a.masked_fill_(m, 0.0)),
    "nan_to_num": (lambda: (t(3),), lambda a: torch.nan_to_num(a)),
    # factories and random
    "empty": (lambda: (), lambda: torch.empty(2, 3)),
    "zeros": (lambda: (), lambda: torch.zeros(2, 3)),
    "ones": (lambda: (), lambda: torch.ones(2, 3)),
    "full": (lambda: (), lambda: torch.full((2, 3), 1.5)),
    "empty_like": (lambda: (t(3),), lambda a: torch.empty_like(a)),
    "zeros_like": (lambda: (t(3),), lambda a: torch.zeros_like(a)),
    "ones_like": (lambda: (t(3),), lambda a: torch.ones_like(a)),
    "full_like": (lambda: (t(3),), lambda a: torch.full_like(a, 2.0)),
    "arange": (lambda: (), lambda: torch.arange(5)),
    "linspace": (lambda: (), lambda: torch.linspace(0, 1, 5)),
    "eye": (lambda: (), lambda: torch.eye(3)),
    "rand": (lambda: (), lambda: torch.rand(2, 3)),
    "randn": (lambda: (), lambda: torch.randn(2, 3)),
    "randint": (lambda: (), lambda: torch.randint(0, 10, (4,))),
    "randperm": (lambda: (), lambda: torch.randperm(6)),
    "rand_like": (lambda: (t(3),), lambda a: torch.rand_like(a)),
    "randn_like": (lambda: (t(3),), lambda a: torch.randn_like(a)),
    "normal": (lambda: (t(3), t(3).abs()), lambda m, s: torch.normal(m, s)),
    "bernoulli": (lambda: (torch.rand(3),), lambda p: torch.bernoulli(p)),
    "multinomial": (lambda: (torch.rand(5),), lambda p: torch.multinomial(p, 2)),
    "uniform_": (lambda: (t(3),), lambda a: a.uniform_()),
    "normal_": (lambda: (t(3),), lambda a: a.normal_()),
    "bernoulli_": (lambda: (t(3),), lambda a: a.bernoulli_(0.5)),
    "random_": (lambda: (t(3),), lambda a: a.random_(0, 10)),
    "exponential_": (lambda: (t(3),), lambda a: a.exponential_()),
    # padding and resampling
    "pad_constant": (lambda: (t(1, 1, 3, 3),), lambda x: F.pad(x, (1, 1, 1, 1))),
    "constant_pad_nd": (lambda: (t(1, 1, 3, 3),), lambda x: torch.constant_pad_nd(x, (1, 1), 0.5)),
    "pad_reflect": (lambda: (t(1, 1, 3, 3),), lambda x: F.pad(x, (1, 1, 1, 1), mode="reflect")),
    "pad_replicate": (lambda: (t(1, 1, 3, 3),), lambda x: F.pad(x, (1, 1, 1, 1), mode="replicate")),
    "upsample_bilinear2d": (lambda: (t(1, 1, 3, 3),),
                            lambda x: F.interpolate(x, size=(5, 5), mode="bilinear", align_corners=False)),
    "upsample_nearest2d": (lambda: (t(1, 1, 3, 3),), lambda x: F.interpolate(x, scale_factor=2.0, mode="nearest")),
    "pixel_shuffle": (lambda: (t(1, 4, 2, 2),), lambda x: F.pixel_shuffle(x, 2)),
    # indexing, shapes, counting
    "masked_select": (lambda: (t(4), t(4) > 0), lambda a, m: torch.masked_select(a, m)),
    "nonzero": (lambda: (t(4) > 0,), lambda m: torch.nonzero(m)),
    "tril": (lambda: (t(3, 3),), lambda a: torch.tril(a)),
    "roll": (lambda: (t(4),), lambda a: torch.roll(a, 1)),
    "bincount": (lambda: (torch.tensor([0, 1, 1, 3]),), lambda a: torch.bincount(a)),
    "one_hot": (lambda: (torch.tensor([0, 2, 1]),), lambda a: F.one_hot(a, 3)),
    "unique": (lambda: (torch.tensor([3, 1, 3, 2]),), lambda a: torch.unique(a)),
    "squeeze": (lambda: (t(1, 3),), lambda a: a.squeeze(0)),
    "split": (lambda: (t(4),), lambda a: a.split(2)),
    "chunk": (lambda: (t(4),), lambda a: a.chunk(2)),
    "unbind": (lambda: (t(2, 3),), lambda a: a.unbind(0)),
    "diagonal": (lambda: (t(3, 3),), lambda a: torch.diagonal(a)),
    "as_strided": (lambda: (t(4),), lambda a: a.as_strided((2,), (2,))),
    "view_as_real": (lambda: (torch.randn(3, dtype=torch.complex64),), lambda a: torch.view_as_real(a)),
    # nn functional composites
    "cosine_similarity": (lambda: (t(2, 3), t(2, 3)), lambda a, b: F.cosine_similarity(a, b)),
    "pairwise_distance": (lambda: (t(2, 3), t(2, 3)), lambda a, b: F.pairwise_distance(a, b)),
    "instance_norm": (lambda: (t(2, 3, 4),), lambda x: F.instance_norm(x)),
    # linalg
    "linalg_inv": (lambda: (spd(3),), lambda a: torch.linalg.inv(a)),
    "linalg_solve": (lambda: (spd(3), torch.randn(3, 2, dtype=torch.float64)), lambda a, b: torch.linalg.solve(a, b)),
    "linalg_cholesky": (lambda: (spd(3),), lambda a: torch.linalg.cholesky(a)),
    "linalg_cholesky_ex": (lambda: (spd(3),), lambda a: torch.linalg.cholesky_ex(a)),
    "linalg_det": (lambda: (spd(3),), lambda a: torch.linalg.det(a)),
    "linalg_slogdet": (lambda: (spd(3),), lambda a: torch.linalg.slogdet(a)),
    "linalg_qr": (lambda: (spd(3),), lambda a: torch.linalg.qr(a)),
    "linalg_eigh": (lambda: (spd(3),), lambda a: torch.linalg.eigh(a)),
    "linalg_svd": (lambda: (spd(3),), lambda a: torch.linalg.svd(a)),
    "linalg_lu_factor": (lambda: (spd(3),), lambda a: torch.linalg.lu_factor(a)),
    "linalg_vector_norm": (lambda: (t(4),), lambda a: torch.linalg.vector_norm(a)),
    "linalg_matrix_norm": (lambda: (spd(3),), lambda a: torch.linalg.matrix_norm(a)),
    "linalg_pinv": (lambda: (spd(3),), lambda a: torch.linalg.pinv(a)),
    "linalg_matrix_exp": (lambda: (spd(3),), lambda a: torch.linalg.matrix_exp(a)),
    "linalg_cross": (lambda: (t(3), t(3)), lambda a, b: torch.linalg.cross(a, b)),
    # fft
    "fft_fft": (lambda: (t(8),), lambda a: torch.fft.fft(a)),
    "fft_ifft": (lambda: (t(8),), lambda a: torch.fft.ifft(a)),
    "fft_rfft": (lambda: (t(8),), lambda a: torch.fft.rfft(a)),
    "fft_irfft": (lambda: (torch.randn(5, dtype=torch.complex64),), lambda a: torch.fft.irfft(a)),
    "fft_fft2": (lambda: (t(4, 4),), lambda a: torch.fft.fft2(a)),
    "fft_rfftn": (lambda: (t(4, 4),), lambda a: torch.fft.rfftn(a)),
    "fft_fftshift": (lambda: (t(8),), lambda a: torch.fft.fftshift(a)),
    "fft_fftfreq": (lambda: (), lambda: torch.fft.fftfreq(8)),
    "hann_window": (lambda: (), lambda: torch.hann_window(8)),
    "stft": (lambda: (t(64), torch.hann_window(16)),
             lambda x, w: torch.stft(x, 16, hop_length=4, window=w, center=False, return_complex=True)),
    # recurrent layers (the aten functions nn.LSTM / nn.GRU / nn.RNN call)
    "lstm": (lambda: (t(5, 2, 3), t(1, 2, 4), t(1, 2, 4), lstm_params(3, 4)),
             lambda x, h, c, p: torch.lstm(x, (h, c), p, True, 1, 0.0, False, False, False)),
    "gru": (lambda: (t(5, 2, 3), t(1, 2, 4), [t(12, 3), t(12, 4), t(12), t(12)]),
            lambda x, h, p: torch.gru(x, h, p, True, 1, 0.0, False, False, False)),
    "rnn_tanh": (lambda: (t(5, 2, 3), t(1, 2, 4), [t(4, 3), t(4, 4), t(4), t(4)]),
                 lambda x, h, p: torch.rnn_tanh(x, h, p, True, 1, 0.0, False, False, False)),
    "lstm_cell": (lambda: (t(2, 3), t(2, 4), t(2, 4), t(16, 3), t(16, 4)),
                  lambda x, h, c, wi, wh: torch.lstm_cell(x, (h, c), wi, wh)),
}


def record(make, call):
    inputs = make()
    with profile(activities=[ProfilerActivity.CPU]) as p:
        call(*inputs)
    evs = [e for e in p.events() if e.name.startswith("aten::")]
    top = [e for e in evs if e.cpu_parent is None]
    return top[0].name, sorted({e.name for e in evs})


lines = ["# generated by tools/golden/gen_profiler_names.py with torch %s; do not edit" % torch.__version__]
for name, (make, call) in cases.items():
    top, names = record(make, call)
    lines.append("%s|%s|%s" % (name, top, " ".join(names)))
path = os.path.join(GOLDEN_DIR, "profiler_names.golden")
with open(path, "w") as f:
    f.write("\n".join(lines) + "\n")
print("wrote %d cases to %s" % (len(lines) - 1, path))
