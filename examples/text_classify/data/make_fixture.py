"""Writes the example's AG_NEWS-layout fixture, data/datasets/AG_NEWS/{train,test}.csv:
short news-like lines whose class (1 World, 2 Sports, 3 Business, 4 Sci/Tech, as
AG_NEWS numbers them) shows in a few topic words among shared filler words, so a
bag-of-embeddings model separates them well above chance (25 %); the words of the
test lines are seen in training, their combinations are not. Deterministic
(seeded); any python3 runs it: python3 examples/text_classify/data/make_fixture.py"""
import csv
import os
import random

TOPICS = {
    1: "government minister election president parliament war treaty embassy refugees vote",
    2: "match team goal coach season league championship players victory tournament",
    3: "market shares profit investors stocks earnings bank prices oil company",
    4: "software computer internet researchers space chip wireless scientists browser data",
}
FILLER = "the a of in on to and with after for new says report week year today over by from".split()


def line(rng, label):
    topic = TOPICS[label].split()
    words = rng.sample(topic, 3) + rng.sample(FILLER, 5)
    rng.shuffle(words)
    title = " ".join(words[:3]).capitalize()
    body = " ".join(words[3:]) + "."
    return [str(label), title, body]


def main():
    rng = random.Random(38)
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "datasets", "AG_NEWS")
    os.makedirs(out, exist_ok=True)
    for split, n in (("train", 320), ("test", 80)):
        with open(os.path.join(out, split + ".csv"), "w", newline="") as f:
            w = csv.writer(f, quoting=csv.QUOTE_ALL, lineterminator="\n")
            for i in range(n):
                w.writerow(line(rng, 1 + i % 4))


main()
