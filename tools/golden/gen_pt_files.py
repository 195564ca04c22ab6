"""Writes the PyTorch checkpoints the serialize tests read (tests/golden/pt/*.pt)
and the values they must contain (tests/golden/serialize.golden).

Run with Debian's interpreter (python3-torch 1.13):
    /usr/bin/python3 tools/golden/gen_pt_files.py
"""
import json
import os
import struct
import zipfile

import torch

from golden import GoldenWriter, ROOT

PT_DIR = os.path.join(ROOT, "tests", "golden", "pt")


def path(name):
    return os.path.join(PT_DIR, name)


def add_all(g, prefix, state):
    for k, v in state.items():
        g.add(prefix + k, v)


def sequential_state_dict():
    torch.manual_seed(0)
    m = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.BatchNorm1d(4))
    m.train()
    m(torch.randn(5, 3))  # moves running stats; num_batches_tracked becomes 1
    return m.state_dict()


def mixed():
    torch.manual_seed(1)
    base = torch.randn(3, 4, dtype=torch.float64)
    return {
        "f64": torch.randn(2, 3, dtype=torch.float64),
        "f32": torch.randn(4),
        "f16": torch.randn(3).half(),
        "bf16": torch.randn(3).bfloat16(),
        "c64": torch.randn(2, dtype=torch.complex64),
        "i64": torch.tensor([-5, 0, 1 << 40]),
        "i32": torch.tensor([[1, -2], [3, 4]], dtype=torch.int32),
        "i16": torch.tensor([-300, 300], dtype=torch.int16),
        "i8": torch.tensor([-7, 7], dtype=torch.int8),
        "u8": torch.tensor([0, 255], dtype=torch.uint8),
        "bool": torch.tensor([True, False, True]),
        "scalar": torch.tensor(2.5),
        "empty": torch.zeros(0, 3),
        "base": base,
        "column": base[:, 1],           # non-contiguous view of base's storage
        "window": base.view(-1)[5:9],   # view with a storage offset
        "transposed": base.t(),
        "nested": {"inner": torch.arange(3), "list": [torch.ones(2), torch.zeros(1, dtype=torch.int64)]},
        "epoch": 7,                      # non-tensor leaves are skipped by the reader
    }


def flat(prefix, obj, out):
    if isinstance(obj, torch.Tensor):
        out[prefix] = obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            flat(prefix + "." + k if prefix else k, v, out)
    elif isinstance(obj, (list, tuple)):
        for i, v in enumerate(obj):
            flat(prefix + "." + str(i) if prefix else str(i), v, out)
    return out


def malicious_pickle():
    # GLOBAL 'os system' + REDUCE ('echo pwned',): what a hostile checkpoint does.
    return (b"\x80\x02cos\nsystem\nq\x00X\x0a\x00\x00\x00echo pwnedq\x01\x85q\x02Rq\x03.")


def reference_safetensors(tensors, metadata):
    """A safetensors file laid out by hand from the spec (no Ember code involved):
    keys sorted, header padded with spaces to 8 bytes."""
    names = {torch.float32: "F32", torch.int64: "I64", torch.float16: "F16", torch.bool: "BOOL"}
    header, blobs, offset = {"__metadata__": metadata}, [], 0
    for k in sorted(tensors):
        t = tensors[k].contiguous()
        b = t.view(torch.uint8).numpy().tobytes() if t.numel() else b""
        header[k] = {"dtype": names[t.dtype], "shape": list(t.shape), "data_offsets": [offset, offset + len(b)]}
        blobs.append(b)
        offset += len(b)
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * ((8 - len(text) % 8) % 8)
    return struct.pack("<Q", len(text)) + text + b"".join(blobs)


def main():
    os.makedirs(PT_DIR, exist_ok=True)
    g = GoldenWriter("serialize")
    g.lines[0] = g.lines[0].replace("gen_serialize.py", "gen_pt_files.py")

    sd = sequential_state_dict()
    torch.save(sd, path("sequential.pt"))
    add_all(g, "sequential.", sd)

    m = mixed()
    torch.save(m, path("mixed.pt"))
    torch.save(m, path("mixed_legacy.pt"), _use_new_zipfile_serialization=False)
    add_all(g, "mixed.", flat("", m, {}))

    torch.manual_seed(2)
    p = torch.nn.Parameter(torch.randn(2, 2))
    torch.save(p, path("parameter.pt"))
    g.add("parameter", p)

    lst = [torch.arange(4, dtype=torch.int32), torch.full((2,), 3.0)]
    torch.save(lst, path("list.pt"))
    for i, t in enumerate(lst):
        g.add("list.%d" % i, t)

    evil = malicious_pickle()
    with zipfile.ZipFile(path("malicious.pt"), "w", zipfile.ZIP_STORED) as z:
        z.writestr("malicious/data.pkl", evil)
        z.writestr("malicious/version", "3\n")
    with open(path("malicious_raw.pkl"), "wb") as f:
        f.write(evil)

    torch.manual_seed(3)
    ref = {"weight": torch.randn(2, 3), "steps": torch.tensor([1, 2, 3]), "half": torch.randn(2).half(),
           "mask": torch.tensor([True, False]), "empty": torch.zeros(0)}
    with open(path("reference.safetensors"), "wb") as f:
        f.write(reference_safetensors(ref, {"format": "pt", "note": "hand-written"}))
    add_all(g, "reference.", ref)

    g.save()


if __name__ == "__main__":
    main()
