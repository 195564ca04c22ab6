#!/usr/bin/env node
// Cross-checks tests/golden/text/clip_golden.json (written by gen_text_clip.py
// from torchtext's documented CLIP algorithm) against the npm `tokenizers`
// (Hugging Face's Rust BPE) configured as CLIP: lowercase, CLIP's split
// pattern, byte-level alphabet, BPE with end_of_word_suffix '</w>'. The two
// normalize differently on purpose (NFC, Unicode \s, per-character lowercase),
// so only ASCII inputs are compared.
//   NODE_PATH=/tmp/hf/node_modules node tools/golden/gen_text_clip_check.js
'use strict';
const fs = require('fs');
const path = require('path');
const { Tokenizer } = require('tokenizers');

const D = path.join(__dirname, '..', '..', 'tests', 'golden', 'text');
const vocab = JSON.parse(fs.readFileSync(path.join(D, 'clip_encoder.json'), 'utf8'));
const merges = fs.readFileSync(path.join(D, 'clip_merges.txt'), 'utf8').split('\n').slice(1).filter((l) => l.length);
const golden = JSON.parse(fs.readFileSync(path.join(D, 'clip_golden.json'), 'utf8'));
const config = {
  version: '1.0', truncation: null, padding: null, added_tokens: [],
  normalizer: { type: 'Lowercase' },
  pre_tokenizer: { type: 'Sequence', pretokenizers: [
    { type: 'Split', pattern: { Regex: "<\\|startoftext\\|>|<\\|endoftext\\|>|'s|'t|'re|'ve|'m|'ll|'d|[\\p{L}]+|[\\p{N}]|[^\\s\\p{L}\\p{N}]+" },
      behavior: 'Removed', invert: true },
    { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: false }] },
  post_processor: null, decoder: null,
  model: { type: 'BPE', dropout: null, unk_token: null, continuing_subword_prefix: '', end_of_word_suffix: '</w>',
           fuse_unk: false, byte_fallback: false, vocab, merges },
};
const tok = Tokenizer.fromString(JSON.stringify(config));
(async () => {
  let checked = 0, bad = 0;
  for (const c of golden.cases) {
    if (!/^[\x20-\x7e]*$/.test(c.input) || c.input.includes('<|')) continue;
    const e = await tok.encode(c.input.trim(), null, { addSpecialTokens: false });
    const got = e.getTokens();
    checked++;
    if (JSON.stringify(got) !== JSON.stringify(c.tokens)) {
      bad++;
      console.log('differs:', JSON.stringify(c.input), JSON.stringify(got), JSON.stringify(c.tokens));
    }
  }
  console.log(`CLIP check: ${bad} of ${checked} ASCII inputs differ from the npm tokenizers`);
})();
