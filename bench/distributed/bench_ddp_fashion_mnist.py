"""LibTorch's side of the DDP throughput comparison: torch 1.13's
DistributedDataParallel (Gloo) training the main job's M1 network on the first
--limit Fashion-MNIST training images, one thread per process, at the same
global batch as examples/ddp_mnist (ddp_fashion_mnist --limit N --threads 1).
Run: /usr/bin/python3 bench/distributed/bench_ddp_fashion_mnist.py --nproc 2"""
import argparse
import gzip
import os
import socket
import time

import numpy as np
import torch
import torch.distributed as dist
import torch.multiprocessing as mp
import torch.nn as nn
import torch.nn.functional as F

DATA = "/usr/share/datasets/fashion-mnist"


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 32, 3, padding=1)
        self.conv2 = nn.Conv2d(32, 64, 3, padding=1)
        self.fc1 = nn.Linear(64 * 7 * 7, 128)
        self.dropout = nn.Dropout(0.25)
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)
        x = F.relu(self.fc1(x.flatten(1)))
        return self.fc2(self.dropout(x))


def load(limit):
    with gzip.open(os.path.join(DATA, "train-images-idx3-ubyte.gz")) as f:
        images = np.frombuffer(f.read(), np.uint8, offset=16).reshape(-1, 1, 28, 28)[:limit]
    with gzip.open(os.path.join(DATA, "train-labels-idx1-ubyte.gz")) as f:
        labels = np.frombuffer(f.read(), np.uint8, offset=8)[:limit]
    x = (torch.from_numpy(images.astype(np.float32)) / 255 - 0.2860) / 0.3530
    return x, torch.from_numpy(labels.astype(np.int64))


def worker(rank, world, port, args):
    torch.set_num_threads(1)
    dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=rank, world_size=world)
    torch.manual_seed(1)
    x, y = load(args.limit)
    model = nn.parallel.DistributedDataParallel(Net())
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    sampler = torch.utils.data.distributed.DistributedSampler(range(len(x)), world, rank, seed=1)
    local = args.batch_size // world
    idx = torch.tensor(list(iter(sampler)))
    dist.barrier()
    start = time.perf_counter()
    for b in range(0, len(idx), local):
        i = idx[b:b + local]
        opt.zero_grad()
        F.cross_entropy(model(x[i]), y[i]).backward()
        opt.step()
    dist.barrier()
    t = time.perf_counter() - start
    if rank == 0:
        print(f"torch DDP: {world} process(es), {len(x)} images, global batch {args.batch_size}: "
              f"{len(x) / t:.0f} samples/s")
    dist.destroy_process_group()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--nproc", type=int, default=2)
    p.add_argument("--limit", type=int, default=6000)
    p.add_argument("--batch-size", type=int, default=64)
    args = p.parse_args()
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    mp.spawn(worker, args=(args.nproc, port, args), nprocs=args.nproc)


if __name__ == "__main__":
    main()
