"""Golden values for torch.fft, stft/istft and the window functions.

Every case stores <name>.cfg and its input(s) <name>.x (and <name>.w for a
window) with the expected <name>.out. cfg layouts (float64):
  t1_*  (fft, ifft, rfft, irfft, hfft, ihfft): func, n (-1 = None), dim, norm
  tn_*  (fft2, ifft2, rfft2, irfft2, fftn, ifftn, rfftn, irfftn):
        func, norm, len(s) (-1 = None), s..., len(dim) (-1 = None), dim...
  win_* : func, length, periodic, param (alpha/beta; -1 = default), param2 (-1 = default)
  freq_*: func (0 fftfreq, 1 rfftfreq), n, d
  shift_*: func (0 fftshift, 1 ifftshift), len(dim) (-1 = None), dim...
  stft_*: n_fft, hop, win_length, center (-1 = overload without center), pad_mode, normalized, onesided
          (-1 = None); window in .w when present
  istft_*: n_fft, hop, win_length, center, normalized, onesided (-1 = None), length (-1 = None)
norm ids: 0 None, 1 "backward", 2 "ortho", 3 "forward"; pad_mode ids: 0 reflect, 1 constant,
2 replicate, 3 circular. tests/fft/fft_test.cpp replays every case.
"""
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden import GoldenWriter  # noqa: E402

torch.manual_seed(0)
w = GoldenWriter("fft")

NORMS = [None, "backward", "ortho", "forward"]
PADS = ["reflect", "constant", "replicate", "circular"]
F1 = [torch.fft.fft, torch.fft.ifft, torch.fft.rfft, torch.fft.irfft, torch.fft.hfft, torch.fft.ihfft]
FN = [torch.fft.fft2, torch.fft.ifft2, torch.fft.rfft2, torch.fft.irfft2,
      torch.fft.fftn, torch.fft.ifftn, torch.fft.rfftn, torch.fft.irfftn]
REAL_IN = {2, 5}      # rfft, ihfft take real inputs
CPLX_IN = {3, 4}      # irfft, hfft take complex (Hermitian half) inputs
count = [0]


def rand(shape, dtype):
    if dtype.is_complex:
        return torch.randn(shape, dtype=dtype)
    if dtype == torch.int64:
        return torch.randint(-5, 6, shape)
    return torch.randn(shape, dtype=dtype)


def t1(func, shape, dtype, n=None, dim=-1, norm=0):
    x = rand(shape, dtype)
    out = F1[func](x, n=n, dim=dim, norm=NORMS[norm])
    nm = "t1_%03d" % count[0]
    count[0] += 1
    w.add(nm + ".cfg", torch.tensor([func, -1 if n is None else n, dim, norm], dtype=torch.float64))
    w.add(nm + ".x", x)
    w.add(nm + ".out", out.resolve_conj())


def tn(func, shape, dtype, s=None, dim=None, norm=0):
    x = rand(shape, dtype)
    kw = {"norm": NORMS[norm]}
    if s is not None:
        kw["s"] = s
    if dim is not None:
        kw["dim"] = dim
    out = FN[func](x, **kw)
    nm = "tn_%03d" % count[0]
    count[0] += 1
    cfg = [func, norm]
    cfg += [-1] if s is None else [len(s)] + list(s)
    cfg += [-1] if dim is None else [len(dim)] + list(dim)
    w.add(nm + ".cfg", torch.tensor(cfg, dtype=torch.float64))
    w.add(nm + ".x", x)
    w.add(nm + ".out", out.resolve_conj())


SIZES = [1, 2, 7, 8, 12, 13, 16, 30, 101]
REALS = [torch.float32, torch.float64]
CPLXS = [torch.complex64, torch.complex128]

# Every 1-D function over every size class and dtype (default norm), then each norm.
for func in range(6):
    in_types = REALS if func in REAL_IN else CPLXS if func in CPLX_IN else REALS + CPLXS
    for size in SIZES:
        for dt in in_types:
            if func in CPLX_IN:
                # Input of size//2+1 bins; n given so odd lengths and length 1 are reached.
                t1(func, (size // 2 + 1,), dt, n=size)
                if size > 1:
                    t1(func, (size,), dt)  # default n = 2 (m - 1)
            else:
                t1(func, (size,), dt)
    for norm in range(4):
        for dt in in_types:
            t1(func, (3, 12), dt, norm=norm)
            t1(func, (13, 2), dt, dim=0, norm=norm)
    # n padding and trimming, dims in the middle, batches.
    for dt in in_types[-1:]:
        t1(func, (2, 10, 3), dt, n=16, dim=1)
        t1(func, (2, 10, 3), dt, n=7, dim=-2, norm=2)
        t1(func, (4, 5), dt, n=1, dim=1)
t1(0, (6,), torch.int64)
t1(2, (2, 6), torch.int64, norm=2)

for func in range(8):
    real = func in (2, 6)
    cplx = func in (3, 7)
    dts = REALS if real else CPLXS if cplx else REALS + CPLXS
    for dt in dts:
        tn(func, (4, 6), dt)
        tn(func, (3, 5, 7), dt, norm=2)
        tn(func, (2, 4, 6), dt, s=(5, 8), norm=3)
        tn(func, (4, 6, 3), dt, dim=(0, 2), norm=1)
        tn(func, (4, 6, 3), dt, s=(3, -1), dim=(2, 0))
    if func >= 4:
        tn(func, (3, 4, 5), dts[-1])  # all dims
        tn(func, (3, 4, 5), dts[-1], s=(6, 4))  # s without dim: the last len(s) dims

# Window functions (float32 and float64), periodic and symmetric.
WIN = [
    (0, lambda L, p, a, b, dt: torch.hann_window(L, p, dtype=dt)),
    (1, lambda L, p, a, b, dt: torch.hamming_window(L, p, dtype=dt) if a < 0
        else torch.hamming_window(L, p, a, b, dtype=dt)),
    (2, lambda L, p, a, b, dt: torch.blackman_window(L, p, dtype=dt)),
    (3, lambda L, p, a, b, dt: torch.bartlett_window(L, p, dtype=dt)),
    (4, lambda L, p, a, b, dt: torch.kaiser_window(L, p, dtype=dt) if a < 0
        else torch.kaiser_window(L, p, a, dtype=dt)),
]
i = 0
for fid, fn in WIN:
    for L in (0, 1, 2, 5, 8, 13):
        for p in (True, False):
            for dt in REALS:
                params = [(-1, -1)]
                if fid == 1 and L == 8:
                    params.append((0.6, 0.3))
                if fid == 4 and L == 13:
                    params.append((5.0, -1))
                for a, b in params:
                    nm = "win_%03d" % i
                    i += 1
                    w.add(nm + ".cfg", torch.tensor([fid, L, int(p), a, b], dtype=torch.float64))
                    w.add(nm + ".out", fn(L, p, a, b, dt))

i = 0
for n in (1, 2, 7, 8):
    for d in (1.0, 0.25):
        for dt in REALS:
            for fid, fn in ((0, torch.fft.fftfreq), (1, torch.fft.rfftfreq)):
                nm = "freq_%03d" % i
                i += 1
                w.add(nm + ".cfg", torch.tensor([fid, n, d], dtype=torch.float64))
                w.add(nm + ".out", fn(n, d, dtype=dt))

i = 0
for fid, fn in ((0, torch.fft.fftshift), (1, torch.fft.ifftshift)):
    for shape, dims in (((7,), None), ((4, 5), None), ((4, 5, 3), (0, 2)), ((6, 3), (-1,))):
        x = torch.randn(shape, dtype=torch.float64)
        nm = "shift_%03d" % i
        i += 1
        cfg = [fid] + ([-1] if dims is None else [len(dims)] + list(dims))
        w.add(nm + ".cfg", torch.tensor(cfg, dtype=torch.float64))
        w.add(nm + ".x", x)
        w.add(nm + ".out", fn(x, dims))

# stft: window None/hann/hamming(win_length), center and pad modes, normalized, onesided, batches.
i = 0
STFT = [
    # shape, dtype, n_fft, hop, win_length, center, pad, normalized, onesided, window
    ((64,), torch.float64, 16, 4, None, 1, 0, 0, None, "hann"),
    ((64,), torch.float32, 16, None, None, 1, 0, 0, None, "hann"),
    ((2, 50), torch.float64, 12, 5, 8, 1, 1, 1, None, "hamming"),
    ((50,), torch.float64, 13, 3, None, 0, 0, 0, None, None),
    ((50,), torch.float64, 13, 3, None, -1, 0, 0, False, "hann"),
    ((40,), torch.complex128, 10, 4, None, 1, 2, 0, None, "hann"),
    ((3, 40), torch.float32, 8, 2, 6, 1, 3, 0, None, "hann"),
    ((30,), torch.float64, 7, 7, None, 1, 0, 1, None, None),
]
for shape, dt, n_fft, hop, win, center, pad, normalized, onesided, wname in STFT:
    x = torch.randn(shape, dtype=dt)
    wl = n_fft if win is None else win
    rdt = torch.float64 if dt in (torch.float64, torch.complex128) else torch.float32
    window = None
    if wname == "hann":
        window = torch.hann_window(wl, dtype=rdt)
    elif wname == "hamming":
        window = torch.hamming_window(wl, dtype=rdt)
    if center == -1:
        out = torch.stft(x, n_fft, hop, win, window, center=False, normalized=bool(normalized),
                         onesided=onesided, return_complex=True)
    else:
        out = torch.stft(x, n_fft, hop, win, window, center=bool(center), pad_mode=PADS[pad],
                         normalized=bool(normalized), onesided=onesided, return_complex=True)
    nm = "stft_%03d" % i
    i += 1
    cfg = [n_fft, -1 if hop is None else hop, -1 if win is None else win, center, pad, normalized,
           -1 if onesided is None else int(onesided)]
    w.add(nm + ".cfg", torch.tensor(cfg, dtype=torch.float64))
    w.add(nm + ".x", x)
    if window is not None:
        w.add(nm + ".w", window)
    w.add(nm + ".out", out.resolve_conj())

i = 0
ISTFT = [
    # signal shape, dtype, n_fft, hop, win, center, normalized, onesided, length, window, return_complex
    ((64,), torch.float64, 16, 4, None, 1, 0, None, None, "hann", False),
    ((2, 60), torch.float64, 12, 3, 10, 1, 1, None, 55, "hann", False),
    ((60,), torch.float32, 16, 4, None, 1, 0, None, 70, "hann", False),
    ((60,), torch.float64, 10, 5, None, 0, 0, None, None, None, False),
    ((48,), torch.complex128, 8, 2, None, 1, 0, False, None, "hann", True),
    ((48,), torch.float64, 8, 2, None, 1, 0, False, None, "hann", False),
]
for shape, dt, n_fft, hop, win, center, normalized, onesided, length, wname, rc in ISTFT:
    wl = n_fft if win is None else win
    rdt = torch.float64 if dt in (torch.float64, torch.complex128) else torch.float32
    window = torch.hann_window(wl, dtype=rdt) if wname == "hann" else None
    sig = torch.randn(shape, dtype=dt)
    spec = torch.stft(sig, n_fft, hop, win, window, center=bool(center), normalized=bool(normalized),
                      onesided=onesided, return_complex=True)
    spec = spec + 0.1 * torch.randn_like(spec)  # not an exact stft: exercises the least-squares inverse
    out = torch.istft(spec, n_fft, hop, win, window, center=bool(center), normalized=bool(normalized),
                      onesided=onesided, length=length, return_complex=rc)
    nm = "istft_%03d" % i
    i += 1
    cfg = [n_fft, -1 if hop is None else hop, -1 if win is None else win, center, normalized,
           -1 if onesided is None else int(onesided), -1 if length is None else length, int(rc)]
    w.add(nm + ".cfg", torch.tensor(cfg, dtype=torch.float64))
    w.add(nm + ".x", spec)
    if window is not None:
        w.add(nm + ".w", window)
    w.add(nm + ".out", out.resolve_conj())

w.save()
