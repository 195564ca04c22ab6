"""Fixtures and reference results for ember::audio::models::decoder (ctc_decoder).

Run with Debian's interpreter: /usr/bin/python3 tools/golden/gen_audio_decoder.py
Debian's python3-torchaudio is built without flashlight-text, so
torchaudio.models.decoder.ctc_decoder cannot run here. The reference is
therefore the algorithm as flashlight's LexiconDecoder / LexiconFreeDecoder
define it, computed two independent ways:
  * lexicon-free: brute force over every frame sequence of the tiny T x V
    emissions (each is a CTC path), scored as the decoder scores paths
    (emissions + lm_weight * token LM + sil_score) and grouped by the history
    the decoder keeps; max (or log-add) per group;
  * lexicon: an exhaustive search of the decoder's transition rules (trie
    children, completed words, the root's silence, blank) with no pruning,
    checked on each case against a plain re-scoring of the final paths from
    the n-gram model.
The n-gram LM is scored with back-off as KenLM does, in log10 as flashlight
uses it. Writes tests/golden/audio/decoder/{tokens.txt,lexicon.txt,words.arpa,
tokens.arpa,lm_dict.txt} and tests/golden/audio_decoder.golden.
"""
import itertools
import math
import os
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden import GOLDEN_DIR, GoldenWriter  # noqa: E402

torch.manual_seed(7)
FIX = os.path.join(GOLDEN_DIR, "audio", "decoder")
os.makedirs(FIX, exist_ok=True)
w = GoldenWriter("audio_decoder")
NEG = -math.inf

TOKENS = ["-", "|", "a", "b", "c"]
BLANK, SIL = 0, 1
LEXICON = [
    ("a", [["a", "|"]]),
    ("b", [["b", "|"]]),
    ("bee", [["b", "|"]]),
    ("ab", [["a", "b", "|"]]),
    ("ba", [["b", "a", "|"]]),
    ("cab", [["c", "a", "b", "|"]]),
    ("abc", [["a", "b", "c", "|"]]),
    ("ac", [["a", "c", "|"], ["a", "a", "c", "|"]]),
]
WORDS = [wd for wd, _ in LEXICON] + ["<unk>"]
UNK = len(WORDS) - 1

with open(os.path.join(FIX, "tokens.txt"), "w") as f:
    f.write("\n".join(TOKENS) + "\n")
# The LM's own word list (lm_dict), in another order than the lexicon's.
with open(os.path.join(FIX, "lm_dict.txt"), "w") as f:
    f.write("\n".join(reversed(WORDS)) + "\n")
with open(os.path.join(FIX, "lexicon.txt"), "w") as f:
    for wd, sps in LEXICON:
        for sp in sps:
            f.write(wd + " " + " ".join(sp) + "\n")


# ---- n-gram models ------------------------------------------------------------------
def random_arpa(vocab, order, path, seed):
    g = torch.Generator().manual_seed(seed)
    rnd = lambda: float(torch.rand((), generator=g))  # noqa: E731
    grams = {}
    uni = ["<s>", "</s>"] + vocab
    for v in uni:
        grams[(v,)] = (round(-0.3 - 1.5 * rnd(), 4) if v != "<s>" else -99.0, round(-0.5 * rnd(), 4))
    ctx_words = ["<s>"] + vocab
    for n in range(2, order + 1):
        for hist in itertools.product(ctx_words, repeat=n - 1):
            if any(h == "<s>" for h in hist[1:]):
                continue
            if hist[:-1] and (hist,) and tuple(hist) not in grams:
                continue
            for v in vocab + ["</s>"]:
                if rnd() < (0.45 if n == 2 else 0.3):
                    bo = round(-0.4 * rnd(), 4) if n < order else None
                    grams[tuple(hist) + (v,)] = (round(-0.1 - 1.2 * rnd(), 4), bo)
    with open(path, "w") as f:
        f.write("# a random %d-gram model for the decoder tests\n\n\\data\\\n" % order)
        for n in range(1, order + 1):
            f.write("ngram %d=%d\n" % (n, sum(1 for k in grams if len(k) == n)))
        for n in range(1, order + 1):
            f.write("\n\\%d-grams:\n" % n)
            for k, (p, bo) in grams.items():
                if len(k) != n:
                    continue
                line = "%s\t%s" % (repr(p), " ".join(k))
                if n < order and bo is not None:
                    line += "\t%s" % repr(bo)
                f.write(line + "\n")
        f.write("\n\\end\\\n")
    return grams


class NGram:
    """Back-off scoring over an explicit history (log10, as KenLM)."""

    def __init__(self, grams, order):
        self.g, self.order = grams, order

    def score(self, context, word):
        if (word,) not in self.g:
            word = "<unk>"
        ctx = list(context)[-(self.order - 1):] if self.order > 1 else []
        bo = 0.0
        for ln in range(len(ctx), -1, -1):
            key = tuple(ctx[len(ctx) - ln:]) + (word,)
            if key in self.g:
                return bo + self.g[key][0]
            if ln > 0:
                c = tuple(ctx[len(ctx) - ln:])
                if c in self.g and self.g[c][1] is not None:
                    bo += self.g[c][1]
        raise AssertionError

    def sentence(self, words, finish=True):
        ctx, total = ["<s>"], 0.0
        for wd in words:
            total += self.score(ctx, wd)
            ctx.append(wd if (wd,) in self.g else "<unk>")
        if finish:
            total += self.score(ctx, "</s>")
        return total


word_grams = random_arpa([wd for wd, _ in LEXICON] + ["<unk>"], 3, os.path.join(FIX, "words.arpa"), 11)
word_lm = NGram(word_grams, 3)
token_grams = random_arpa(TOKENS, 2, os.path.join(FIX, "tokens.arpa"), 12)
token_lm = NGram(token_grams, 2)


# ---- lexicon-free: every frame sequence -----------------------------------------------
def lexicon_free_reference(em, lm, lm_weight, sil_score, log_add, nbest):
    T, V = em.shape
    groups = {}
    for path in itertools.product(range(V), repeat=T):
        score, prev, prev_blank, hist = 0.0, SIL, False, []
        for t, n in enumerate(path):
            score += float(em[t, n]) + (sil_score if n == SIL else 0.0)
            if n != BLANK and (n != prev or prev_blank):
                hist.append(n)
            prev, prev_blank = n, n == BLANK
        if lm is not None:
            score += lm_weight * lm.sentence([TOKENS[h] for h in hist])
        key = tuple(hist)
        if key not in groups:
            groups[key] = (score, path)
        else:
            best, bpath = groups[key]
            if log_add:
                hi, lo = max(best, score), min(best, score)
                groups[key] = (hi + math.log1p(math.exp(lo - hi)), bpath if best >= score else path)
            elif score > best:
                groups[key] = (score, path)
    ranked = sorted(groups.items(), key=lambda kv: -kv[1][0])[:nbest]
    return [(s, [SIL] + list(p) + [SIL], []) for _, (s, p) in ranked]


# ---- lexicon: exhaustive search of the decoder's rules ---------------------------------
class Trie:
    def __init__(self):
        self.nodes = [dict(children={}, labels=[], max=NEG)]

    def insert(self, ids, label, score):
        node = 0
        for i in ids:
            ch = self.nodes[node]["children"]
            if i not in ch:
                ch[i] = len(self.nodes)
                self.nodes.append(dict(children={}, labels=[], max=NEG))
            node = ch[i]
        self.nodes[node]["labels"].append((label, score))

    def smear(self):
        def rec(i):
            n = self.nodes[i]
            m = max([s for _, s in n["labels"]], default=NEG)
            for c in n["children"].values():
                m = max(m, rec(c))
            n["max"] = m
            return m

        rec(0)


def prune(cands, beam_size, beam_threshold):
    """flashlight's candidatesAdd/candidatesStore: the threshold against the best
    score, equal states merged (max; the better history kept), the beam_size best."""
    if not cands:
        return []
    best = max(c[0] for c in cands)
    merged = {}
    for c in cands:
        if c[0] <= best - beam_threshold:
            continue
        key = (c[1], c[2], c[3], c[4])
        if key not in merged or c[0] > merged[key][0]:
            merged[key] = c
    return sorted(merged.values(), key=lambda c: -c[0])[:beam_size]


def lexicon_reference(em, word_score_fn, finish_fn, lm_weight, word_score, sil_score, unk_score, nbest,
                      beam_size=None, beam_size_token=None, beam_threshold=None):
    """Without a beam: every hypothesis path (no pruning, no merging); the final
    ones grouped by their word history, keeping the best (the decoder's
    max-merge). With one: the decoder's pruning after every frame."""
    trie = Trie()
    for wi, (wd, sps) in enumerate(LEXICON):
        for sp in sps:
            trie.insert([TOKENS.index(x) for x in sp], wi, word_score_fn((), wi))
    trie.smear()
    T, V = em.shape
    # hyp: (score, words tuple, lex node, token, prev_blank, tokens list, words-per-step list)
    hyps = [(0.0, (), 0, SIL, False, [SIL], [-1])]
    for t in range(T):
        nxt = []
        for score0, words, lex, tok, pb, toks, wsteps in hyps:
            node = trie.nodes[lex]
            lex_max = 0.0 if lex == 0 else node["max"]
            top = range(V)
            if beam_size_token is not None:
                top = sorted(range(V), key=lambda n: -float(em[t, n]))[:beam_size_token]
            for n in top:
                if n not in node["children"]:
                    continue
                child = trie.nodes[node["children"][n]]
                s = score0 + float(em[t, n]) + (sil_score if n == SIL else 0.0)
                if (pb or n != tok) and child["children"]:
                    nxt.append((s + lm_weight * (child["max"] - lex_max), words, node["children"][n], n, False,
                                toks + [n], wsteps + [-1]))
                for label, _ in child["labels"]:
                    if lex == 0 and tok == n:
                        continue
                    lm = word_score_fn(words, label)
                    nxt.append((s + lm_weight * (lm - lex_max) + word_score, words + (label,), 0, n, False,
                                toks + [n], wsteps + [label]))
                if not child["labels"] and unk_score > NEG:
                    lm = word_score_fn(words, UNK)
                    nxt.append((s + lm_weight * (lm - lex_max) + unk_score, words + (UNK,), 0, n, False, toks + [n],
                                wsteps + [UNK]))
            if not pb or lex == 0:
                n = SIL if lex == 0 else tok
                s = score0 + float(em[t, n]) + (sil_score if n == SIL else 0.0)
                nxt.append((s, words, lex, n, False, toks + [n], wsteps + [-1]))
            nxt.append((score0 + float(em[t, BLANK]), words, lex, BLANK, True, toks + [BLANK], wsteps + [-1]))
        hyps = nxt if beam_size is None else prune(nxt, beam_size, beam_threshold)
    nice = any(h[2] == 0 for h in hyps)
    groups = {}
    for score0, words, lex, tok, pb, toks, wsteps in hyps:
        if nice and lex != 0:
            continue
        s = score0 + lm_weight * finish_fn(words)
        key = (words, lex)
        if key not in groups or s > groups[key][0]:
            groups[key] = (s, toks + [SIL], wsteps + [-1])
    ranked = sorted(groups.values(), key=lambda v: -v[0])
    if beam_size is not None:
        ranked = [r for r in ranked if r[0] > ranked[0][0] - beam_threshold][:beam_size]
    return ranked[:nbest]


def ngram_word_score(words, label):
    return word_lm.score(["<s>"] + [WORDS[x] for x in words], WORDS[label])


def ngram_finish(words):
    return word_lm.score(["<s>"] + [WORDS[x] for x in words], "</s>")


def custom_word_score(words, label):
    # The custom LM the C++ test defines: -0.25 * (index + 1) per word, -0.5 at the end.
    return -0.25 * (label + 1)


def zero(*_):
    return 0.0


def store(name, em, results, lengths=None):
    w.add(name + ".emissions", em)
    for i, (score, toks, wsteps) in enumerate(results):
        toks_c, steps = [], []
        for j, x in enumerate(toks):
            if x == BLANK or (j > 0 and x == toks[j - 1]):
                continue
            toks_c.append(x)
            steps.append(j)
        w.add("%s.%d.tokens" % (name, i), torch.tensor(toks_c, dtype=torch.int64))
        w.add("%s.%d.timesteps" % (name, i), torch.tensor(steps, dtype=torch.int32))
        w.add("%s.%d.score" % (name, i), torch.tensor([score], dtype=torch.float64))
        w.add("%s.%d.words" % (name, i), torch.tensor([x for x in wsteps if x >= 0], dtype=torch.int64))
    w.add(name + ".count", torch.tensor([len(results)], dtype=torch.int64))


def emissions(T, scale=2.0):
    return torch.log_softmax(torch.randn(T, len(TOKENS)) * scale, -1).float()


# Lexicon-free, no LM, max merging and log-add.
em = emissions(6)
store("free.zero", em, lexicon_free_reference(em, None, 0, 0.0, False, 5))
store("free.zero_logadd", em, lexicon_free_reference(em, None, 0, -0.5, True, 5))
# Lexicon-free with the token bigram.
em = emissions(6)
store("free.lm", em, lexicon_free_reference(em, token_lm, 0.8, 0.3, False, 4))

# Lexicon: no LM; n-gram LM with word and silence scores; unk; custom LM.
for name, T, kw in [
    ("lex.zero", 7, dict(word_score_fn=zero, finish_fn=zero, lm_weight=0, word_score=0.0, sil_score=0.0,
                         unk_score=NEG)),
    ("lex.ngram", 7, dict(word_score_fn=ngram_word_score, finish_fn=ngram_finish, lm_weight=0.7, word_score=-0.3,
                          sil_score=-0.2, unk_score=NEG)),
    ("lex.unk", 6, dict(word_score_fn=ngram_word_score, finish_fn=ngram_finish, lm_weight=0.5, word_score=0.4,
                        sil_score=0.0, unk_score=-1.5)),
    ("lex.custom", 7, dict(word_score_fn=custom_word_score, finish_fn=lambda words: -0.5, lm_weight=1.3,
                           word_score=0.2, sil_score=0.1, unk_score=NEG)),
]:
    em = emissions(T, 1.5)
    res = lexicon_reference(em, nbest=6, **kw)
    if name == "lex.ngram":
        # Re-score the best path from scratch: emissions along its frames plus the
        # LM of its words, word and silence scores.
        score, toks, wsteps = res[0]
        frames = toks[1:-1]
        am = sum(float(em[t, n]) for t, n in enumerate(frames))
        sil = sum(1 for j, n in enumerate(frames) if n == SIL)
        words = [WORDS[x] for x in wsteps if x >= 0]
        alt = am + kw["sil_score"] * sil + kw["lm_weight"] * word_lm.sentence(words) + kw["word_score"] * len(words)
        assert abs(alt - score) < 1e-9, (alt, score)
    store(name, em, res)

# A frame shorter than the tensor (lengths) in a batch of two.
em2 = emissions(7, 1.5)
kw = dict(word_score_fn=ngram_word_score, finish_fn=ngram_finish, lm_weight=0.7, word_score=-0.3, sil_score=-0.2,
          unk_score=NEG)
store("lex.len5", em2[:5], lexicon_reference(em2[:5], nbest=3, **kw))
w.add("lex.len5.padded", em2)

# Pruned searches: a narrow beam, few tokens per frame, a tight threshold.
em3 = emissions(9, 1.0)
for name, beam, tok, thr in [("lex.beam3", 3, None, 50.0), ("lex.beam8_tok3", 8, 3, 50.0), ("lex.thr2", 100, None, 2.0)]:
    store(name, em3, lexicon_reference(em3, nbest=3, beam_size=beam, beam_size_token=tok, beam_threshold=thr, **kw))

# Sentence scores of the n-gram model (back-off exercised by unseen trigrams and OOV words).
SENTENCES = [["a"], ["ab", "ba", "cab"], ["abc", "zzz", "a", "bee"], ["ac", "ac", "ac", "b"], []]
w.add("arpa.sentences", torch.tensor([word_lm.sentence(x) for x in SENTENCES], dtype=torch.float64))
w.save()
