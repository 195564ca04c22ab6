"""Golden draws for tests/ops/distributions_test.cpp: poisson, binomial, _standard_gamma,
_sample_dirichlet after fixed seeds (Ember's default generator is PyTorch's CPU stream, so the
draws must be equal), and _standard_gamma_grad over its three regimes."""
import torch

from golden import GoldenWriter

w = GoldenWriter("distributions")

rates = torch.tensor([0.0, 0.3, 1.0, 4.5, 9.99, 10.0, 12.5, 50.0, 1e3, 1e6])
for dt, name in ((torch.float32, "f32"), (torch.float64, "f64")):
    r = rates.to(dt).repeat(20)
    torch.manual_seed(1)
    w.add("poisson.%s.rates" % name, r)
    w.add("poisson.%s.draws" % name, torch.poisson(r))

counts = torch.tensor([0.0, 1.0, 5.0, 5.5, 20.0, 40.0, 100.0, 1000.0, 1e5, 7.0])
probs = torch.tensor([0.3, 0.5, 0.05, 0.7, 0.6, 0.25, 0.5, 0.999, 0.01, 1.0])
for dt, name in ((torch.float32, "f32"), (torch.float64, "f64")):
    c, p = counts.to(dt).repeat(20), probs.to(dt).repeat(20)
    torch.manual_seed(2)
    w.add("binomial.%s.count" % name, c)
    w.add("binomial.%s.prob" % name, p)
    w.add("binomial.%s.draws" % name, torch.binomial(c, p))

alphas = torch.tensor([0.0, 1e-3, 0.1, 0.5, 0.999, 1.0, 2.5, 7.9, 10.0, 100.0, 1e4])
for dt, name in ((torch.float32, "f32"), (torch.float64, "f64")):
    a = alphas.to(dt).repeat(20)
    torch.manual_seed(3)
    w.add("gamma.%s.alpha" % name, a)
    w.add("gamma.%s.draws" % name, torch._standard_gamma(a))
    # The gradient through a draw (rsample's path).
    a2 = alphas[1:].to(dt).repeat(3).requires_grad_()
    torch.manual_seed(4)
    x = torch._standard_gamma(a2)
    x.backward(torch.linspace(0.5, 1.5, x.numel(), dtype=dt))
    w.add("gamma_backward.%s.alpha" % name, a2.detach())
    w.add("gamma_backward.%s.draws" % name, x.detach())
    w.add("gamma_backward.%s.grad" % name, a2.grad)

# _standard_gamma_grad on a grid crossing x = 0.8 and alpha = 8 (series, saddle point, fit).
ga = torch.tensor([0.05, 0.5, 1.0, 3.0, 7.9, 8.5, 20.0, 200.0], dtype=torch.float64)
gx = torch.tensor([1e-4, 0.1, 0.79, 0.81, 2.0, 7.0, 9.0, 18.0, 19.0, 21.0, 180.0, 210.0, 400.0],
                  dtype=torch.float64)
A, X = torch.meshgrid(ga, gx, indexing="ij")
for dt, name in ((torch.float32, "f32"), (torch.float64, "f64")):
    w.add("gamma_grad.%s.alpha" % name, A.to(dt))
    w.add("gamma_grad.%s.x" % name, X.to(dt))
    w.add("gamma_grad.%s.out" % name, torch._standard_gamma_grad(A.to(dt), X.to(dt)))

conc = torch.tensor([[0.1, 0.1], [1.0, 1.0], [0.5, 2.0], [3.0, 4.0], [1e-3, 1e-3], [50.0, 0.2]])
conc3 = torch.tensor([[0.2, 0.3, 0.5, 1.0], [2.0, 2.0, 2.0, 2.0], [10.0, 1.0, 0.1, 0.01]])
for dt, name in ((torch.float32, "f32"), (torch.float64, "f64")):
    torch.manual_seed(5)
    w.add("dirichlet.%s.alpha2" % name, conc.to(dt))
    w.add("dirichlet.%s.draws2" % name, torch._sample_dirichlet(conc.to(dt)))
    w.add("dirichlet.%s.alpha4" % name, conc3.to(dt))
    w.add("dirichlet.%s.draws4" % name, torch._sample_dirichlet(conc3.to(dt)))
# multinomial: the Gumbel-top-k path (no replacement, or one sample) and the CDF search.
probs = torch.tensor([[0.1, 0.0, 2.0, 0.5, 1.0, 0.25, 3.0, 0.05], [1.0, 1.0, 1.0, 1.0, 0.0, 0.0, 1.0, 1.0],
                      [5.0, 1e-3, 0.2, 0.2, 0.2, 7.0, 0.0, 0.3]])
for dt, name in ((torch.float32, "f32"), (torch.float64, "f64")):
    pr = probs.to(dt)
    w.add("multinomial.%s.probs" % name, pr)
    for tag, n, repl in (("one", 1, False), ("norepl", 5, False), ("repl", 40, True), ("repl1", 1, True)):
        torch.manual_seed(6)
        w.add("multinomial.%s.%s" % (name, tag), torch.multinomial(pr, n, repl))
    torch.manual_seed(7)
    w.add("multinomial.%s.vector" % name, torch.multinomial(pr[0], 200, True))
w.save()
