#!/usr/bin/env node
// Golden encodings for ember::text's tokenizer.json Unigram model, Metaspace
// pre-tokenizer and decoder, from the npm package `tokenizers` (the Rust
// library, run with Debian's node):
//   NODE_PATH=/tmp/hf/node_modules node tools/golden/gen_text_unigram.js
// The vocabularies are the SentencePiece fixtures' (pieces and scores from
// tests/golden/text/sentencepiece_golden.json, which gen_text_sentencepiece.py
// writes). Writes unigram_tokenizer.json, unigram_bytes_tokenizer.json,
// ctc_tokenizer.json (a character WordLevel vocabulary with the CTC decoder) and
// unigram_golden.json under tests/golden/text/.
'use strict';
const fs = require('fs');
const path = require('path');
const { Tokenizer } = require('tokenizers');

const D = path.join(__dirname, '..', '..', 'tests', 'golden', 'text');
const sp = JSON.parse(fs.readFileSync(path.join(D, 'sentencepiece_golden.json'), 'utf8'));
// The precompiled_charsmap of a .model (ModelProto field 3, NormalizerSpec field 2).
function charsmapOf(file) {
  const buf = fs.readFileSync(path.join(D, file));
  const varint = (b, pos) => { let v = 0, mul = 1; for (;;) { const c = b[pos.p++]; v += (c & 0x7f) * mul; mul *= 128; if (c < 0x80) return v; } };
  const fields = (b) => { const out = []; const pos = { p: 0 };
    while (pos.p < b.length) { const tag = varint(b, pos); const wire = tag % 8, field = Math.floor(tag / 8);
      if (wire === 0) varint(b, pos); else if (wire === 5) pos.p += 4; else if (wire === 1) pos.p += 8;
      else { const n = varint(b, pos); out.push([field, b.subarray(pos.p, pos.p + n)]); pos.p += n; } }
    return out; };
  const spec = fields(buf).find(([f]) => f === 3)[1];
  return Buffer.from(fields(spec).find(([f]) => f === 2)[1]).toString('base64');
}
const vocabOf = (name) => sp[name].vocab.map(([hex, score]) => [Buffer.from(hex, 'hex').toString('utf8'), score]);

const files = {
  'unigram_tokenizer.json': {
    version: '1.0', truncation: null, padding: null,
    added_tokens: [{ id: 1, content: '<s>', single_word: false, lstrip: false, rstrip: false, normalized: false, special: true },
                   { id: 2, content: '</s>', single_word: false, lstrip: false, rstrip: false, normalized: false, special: true }],
    normalizer: null,
    pre_tokenizer: { type: 'Metaspace', replacement: '\u2581', prepend_scheme: 'always', split: true },
    post_processor: { type: 'TemplateProcessing', single: [{ Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '</s>', type_id: 0 } }],
                      pair: [{ Sequence: { id: 'A', type_id: 0 } }, { SpecialToken: { id: '</s>', type_id: 0 } }, { Sequence: { id: 'B', type_id: 1 } }, { SpecialToken: { id: '</s>', type_id: 1 } }],
                      special_tokens: { '</s>': { id: '</s>', ids: [2], tokens: ['</s>'] } } },
    decoder: { type: 'Metaspace', replacement: '\u2581', prepend_scheme: 'always', split: true },
    model: { type: 'Unigram', unk_id: 0, vocab: vocabOf('sp_unigram'), byte_fallback: false },
  },
  'unigram_bytes_tokenizer.json': {
    version: '1.0', truncation: null, padding: null, added_tokens: [],
    normalizer: { type: 'Sequence', normalizers: [{ type: 'NFKC' }, { type: 'Lowercase' }] },
    pre_tokenizer: { type: 'Metaspace', replacement: '\u2581', prepend_scheme: 'first', split: false },
    post_processor: null,
    decoder: { type: 'Sequence', decoders: [{ type: 'ByteFallback' },
                                            { type: 'Metaspace', replacement: '\u2581', prepend_scheme: 'first', split: false }] },
    model: { type: 'Unigram', unk_id: 0, vocab: vocabOf('sp_unigram_identity'), byte_fallback: true },
  },
};
const ctcVocab = { '<pad>': 0, '|': 1, "'": 2, '.': 3, ',': 4 };
for (const c of 'abcdefghijklmnopqrstuvwxyz') ctcVocab[c] = Object.keys(ctcVocab).length;
const ctc = {
  version: '1.0', truncation: null, padding: null, added_tokens: [], normalizer: null, pre_tokenizer: null, post_processor: null,
  decoder: { type: 'CTC', pad_token: '<pad>', word_delimiter_token: '|', cleanup: true },
  model: { type: 'WordLevel', vocab: ctcVocab, unk_token: '<pad>' },
};
fs.writeFileSync(path.join(D, 'ctc_tokenizer.json'), JSON.stringify(ctc));
for (const [name, j] of Object.entries(files)) fs.writeFileSync(path.join(D, name), JSON.stringify(j));

const texts = [
  '', ' ', '   ', 'Hello world', 'Hello, world! How are you?', ' leading space', 'trailing space ', '  two  spaces  inside  ',
  "don't I'll we've", 'tab\there\nnew line', 'numbers 123 4567 3.14159', '\u0000', 'nul\u0000inside', '\u0301',
  'a\u0301 e\u0301 lone combining', '\u202Eright-to-left override\u202C', '\u200F\u05E9\u05DC\u05D5\u05DD',
  '\uD83D\uDC68\u200D\uD83D\uDC69\u200D\uD83D\uDC67 family', '\uD835\uDD18\uD835\uDD2B\uD835\uDD26 fraktur',
  '\u65E5\u672C\u8A9E\u306E\u6587\u7AE0', 'caf\u00E9 na\u00EFve \u00C0\u00C9\u00CE', '\u00A0non-breaking\u00A0space',
  '\u3000ideographic', '\uFEFFbyte order mark', 'ÄÖÜ äöü ß İstanbul ΣΑΣ', 'Ⅻ ½ ² ① ﬁ ＡＢＣ', '<s>hello</s> world',
  'The quick brown fox jumps over the lazy dog.', 'A computer program does what you tell it to do.', '\uFFFD replacement',
  '\u2581already\u2581escaped', 'x\u0000\u0000y', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa', 'supercalifragilisticexpialidocious',
];
const invalid = ['61ff62', 'c328', 'f0908d', '80818283', 'c0af'];

function dump(e) {
  return { ids: e.getIds(), tokens: e.getTokens(), offsets: e.getOffsets(), word_ids: e.getWordIds().map((w) => (w === undefined ? null : w)),
           type_ids: e.getTypeIds(), special_tokens_mask: e.getSpecialTokensMask(), attention_mask: e.getAttentionMask(), overflowing: [] };
}

(async () => {
  const cases = [];
  for (const name of Object.keys(files)) {
    const tok = Tokenizer.fromFile(path.join(D, name));
    const inputs = texts.map((t) => ({ input: t }));
    for (const hex of invalid) inputs.push({ input: Buffer.from(hex, 'hex').toString('utf8'), raw_hex: hex });
    for (const inp of inputs) {
      const e = await tok.encode(inp.input, null, { addSpecialTokens: true });
      const c = Object.assign({ tokenizer: name, input: inp.input, add_special_tokens: true }, dump(e));
      if (inp.raw_hex) c.raw_hex = inp.raw_hex;
      c.decoded_skip = await tok.decode(c.ids, true);
      c.decoded_keep = await tok.decode(c.ids, false);
      cases.push(c);
    }
    const e = await tok.encode('Hello world', 'How are you?');
    cases.push(Object.assign({ tokenizer: name, input: 'Hello world', pair: 'How are you?', add_special_tokens: true }, dump(e)));
  }
  // CTC decodes: frame-level ids with repeats, pads and word delimiters.
  const ctcTok = Tokenizer.fromFile(path.join(D, 'ctc_tokenizer.json'));
  const decodes = [];
  let seed = 5;
  const rand = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  const lists = [[], [0], [1], [0, 0, 1, 1, 0], [12, 12, 0, 12, 9, 1, 1, 20, 0, 20, 3], [2, 23, 1, 3, 1, 4]];
  for (let k = 0; k < 30; k++) lists.push(Array.from({ length: rand(20) }, () => (rand(3) === 0 ? rand(5) : rand(31))));
  for (const ids of lists) decodes.push({ ids, skip: await ctcTok.decode(ids, true), keep: await ctcTok.decode(ids, false) });
  // Precompiled (sp_unigram.model's nmt_nfkc charsmap) in front of unigram_tokenizer.json's
  // pipeline; the tests add the same normalizer to that file (the charsmap is too big to keep twice).
  const pre = JSON.parse(JSON.stringify(files['unigram_tokenizer.json']));
  pre.normalizer = { type: 'Precompiled', precompiled_charsmap: charsmapOf('sp_unigram.model') };
  const preTok = Tokenizer.fromString(JSON.stringify(pre));
  const precompiled = [];
  const extra = ['\uFB01ne \u2460 \u00BD', 'e\u0301\u0301 \u1100\u1161\u11A8', '\u3000\u00A0x\u200By', 'Ａｂｃ１２３',
                 '\u0041\u030A\u0308 \u212B', '\uD83D\uDC4D\uD83C\uDFFD\uFE0F', '\u2163\u2075\u00B2', 'tab\there'];
  for (const t of texts.concat(extra)) {
    const e = await preTok.encode(t, null, { addSpecialTokens: true });
    const c = Object.assign({ tokenizer: 'precompiled', input: t, add_special_tokens: true }, dump(e));
    c.decoded_skip = await preTok.decode(c.ids, true);
    c.decoded_keep = await preTok.decode(c.ids, false);
    precompiled.push(c);
  }
  // Replace with String and Regex patterns in front of the same pipeline (the tests build it too).
  const rep = JSON.parse(JSON.stringify(files['unigram_tokenizer.json']));
  rep.normalizer = { type: 'Sequence', normalizers: [
    { type: 'Replace', pattern: { Regex: ' {2,}' }, content: ' ' },
    { type: 'Replace', pattern: { String: "''" }, content: '"' },
    { type: 'Replace', pattern: { Regex: '\\d+' }, content: '#' },
    { type: 'Replace', pattern: { Regex: '[\\p{Mn}]' }, content: '' }] };
  const repTok = Tokenizer.fromString(JSON.stringify(rep));
  const replace = { normalizer: rep.normalizer, cases: [] };
  const repTexts = ['a  b   c', "''quoted'' text", 'call 555 1234 now', 'e\u0301 a\u0300\u0301 x', '   lead', 'trail   ',
                    "'''''", '\u0663\u0664 \uFF11\uFF12 12ab34', 'tab\t\tx  \u3000\u3000y'];
  for (const t of texts.concat(repTexts)) {
    const e = await repTok.encode(t, null, { addSpecialTokens: true });
    const c = Object.assign({ tokenizer: 'replace', input: t, add_special_tokens: true }, dump(e));
    c.decoded_skip = await repTok.decode(c.ids, true);
    replace.cases.push(c);
  }
  fs.writeFileSync(path.join(D, 'unigram_golden.json'), JSON.stringify({ cases, ctc_decodes: decodes, precompiled, replace }) + '\n');
})();
