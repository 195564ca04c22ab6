"""The parameter fill and state_dict key listing shared by the audio model golden generators.

tests/audio/models_common.cpp computes the same fill in C++, so a model's outputs
depend only on its architecture; one copy here keeps the formula in one place.
"""
import math

import torch


def models_fill(model):
    """p = scale * sin(0.37 * arange(numel) + k), k the entry's index in state_dict order."""
    with torch.no_grad():
        for k, (name, t) in enumerate(model.state_dict().items()):
            if not t.is_floating_point():
                continue
            n = t.numel()
            base = torch.sin(0.37 * torch.arange(n, dtype=torch.float64) + k)
            if name.endswith("running_var"):
                v = 1.0 + 0.5 * base * base
            elif t.dim() >= 2:
                v = base / math.sqrt(n / t.shape[0])
            else:
                v = 0.1 * base + (1.0 if name.endswith("weight") else 0.0)
            t.copy_(v.reshape(t.shape).to(t.dtype))


def add_keys(w, prefix, model):
    """Stores the key count as "<prefix>.keys" and each key's shape as "<prefix>.key.<name>"."""
    sd = model.state_dict()
    w.add(prefix + ".keys", torch.tensor([len(sd)], dtype=torch.int64))
    for name, t in sd.items():
        w.add(prefix + ".key." + name, torch.tensor(list(t.shape), dtype=torch.int64))
