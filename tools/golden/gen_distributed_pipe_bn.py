"""Golden values for tests/distributed/pipe_bn_test.cpp: torch 1.13's
DeferredBatchNorm (what Pipe(deferred_batch_norm=True) puts in place of each
BatchNorm), fed a mini-batch as `chunks` micro-batches in order, as Pipe's
stage does: the outputs and the running statistics after each mini-batch.
Run: /usr/bin/python3 tools/golden/gen_distributed_pipe_bn.py"""
import torch
from torch.distributed.pipeline.sync.batchnorm import DeferredBatchNorm

from golden import GoldenWriter


def main():
    g = GoldenWriter("distributed_pipe_bn")
    torch.manual_seed(0)
    x1, x2 = torch.randn(8, 3, 4, 4), torch.randn(8, 3, 4, 4) * 2 + 1
    weight, bias = torch.randn(3), torch.randn(3)
    g.add("x1", x1)
    g.add("x2", x2)
    g.add("weight", weight)
    g.add("bias", bias)
    for name, momentum in [("m01", 0.1), ("cumulative", None)]:
        bn = DeferredBatchNorm(3, momentum=momentum, chunks=4)
        with torch.no_grad():
            bn.weight.copy_(weight)
            bn.bias.copy_(bias)
        bn.train()
        for step, x in enumerate([x1, x2]):
            y = torch.cat([bn(c) for c in x.chunk(4)])
            g.add(f"{name}.step{step}.y", y.detach())
            g.add(f"{name}.step{step}.running_mean", bn.running_mean)
            g.add(f"{name}.step{step}.running_var", bn.running_var)
        bn.eval()
        g.add(f"{name}.eval.y", bn(x1).detach())
    g.save()


if __name__ == "__main__":
    main()
