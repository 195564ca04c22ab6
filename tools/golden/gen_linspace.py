"""Golden linspace points for tests/ops/linspace_test.cpp, bit for bit (Note [linspace's rounding]
in ember/ops/factory/factory.cpp): float32 and float64 over step counts that cross the vector
widths, the halfway switch and the parallel chunks (one and two threads)."""
import torch

from golden import GoldenWriter

w = GoldenWriter("linspace")
ranges = [(0.0, 1.0), (0.0, 8000.0), (1e-3, 0.1), (2595.0, -7.25)]
counts = [2, 3, 7, 15, 16, 17, 31, 32, 33, 63, 65, 100, 201, 257, 1000]
for dt, name in ((torch.float32, "f32"), (torch.float64, "f64")):
    for r, (a, b) in enumerate(ranges):
        for n in counts:
            w.add("%s.r%d.n%d" % (name, r, n), torch.linspace(a, b, n, dtype=dt))
    for threads in (1, 2):
        torch.set_num_threads(threads)
        for n in (32769, 65537, 100003):
            # Every 53rd point and the neighbourhoods of the halfway point and the chunk ends.
            idx = set(range(0, n, 53))
            for c in (n // 2, (n + 1) // 2, n - 1, (n + 1) // 2 + 1, 32768, 65536):
                idx.update(i for i in range(c - 40, c + 40) if 0 <= i < n)
            idx = torch.tensor(sorted(idx))
            w.add("%s.t%d.n%d.idx" % (name, threads, n), idx)
            w.add("%s.t%d.n%d" % (name, threads, n), torch.linspace(-2.5, 3.75, n, dtype=dt)[idx])
w.save()
