#!/usr/bin/python3
"""Writes the ~2 MB English benchmark corpus (Debian's fortunes + wamerican)
and a 50k-entry byte-level BPE tokenizer.json for the memory check.
  make_corpus.py OUT_DIR
The 50k vocabulary is built from wamerican words: every prefix of a word,
byte-level spelled, is one merge of the previous prefix and the next symbol,
so the file has GPT-2's shape (256 bytes + ~50k merges) without training."""
import json
import os
import random
import sys

FORTUNES = "/usr/share/games/fortunes"
WORDS = "/usr/share/dict/american-english"


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


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    lines = []
    for name in sorted(os.listdir(FORTUNES)):
        p = os.path.join(FORTUNES, name)
        if name.endswith((".dat", ".u8")) or not os.path.isfile(p):
            continue
        with open(p, encoding="utf-8", errors="replace") as f:
            lines += [l.rstrip("\n") for l in f if l.strip() != "%"]
    with open(WORDS, encoding="utf-8") as f:
        words = [w.strip() for w in f if w.strip()]
    rng = random.Random(0)
    text = "\n".join(lines)
    while len(text) < 1_500_000:
        text += "\n" + text
    text = text[:1_500_000]
    size = len(text.encode("utf-8"))
    extra = []
    while size < 2_000_000:
        extra.append(" ".join(rng.choice(words) for _ in range(12)))
        size += len(extra[-1].encode("utf-8")) + 1
    with open(os.path.join(out, "corpus.txt"), "w", encoding="utf-8") as f:
        f.write(text + "\n" + "\n".join(extra) + "\n")

    b2u = bytes_to_unicode()
    vocab = {b2u[b]: b for b in range(256)}
    merges = []
    for w in words:
        sym = [b2u[b] for b in (" " + w).encode("utf-8")]
        cur = sym[0]
        for s in sym[1:]:
            nxt = cur + s
            if nxt not in vocab:
                vocab[nxt] = len(vocab)
                merges.append(cur + " " + s)
            cur = nxt
        if len(vocab) >= 50000:
            break
    vocab["<|endoftext|>"] = len(vocab)
    tok = {
        "version": "1.0", "truncation": None, "padding": None,
        "added_tokens": [{"id": vocab["<|endoftext|>"], "content": "<|endoftext|>", "single_word": False,
                          "lstrip": False, "rstrip": False, "normalized": False, "special": True}],
        "normalizer": None,
        "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True},
        "post_processor": {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": False, "use_regex": True},
        "decoder": {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True},
        "model": {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": None,
                  "end_of_word_suffix": None, "fuse_unk": False, "byte_fallback": False,
                  "vocab": vocab, "merges": merges},
    }
    with open(os.path.join(out, "bpe50k_tokenizer.json"), "w", encoding="utf-8") as f:
        json.dump(tok, f, ensure_ascii=False)


if __name__ == "__main__":
    main()
