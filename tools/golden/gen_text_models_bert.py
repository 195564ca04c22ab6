"""Golden values for tests/text/models_bert_test.cpp: a reference BERT encoder in
plain torch.nn with exactly the module names and math of Hugging Face's BertModel
(transformers' modeling_bert: post-norm layers, erf GELU, LayerNorm eps from the
config, absolute position ids, token_type_ids zeros by default, the keep-mask turned
into (1 - m) * finfo.min added to the scores, pooler tanh(dense(first token))).
Hugging Face's library is not installed here, so this is written from its
documented computation; torchtext 0.14 has no BERT.
Weights are filled by tools/golden/gen_text_models.py's formula (tensor k of the
state_dict, element i), which the C++ test recomputes.
Writes tests/golden/text/models_bert.golden, tests/golden/text/models/bert_<cfg>.keys
(state_dict names and shapes) and tests/golden/text/models/tiny_bert.pt (a
state_dict saved by torch.save).
Run: /usr/bin/python3 tools/golden/gen_text_models_bert.py"""
import math
import os
import sys

import torch
from torch import nn

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden import GOLDEN_DIR, GoldenWriter  # noqa: E402

KEYS_DIR = os.path.join(GOLDEN_DIR, "text", "models")

CONFIGS = {
    "small": dict(vocab_size=30, hidden_size=16, num_hidden_layers=2, num_attention_heads=4, intermediate_size=32,
                  hidden_act="gelu", max_position_embeddings=12, type_vocab_size=2, layer_norm_eps=1e-12,
                  pad_token_id=0),
    "odd": dict(vocab_size=25, hidden_size=12, num_hidden_layers=1, num_attention_heads=3, intermediate_size=20,
                hidden_act="gelu_new", max_position_embeddings=9, type_vocab_size=3, layer_norm_eps=1e-5,
                pad_token_id=1),
}


class Cfg:
    def __init__(self, **kw):
        self.hidden_dropout_prob = 0.1
        self.attention_probs_dropout_prob = 0.1
        self.__dict__.update(kw)


ACT = {"gelu": lambda x: nn.functional.gelu(x), "gelu_new": lambda x: nn.functional.gelu(x, approximate="tanh")}


class BertEmbeddings(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.word_embeddings = nn.Embedding(c.vocab_size, c.hidden_size, padding_idx=c.pad_token_id)
        self.position_embeddings = nn.Embedding(c.max_position_embeddings, c.hidden_size)
        self.token_type_embeddings = nn.Embedding(c.type_vocab_size, c.hidden_size)
        self.LayerNorm = nn.LayerNorm(c.hidden_size, eps=c.layer_norm_eps)
        self.dropout = nn.Dropout(c.hidden_dropout_prob)

    def forward(self, input_ids, token_type_ids=None, position_ids=None):
        t = input_ids.shape[1]
        if position_ids is None:
            position_ids = torch.arange(t).unsqueeze(0)
        if token_type_ids is None:
            token_type_ids = torch.zeros_like(input_ids)
        e = self.word_embeddings(input_ids) + self.token_type_embeddings(token_type_ids)
        e = e + self.position_embeddings(position_ids)
        return self.dropout(self.LayerNorm(e))


class BertSelfAttention(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.heads = c.num_attention_heads
        self.head_dim = c.hidden_size // c.num_attention_heads
        self.query = nn.Linear(c.hidden_size, c.hidden_size)
        self.key = nn.Linear(c.hidden_size, c.hidden_size)
        self.value = nn.Linear(c.hidden_size, c.hidden_size)
        self.dropout = nn.Dropout(c.attention_probs_dropout_prob)

    def split(self, x):
        b, t, _ = x.shape
        return x.view(b, t, self.heads, self.head_dim).permute(0, 2, 1, 3)

    def forward(self, h, mask=None):
        q, k, v = self.split(self.query(h)), self.split(self.key(h)), self.split(self.value(h))
        s = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.head_dim)
        if mask is not None:
            s = s + mask
        p = self.dropout(nn.functional.softmax(s, dim=-1))
        ctx = torch.matmul(p, v).permute(0, 2, 1, 3).contiguous()
        return ctx.view(ctx.shape[0], ctx.shape[1], -1)


class BertSelfOutput(nn.Module):
    def __init__(self, c, inner):
        super().__init__()
        self.dense = nn.Linear(inner, c.hidden_size)
        self.LayerNorm = nn.LayerNorm(c.hidden_size, eps=c.layer_norm_eps)
        self.dropout = nn.Dropout(c.hidden_dropout_prob)

    def forward(self, h, residual):
        return self.LayerNorm(self.dropout(self.dense(h)) + residual)


class BertAttention(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.self = BertSelfAttention(c)
        self.output = BertSelfOutput(c, c.hidden_size)

    def forward(self, h, mask=None):
        return self.output(self.self(h, mask), h)


class BertIntermediate(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.dense = nn.Linear(c.hidden_size, c.intermediate_size)
        self.act = ACT[c.hidden_act]

    def forward(self, h):
        return self.act(self.dense(h))


class BertLayer(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.attention = BertAttention(c)
        self.intermediate = BertIntermediate(c)
        self.output = BertSelfOutput(c, c.intermediate_size)  # HF's BertOutput: the same computation

    def forward(self, h, mask=None):
        a = self.attention(h, mask)
        return self.output(self.intermediate(a), a)


class BertEncoder(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.layer = nn.ModuleList([BertLayer(c) for _ in range(c.num_hidden_layers)])

    def forward(self, h, mask=None):
        for layer in self.layer:
            h = layer(h, mask)
        return h


class BertPooler(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.dense = nn.Linear(c.hidden_size, c.hidden_size)

    def forward(self, h):
        return torch.tanh(self.dense(h[:, 0]))


class BertModel(nn.Module):
    def __init__(self, c, add_pooling_layer=True):
        super().__init__()
        self.embeddings = BertEmbeddings(c)
        self.encoder = BertEncoder(c)
        self.pooler = BertPooler(c) if add_pooling_layer else None

    def forward(self, input_ids, attention_mask=None, token_type_ids=None, position_ids=None):
        h = self.embeddings(input_ids, token_type_ids, position_ids)
        mask = None
        if attention_mask is not None:
            m = attention_mask[:, None, None, :] if attention_mask.dim() == 2 else attention_mask[:, None, :, :]
            m = m.to(h.dtype)
            mask = (1.0 - m) * torch.finfo(h.dtype).min
        last = self.encoder(h, mask)
        return last, (self.pooler(last) if self.pooler is not None else None)


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


def inputs(c, rows, cols, seed):
    """ids avoiding pad, row r padded (mask 0, id pad) over its last r positions,
    token types: 0 for the first half of each row, then 1 (or 2 where there are 3)."""
    g = torch.Generator().manual_seed(seed)
    ids = torch.randint(0, c.vocab_size, (rows, cols), generator=g)
    ids[ids == c.pad_token_id] = (c.pad_token_id + 2) % c.vocab_size
    mask = torch.ones(rows, cols, dtype=torch.int64)
    for r in range(1, rows):
        ids[r, cols - r:] = c.pad_token_id
        mask[r, cols - r:] = 0
    types = torch.zeros(rows, cols, dtype=torch.int64)
    types[:, cols // 2:] = 1
    if c.type_vocab_size > 2:
        types[0, -1] = 2
    return ids, mask, types


def main():
    os.makedirs(KEYS_DIR, exist_ok=True)
    g = GoldenWriter("text/models_bert")
    for name, kw in CONFIGS.items():
        c = Cfg(**kw)
        model = BertModel(c)
        fill(model)
        model.eval()
        with open(os.path.join(KEYS_DIR, "bert_" + name + ".keys"), "w") as f:
            for key, t in model.state_dict().items():
                f.write("%s %s\n" % (key, ",".join(str(s) for s in t.shape)))
        ids, mask, types = inputs(c, 3, 7, 3)
        g.add(name + ".input_ids", ids)
        g.add(name + ".attention_mask", mask)
        g.add(name + ".token_type_ids", types)
        with torch.no_grad():
            last, pooled = model(ids, mask, types)
            g.add(name + ".last_hidden_state", last)
            g.add(name + ".pooler_output", pooled)
            last, pooled = model(ids)
            g.add(name + ".nomask.last_hidden_state", last)
            g.add(name + ".nomask.pooler_output", pooled)
            # A row whose every key is masked, and a per-pair [B, T, T] mask.
            m0 = mask.clone()
            m0[2] = 0
            g.add(name + ".allmasked.attention_mask", m0)
            g.add(name + ".allmasked.last_hidden_state", model(ids, m0, types)[0])
            pair = torch.tril(torch.ones(7, 7, dtype=torch.int64)).expand(3, 7, 7).contiguous()
            g.add(name + ".pairmask.attention_mask", pair)
            g.add(name + ".pairmask.last_hidden_state", model(ids, pair, types)[0])
            pos = torch.tensor([[2, 3, 4, 5, 6, 7, 8]]).expand(3, 7).contiguous()
            g.add(name + ".position_ids", pos)
            g.add(name + ".positions.last_hidden_state", model(ids, mask, types, pos)[0])
        # Gradients of sum(last * w1) + sum(pooled * w2) for a few parameters.
        last, pooled = model(ids, mask, types)
        w1 = torch.linspace(-1, 1, last.numel()).reshape(last.shape)
        w2 = torch.linspace(1, -1, pooled.numel()).reshape(pooled.shape)
        ((last * w1).sum() + (pooled * w2).sum()).backward()
        for pname, p in model.named_parameters():
            if pname in ("embeddings.word_embeddings.weight", "embeddings.LayerNorm.weight",
                         "encoder.layer.0.attention.self.query.weight", "encoder.layer.0.intermediate.dense.bias",
                         "pooler.dense.weight"):
                g.add(name + ".grad." + pname, p.grad)
    c = Cfg(**CONFIGS["small"])
    model = BertModel(c)
    fill(model)
    # A checkpoint whose values differ from the fill: scaled, so loading is seen.
    sd = {k: v * 0.5 if v.dim() == 2 else v for k, v in model.state_dict().items()}
    torch.save(sd, os.path.join(KEYS_DIR, "tiny_bert.pt"))
    model.load_state_dict(sd)
    model.eval()
    ids, mask, types = inputs(c, 3, 7, 3)
    with torch.no_grad():
        last, pooled = model(ids, mask, types)
    g.add("checkpoint.last_hidden_state", last)
    g.add("checkpoint.pooler_output", pooled)
    g.save()


main()
