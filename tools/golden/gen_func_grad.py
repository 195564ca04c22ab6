"""Golden values for ember::func::grad / grad_and_value composed with vmap
(tests/vmap/func_grad_test.cpp), computed with functorch's transforms
(torch.func in later PyTorch): per-sample gradients of shared parameters,
nested vmaps, second derivatives per sample, grad_and_value with aux."""
import torch
import torch.nn.functional as F
from functorch import grad, grad_and_value, vmap

from golden import GoldenWriter


def linear_ce(w, b, x, y):
    return F.cross_entropy(F.linear(x.unsqueeze(0), w, b), y.unsqueeze(0))


def mlp_mse(w1, w2, x, y):
    return F.mse_loss(F.linear(F.linear(x, w1).tanh(), w2), y)


def main():
    g = GoldenWriter("func_grad")
    torch.manual_seed(0)
    d = torch.float64

    # Per-sample gradients of a linear classifier's shared parameters.
    w, b = torch.randn(4, 5, dtype=d), torch.randn(4, dtype=d)
    x, y = torch.randn(6, 5, dtype=d), torch.randint(0, 4, (6,))
    gw, gb = vmap(grad(linear_ce, argnums=(0, 1)), in_dims=(None, None, 0, 0))(w, b, x, y)
    for k, v in dict(ce_w=w, ce_b=b, ce_x=x, ce_y=y, ce_grad_w=gw, ce_grad_b=gb).items():
        g.add(k, v)

    # vmap(vmap(grad)): a two-layer net, samples on a 3 x 2 grid.
    w1, w2 = torch.randn(4, 3, dtype=d), torch.randn(2, 4, dtype=d)
    x2, y2 = torch.randn(3, 2, 3, dtype=d), torch.randn(3, 2, 2, dtype=d)
    inner = vmap(grad(mlp_mse, argnums=(0, 1)), in_dims=(None, None, 0, 0))
    g1, g2 = vmap(inner, in_dims=(None, None, 0, 0))(w1, w2, x2, y2)
    for k, v in dict(mlp_w1=w1, mlp_w2=w2, mlp_x=x2, mlp_y=y2, mlp_grad_w1=g1, mlp_grad_w2=g2).items():
        g.add(k, v)

    # A second derivative per sample.
    t = torch.randn(7, dtype=d)
    g.add("d2_x", t)
    g.add("d2_tanh", vmap(grad(grad(torch.tanh)))(t))

    # grad_and_value with an auxiliary output, per sample.
    def with_aux(w, x):
        p = w * x
        return p.sin().pow(2).sum(), p.cos()

    wa, xa = torch.randn(3, dtype=d), torch.randn(5, 3, dtype=d)
    (ga, (va, aux)) = vmap(grad_and_value(with_aux, has_aux=True), in_dims=(None, 0))(wa, xa)
    for k, v in dict(aux_w=wa, aux_x=xa, aux_grad=ga, aux_value=va, aux_aux=aux).items():
        g.add(k, v)
    g.save()


if __name__ == "__main__":
    main()
