#!/usr/bin/python3
"""CLIP BPE fixtures and golden tokenizations for ember::text::transforms::CLIPTokenizer.

Debian's torchtext 0.14 ships its C++ extension as an empty stub, so the
reference here is torchtext's documented algorithm, written out in Python from
torchtext/transforms.py (CLIPTokenizer: lower().strip(), the vocabulary it
builds without an encoder json, num_merges = len(encoder) - 514 with one) and
its CLIPEncoder (RE2 pattern
  (?i)(<\\|startoftext\\|>|<\\|endoftext\\|>|\\'s|\\'t|\\'re|\\'ve|\\'m|\\'ll|\\'d|[\\pL]+|[\\pN]|[^\\s\\pL\\pN]+)
where RE2's \\s is [\\t\\n\\f\\r ]; bytes_to_unicode; '</w>' on a word's last
symbol; GPT-2's merge loop, all occurrences of the lowest-ranked pair per step).
Run with Debian's /usr/bin/python3 (python3-regex, fortunes). Writes under
tests/golden/text/: clip_merges.txt (a tiny CLIP-style merge list trained here
on fortunes), clip_encoder.json and clip_golden.json."""
import collections
import json
import os

import regex

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
OUT = os.path.join(ROOT, "tests", "golden", "text")
PATTERN = regex.compile(r"(?i)(<\|startoftext\|>|<\|endoftext\|>|'s|'t|'re|'ve|'m|'ll|'d|[\p{L}]+|[\p{N}]|[^\t\n\f\r \p{L}\p{N}]+)")
N_MERGES = 600


def bytes_to_unicode():
    keep = list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAD)) + list(range(0xAE, 0x100))
    table, extra = {}, 0
    for b in range(256):
        if b in keep:
            table[b] = chr(b)
        else:
            table[b] = chr(256 + extra)
            extra += 1
    return table


B2U = bytes_to_unicode()


def words_of(text):
    return PATTERN.findall(text.lower().strip())


def train(text):
    freq = collections.Counter()
    for w in words_of(text):
        syms = [B2U[b] for b in w.encode("utf-8")]
        syms[-1] += "</w>"
        freq[tuple(syms)] += 1
    merges = []
    words = dict(freq)
    for _ in range(N_MERGES):
        pairs = collections.Counter()
        for w, n in words.items():
            for a, b in zip(w, w[1:]):
                pairs[(a, b)] += n
        if not pairs:
            break
        best = max(pairs, key=lambda p: (pairs[p], p))
        merges.append(best)
        new = {}
        for w, n in words.items():
            out, i = [], 0
            while i < len(w):
                if i + 1 < len(w) and (w[i], w[i + 1]) == best:
                    out.append(w[i] + w[i + 1])
                    i += 2
                else:
                    out.append(w[i])
                    i += 1
            new[tuple(out)] = new.get(tuple(out), 0) + n
        words = new
    return merges


def bpe(token_syms, ranks):
    if "".join(token_syms) in ("<|startoftext|>", "<|endoftext|>"):
        return ["".join(token_syms)]
    word = token_syms[:-1] + [token_syms[-1] + "</w>"]
    if len(word) < 2:
        return ["".join(token_syms) + "</w>"]
    while True:
        pairs = [(word[i], word[i + 1]) for i in range(len(word) - 1)]
        best = min(pairs, key=lambda p: ranks.get(p, float("inf")))
        if best not in ranks:
            break
        first, second = best
        new, i = [], 0
        while i < len(word):
            try:
                j = word.index(first, i)
            except ValueError:
                new.extend(word[i:])
                break
            new.extend(word[i:j])
            i = j
            if word[i] == first and i < len(word) - 1 and word[i + 1] == second:
                new.append(first + second)
                i += 2
            else:
                new.append(word[i])
                i += 1
        word = new
        if len(word) == 1:
            break
    return word


def tokenize(text, ranks):
    out = []
    for tok in words_of(text):
        out += bpe([B2U[b] for b in tok.encode("utf-8")], ranks)
    return out


def main():
    with open("/usr/share/games/fortunes/computers", encoding="utf-8", errors="replace") as f:
        text = f.read()
    merges = train(text)
    with open(os.path.join(OUT, "clip_merges.txt"), "w", encoding="utf-8") as f:
        f.write("#version: 0.2 (trained by tools/golden/gen_text_clip.py)\n")
        f.write("\n".join(a + " " + b for a, b in merges) + "\n")
    vocab = list(B2U.values())
    vocab = vocab + [v + "</w>" for v in vocab]
    vocab += [a + b for a, b in merges]
    vocab += ["<|startoftext|>", "<|endoftext|>"]
    encoder = {v: i for i, v in enumerate(vocab)}
    with open(os.path.join(OUT, "clip_encoder.json"), "w", encoding="utf-8") as f:
        json.dump(encoder, f, ensure_ascii=False)
    inputs = [l for l in text.split("\n") if l.strip()][:60] + [
        "", "   ", "<|startoftext|>a photo of a cat<|endoftext|>", "<|STARTOFTEXT|> Hello", "It's what we'd've DONE",
        "x''s 'S 'll", "naïve café Ünïcödé", "ΣΑΣ ΟΔΟΣ", "İstanbul", "e\u0301 \u0301a", "\u202eabc\u202c",
        "\U0001F468\u200d\U0001F469\u200d\U0001F467 \U0001F44D\U0001F3FD", "\U0001D518\U0001D52B", "\uff46\uff55\uff4c\uff4c 12345",
        "tab\tnew\nline\x0bvt\x0cff\rcr", "\u00a0nbsp\u3000ideo\u2028ls", "a\x00b", "\u65e5\u672c\u8a9e", "3.14159 + 2\u00b2 = \u2167",
        "\x1c\x1dsep\x85", "don't stop", "\ufeffbom \ufffd",
    ]
    # Without an encoder json the vocabulary is built from the first num_merges merges.
    half = N_MERGES // 2
    half_ranks = {m: i for i, m in enumerate(merges[:half])}
    ranks = {m: i for i, m in enumerate(merges)}
    half_vocab = list(B2U.values())
    half_vocab = half_vocab + [v + "</w>" for v in half_vocab] + [a + b for a, b in merges[:half]]
    half_vocab += ["<|startoftext|>", "<|endoftext|>"]
    half_encoder = {v: i for i, v in enumerate(half_vocab)}
    cases = []
    for s in inputs:
        toks = tokenize(s, ranks)
        half_toks = tokenize(s, half_ranks)
        cases.append({"input": s, "tokens": toks, "ids": [str(encoder[t]) for t in toks],
                      "half_tokens": half_toks, "half_ids": [str(half_encoder[t]) for t in half_toks]})
    with open(os.path.join(OUT, "clip_golden.json"), "w", encoding="utf-8") as f:
        json.dump({"num_merges": N_MERGES, "half_merges": half, "cases": cases}, f, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main()
