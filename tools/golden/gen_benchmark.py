"""Golden values for ember::utils::benchmark (tests/utils/benchmark_test.cpp).

Fixed per-block times go through torch.utils.benchmark's Measurement and
Compare; benchmark.golden holds the inputs and the statistics (median, mean,
IQR, quartiles, significant figures), benchmark_text.golden the printed forms:
each Measurement's repr without its first line (which holds an address) and
Compare tables with the display options. Text sections start with "@@ <name>".
"""
import os

import torch
from torch.utils.benchmark.utils import common
from torch.utils.benchmark.utils.compare import Compare

from golden import GOLDEN_DIR, GoldenWriter

D = torch.float64
g = GoldenWriter("benchmark")
text = []
gen = torch.Generator().manual_seed(7)


def spec(label, sub_label, description, num_threads=1, env=None):
    return common.TaskSpec(stmt="", setup="", label=label, sub_label=sub_label, description=description,
                           env=env, num_threads=num_threads)


def raw(base, spread, n):
    return (base * (1 + spread * torch.rand(n, generator=gen, dtype=D))).tolist()


# name: (number_per_run, raw block times in seconds, label, sub_label, description, threads)
cases = {
    "tight": (100, raw(5.7e-4, 0.02, 40), "add", "1000 floats", "ember", 1),
    "noisy": (10, raw(2.0e-5, 0.5, 9), "add", "1000 floats", "libtorch", 1),
    "gross": (1, raw(3.0e-3, 3.0, 12), "mm", "256x256", "ember", 2),
    "single": (1000, [0.0123], "mm", "256x256", "libtorch", 2),
    "slow": (1, raw(2.5, 0.01, 5), "train", "epoch", "ember", 4),
}
ms = {}
for name, (npr, times, label, sub, desc, nt) in cases.items():
    m = common.Measurement(number_per_run=npr, raw_times=times, task_spec=spec(label, sub, desc, nt))
    ms[name] = m
    g.add(name + ".raw", torch.tensor(times, dtype=D))
    g.add(name + ".number", torch.tensor([npr, nt], dtype=torch.int64))
    g.add(name + ".stats", torch.tensor([m.median, m.mean, m.iqr, m._p25, m._p75], dtype=D))
    g.add(name + ".sigfigs", torch.tensor([m.significant_figures], dtype=torch.int64))
    text.append("@@ repr." + name)
    text.append("\n".join(repr(m).splitlines()[1:]))

# A Compare table: rows 1000/10000 floats, columns ember/libtorch, two thread counts.
table = []
for nt in (1, 2):
    for rows, base in (("1000 floats", 3e-7), ("10000 floats", 2.2e-6)):
        for desc, k in (("ember", 1.0), ("libtorch", 3.7)):
            times = raw(base * k * 100 / nt, 0.03, 20)
            m = common.Measurement(number_per_run=100, raw_times=times, task_spec=spec("add", rows, desc, nt))
            table.append(m)
            key = "cmp.%d.%s.%s" % (nt, rows.split()[0], desc)
            g.add(key + ".raw", torch.tensor(times, dtype=D))
table.append(ms["noisy"])  # a high-variance cell in the same table
g.add("cmp.extra", torch.tensor([1], dtype=torch.int64))

c = Compare(table)
text.append("@@ compare.plain")
text.append(str(c))
c.trim_significant_figures()
text.append("@@ compare.trim")
text.append(str(c))
c.highlight_warnings()
text.append("@@ compare.warnings")
text.append(str(c))
c2 = Compare(table)
c2.colorize()
text.append("@@ compare.color")
text.append(str(c2))
c3 = Compare(table)
c3.colorize(rowwise=True)
text.append("@@ compare.color_rowwise")
text.append(str(c3))
c4 = Compare(table + [ms["gross"], ms["single"]])
text.append("@@ compare.two_labels")
text.append(str(c4))

g.save()
path = os.path.join(GOLDEN_DIR, "benchmark_text.golden")
with open(path, "w") as f:
    f.write("\n".join(text) + "\n@@ end\n")
print("wrote", path)
