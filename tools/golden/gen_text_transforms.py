#!/usr/bin/python3
"""Golden values for ember::text's vocab, functional and transforms from
torchtext 0.14 (Debian's /usr/bin/python3 with python3-torchtext).

Debian's torchtext ships its C++ extension as empty stubs, so importing it
fails; the Python layer (functional, transforms, build_vocab_from_iterator's
counting and ordering) is what these goldens exercise. The stubs below stand
in for the missing extension modules; VocabPybind's stand-in only records the
ordered token list torchtext's Python code hands it (its itos).
Writes tests/golden/text/transforms_golden.json.
"""
import json
import os
import sys
import types

import torch

ext = types.ModuleType("torchtext._extension")
sys.modules["torchtext._extension"] = ext
stub = types.ModuleType("torchtext._torchtext")


class VocabPybind:
    def __init__(self, tokens, default_index):
        self.itos = list(tokens)


for name in ["CLIPEncoder", "GPT2BPEEncoder", "BERTEncoder", "SentencePiece", "Vectors", "RegexTokenizer",
             "RegexTokenizerPybind"]:
    setattr(stub, name, type(name, (), {}))
stub.Vocab = VocabPybind
sys.modules["torchtext._torchtext"] = stub

import torchtext.functional as F  # noqa: E402
import torchtext.transforms as T  # noqa: E402
import torchtext.vocab.vocab_factory as vf  # noqa: E402

vf.VocabPybind = VocabPybind

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "golden", "text",
                   "transforms_golden.json")


def tensor(t):
    return {"dtype": str(t.dtype).replace("torch.", ""), "shape": list(t.shape), "values": t.flatten().tolist()}


def main():
    g = {"vocab": [], "to_tensor": [], "truncate": [], "add_token": [], "str_to_int": [], "pad": [], "labels": []}
    corpus = [["the", "cat", "sat", "on", "the", "mat"], ["the", "dog", "ate", "the", "cat"],
              ["a", "b", "b", "c", "c", "c", "<unk>"], [], ["zeta", "Alpha", "alpha", "éclair", "中文"]]
    for min_freq in [1, 2]:
        for specials in [[], ["<unk>", "<pad>"]]:
            for special_first in [True, False]:
                for max_tokens in [None, 5]:
                    v = vf.build_vocab_from_iterator(iter(corpus), min_freq=min_freq, specials=specials,
                                                     special_first=special_first, max_tokens=max_tokens)
                    g["vocab"].append({"min_freq": min_freq, "specials": specials, "special_first": special_first,
                                       "max_tokens": max_tokens, "itos": v.vocab.itos})
    seqs = [[1, 2, 3], [4, 5], [6], []]
    for pad in [None, 0, -1]:
        for dtype in [torch.long, torch.int32, torch.float32]:
            data = seqs if pad is not None else [[1, 2], [3, 4]]
            g["to_tensor"].append({"input": data, "padding_value": pad, "dtype": str(dtype).replace("torch.", ""),
                                   "out": tensor(F.to_tensor(data, padding_value=pad, dtype=dtype))})
    g["to_tensor"].append({"input": [7, 8, 9], "padding_value": None, "dtype": "int64",
                           "out": tensor(F.to_tensor([7, 8, 9]))})
    for n in [0, 1, 2, 5, -1, -3]:
        g["truncate"].append({"input": seqs, "max_seq_len": n, "out": F.truncate(seqs, n)})
        g["truncate"].append({"input": ["a", "b", "c"], "max_seq_len": n, "out": F.truncate(["a", "b", "c"], n)})
    for begin in [True, False]:
        g["add_token"].append({"input": seqs, "token": 0, "begin": begin, "out": F.add_token(seqs, 0, begin)})
        g["add_token"].append({"input": [["x"], []], "token": "<s>", "begin": begin,
                               "out": F.add_token([["x"], []], "<s>", begin)})
    g["str_to_int"].append({"input": ["1", "-2", " 30 ", "+4"], "out": F.str_to_int(["1", "-2", " 30 ", "+4"])})
    for max_length, value in [(5, 0), (2, 9), (4, -1)]:
        x = torch.tensor([[1, 2, 3], [4, 5, 6]])
        g["pad"].append({"max_length": max_length, "pad_value": value, "input": tensor(x),
                         "out": tensor(T.PadTransform(max_length, value)(x))})
    names = ["pos", "neg", "neutral", "Mixed"]
    # LabelToIndex needs the missing torch.classes.torchtext.Vocab; its order is
    # label_names, sorted by Python when sort_names (what its __init__ does).
    for sort_names in [False, True]:
        g["labels"].append({"names": names, "sort_names": sort_names, "order": sorted(names) if sort_names else names})
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump(g, f, ensure_ascii=False)


if __name__ == "__main__":
    main()
