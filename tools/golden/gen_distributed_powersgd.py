"""Golden values for tests/distributed/powersgd_test.cpp: the parameters after
every step of torch's DistributedDataParallel with the PowerSGD hooks, one
process on the whole batch. The test runs 2 processes on halves of the batch:
PowerSGD's maths is linear in the ranks' matrices up to the column
normalisation (which is scale-free), so the averaged result is the same.
torch 1.13's batched_powerSGD_hook asserts on its own 2-D P and Q (a bug);
here _orthogonalize sees them as a batch of one, as it was meant to.
Also: numpy RandomState(0).randint(1e9) draws, the seeds PowerSGD uses.
Run: /usr/bin/python3 tools/golden/gen_distributed_powersgd.py"""
import os
import tempfile

import numpy as np
import torch
import torch.distributed as dist
from torch.distributed.algorithms.ddp_comm_hooks import powerSGD_hook as psgd
from torch.nn.parallel import DistributedDataParallel

from golden import GoldenWriter

_orig_orthogonalize = psgd._orthogonalize


def _orthogonalize(m, epsilon=0):
    if m.dim() == 2:
        return _orig_orthogonalize(m.unsqueeze(0), epsilon)
    return _orig_orthogonalize(m, epsilon)


psgd._orthogonalize = _orthogonalize


class Net(torch.nn.Module):
    """Three layers at different depths (so backward's ready order is fixed),
    two of them the same shape (for batch_tensors_with_same_shape)."""

    def __init__(self, w1, w3, w2, b):
        super().__init__()
        self.w1 = torch.nn.Parameter(w1.clone())
        self.w3 = torch.nn.Parameter(w3.clone())
        self.w2 = torch.nn.Parameter(w2.clone())
        self.b = torch.nn.Parameter(b.clone())

    def forward(self, x):
        return torch.tanh(torch.tanh(x @ self.w1.t()) @ self.w3.t()) @ self.w2.t() + self.b


CASES = {
    # name: (hook, PowerSGDState keywords)
    "rank1": (psgd.powerSGD_hook, dict(matrix_approximation_rank=1, start_powerSGD_iter=2)),
    "rank3_qr": (psgd.powerSGD_hook, dict(matrix_approximation_rank=3, start_powerSGD_iter=2, min_compression_rate=1)),
    "no_feedback": (psgd.powerSGD_hook,
                    dict(matrix_approximation_rank=2, start_powerSGD_iter=1, use_error_feedback=False,
                         warm_start=False, orthogonalization_epsilon=1e-8, random_seed=5)),
    "batched_shapes": (psgd.powerSGD_hook,
                       dict(matrix_approximation_rank=2, start_powerSGD_iter=2, batch_tensors_with_same_shape=True)),
    "batched_hook": (psgd.batched_powerSGD_hook, dict(matrix_approximation_rank=1, start_powerSGD_iter=2)),
}
STEPS = 5


def main():
    g = GoldenWriter("distributed_powersgd")
    rs = np.random.RandomState(0)
    g.add("randint_seed0", torch.tensor([rs.randint(1_000_000_000) for _ in range(4)], dtype=torch.int64))
    torch.manual_seed(0)
    w1, w3, w2, b = torch.randn(12, 12) * 0.3, torch.randn(12, 12) * 0.3, torch.randn(3, 12) * 0.3, torch.randn(3)
    x, y = torch.randn(8, 12), torch.randn(8, 3)
    for name, t in [("w1", w1), ("w3", w3), ("w2", w2), ("b", b), ("x", x), ("y", y)]:
        g.add(name, t)
    path = tempfile.mktemp()
    dist.init_process_group("gloo", init_method="file://" + path, rank=0, world_size=1)
    for case, (hook, kw) in CASES.items():
        net = Net(w1, w3, w2, b)
        ddp = DistributedDataParallel(net)
        state = psgd.PowerSGDState(process_group=None, **kw)
        ddp.register_comm_hook(state, hook)
        opt = torch.optim.SGD(ddp.parameters(), lr=0.5)
        for step in range(STEPS):
            opt.zero_grad()
            torch.nn.functional.mse_loss(ddp(x), y).backward()
            opt.step()
            for pname, p in net.named_parameters():
                g.add(f"{case}.step{step}.{pname}", p.detach())
    dist.destroy_process_group()
    if os.path.exists(path):
        os.remove(path)
    g.save()


if __name__ == "__main__":
    main()
