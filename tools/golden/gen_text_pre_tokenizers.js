#!/usr/bin/env node
// Golden encodings for the Whitespace, Punctuation and Split (every split
// behavior; Regex and String patterns, invert) and Digits pre-tokenizers, from the npm package `tokenizers` (run with Debian's
// node) on the BERT fixture vocabulary, so token offsets show every split:
//   NODE_PATH=/tmp/hf/node_modules node tools/golden/gen_text_pre_tokenizers.js
// Writes pre_tokenizers_golden.json (with the tokenizer.json of each case).
'use strict';
const fs = require('fs');
const path = require('path');
const { Tokenizer } = require('tokenizers');

const D = path.join(__dirname, '..', '..', 'tests', 'golden', 'text');
const bertVocab = fs.readFileSync(path.join(D, 'bert_vocab.txt'), 'utf8').split('\n').filter((l) => l.length);
const vocab = {};
bertVocab.forEach((t, i) => { vocab[t] = i; });

function config(pre) {
  return {
    version: '1.0', truncation: null, padding: null, added_tokens: [],
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: pre, post_processor: null, decoder: null,
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab },
  };
}
const ws = { type: 'WhitespaceSplit' };
const pres = {
  whitespace: { type: 'Whitespace' },
  digits_individual: { type: 'Sequence', pretokenizers: [ws, { type: 'Digits', individual_digits: true }] },
  digits_contiguous: { type: 'Sequence', pretokenizers: [ws, { type: 'Digits', individual_digits: false }] },
};
for (const b of ['Removed', 'Isolated', 'MergedWithPrevious', 'MergedWithNext', 'Contiguous']) {
  pres['punct_' + b] = { type: 'Sequence', pretokenizers: [ws, { type: 'Punctuation', behavior: b }] };
  pres['split_regex_' + b] = { type: 'Split', pattern: { Regex: '\\s+|[0-9]+' }, behavior: b, invert: false };
}
pres.split_string = { type: 'Split', pattern: { String: ', ' }, behavior: 'Removed', invert: false };
pres.split_clip = { type: 'Split', pattern: { Regex: "'s|'t|'re|'ve|'m|'ll|'d|[\\p{L}]+|[\\p{N}]|[^\\s\\p{L}\\p{N}]+" },
                    behavior: 'Removed', invert: true };

const texts = [
  '', ' ', 'Hello world', 'Hello, world! How are you?', "don't stop... ever!!", '(a)[b]{c} <d> e-f_g', '$5.00 + 3^2 = 14 | x ~ y',
  'numbers 123 4567 3.14159 1,000,000', '\u0663\u0664\u0665 \u2167 \u00bd \u2460 digits', 'mixed123abc!!!???', 'a\u0301b e\u0301',
  '\u202Eright-to-left\u202C', '\uD83D\uDC68\u200D\uD83D\uDC69\u200D\uD83D\uDC67 family', '\u4E2D\u6587\u5B57\u3002\u3001',
  '\u00A0non-breaking\u00A0space\u3000ideo', 'zero\u200Bwidth\u200Cjoin\u200D', '\u2019curly\u2019 \u201Cquotes\u201D \u2014 dash \u2026',
  'email@example.com http://example.com/path?q=1&r=2#frag', '__init__ snake_case', '\u00bf\u00a1Qu\u00e9?!', 'tab\tnew\nline',
  '!!!', '...', '1', '12', 'a1b2c3', '\u0e2a\u0e27\u0e31\u0e2a\u0e14\u0e35', '\u0928\u092e\u0938\u094d\u0924\u0947',
];

(async () => {
  const cases = [];
  for (const [name, pre] of Object.entries(pres)) {
    const json = config(pre);
    const tok = Tokenizer.fromString(JSON.stringify(json));
    const entry = { name, tokenizer: json, cases: [] };
    for (const t of texts) {
      const e = await tok.encode(t, null, { addSpecialTokens: false });
      entry.cases.push({ input: t, ids: e.getIds(), tokens: e.getTokens(), offsets: e.getOffsets(),
                         word_ids: e.getWordIds().map((w) => (w === undefined ? null : w)) });
    }
    cases.push(entry);
  }
  // The vocabulary is bert_vocab.txt's; tests rebuild each tokenizer.json from it.
  for (const c of cases) c.tokenizer.model.vocab = 'bert_vocab.txt';
  fs.writeFileSync(path.join(D, 'pre_tokenizers_golden.json'), JSON.stringify(cases) + '\n');
})();
