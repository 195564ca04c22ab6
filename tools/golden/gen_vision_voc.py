"""Expected VOCDetection targets for tests/vision/datasets_voc_test.cpp: torchvision 0.14's
VOCDetection (its parse_voc_xml through ElementTree) on the fixture tree
tests/golden/vision/datasets/voc/ (whose JPEGImages are placeholders the VOCSegmentation test
reads as bytes, so only the targets are taken: what VOCDetection.__getitem__ parses), written as
JSON, one target per line, keys sorted, with the annotation file's path.
Run: /usr/bin/python3 tools/golden/gen_vision_voc.py"""
import json
import os

from xml.etree.ElementTree import parse as ET_parse

from torchvision.datasets import VOCDetection

from golden import GOLDEN_DIR

root = os.path.join(GOLDEN_DIR, "vision", "datasets", "voc")
lines = []
for image_set in ["train", "val"]:
    ds = VOCDetection(root, year="2012", image_set=image_set)
    for i in range(len(ds)):
        target = ds.parse_voc_xml(ET_parse(ds.annotations[i]).getroot())
        lines.append(json.dumps({"image_set": image_set, "index": i,
                                 "annotation": os.path.relpath(ds.annotations[i], root), "target": target},
                                sort_keys=True))
with open(os.path.join(root, "expected_detection.jsonl"), "w") as f:
    f.write("\n".join(lines) + "\n")
print("wrote", len(lines), "targets")
