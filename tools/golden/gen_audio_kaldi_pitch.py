"""Reference values for ember::audio::functional::compute_kaldi_pitch's pieces
(tests/audio/kaldi_pitch_test.cpp).

Debian's torchaudio 0.13.1 was built without Kaldi (compute_kaldi_pitch raises), so
nothing here comes from Kaldi itself. Each piece is instead computed directly from its
definition, in float64 numpy, independently of the C++ code's structure:
  - the downsampler: every output sample as the plain sum over all input samples of the
    Hann-windowed sinc kernel, and the number of output samples from the time-interval
    rule (with and without flushing) in exact fractions;
  - the lag grid: the closed form (1/max_f0) (1 + delta_pitch)^i;
  - the NCCF interpolation matrix: the same kernel evaluated at every (measured lag, grid
    lag) pair, on the grid stepped in float32 as Kaldi steps it;
  - the Viterbi search: a brute-force dynamic program over all predecessor states;
  - frame counts: Kaldi's frame-count rule on the flushed downsampled length.
Run with Debian's interpreter:  /usr/bin/python3 tools/golden/gen_audio_kaldi_pitch.py
"""
import math
from fractions import Fraction

import numpy as np
import torch

from golden import GoldenWriter

g = GoldenWriter("audio_kaldi_pitch")
rng = np.random.default_rng(37)


def kernel(t, cutoff, zeros):
    """Hann-windowed sinc low-pass at `cutoff` Hz, zeros zero crossings each side."""
    half = zeros / (2.0 * cutoff)
    if abs(t) >= half:
        return 0.0
    window = 0.5 * (1 + math.cos(2 * math.pi * cutoff / zeros * t))
    sinc = math.sin(2 * math.pi * cutoff * t) / (math.pi * t) if t != 0 else 2 * cutoff
    return sinc * window


def num_outputs(n, rate_in, rate_out, cutoff, zeros, flush):
    """Output times t / rate_out strictly before the end of the input (without flushing:
    before the end minus the kernel half-width, counted in whole 1/lcm ticks)."""
    tick = rate_in * rate_out // math.gcd(rate_in, rate_out)
    end = Fraction(n, rate_in)
    if not flush:
        end -= Fraction(math.floor(zeros / (2.0 * cutoff) * tick), tick)
    if end <= 0:
        return 0
    return math.ceil(end * rate_out)


def downsample(x, rate_in, rate_out, cutoff, zeros, count):
    out = np.zeros(count)
    for t in range(count):
        t_out = t / rate_out
        out[t] = sum(x[k] * kernel(k / rate_in - t_out, cutoff, zeros) / rate_in for k in range(len(x))
                     if abs(k / rate_in - t_out) < zeros / (2.0 * cutoff) + 1e-12)
    return out


for i, (rate_in, rate_out, cutoff, zeros, n) in enumerate(
        [(16000, 4000, 1000, 1, 640), (44100, 4000, 1000, 1, 1500), (8000, 4000, 1000, 3, 400),
         (22050, 4000, 1500, 2, 700)]):
    x = rng.uniform(-1, 1, n).astype(np.float32)
    count = num_outputs(n, rate_in, rate_out, cutoff, zeros, True)
    g.add("resample%d.params" % i, torch.tensor([rate_in, rate_out, cutoff, zeros, n], dtype=torch.float64))
    g.add("resample%d.x" % i, torch.from_numpy(x))
    y = downsample(x.astype(np.float64), rate_in, rate_out, cutoff, zeros, count)
    g.add("resample%d.y" % i, torch.from_numpy(np.round(y, 10)))
    counts = [num_outputs(m, rate_in, rate_out, cutoff, zeros, f) for m in (0, 1, 7, 100, n) for f in (False, True)]
    g.add("resample%d.counts" % i, torch.tensor(counts, dtype=torch.int64))

# Lag grids: (min_f0, max_f0, delta_pitch).
for i, (min_f0, max_f0, dp) in enumerate([(50, 400, 0.005), (100, 120, 0.005), (60, 500, 0.02)]):
    count = math.floor(math.log(max_f0 / min_f0) / math.log(1 + dp)) + 1
    lags = (1.0 / max_f0) * (1 + dp) ** np.arange(count)
    g.add("lags%d.params" % i, torch.tensor([min_f0, max_f0, dp], dtype=torch.float64))
    g.add("lags%d.y" % i, torch.from_numpy(lags))


# The NCCF interpolation matrix for the default options: rows are the measured integer
# lags first..last (samples at 4 kHz), columns the grid lags.
def float_stepped_lags(min_f0, max_f0, dp):
    """The grid as Kaldi steps it, in float32 (it drifts from the closed form by ~1e-5
    relative over 400 steps, enough to move the interpolation weights by ~1e-3)."""
    lag, top, step = np.float32(1.0 / np.float32(max_f0)), np.float32(1.0 / np.float32(min_f0)), 1.0 + float(np.float32(dp))
    out = []
    while lag <= top:
        out.append(float(lag))
        lag = np.float32(float(lag) * step)
    return np.array(out)


def lag_matrix(min_f0, max_f0, dp, rate, width):
    first = math.ceil(rate * (1.0 / max_f0 - width / (2.0 * rate)))
    last = math.floor(rate * (1.0 / min_f0 + width / (2.0 * rate)))
    lags = float_stepped_lags(min_f0, max_f0, dp)
    count = len(lags)
    w = np.zeros((last + 1 - first, count))
    for k in range(last + 1 - first):
        for j in range(count):
            w[k, j] = kernel(lags[j] - (first + k) / rate, rate / 2.0, width) / rate
    return first, last, w


for i, (min_f0, max_f0, dp, rate, width) in enumerate([(50, 400, 0.005, 4000, 5), (80, 300, 0.01, 8000, 3)]):
    first, last, w = lag_matrix(min_f0, max_f0, dp, rate, width)
    g.add("lagw%d.params" % i, torch.tensor([min_f0, max_f0, dp, rate, width], dtype=torch.float64))
    g.add("lagw%d.range" % i, torch.tensor([first, last], dtype=torch.int64))
    g.add("lagw%d.w" % i, torch.from_numpy(np.round(w, 10)))


# Viterbi: the path minimising sum_t local(t, s_t) + factor (s_t - s_{t-1})^2 with
# local = 1 - n + soft_min_f0 * lag * n, by brute force over all predecessors.
def brute_force_path(nccf, lags, soft_min_f0, penalty_factor, dp):
    return brute_force(nccf, lags, soft_min_f0, penalty_factor, dp)[0]


def brute_force(nccf, lags, soft_min_f0, penalty_factor, dp):
    """The best path and every frame's backpointers."""
    factor = math.log(1 + dp) ** 2 * penalty_factor
    frames, states = nccf.shape
    local = 1 - nccf + soft_min_f0 * lags[None, :] * nccf
    cost = np.zeros(states)
    back = np.zeros((frames, states), dtype=np.int64)
    idx = np.arange(states)
    for t in range(frames):
        total = cost[None, :] + factor * (idx[:, None] - idx[None, :]) ** 2  # [i, j]
        back[t] = np.argmin(total, axis=1)
        cost = total[idx, back[t]] + local[t]
    path = np.zeros(frames, dtype=np.int64)
    path[-1] = int(np.argmin(cost))
    for t in range(frames - 1, 0, -1):
        path[t - 1] = back[t, path[t]]
    return path, back


def latency(back, max_latency):
    """Frames at the end whose state may still change: walking back from the lowest and
    the highest state until their paths meet, at most max_latency (the frame before the
    first has every state pointing to 0)."""
    if max_latency <= 0:
        return 0
    lo, hi, lat, t = 0, back.shape[1] - 1, 0, back.shape[0] - 1
    while t >= -1 and lat < max_latency:
        lo, hi = (back[t, lo], back[t, hi]) if t >= 0 else (0, 0)
        if lo == hi:
            return lat
        t -= 1
        if t >= -1:
            lat += 1
    return lat


for i, (frames, penalty, soft) in enumerate([(30, 0.1, 10.0), (25, 2000.0, 10.0), (40, 20000.0, 0.0)]):
    lags = (1.0 / 120) * (1 + 0.005) ** np.arange(37)
    # Smooth random NCCF rows with a drifting peak, plus noise: paths with real transitions.
    centre = np.cumsum(rng.normal(0, 2.0, frames)) + 18
    nccf = 0.9 * np.exp(-0.5 * ((np.arange(37)[None, :] - centre[:, None]) / 3.0) ** 2)
    nccf = np.clip(nccf + rng.normal(0, 0.15, nccf.shape), -0.99, 0.99).astype(np.float32)
    g.add("viterbi%d.params" % i, torch.tensor([penalty, soft, 0.005], dtype=torch.float64))
    g.add("viterbi%d.lags" % i, torch.from_numpy(lags.astype(np.float32)))
    g.add("viterbi%d.nccf" % i, torch.from_numpy(nccf))
    path = brute_force_path(nccf.astype(np.float64), lags.astype(np.float32).astype(np.float64), soft, penalty, 0.005)
    g.add("viterbi%d.path" % i, torch.from_numpy(path))


# Frame counts: Kaldi counts frames on the flushed signal at resample_frequency, with a
# window of frame_length and a hop of frame_shift (here 100 and 40 samples at 4 kHz).
def frame_count(n, rate, snip_edges):
    ds = num_outputs(n, rate, 4000, 1000, 1, True)
    if ds < 100:
        return 0
    if snip_edges:
        return (ds - 100) // 40 + 1
    return int(np.float32(ds) / np.float32(40) + np.float32(0.5))


cases = []
for rate in (8000, 16000, 44100):
    for n in (0, 100, rate // 40, rate // 10, rate // 2 + 17, rate):
        for snip in (True, False):
            cases.append([rate, n, int(snip), frame_count(n, rate, snip)])
g.add("frames", torch.tensor(cases, dtype=torch.int64))


def fast_downsample(x, rate_in, rate_out, cutoff, zeros, count):
    """downsample() with the sum restricted to the kernel's support, vectorised."""
    half = zeros / (2.0 * cutoff)
    out = np.zeros(count)
    for t in range(count):
        t_out = t / rate_out
        k = np.arange(max(0, math.ceil((t_out - half) * rate_in)), min(len(x), math.floor((t_out + half) * rate_in) + 1))
        d = k / rate_in - t_out
        window = np.where(np.abs(d) < half, 0.5 * (1 + np.cos(2 * np.pi * cutoff / zeros * d)), 0.0)
        with np.errstate(invalid="ignore", divide="ignore"):
            sinc = np.where(d != 0, np.sin(2 * np.pi * cutoff * d) / (np.pi * d), 2 * cutoff)
        out[t] = np.sum(x[k] * sinc * window) / rate_in
    return out


def pitch_reference(x, fs, snip_edges, frames_per_chunk=0, online_latency=None):
    """The whole tracker (default options otherwise) from its definition: downsample to
    4 kHz, per frame the mean-removed 100-sample window against lags 8..82 with the
    ballast (mean square energy * 100)^2 * 7000, the NCCF interpolated onto the grid,
    the brute-force Viterbi, (NCCF without ballast, 1/lag) on the best path.
    Kaldi's calls: one AcceptWaveform per chunk of frames_per_chunk * 10 ms of input
    (the whole input when 0), each measuring the frames whose window the unflushed
    downsampled samples complete, with the energy of those samples; then InputFinished
    (the flushed tail's frames, with the energy of all samples). If fewer than 500
    frames result and a frame's energy differs from the final one by more than 1 %,
    every frame's ballasted NCCF is rescaled by sqrt((b_old + avg e1e2) / (b_new + avg
    e1e2)) before the search (Kaldi's RecomputeBacktraces). With online_latency (first-pass
    output), each frame is output as it stood when it first became ready: after each
    chunk, frames up to the newest minus its traceback latency (recomputed only when the
    chunk added frames), and after InputFinished all of them."""
    rate, window, shift = 4000, 100, 40
    n = len(x)
    n_all = num_outputs(n, fs, rate, 1000, 1, True)
    ds = fast_downsample(x.astype(np.float64), fs, rate, 1000, 1, n_all)
    first, last, w = lag_matrix(50, 400, 0.005, rate, 5)
    lags = float_stepped_lags(50, 400, 0.005)
    full = window + last

    def frames_available(m, finished):
        length = window + (0 if finished else last)
        if m < length:
            return 0
        if snip_edges:
            return (m - length) // shift + 1
        return int(np.float32(m if finished else m - length // 2) / np.float32(shift) + np.float32(0.5))

    def mean_square(m):
        return np.mean(ds[:m] ** 2) - np.mean(ds[:m]) ** 2

    if frames_per_chunk == 0:
        ends = [n]
    else:
        chunk = int(np.float32(frames_per_chunk) * np.float32(fs) * np.float32(10) / np.float32(1000))
        ends = list(range(chunk, n, chunk)) + [n]
    calls = [(num_outputs(e, fs, rate, 1000, 1, False), False) for e in ends] + [(n_all, True)]
    padded = np.concatenate([np.zeros(full), ds, np.zeros(2 * full)])
    pitch_rows, pov_rows, energies, avg_norms = [], [], [], []
    emitted, lat = [], 0
    for call, (avail, finished) in enumerate(calls):
        before = len(pitch_rows)
        ms = mean_square(avail) if avail > 0 else 0.0
        for f in range(len(pitch_rows), frames_available(avail, finished)):
            start = f * shift if snip_edges else int((f + 0.5) * shift) - full // 2
            frame = padded[start + full:start + 2 * full].copy()
            frame[max(0, avail - start):] = 0  # samples not yet seen
            frame -= frame[:window].mean()
            e1 = np.dot(frame[:window], frame[:window])
            inner = np.array([np.dot(frame[:window], frame[l:l + window]) for l in range(first, last + 1)])
            norm = np.array([e1 * np.dot(frame[l:l + window], frame[l:l + window]) for l in range(first, last + 1)])
            pitch_rows.append(inner / np.sqrt(norm + (ms * window) ** 2 * 7000))
            with np.errstate(invalid="ignore", divide="ignore"):
                pov_rows.append(np.where(norm > 0, inner / np.sqrt(norm), 0.0))
            energies.append(ms)
            avg_norms.append(norm.mean())
        if online_latency is None or finished:
            continue
        if len(pitch_rows) > before:
            # Kaldi traces back (and measures the latency) only when a call adds frames.
            path, back = brute_force(np.array(pitch_rows) @ w, lags, 10.0, 0.1, 0.005)
            lat = latency(back, online_latency)
        if call < len(calls) - 2:  # the last chunk's frames are output after InputFinished
            povs = np.array(pov_rows) @ w if pov_rows else None
            for f in range(len(emitted), len(pitch_rows) - lat):
                emitted.append((povs[f, path[f]], 1.0 / lags[path[f]]))
    frames = len(pitch_rows)
    if frames == 0:
        return np.zeros((0, 2)), False
    assert frames < 500
    final = mean_square(n_all)
    rescored = any(abs(e - final) > 0.01 * (abs(e) + abs(final)) for e in energies)
    pitch_rs, pov_rs = np.array(pitch_rows) @ w, np.array(pov_rows) @ w
    if rescored:
        b_new = (final * window) ** 2 * 7000
        for f in range(frames):
            b_old = (energies[f] * window) ** 2 * 7000
            pitch_rs[f] *= math.sqrt((b_old + avg_norms[f]) / (b_new + avg_norms[f]))
    path = brute_force_path(pitch_rs, lags, 10.0, 0.1, 0.005)
    final_rows = np.stack([pov_rs[np.arange(frames), path], 1.0 / lags[path]], axis=1)
    if online_latency is None:
        return final_rows, rescored
    out = np.array(emitted).reshape(-1, 2)
    return np.concatenate([out, final_rows[len(out):]]), rescored


t8 = np.arange(4800) / 8000.0
voiced = sum(np.sin(2 * np.pi * k * 130 * t8 + 0.7 * k) / k for k in range(1, 9)) * 0.3
voiced = (voiced + rng.normal(0, 0.02, voiced.shape)).astype(np.float32)
t16 = np.arange(9600) / 16000.0
glide = (0.4 * np.sin(2 * np.pi * (180 * t16 + 60 * t16 ** 2)) + rng.normal(0, 0.01, t16.shape)).astype(np.float32)
# Rising energy, fed in chunks: the first frames' ballast is rescored at the end.
swell = (np.minimum(1.0, 0.05 + 2 * t8) * voiced).astype(np.float32)
for tag, x, fs, snip, fpc, want_rescored in [("pipeline0", voiced, 8000, True, 0, False),
                                             ("pipeline1", glide, 16000, False, 0, False),
                                             ("pipeline2", swell, 8000, True, 7, True),
                                             ("pipeline3", glide, 16000, False, 4, None)]:
    y, rescored = pitch_reference(x, fs, snip, fpc)
    assert want_rescored is None or rescored == want_rescored, (tag, rescored)
    g.add(tag + ".x", torch.from_numpy(x))
    g.add(tag + ".params", torch.tensor([fs, int(snip), fpc], dtype=torch.int64))
    g.add(tag + ".y", torch.from_numpy(np.round(y, 8)))
# First-pass online output: frames as they stood when first ready, latency at most 3 and 50.
for tag, x, fs, snip, fpc, lat in [("online0", swell, 8000, True, 5, 3), ("online1", glide, 16000, False, 3, 50)]:
    y, rescored = pitch_reference(x, fs, snip, fpc, lat)
    g.add(tag + ".x", torch.from_numpy(x))
    g.add(tag + ".params", torch.tensor([fs, int(snip), fpc, lat], dtype=torch.int64))
    g.add(tag + ".y", torch.from_numpy(np.round(y, 8)))
    g.add(tag + ".final", torch.from_numpy(np.round(pitch_reference(x, fs, snip, fpc)[0], 8)))

g.save()
