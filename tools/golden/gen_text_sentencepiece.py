#!/usr/bin/python3
"""Trains small SentencePiece models and records the sentencepiece library's
encodings of ordinary and hostile text, for ember::text::sentencepiece.

Run with Debian's /usr/bin/python3 (python3-sentencepiece 0.1.97, and the
Debian packages `fortunes` and `wamerican`). Writes, under tests/golden/text/:
  sp_unigram.model           unigram, nmt_nfkc, user-defined and control symbols
  sp_bpe.model               BPE, nmt_nfkc_cf, byte fallback, a user-defined symbol
  sp_unigram_identity.model  unigram, identity, no dummy prefix, whitespace kept,
                             byte fallback
  sp_bpe_keepws.model        BPE, identity, split digits, whitespace kept
  sp_char.model, sp_word.model  the char (whitespace as suffix) and word model
                             types, identity
and the seeds of fuzz/fuzz_sentencepiece_model.cpp (tiny models, two with small
custom charsmaps) under fuzz/corpus/fuzz_sentencepiece_model/.
  sentencepiece_golden.json  per model: the vocabulary (piece, score, kind), the
                             special ids, and for every input its ids, pieces and
                             both decodes (byte strings in hex, since inputs include
                             invalid UTF-8, which the library accepts as bytes)
"""
import io
import json
import os
import random

import sentencepiece as spm

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
OUT = os.path.join(ROOT, "tests", "golden", "text")
FORTUNES = "/usr/share/games/fortunes"
WORDS = "/usr/share/dict/american-english"


def corpus():
    lines = []
    for n in ["computers", "science", "literature", "wisdom", "people"]:
        with open(os.path.join(FORTUNES, n), encoding="utf-8", errors="replace") as f:
            lines += [l.strip() for l in f if l.strip() and l.strip() != "%"]
    with open(WORDS, encoding="utf-8") as f:
        words = [w.strip() for w in f][::40]
    rng = random.Random(0)
    for _ in range(2000):
        lines.append(" ".join(rng.choice(words) for _ in range(8)))
    # A little non-ASCII so the vocabularies hold some of it.
    lines += ["Ünïcödé naïve café résumé", "日本語のテキストです", "Привет мир", "12345 67890 3.14"] * 20
    return lines


MODELS = {
    "sp_unigram": dict(model_type="unigram", vocab_size=1000, normalization_rule_name="nmt_nfkc",
                       user_defined_symbols=["<sep>", "[MASK]"], control_symbols=["<cls>"],
                       pad_id=3),
    "sp_bpe": dict(model_type="bpe", vocab_size=800, normalization_rule_name="nmt_nfkc_cf",
                   byte_fallback=True, user_defined_symbols=["<sep>"]),
    "sp_unigram_identity": dict(model_type="unigram", vocab_size=600, normalization_rule_name="identity",
                                add_dummy_prefix=False, remove_extra_whitespaces=False,
                                byte_fallback=True),
    "sp_bpe_keepws": dict(model_type="bpe", vocab_size=700, normalization_rule_name="identity",
                        split_digits=True, unk_id=1, bos_id=0, eos_id=-1, remove_extra_whitespaces=False),
    "sp_char": dict(model_type="char", vocab_size=150, normalization_rule_name="identity",
                    user_defined_symbols=["<sep>"], treat_whitespace_as_suffix=True),
    "sp_word": dict(model_type="word", vocab_size=400, normalization_rule_name="identity"),
}

HOSTILE = [
    "", " ", "   ", "\t\n", "\x00", "a\x00b", "\u0301", "e\u0301", "\u0301\u0301x",
    "\u202eabc\u202c", "\u200f\u05e9\u05dc\u05d5\u05dd", "\U0001F468\u200d\U0001F469\u200d\U0001F467",
    "\U0001F44D\U0001F3FD", "\U0001D518\U0001D52B\U0001D526", "\U00020000\U0002A6D6", "\uff46\uff55\uff4c\uff4c",
    "\ufb01ne \u216b", "  double  spaces  ", "tab\tand\nnewline", "<sep> a[MASK]b<sep>", "<cls> x <s> </s> <unk>",
    "\u65e5\u672c\u8a9e\u306e\u30c6\u30ad\u30b9\u30c8", "\u00dcn\u00efc\u00f6d\u00e9 NA\u00cfVE", "\u00a0nbsp\u3000ideo",
    "\ufffd", "\u2581already\u2581escaped", "MiXeD CaSe ÄÖÜ ß", "1234567 3.14159", "\u0130stanbul \u03a3\u03c3\u03c2",
    "\uac00\u1100\u1161", "\u1e9b\u0323", "zz\u00adsoft\u00adhyphen", "\ufeffbom",
]
INVALID = [b"\xff", b"ab\xc3", b"\xed\xa0\x80x", b"\xf0\x9f\x98", b"\xc0\xafz", b"a\x80\x80b", b"\xf4\x90\x80\x80"]


def inputs(lines):
    rng = random.Random(1)
    ordinary = [l for l in rng.sample(lines, 40)]
    return [s.encode("utf-8") for s in ordinary + HOSTILE] + INVALID


def hx(x):
    # The library answers bytes for bytes input and str for str input.
    return x.hex() if isinstance(x, bytes) else x.encode("utf-8").hex()


def kind(sp, i):
    if sp.is_unknown(i):
        return "unknown"
    if sp.is_control(i):
        return "control"
    if sp.is_unused(i):
        return "unused"
    if sp.is_byte(i):
        return "byte"
    return "normal"


def write_fuzz_seeds(text):
    # Seed format: 2-byte little-endian text length, the text, the model.
    seed_dir = os.path.join(ROOT, "fuzz", "corpus", "fuzz_sentencepiece_model")
    os.makedirs(seed_dir, exist_ok=True)
    rules = os.path.join(seed_dir, "..", "rules.tsv.tmp")
    with open(rules, "w") as f:
        f.write("41\t61\n42\t62\n3000\t20\nFB01\t66 69\n")
    seeds = {
        "unigram_rules": dict(model_type="unigram", vocab_size=150, normalization_rule_tsv=rules,
                              user_defined_symbols=["<sep>"]),
        "bpe_bytes": dict(model_type="bpe", vocab_size=400, normalization_rule_name="identity", byte_fallback=True),
        "char_rules": dict(model_type="char", vocab_size=100, normalization_rule_tsv=rules,
                           remove_extra_whitespaces=False),
        "word_identity": dict(model_type="word", vocab_size=100, normalization_rule_name="identity"),
    }
    sample = "\n".join(text.splitlines()[:3000])
    for name, opts in seeds.items():
        model = io.BytesIO()
        spm.SentencePieceTrainer.train(sentence_iterator=iter(sample.splitlines()), model_writer=model,
                                       num_threads=1, minloglevel=2, hard_vocab_limit=False, character_coverage=0.98, **opts)
        probe = "AB \ufb01 x\u3000y <sep> \U0001F600".encode("utf-8")
        with open(os.path.join(seed_dir, name), "wb") as f:
            f.write(len(probe).to_bytes(2, "little") + probe + model.getvalue())
    os.remove(rules)


def main():
    lines = corpus()
    text = "\n".join(lines) + "\n"
    write_fuzz_seeds(text)
    data = {}
    cases_in = inputs(lines)
    for name, opts in MODELS.items():
        model = io.BytesIO()
        spm.SentencePieceTrainer.train(sentence_iterator=iter(text.splitlines()), model_writer=model,
                                       num_threads=1, minloglevel=2, character_coverage=0.9995,
                                       max_sentencepiece_length=12, **opts)
        path = os.path.join(OUT, name + ".model")
        with open(path, "wb") as f:
            f.write(model.getvalue())
        sp = spm.SentencePieceProcessor(model_file=path)
        n = sp.get_piece_size()
        vocab = [[sp.id_to_piece(i).encode("utf-8").hex(), sp.get_score(i), kind(sp, i)] for i in range(n)]
        cases = []
        for b in cases_in:
            ids = sp.encode_as_ids(b)
            pieces = sp.encode_as_pieces(b)
            case = {
                "input": b.hex(),
                "ids": ids,
                "pieces": [hx(p) for p in pieces],
                "decode_ids": hx(sp.decode_ids(ids)),
                "decode_pieces": hx(sp.decode_pieces([p.decode("utf-8") if isinstance(p, bytes) else p for p in pieces])),
                "bos_eos_ids": sp.encode(b, add_bos=True, add_eos=True),
                "reversed_ids": sp.encode(b, reverse=True),
            }
            cases.append(case)
        rng = random.Random(2)
        decodes = []
        for _ in range(30):
            ids = [rng.randrange(n) for _ in range(rng.randrange(0, 8))]
            decodes.append({"ids": ids, "text": hx(sp.decode_ids(ids))})
        # Byte pieces and leading-space pieces in the positions decode treats specially.
        piece_lists = [["\u2581", "\u2581a"], ["\u2581", "\u2581", "\u2581b"], ["\u2581", "<s>", "\u2581c"], ["\u2581\u2581b", "c"], ["<0x41>", "\u2581x"], ["<0xE6>", "<0x97>", "<0xA5>"],
                       ["<0xE6>", "x", "<0xA5>"], ["<0xFF>"], ["<unk>", "\u2581y"], ["<s>", "\u2581z", "</s>"],
                       ["not\u2581in\u2581vocab"], []]
        for pl in piece_lists:
            decodes.append({"pieces": [p.encode("utf-8").hex() for p in pl],
                            "text": hx(sp.decode_pieces(pl))})
        data[name] = {
            "piece_size": n,
            "unk_id": sp.unk_id(), "bos_id": sp.bos_id(), "eos_id": sp.eos_id(), "pad_id": sp.pad_id(),
            "vocab": vocab,
            "cases": cases,
            "decodes": decodes,
        }
    with open(os.path.join(OUT, "sentencepiece_golden.json"), "w") as f:
        json.dump(data, f, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
