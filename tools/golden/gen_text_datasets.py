"""Fixtures and expected rows for tests/text/datasets_*_test.cpp.

Writes small files in the layout torchtext 0.14.1's dataset readers read
(tests/golden/text/datasets/root/datasets/<NAME>/...), with CSV/TSV corner
cases (quotes, doubled quotes, text after a closing quote, quoted newlines,
CRLF and CR line ends, extra fields, tabs inside quotes, non-ASCII, NUL), and
the rows torchtext yields for them in tests/golden/text/datasets_golden.json.

torchdata is not installed, so the pipe is written out as torchdata runs it:
open(path, encoding="utf-8") (text mode: universal newlines), skip_lines,
csv.reader(lines, delimiter=..., quoting=...) (parse_csv), readlines with or
without strip_newline; the per-row mapping is torchtext's own (_modify_res,
_filter_res, MAP_LABELS from each torchtext.datasets module).
Run: /usr/bin/python3 tools/golden/gen_text_datasets.py"""
import csv
import importlib
import json
import os
import shutil
import sys
import types
from functools import partial

# Debian's torchtext ships its C++ extension as empty stubs; the dataset modules
# only need the Python layer.
sys.modules["torchtext._extension"] = types.ModuleType("torchtext._extension")
_stub = types.ModuleType("torchtext._torchtext")
for _name in ["CLIPEncoder", "GPT2BPEEncoder", "BERTEncoder", "SentencePiece", "Vectors", "RegexTokenizer",
              "RegexTokenizerPybind", "Vocab"]:
    setattr(_stub, _name, type(_name, (), {}))
sys.modules["torchtext._torchtext"] = _stub

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(os.path.dirname(os.path.dirname(HERE)), "tests", "golden", "text", "datasets")
DATA = os.path.join(ROOT, "root", "datasets")


def mod(name):
    return importlib.import_module("torchtext.datasets." + name)


def write(rel, content):
    path = os.path.join(DATA, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(content.encode("utf-8") if isinstance(content, str) else content)
    return path


def lines(path, strip_newline):
    with open(path, encoding="utf-8") as f:
        out = list(f)
    return [l.strip("\r\n") for l in out] if strip_newline else out


def parse_csv(path, skip_lines=0, **fmt):
    with open(path, encoding="utf-8") as f:
        ls = list(f)[skip_lines:]
    return list(csv.reader(ls, **fmt))


CLASSIFICATION_CSV = (
    '"3","Wall St. Bears Claw Back","Reuters - Short-sellers, ""the ultra-cynics"", are seeing green."\n'
    '"1","Quoted\nnewline","two lines"\n'
    '2,unquoted title,plain body text\r\n'
    '"4","extra","fields","are joined"\r'
    '"1","after quote"tail,"ünïcödé — ✓ 🙂"\n'
    '"2",,""\n'
    '" 3 ","tab\tinside","NUL\x00byte"\n'
    '"4","last row without newline","x"'
)


def classification(root_rel, name):
    out = {}
    for split in ("train", "test"):
        content = CLASSIFICATION_CSV if split == "train" else '"1","only","row"\n"2","second","row"\n'
        path = write(os.path.join(name, root_rel, split + ".csv"), content)
        out[split] = [list(mod_res(t)) for t in parse_csv(path) for mod_res in [MODULES[name]._modify_res]]
    return out


MODULES = {}


def main():
    if os.path.isdir(ROOT):
        shutil.rmtree(ROOT)
    golden = {}
    for name, modname, folder in [
        ("AG_NEWS", "ag_news", ""), ("AmazonReviewFull", "amazonreviewfull", "amazon_review_full_csv"),
        ("AmazonReviewPolarity", "amazonreviewpolarity", "amazon_review_polarity_csv"),
        ("DBpedia", "dbpedia", "dbpedia_csv"), ("SogouNews", "sogounews", "sogou_news_csv"),
        ("YahooAnswers", "yahooanswers", "yahoo_answers_csv"),
        ("YelpReviewFull", "yelpreviewfull", "yelp_review_full_csv"),
        ("YelpReviewPolarity", "yelpreviewpolarity", "yelp_review_polarity_csv")]:
        MODULES[name] = mod(modname)
        golden[name] = classification(folder, name)

    # IMDB: aclImdb/<split>/{neg,pos}/*.txt, one review per file (plus a file with two lines).
    imdb = mod("imdb")
    golden["IMDB"] = {}
    for split in ("train", "test"):
        rows = []
        for label in ("neg", "pos"):
            texts = ["A <br />review, with \"quotes\"; ünïcödé", "Second review %s %s" % (split, label)]
            if label == "pos":
                texts.append("line one\nline two\n")
            for i, text in enumerate(texts):
                path = write(os.path.join("IMDB", "aclImdb", split, label, "%d_%d.txt" % (i, 7 + i)), text)
                for line in lines(path, True):
                    if line.strip():
                        rows.append(list(imdb._modify_res([os.path.join("aclImdb_v1", split, label), line])))
        golden["IMDB"][split] = rows

    # SST2: tab separated, Python's default quoting, header skipped.
    sst2 = mod("sst2")
    write("SST2/SST-2/train.tsv", 'sentence\tlabel\nhide new secretions  \t0\n"quoted ""text"" here"\t1\n'
          '  leading space\t1\n')
    write("SST2/SST-2/dev.tsv", "sentence\tlabel\nit 's a charming journey . \t1\n")
    write("SST2/SST-2/test.tsv", "index\tsentence\n0\tuneasy mishmash of styles\n1\t\"quoted\ttab\"\n")
    golden["SST2"] = {}
    for split in ("train", "dev", "test"):
        path = os.path.join(DATA, "SST2", "SST-2", split + ".tsv")
        f = sst2._modify_test_res if split == "test" else sst2._modify_res
        golden["SST2"][split] = [list(f(t)) for t in parse_csv(path, 1, delimiter="\t")]

    # CoLA: QUOTE_NONE, only rows of 4 fields.
    cola = mod("cola")
    golden["CoLA"] = {}
    for split, fname in (("train", "in_domain_train.tsv"), ("dev", "in_domain_dev.tsv"),
                         ("test", "out_of_domain_dev.tsv")):
        path = write(os.path.join("CoLA", "cola_public", "raw", fname),
                     'gj04\t1\t\tOur friends won\'t buy this analysis, let alone the next one we propose.\n'
                     'gj04\t0\t*\t"One more pseudo generalization" and I\'m giving up.\n'
                     'short\trow\n'
                     'cj99\t1\t\t%s sentence with a "quote\n' % split)
        golden["CoLA"][split] = [list(cola._modify_res(t)) for t in
                                 parse_csv(path, 1, delimiter="\t", quoting=csv.QUOTE_NONE) if cola._filter_res(t)]

    # MRPC
    mrpc = mod("mrpc")
    golden["MRPC"] = {}
    for split in ("train", "test"):
        path = write(os.path.join("MRPC", "msr_paraphrase_%s.txt" % split),
                     "\ufeffQuality\t#1 ID\t#2 ID\t#1 String\t#2 String\n"
                     "1\t702876\t702977\tAmrozi accused his brother, whom he called \"the witness\".\t"
                     "Referring to him as only \"the witness\", Amrozi accused his brother.\n"
                     "0\t2108705\t2108831\tYucaipa owned Dominick 's before selling.\t%s sentence\n" % split)
        golden["MRPC"][split] = [list(mrpc._modify_res(t)) for t in
                                 parse_csv(path, 1, delimiter="\t", quoting=csv.QUOTE_NONE)]

    # QNLI, RTE (label names), WNLI (int labels, default quoting).
    for name, labels, quoting in (("QNLI", ["entailment", "not_entailment"], csv.QUOTE_NONE),
                                  ("RTE", ["not_entailment", "entailment"], csv.QUOTE_NONE),
                                  ("WNLI", ["1", "0"], csv.QUOTE_MINIMAL)):
        m = mod(name.lower())
        golden[name] = {}
        for split in ("train", "dev", "test"):
            if split == "test":
                content = "index\tsentence1\tsentence2\n0\tWhat is \"it\"?\tIt is.\n1\tsecond\tpair\n"
            else:
                content = ("index\tq\ts\tlabel\n0\tWhen did \"it\" happen?\tIt happened in 1990.\t%s\n"
                           "1\t%s question\tanswer\t%s\n" % (labels[0], split, labels[1]))
            path = write(os.path.join(name, name, split + ".tsv"), content)
            golden[name][split] = [list(m._modify_res(split, t)) for t in
                                   parse_csv(path, 1, delimiter="\t", quoting=quoting)]

    # STSB: no header skipped, QUOTE_NONE.
    stsb = mod("stsb")
    golden["STSB"] = {}
    for split in ("train", "dev", "test"):
        path = write(os.path.join("STSB", "sts-%s.csv" % split),
                     "main-captions\tMSRvid\t2012test\t0001\t5.000\tA plane is taking off.\tAn air plane is taking off.\n"
                     "main-news\theadlines\t2013\t0042\t 3.25 \t\"quoted\tA %s sentence.\n" % split)
        golden["STSB"][split] = [list(stsb._modify_res(t)) for t in
                                 parse_csv(path, delimiter="\t", quoting=csv.QUOTE_NONE)]

    # WikiText2/103: every line with its newline. PennTreebank: stripped lines.
    for name, folder in (("WikiText2", "wikitext-2"), ("WikiText103", "wikitext-103")):
        golden[name] = {}
        for split in ("train", "valid", "test"):
            path = write(os.path.join(name, folder, "wiki.%s.tokens" % split),
                         " \n = Valkyria Chronicles III = \n \n Senjō no Valkyria 3 : <unk> Chronicles\r\n %s @-@ end" % split)
            golden[name][split] = lines(path, False)
    ptb = mod("penntreebank")
    golden["PennTreebank"] = {}
    for split in ("train", "valid", "test"):
        path = write(os.path.join("PennTreebank", "ptb.%s.txt" % split),
                     " aer banknote berlitz calloway \n pierre <unk> N years old\n\n %s line " % split)
        golden["PennTreebank"][split] = [ptb._modify_res(l) for l in lines(path, True)]

    # Multi30k: paired lines, zip stops at the shorter file.
    golden["Multi30k"] = {}
    for split, prefix in (("train", "train"), ("valid", "val"), ("test", "test")):
        de = write(os.path.join("Multi30k", prefix + ".de"),
                   "Zwei junge weiße Männer sind im Freien.\nEin Mann schläft.\nDrei\n")
        en = write(os.path.join("Multi30k", prefix + ".en"), "Two young, White males are outside.\nA man sleeps.\n")
        golden["Multi30k"][split] = {
            "de_en": [list(t) for t in zip(lines(de, True), lines(en, True))],
            "en_de": [list(t) for t in zip(lines(en, True), lines(de, True))]}

    # MNLI (QUOTE_NONE, unknown labels dropped) and QQP (default quoting, one file).
    mnli = mod("mnli")
    golden["MNLI"] = {}
    for split in ("train", "dev_matched", "dev_mismatched"):
        head = "gold_label\ts1_bp\ts2_bp\ts1_p\ts2_p\tsentence1\tsentence2\tpromptID\n"
        body = ("neutral\t(x)\t(y)\t(x)\t(y)\tConceptually cream skimming has two \"basic\" dimensions.\t"
                "Product and geography are what make cream skimming work.\t31193\n"
                "-\t(x)\t(y)\t(x)\t(y)\tno gold label\tdropped\t1\n"
                "contradiction\t(x)\t(y)\t(x)\t(y)\t%s one\t%s two\t2\n"
                "entailment\ta\tb\tc\td\tthe last\trow\t3\n" % (split, split))
        path = write(os.path.join("MNLI", "multinli_1.0_%s.txt" % split), head + body)
        golden["MNLI"][split] = [list(mnli._modify_res(t)) for t in
                                 parse_csv(path, 1, delimiter="\t", quoting=csv.QUOTE_NONE) if mnli._filter_res(t)]
    qqp = mod("qqp")
    path = write(os.path.join("QQP", "quora_duplicate_questions.tsv"),
                 "id\tqid1\tqid2\tquestion1\tquestion2\tis_duplicate\n"
                 "0\t1\t2\tWhat is the step by step guide to invest in share market in india?\t"
                 "What is the step by step guide to invest in share market?\t0\n"
                 "1\t3\t4\t\"Quoted\ttab\" question?\tSecond?\t1\n")
    golden["QQP"] = [list(qqp._modify_res(t)) for t in parse_csv(path, 1, delimiter="\t")]

    # SQuAD 1 and 2 through torchtext's own _ParseSQuADQAData.
    from torchtext.data.datasets_utils import _ParseIOBData, _ParseSQuADQAData
    for name, version in (("SQuAD1", "v1.1"), ("SQuAD2", "v2.0")):
        golden[name] = {}
        for split in ("train", "dev"):
            doc = {"version": version, "data": [
                {"title": "Normans", "paragraphs": [
                    {"context": "The Normans (Norman: Nourmands) were the people who in the 10th century gave "
                                "their name to Normandy, a region in %s." % split,
                     "qas": [{"id": "a", "question": "In what country is Normandy located?",
                              "answers": [{"text": "France", "answer_start": 159}, {"text": "a region",
                                                                                    "answer_start": 93}]},
                             {"id": "b", "question": "Unanswerable ünïcödé question?", "answers": [],
                              "is_impossible": True}]},
                    {"context": "Second paragraph.", "qas": []}]},
                {"title": "Empty", "paragraphs": []}]}
            path = write(os.path.join(name, "%s-%s.json" % (split, version)), json.dumps(doc, ensure_ascii=False))
            with open(path, encoding="utf-8") as f:
                loaded = json.load(f)
            golden[name][split] = [[c, q, a, s_] for c, q, a, s_ in _ParseSQuADQAData([(path, loaded)])]

    # CoNLL 2000 (space separated) and UDPOS (tab separated) through torchtext's _ParseIOBData.
    for name, sep, splits, files in (("CoNLL2000Chunking", " ", ("train", "test"), {"train": "train", "test": "test"}),
                                     ("UDPOS", "\t", ("train", "valid", "test"),
                                      {"train": "train", "valid": "dev", "test": "test"})):
        golden[name] = {}
        for split in splits:
            content = ("Confidence NN B-NP\nin IN B-PP\nthe DT B-NP\n\n\n  Chancellor NNP I-NP  \n"
                       "ragged\n%s NN B-NP extra\n\nlast NN O" % split).replace(" ", sep)
            path = write(os.path.join(name, files[split] + ".txt"), content)
            golden[name][split] = list(_ParseIOBData([(path, l) for l in lines(path, True)], sep=sep))

    with open(os.path.join(ROOT, "..", "datasets_golden.json"), "w", encoding="utf-8") as f:
        json.dump(golden, f, ensure_ascii=False, indent=1)
    print("wrote", sum(len(v) for v in golden.values()), "splits")


main()
