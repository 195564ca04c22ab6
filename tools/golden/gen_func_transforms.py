"""Golden values for ember::func's vjp, jvp, jacrev, jacfwd and hessian
(tests/vmap/func_transforms_test.cpp), computed with functorch's transforms
(torch.func in later PyTorch): elementwise, matmul, reductions, several
inputs and outputs, argnums tuples, has_aux, and compositions (vmap of
jacrev, jacrev of jacrev, vmap of vjp_fn, per-sample hessians)."""
import torch
from functorch import hessian, jacfwd, jacrev, jvp, vjp, vmap

from golden import GoldenWriter


# The functions, mirrored one for one in the C++ test.
def elementwise(x):
    return x.sin() * x.exp()


def matmul_tanh(x, w):
    return torch.matmul(x, w).tanh()


def reductions(x):
    return torch.stack([x.pow(2).sum(), x.logsumexp(0), x.prod()])


def two_outputs(x, y):
    return (x * y).sum(), (x.cos() + y.square()).cumsum(0)


def scalar_loss(w, x):
    return (torch.matmul(x, w).sigmoid() - 0.5).pow(2).mean() + w.norm()


def with_aux(x):
    y = x.sin()
    return y * 2, y.sum()


def main():
    g = GoldenWriter("func_transforms")
    torch.manual_seed(0)
    d = torch.float64

    x = torch.randn(4, dtype=d)
    m = torch.randn(3, 4, dtype=d)
    w = torch.randn(4, 2, dtype=d)
    y = torch.randn(4, dtype=d)
    for k, v in dict(x=x, m=m, w=w, y=y).items():
        g.add(k, v)

    # vjp with cotangents, two cotangents through one vjp_fn.
    out, fn = vjp(matmul_tanh, m, w)
    ct1, ct2 = torch.randn(3, 2, dtype=d), torch.randn(3, 2, dtype=d)
    g.add("ct1", ct1)
    g.add("ct2", ct2)
    g.add("vjp_out", out)
    gm, gw = fn(ct1)
    g.add("vjp_m_ct1", gm)
    g.add("vjp_w_ct1", gw)
    gm, gw = fn(ct2)
    g.add("vjp_m_ct2", gm)
    g.add("vjp_w_ct2", gw)
    # vmap over cotangents.
    cts = torch.randn(5, 3, 2, dtype=d)
    g.add("cts", cts)
    gm, gw = vmap(fn)(cts)
    g.add("vmap_vjp_m", gm)
    g.add("vmap_vjp_w", gw)
    # Two outputs.
    (o1, o2), fn2 = vjp(two_outputs, x, y)
    c0, c1 = torch.randn((), dtype=d), torch.randn(4, dtype=d)
    g.add("two_c0", c0)
    g.add("two_c1", c1)
    gx, gy = fn2((c0, c1))
    g.add("two_vjp_x", gx)
    g.add("two_vjp_y", gy)

    # jvp.
    tx, tw = torch.randn(3, 4, dtype=d), torch.randn(4, 2, dtype=d)
    g.add("tm", tx)
    g.add("tw", tw)
    out, jo = jvp(matmul_tanh, (m, w), (tx, tw))
    g.add("jvp_out", out)
    g.add("jvp_tan", jo)
    t1 = torch.randn(4, dtype=d)
    g.add("t1", t1)
    _, jo = jvp(reductions, (x,), (t1,))
    g.add("jvp_reductions", jo)
    (_, _), (j1, j2) = jvp(two_outputs, (x, y), (t1, t1 * 2))
    g.add("jvp_two_0", j1)
    g.add("jvp_two_1", j2)
    _, jo, aux = jvp(with_aux, (x,), (t1,), has_aux=True)
    g.add("jvp_aux_tan", jo)
    g.add("jvp_aux_aux", aux)

    # Jacobians, both modes.
    for mode, jac in (("rev", jacrev), ("fwd", jacfwd)):
        g.add("jac%s_elementwise" % mode, jac(elementwise)(x))
        a, b = jac(matmul_tanh, argnums=(0, 1))(m, w)
        g.add("jac%s_matmul_m" % mode, a)
        g.add("jac%s_matmul_w" % mode, b)
        g.add("jac%s_matmul_arg1" % mode, jac(matmul_tanh, argnums=1)(m, w))
        g.add("jac%s_reductions" % mode, jac(reductions)(x))
        (a, b), (c, e) = jac(two_outputs, argnums=(0, 1))(x, y)
        g.add("jac%s_two_0x" % mode, a)
        g.add("jac%s_two_0y" % mode, b)
        g.add("jac%s_two_1x" % mode, c)
        g.add("jac%s_two_1y" % mode, e)
        j, aux = jac(with_aux, has_aux=True)(x)
        g.add("jac%s_aux_jac" % mode, j)
        g.add("jac%s_aux_aux" % mode, aux)

    # Compositions.
    xs = torch.randn(5, 4, dtype=d)
    g.add("xs", xs)
    g.add("vmap_jacrev", vmap(jacrev(matmul_tanh), in_dims=(0, None))(xs, w))
    g.add("vmap_jacfwd", vmap(jacfwd(matmul_tanh), in_dims=(0, None))(xs, w))
    g.add("jacrev_jacrev", jacrev(jacrev(elementwise))(x))
    h = hessian(scalar_loss, argnums=(0, 1))(w[:, 0], m)
    g.add("hess_ww", h[0][0])
    g.add("hess_wx", h[0][1])
    g.add("hess_xw", h[1][0])
    g.add("hess_xx", h[1][1])
    g.add("vmap_hessian", vmap(hessian(scalar_loss), in_dims=(None, 0))(w[:, 0], xs.view(5, 1, 4)))
    g.save()


if __name__ == "__main__":
    main()
