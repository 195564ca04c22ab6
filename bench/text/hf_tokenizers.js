#!/usr/bin/env node
// The npm package `tokenizers` (Hugging Face's Rust library) encoding the
// benchmark corpus line by line with the same tokenizer.json files, one
// thread, process CPU time; prints MB/s per file.
//   NODE_PATH=/tmp/hf/node_modules node hf_tokenizers.js corpus.txt a.json [b.json ...]
'use strict';
const fs = require('fs');
const { Tokenizer } = require('tokenizers');

async function main() {
  const [corpus, ...files] = process.argv.slice(2);
  const lines = fs.readFileSync(corpus, 'utf8').split('\n');
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  const bytes = lines.reduce((n, l) => n + Buffer.byteLength(l, 'utf8') + 1, 0);
  for (const f of files) {
    const tok = Tokenizer.fromFile(f);
    const t0 = process.cpuUsage();
    let n = 0;
    for (const l of lines) n += (await tok.encode(l, null, { addSpecialTokens: false })).getIds().length;
    const dt = process.cpuUsage(t0);
    const s = (dt.user + dt.system) / 1e6;
    console.log(`hf ${f.split('/').pop()} ${(bytes / s / 1e6).toFixed(3)} MB/s (${s.toFixed(2)} s, ${n} tokens)`);
  }
}
main();
