"""Golden values for tests/core: dtype promotion table, factories, half conversions."""
import torch

from golden import GoldenWriter

w = GoldenWriter("core")
order = [torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.float16, torch.float32,
         torch.float64, torch.complex64, torch.complex128, torch.bool, torch.bfloat16]
codes = []
for a in order:
    for b in order:
        codes.append(order.index(torch.promote_types(a, b)))
w.add("promote_table", torch.tensor(codes, dtype=torch.int64).view(12, 12))

w.add("linspace_0_1_7", torch.linspace(0, 1, 7))
w.add("linspace_m3_5_4_f64", torch.linspace(-3, 5, 4, dtype=torch.float64))
w.add("linspace_int", torch.linspace(0, 10, 4, dtype=torch.int64))
w.add("logspace_0_3_4", torch.logspace(0, 3, 4))
w.add("logspace_base2", torch.logspace(0, 4, 5, base=2.0, dtype=torch.float64))
w.add("arange_f", torch.arange(0.0, 1.0, 0.3))
w.add("arange_neg", torch.arange(5, -3, -2))
w.add("arange_f64_frac", torch.arange(1, 2.5, 0.5, dtype=torch.float64))
w.add("eye_3_4", torch.eye(3, 4))
# float -> half / bfloat16 rounding, including subnormals, overflow and ties.
vals = torch.tensor([0.0, -0.0, 1.0, 65504.0, 65520.0, 65519.0, 1e-8, 6e-8, 5.96e-8, 3e-5, 1.0009765625,
                     1.00048828125, 1.00146484375, -2.5, 1e30, float("inf"), float("-inf"), 3.14159265,
                     1.00390625, 1.01171875, 3.4e38], dtype=torch.float32)
w.add("half_in", vals)
w.add("half_out", vals.to(torch.float16))
w.add("bf16_out", vals.to(torch.bfloat16))
w.save()
