"""Golden values for tests/distributed/collectives_test.cpp: what
torch.distributed's Gloo backend returns for each collective on 2 and 3
processes, rank r holding input_for(r) = (arange(n) + 1) * (r + 1) - r.
Where torch 1.13's Gloo backend lacks an op (AVG, bfloat16 reductions,
reduce_scatter, all_gather_into_tensor), the value is built from the Gloo ops
it has (all_reduce, all_gather), as a user of it would.
Run: /usr/bin/python3 tools/golden/gen_distributed_collectives.py"""
import os
import socket
import tempfile

import torch
import torch.distributed as dist
import torch.multiprocessing as mp

from golden import GoldenWriter

DTYPES = [torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int8, torch.int16, torch.int32,
          torch.int64, torch.uint8]
NAMES = {torch.float32: "float32", torch.float64: "float64", torch.float16: "float16", torch.bfloat16: "bfloat16",
         torch.int8: "int8", torch.int16: "int16", torch.int32: "int32", torch.int64: "int64", torch.uint8: "uint8"}
OPS = {"sum": dist.ReduceOp.SUM, "product": dist.ReduceOp.PRODUCT, "min": dist.ReduceOp.MIN,
       "max": dist.ReduceOp.MAX, "band": dist.ReduceOp.BAND, "bor": dist.ReduceOp.BOR, "bxor": dist.ReduceOp.BXOR}


def input_for(rank, n, dtype):
    return ((torch.arange(n, dtype=torch.float64) + 1) * (rank + 1) - rank).to(dtype)


def all_reduce(t, op):
    try:
        dist.all_reduce(t, op)
        return t
    except RuntimeError:
        # Gloo lacks this dtype: reduce in float64 or int64 (exact for these small
        # values) and round or wrap once.
        w = t.to(torch.float64 if t.is_floating_point() else torch.int64)
        dist.all_reduce(w, op)
        return w.to(t.dtype)


def two_ranks(rank, out):
    res = {}
    for dtype in DTYPES:
        ops = ["sum", "product", "min", "max"]
        if not dtype.is_floating_point:
            ops += ["band", "bor", "bxor"]
        for name in ops:
            res["all_reduce.%s.%s" % (NAMES[dtype], name)] = all_reduce(input_for(rank, 6, dtype), OPS[name])
        if dtype.is_floating_point:
            # AVG: NCCL's definition, the sum divided by the world size in the tensor's dtype.
            s = all_reduce(input_for(rank, 6, dtype), dist.ReduceOp.SUM)
            res["all_reduce.%s.avg" % NAMES[dtype]] = s / 2
    c = input_for(rank, 4, torch.float32).to(torch.complex64) * (rank + 1.0)
    dist.all_reduce(c)
    res["all_reduce.complex64.sum.real"] = c.real.contiguous()
    t = input_for(rank, 12, torch.float32)
    dist.all_reduce(t)
    res["all_reduce.float32.sum_12"] = t
    if rank == 0:
        out.update(res)


def three_ranks(rank, out):
    res = {}
    t = input_for(rank, 6, torch.float32)
    dist.reduce(t, 2, dist.ReduceOp.MAX)
    if rank == 2:
        out["reduce.max.3"] = t
    parts = [torch.zeros(4) for _ in range(3)]
    dist.all_gather(parts, input_for(rank, 4, torch.float32))
    res["all_gather_into_tensor.3"] = torch.cat(parts)
    for j in range(3):
        t = input_for(rank + j, 3, torch.float32)
        dist.all_reduce(t)
        if j == rank:
            out["reduce_scatter.3.rank%d" % rank] = t
    o = torch.zeros(3, 2)
    dist.all_to_all_single(o, input_for(rank, 6, torch.float32).reshape(3, 2))
    out["all_to_all_single.even.rank%d" % rank] = o.reshape(-1)
    o = torch.zeros(3 * (rank + 1), 2)
    dist.all_to_all_single(o, input_for(rank, 12, torch.float32).reshape(6, 2), [rank + 1] * 3, [1, 2, 3])
    out["all_to_all_single.uneven.rank%d" % rank] = o.reshape(-1)
    if rank == 0:
        out.update(res)


def worker(rank, world, init, fn, path):
    dist.init_process_group("gloo", init_method=init, rank=rank, world_size=world)
    out = {}
    fn(rank, out)
    torch.save(out, "%s.%d" % (path, rank))
    dist.destroy_process_group()


def run(world, fn):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    path = tempfile.mktemp()
    mp.spawn(worker, args=(world, "tcp://127.0.0.1:%d" % port, fn, path), nprocs=world)
    merged = {}
    for r in range(world):
        merged.update(torch.load("%s.%d" % (path, r)))
        os.remove("%s.%d" % (path, r))
    return merged


if __name__ == "__main__":
    g = GoldenWriter("distributed_collectives")
    for world, fn in ((2, two_ranks), (3, three_ranks)):
        for name, t in sorted(run(world, fn).items()):
            g.add(name, t)
    g.save()
