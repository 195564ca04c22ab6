"""Expected class scores for examples/text_classify's roberta_scores (its ctest):
three sentences tokenized by the Hugging Face tokenizers library (npm package
`tokenizers`, run with Debian's node) with tests/golden/text/roberta_tokenizer.json,
padded with its <pad> id, through torchtext 0.14.1's RobertaModel (2 layers, dim 16,
a 4-class RobertaClassificationHead) whose weights follow tools/golden/gen_text_models.py's
formula, in eval mode without gradients.
Writes tests/golden/text/models/example_scores.txt: per sentence a line of ids, then
one line of scores per sentence.
Run: NODE_PATH=/tmp/hf/node_modules /usr/bin/python3 tools/golden/gen_text_models_example.py"""
import json
import math
import os
import subprocess
import sys
import types

import torch

sys.modules["torchtext._extension"] = types.ModuleType("torchtext._extension")
_stub = types.ModuleType("torchtext._torchtext")
for _name in ["CLIPEncoder", "GPT2BPEEncoder", "BERTEncoder", "SentencePiece", "Vectors", "RegexTokenizer",
              "RegexTokenizerPybind", "Vocab"]:
    setattr(_stub, _name, type(_name, (), {}))
sys.modules["torchtext._torchtext"] = _stub
from torchtext.models import RobertaClassificationHead, RobertaEncoderConf, RobertaModel  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOKENIZER = os.path.join(ROOT, "tests", "golden", "text", "roberta_tokenizer.json")
OUT = os.path.join(ROOT, "tests", "golden", "text", "models", "example_scores.txt")
# Kept equal to examples/text_classify/roberta_scores.cpp.
SENTENCES = ["Hello world, how are you?", "The quick brown fox.", "A fortune: you will be happy"]
PAD = 2258
NODE = r"""
const { Tokenizer } = require('tokenizers');
const t = Tokenizer.fromFile(process.argv[1]);
(async () => {
  const out = [];
  for (const s of JSON.parse(process.argv[2])) out.push((await t.encode(s)).getIds());
  console.log(JSON.stringify(out));
})();
"""


def fill(model):
    with torch.no_grad():
        for k, (name, t) in enumerate(model.state_dict().items()):
            i = torch.arange(t.numel(), dtype=torch.int64)
            h = (i * 1103515245 + 12345 + 7919 * k) % 2147483648
            h = (h * 1103515245 + 12345) % 2147483648
            b = (h.double() / 1073741824.0 - 1.0).reshape(t.shape)
            if t.dim() == 1:
                v = 1 + 0.2 * b if name.endswith("weight") else 0.1 * b
            else:
                v = math.sqrt(3.0) * b / math.sqrt(t.numel() / t.shape[0])
            t.copy_(v.to(t.dtype))


def main():
    ids = json.loads(subprocess.check_output(["node", "-e", NODE, TOKENIZER, json.dumps(SENTENCES)]))
    conf = RobertaEncoderConf(vocab_size=2262, embedding_dim=16, ffn_dimension=32, padding_idx=PAD,
                              max_seq_len=PAD + 1 + 64, num_attention_heads=2, num_encoder_layers=2)
    model = RobertaModel(conf, RobertaClassificationHead(num_classes=4, input_dim=16)).eval()
    fill(model)
    longest = max(len(x) for x in ids)
    tokens = torch.tensor([x + [PAD] * (longest - len(x)) for x in ids])
    with torch.no_grad():
        scores = model(tokens)
    with open(OUT, "w") as f:
        for x in ids:
            f.write(" ".join(str(i) for i in x) + "\n")
        for row in scores.tolist():
            f.write(" ".join(repr(v) for v in row) + "\n")
    print("wrote", OUT)


main()
