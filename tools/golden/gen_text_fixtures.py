#!/usr/bin/python3
"""Trains the small but real vocabularies ember::text's tests load.

Run with Debian's /usr/bin/python3 (needs python3-regex and the Debian packages
`fortunes` and `wamerican`). Writes, under tests/golden/text/:
  gpt2_vocab.json, gpt2_merges.txt  byte-level BPE in GPT-2's file format,
                                    trained on fortunes text (2000 merges)
  bert_vocab.txt                    a WordPiece vocabulary (BERT's vocab.txt)
                                    derived from the same merges
The Hugging Face tokenizer.json files and golden encodings are made from these by
gen_text_tokenizers.js (node + the npm package `tokenizers`).
"""
import collections
import json
import os
import sys

import regex

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
OUT = os.path.join(ROOT, "tests", "golden", "text")
FORTUNES = "/usr/share/games/fortunes"
GPT2_PATTERN = r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+"""
N_MERGES = 2000


def bytes_to_unicode():
    # GPT-2's reversible byte <-> printable code point table.
    keep = list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAD)) + list(range(0xAE, 0x100))
    table, extra = {}, 0
    for b in range(256):
        if b in keep:
            table[b] = chr(b)
        else:
            table[b] = chr(256 + extra)
            extra += 1
    return table


def training_text():
    names = ["computers", "cookie", "science", "literature", "wisdom", "people", "work", "linux"]
    parts = []
    for n in names:
        with open(os.path.join(FORTUNES, n), encoding="utf-8", errors="replace") as f:
            parts.append(f.read().replace("\n%\n", "\n"))
    return "".join(parts)


def train_bpe(text):
    b2u = bytes_to_unicode()
    words = collections.Counter(regex.findall(GPT2_PATTERN, text))
    corpus = {tuple(b2u[b] for b in w.encode("utf-8")): c for w, c in words.items()}
    merges = []
    for _ in range(N_MERGES):
        pairs = collections.Counter()
        for syms, c in corpus.items():
            for a, b in zip(syms, syms[1:]):
                pairs[(a, b)] += c
        if not pairs:
            break
        best = max(pairs.items(), key=lambda kv: (kv[1], kv[0]))[0]
        merges.append(best)
        merged = {}
        for syms, c in corpus.items():
            out, i = [], 0
            while i < len(syms):
                if i + 1 < len(syms) and (syms[i], syms[i + 1]) == best:
                    out.append(syms[i] + syms[i + 1])
                    i += 2
                else:
                    out.append(syms[i])
                    i += 1
            merged[tuple(out)] = merged.get(tuple(out), 0) + c
        corpus = merged
    vocab = {}
    for b in range(256):
        vocab[b2u[b]] = len(vocab)
    for a, b in merges:
        if a + b not in vocab:
            vocab[a + b] = len(vocab)
    vocab["<|endoftext|>"] = len(vocab)
    return vocab, merges


def wordpiece_vocab(vocab):
    # Word-initial pieces are the BPE tokens that begin with the space marker
    # (and all single characters); the rest become "##" continuations.
    u2b = {u: b for b, u in bytes_to_unicode().items()}
    pieces = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    seen = set(pieces)

    def add(p):
        if p and p not in seen:
            seen.add(p)
            pieces.append(p)

    for tok in vocab:
        if tok == "<|endoftext|>":
            continue
        try:
            s = bytes(u2b[c] for c in tok).decode("utf-8")
        except (UnicodeDecodeError, KeyError):
            continue
        s = s.lower()
        if s.startswith(" "):
            if s[1:].isalnum():
                add(s[1:])
        elif s.isalnum():
            add(s if len(s) == 1 else "##" + s)
            add("##" + s)
        elif len(s) == 1 and not s.isspace():
            add(s)
    for c in "abcdefghijklmnopqrstuvwxyz0123456789":
        add(c)
        add("##" + c)
    for c in "éèàüöñçß中文字日本語한국어":
        add(c)
        add("##" + c)
    return pieces


def main():
    os.makedirs(OUT, exist_ok=True)
    vocab, merges = train_bpe(training_text())
    with open(os.path.join(OUT, "gpt2_vocab.json"), "w", encoding="utf-8") as f:
        json.dump(vocab, f, ensure_ascii=False)
    with open(os.path.join(OUT, "gpt2_merges.txt"), "w", encoding="utf-8") as f:
        f.write("#version: 0.2\n")
        for a, b in merges:
            f.write(f"{a} {b}\n")
    with open(os.path.join(OUT, "bert_vocab.txt"), "w", encoding="utf-8") as f:
        for p in wordpiece_vocab(vocab):
            f.write(p + "\n")
    print("vocab", len(vocab), "merges", len(merges), file=sys.stderr)


if __name__ == "__main__":
    main()
