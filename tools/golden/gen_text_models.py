"""Golden values for tests/text/models_*_test.cpp: torchtext 0.14.1's RobertaModel
(torchtext.models) at small sizes, filled with deterministic weights the C++ test
computes too:
  tensor k of the state_dict (in its order), element i: h = (i 1103515245 + 12345
  + 7919 k) mod 2^31, h = (h 1103515245 + 12345) mod 2^31, b = h / 2^30 - 1:
    1-D tensors ending in "weight" 1 + 0.2 b, other 1-D ones 0.1 b,
    matrices sqrt(3) b / sqrt(fan_in) (fan_in = numel / rows).
Token batches hold pads at the end of rows, a pad inside a row and a row of all
pads, so both of torch 1.13's TransformerEncoder paths are seen: eval without
gradients (the nested-tensor path: padded positions zero, rows cut to the longest
unpadded length) and with gradients or in training (the masked path).
Writes tests/golden/text_models.golden, tests/golden/text/models/<cfg>.keys
(state_dict names and shapes) and two checkpoints saved by torch.save:
tests/golden/text/models/tiny_roberta.pt (today's names, with a head) and
tiny_roberta_legacy.pt (the pre-0.13 names torchtext still loads).
Run: /usr/bin/python3 tools/golden/gen_text_models.py"""
import math
import os
import sys

import torch
import types

# Debian's torchtext ships its C++ extension as empty stubs; the models are
# pure Python on torch.nn, so stand-in extension modules let them import.
sys.modules["torchtext._extension"] = types.ModuleType("torchtext._extension")
_stub = types.ModuleType("torchtext._torchtext")
for _name in ["CLIPEncoder", "GPT2BPEEncoder", "BERTEncoder", "SentencePiece", "Vectors", "RegexTokenizer",
              "RegexTokenizerPybind", "Vocab"]:
    setattr(_stub, _name, type(_name, (), {}))
sys.modules["torchtext._torchtext"] = _stub

from torchtext.models import RobertaBundle, RobertaClassificationHead, RobertaEncoderConf, RobertaModel

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden import GOLDEN_DIR, GoldenWriter  # noqa: E402

KEYS_DIR = os.path.join(GOLDEN_DIR, "text", "models")

# name -> (conf kwargs, head kwargs or None)
CONFIGS = {
    "post_norm": (dict(vocab_size=40, embedding_dim=16, ffn_dimension=32, padding_idx=1, max_seq_len=20,
                       num_attention_heads=2, num_encoder_layers=2), dict(num_classes=3, input_dim=16, inner_dim=8)),
    "pre_norm": (dict(vocab_size=30, embedding_dim=16, ffn_dimension=24, padding_idx=0, max_seq_len=16,
                      num_attention_heads=4, num_encoder_layers=2, normalize_before=True), None),
    "odd_heads": (dict(vocab_size=25, embedding_dim=12, ffn_dimension=20, padding_idx=1, max_seq_len=12,
                       num_attention_heads=3, num_encoder_layers=1), dict(num_classes=2, input_dim=12)),
}


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


def tokens(vocab, pad, rows, cols, seed):
    """Deterministic ids in [0, vocab) avoiding pad; row r keeps cols - r tokens
    (pads after), and row 1 also has a pad inside."""
    g = torch.Generator().manual_seed(seed)
    t = torch.randint(0, vocab, (rows, cols), generator=g)
    t[t == pad] = (pad + 2) % vocab
    for r in range(rows):
        if r > 0:
            t[r, cols - r:] = pad
    if rows > 1:
        t[1, 1] = pad
    return t


def build(conf_kwargs, head_kwargs, dropout=None):
    kw = dict(conf_kwargs)
    if dropout is not None:
        kw["dropout"] = dropout
    head = RobertaClassificationHead(**head_kwargs, **({"dropout": dropout} if dropout is not None else {})) \
        if head_kwargs else None
    return RobertaModel(RobertaEncoderConf(**kw), head)


def main():
    os.makedirs(KEYS_DIR, exist_ok=True)
    g = GoldenWriter("text_models")
    for name, (conf_kwargs, head_kwargs) in CONFIGS.items():
        model = build(conf_kwargs, head_kwargs)
        fill(model)
        with open(os.path.join(KEYS_DIR, name + ".keys"), "w") as f:
            for key, t in model.state_dict().items():
                f.write("%s %s\n" % (key, ",".join(str(s) for s in t.shape)))
        vocab, pad = conf_kwargs["vocab_size"], conf_kwargs["padding_idx"]
        x = tokens(vocab, pad, 3, 7, 1)
        g.add(name + ".tokens", x)
        # A batch whose rows all end in pads: the nested path shortens the output.
        x_short = tokens(vocab, pad, 3, 6, 2)
        x_short[0, 5] = pad
        g.add(name + ".tokens_short", x_short)
        model.eval()
        with torch.no_grad():
            g.add(name + ".eval_nograd", model(x))
            g.add(name + ".eval_nograd_short", model(x_short))
            g.add(name + ".features_nograd", model.encoder(x))
            g.add(name + ".features_nograd_short", model.encoder(x_short))
            masked = (torch.arange(x.numel()).reshape(x.shape) % 3 == 0)[:, :model.encoder(x).shape[1]]
            g.add(name + ".masked_tokens", masked)
            g.add(name + ".features_masked", model.encoder(x, masked))
        # Eval with gradients: the masked path; gradients of sum(y * w).
        y = model(x)
        g.add(name + ".eval_grad", y.detach())
        w = torch.linspace(-1, 1, y.numel()).reshape(y.shape)
        (y * w).sum().backward()
        for pname, p in model.named_parameters():
            if pname in ("encoder.transformer.token_embedding.weight",
                         "encoder.transformer.layers.layers.0.self_attn.in_proj_weight",
                         "encoder.transformer.layers.layers.1.linear2.bias",
                         "encoder.transformer.embedding_layer_norm.weight",
                         "encoder.transformer.positional_embedding.embedding.weight", "head.dense.weight"):
                g.add(name + ".grad." + pname, p.grad)
        # A frozen encoder in eval mode takes the nested-tensor path even with gradients on.
        frozen = RobertaModel(RobertaEncoderConf(**conf_kwargs), None, freeze_encoder=True).eval()
        fill(frozen)
        g.add(name + ".frozen_eval_grad", frozen(x))
        # Training mode with dropout 0 (so the compare is deterministic).
        train = build(conf_kwargs, head_kwargs, dropout=0.0)
        fill(train)
        train.train()
        g.add(name + ".train", train(x).detach())
        with torch.no_grad():
            g.add(name + ".train_features", train.encoder(x))

    # The stack alone with return_all_layers: every layer's state (eval, no gradients,
    # which goes layer by layer and so takes no nested-tensor path).
    from torchtext.models.roberta.modules import TransformerEncoder
    for name in ("post_norm", "pre_norm"):
        c = CONFIGS[name][0]
        enc = TransformerEncoder(c["vocab_size"], c["embedding_dim"], c["padding_idx"], c["max_seq_len"],
                                 c["num_encoder_layers"], c["num_attention_heads"], c["ffn_dimension"],
                                 normalize_before=c.get("normalize_before", False), return_all_layers=True)
        fill(enc)
        enc.eval()
        with torch.no_grad():
            for i, state in enumerate(enc(tokens(c["vocab_size"], c["padding_idx"], 3, 7, 1))):
                g.add("%s.all_layers.%d" % (name, i), state)

    # torchtext's standalone TransformerEncoderLayer ([T, B, C] in and out), post- and pre-norm,
    # in eval without gradients (torch's fused layer path) and with them.
    from torchtext.models.roberta.modules import TransformerEncoderLayer
    for name, pre in (("layer_post_norm", False), ("layer_pre_norm", True)):
        layer = TransformerEncoderLayer(16, 2, 32, normalize_before=pre)
        fill(layer)
        with open(os.path.join(KEYS_DIR, name + ".keys"), "w") as f:
            for key, t in layer.state_dict().items():
                f.write("%s %s\n" % (key, ",".join(str(s) for s in t.shape)))
        layer.eval()
        src = (0.5 * torch.sin(0.37 * torch.arange(5 * 3 * 16, dtype=torch.float64))).reshape(5, 3, 16).float()
        pad = torch.tensor([[False] * 5, [False] * 3 + [True] * 2, [False] * 4 + [True]])
        g.add(name + ".input", src)
        g.add(name + ".key_padding_mask", pad)
        with torch.no_grad():
            g.add(name + ".eval_nograd", layer(src, pad))
        g.add(name + ".eval_grad", layer(src, pad).detach())

    # Checkpoints saved by torchtext, with a head; the legacy file under pre-0.13 names.
    conf_kwargs, head_kwargs = CONFIGS["post_norm"]
    model = build(conf_kwargs, head_kwargs)
    fill(model)
    sd = model.state_dict()
    torch.save(sd, os.path.join(KEYS_DIR, "tiny_roberta.pt"))
    legacy = {}
    new_to_old = {
        "self_attn.in_proj_weight": "attention.input_projection.weight",
        "self_attn.in_proj_bias": "attention.input_projection.bias",
        "self_attn.out_proj.weight": "attention.output_projection.weight",
        "self_attn.out_proj.bias": "attention.output_projection.bias",
        "linear1.weight": "residual_mlp.mlp.0.weight", "linear1.bias": "residual_mlp.mlp.0.bias",
        "linear2.weight": "residual_mlp.mlp.3.weight", "linear2.bias": "residual_mlp.mlp.3.bias",
        "norm1.weight": "attention_layer_norm.weight", "norm1.bias": "attention_layer_norm.bias",
        "norm2.weight": "final_layer_norm.weight", "norm2.bias": "final_layer_norm.bias"}
    for k, v in sd.items():
        if k.startswith("head."):
            continue  # an encoder-only checkpoint, as torchtext publishes them
        for new, old in new_to_old.items():
            pre = "encoder.transformer.layers.layers."
            if k.startswith(pre) and k.endswith("." + new):
                i = k[len(pre):].split(".")[0]
                k = "encoder.transformer.layers.%s.%s" % (i, old)
                break
        legacy[k] = v.clone()
    torch.save(legacy, os.path.join(KEYS_DIR, "tiny_roberta_legacy.pt"))
    x = tokens(conf_kwargs["vocab_size"], conf_kwargs["padding_idx"], 3, 7, 1)
    # What torchtext's own loader makes of each file: the bundle path (head kept
    # from the given head) and build_model.
    conf = RobertaEncoderConf(**conf_kwargs)
    loaded = RobertaBundle.build_model(conf, checkpoint=torch.load(os.path.join(KEYS_DIR, "tiny_roberta.pt")))
    loaded.eval()
    with torch.no_grad():
        g.add("checkpoint.features", loaded(x))
    legacy_model = RobertaBundle.build_model(conf, checkpoint=torch.load(os.path.join(KEYS_DIR, "tiny_roberta_legacy.pt")))
    legacy_model.eval()
    with torch.no_grad():
        g.add("checkpoint_legacy.features", legacy_model(x))
    g.save()


main()
