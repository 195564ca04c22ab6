"""Golden values for ember::audio::functional::rnnt_loss from torchaudio 0.13.

Run with Debian's interpreter: /usr/bin/python3 tools/golden/gen_audio_rnnt.py
Each case stores logits, targets, lengths, the loss and torchaudio's gradient
of the loss w.r.t. the logits. torchaudio 0.13 has no fused_log_softmax=False,
so that case's reference is a plain autograd recursion over log-probabilities
(written here, independent of the C++ code); its loss is checked against
torchaudio's on the same log-probabilities.
"""
import os
import sys

import torch
import torchaudio.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden import GoldenWriter  # noqa: E402

torch.manual_seed(0)
w = GoldenWriter("audio_rnnt")


def case(name, logits, targets, logit_lengths, target_lengths, **kw):
    x = logits.clone().requires_grad_(True)
    loss = F.rnnt_loss(x, targets, logit_lengths, target_lengths, **kw)
    loss.sum().backward()
    w.add(name + ".logits", logits)
    w.add(name + ".targets", targets)
    w.add(name + ".logit_lengths", logit_lengths)
    w.add(name + ".target_lengths", target_lengths)
    w.add(name + ".loss", loss)
    w.add(name + ".grad", x.grad)


def lengths(*v):
    return torch.tensor(v, dtype=torch.int32)


B, T, U, D = 3, 5, 3, 6
logits = torch.randn(B, T, U + 1, D) * 2
targets = torch.randint(0, D - 1, (B, U), dtype=torch.int32)
tl = lengths(5, 3, 4)
ul = lengths(3, 1, 2)
case("none", logits, targets, tl, ul, reduction="none")
case("mean", logits, targets, tl, ul)
case("sum", logits, targets, tl, ul, reduction="sum")
case("clamp", logits, targets, tl, ul, clamp=0.05, reduction="none")
case("clamp_mean", logits * 3, targets, tl, ul, clamp=0.2)
targets0 = torch.randint(1, D, (B, U), dtype=torch.int32)
case("blank0", logits, targets0, tl, ul, blank=0, reduction="sum")
case("full", torch.randn(2, 7, 5, 4), torch.randint(0, 3, (2, 4), dtype=torch.int32), lengths(7, 7),
     lengths(4, 4), reduction="none")
case("empty_target", torch.randn(2, 3, 3, 4), torch.randint(0, 3, (2, 2), dtype=torch.int32), lengths(3, 2),
     lengths(2, 0), reduction="none")


def rnnt_reference(logp, targets, logit_lengths, target_lengths, blank):
    """-log P(y|x) by the alpha recursion on given log-probabilities (autograd-differentiable)."""
    costs = []
    for b in range(logp.shape[0]):
        nt, nu = int(logit_lengths[b]), int(target_lengths[b]) + 1
        alpha = {}
        for t in range(nt):
            for u in range(nu):
                if t == 0 and u == 0:
                    alpha[t, u] = logp.new_zeros(())
                    continue
                terms = []
                if t > 0:
                    terms.append(alpha[t - 1, u] + logp[b, t - 1, u, blank])
                if u > 0:
                    terms.append(alpha[t, u - 1] + logp[b, t, u - 1, int(targets[b, u - 1])])
                alpha[t, u] = torch.logsumexp(torch.stack(terms), 0)
        costs.append(-(alpha[nt - 1, nu - 1] + logp[b, nt - 1, nu - 1, blank]))
    return torch.stack(costs)


logp = torch.log_softmax(logits.double(), -1).float()
x = logp.clone().requires_grad_(True)
ref = rnnt_reference(x.double(), targets, tl, ul, D - 1)
ref.sum().backward()
ta = F.rnnt_loss(logp, targets, tl, ul, reduction="none")
assert torch.allclose(ref.float(), ta, atol=1e-4), (ref, ta)
w.add("unfused.logits", logp)
w.add("unfused.targets", targets)
w.add("unfused.logit_lengths", tl)
w.add("unfused.target_lengths", ul)
w.add("unfused.loss", ref.float())
w.add("unfused.grad", x.grad)
w.save()
