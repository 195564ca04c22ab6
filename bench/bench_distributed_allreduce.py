"""LibTorch's side of bench/bench_distributed_allreduce.cpp: all_reduce of 1 MiB
and 64 MiB float32 on torch.distributed's Gloo backend, median per call.
Run: /usr/bin/python3 bench/bench_distributed_allreduce.py [world_size=2]"""
import socket
import sys
import time

import torch
import torch.distributed as dist
import torch.multiprocessing as mp


def rank_main(rank, world, port):
    dist.init_process_group("gloo", init_method="tcp://127.0.0.1:%d" % port, rank=rank, world_size=world)
    for nbytes in (1 << 20, 64 << 20):
        t = torch.ones(nbytes // 4)
        iters = 10 if nbytes > (1 << 20) else 100
        for _ in range(3):
            dist.all_reduce(t)
        us = []
        for _ in range(iters):
            s = time.perf_counter()
            dist.all_reduce(t)
            us.append((time.perf_counter() - s) * 1e6)
        us.sort()
        if rank == 0:
            print("torch all_reduce %3d MiB x %d ranks: median %.0f us" % (nbytes >> 20, world, us[len(us) // 2]),
                  flush=True)
    dist.destroy_process_group()


if __name__ == "__main__":
    world = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    torch.set_num_threads(1)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    mp.spawn(rank_main, args=(world, port), nprocs=world)
