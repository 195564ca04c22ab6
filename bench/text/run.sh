#!/usr/bin/env bash
# ember::text tokenizer speed, same run: ember (text_tokenizers_bench) and the
# npm `tokenizers` (Debian's node) on the same ~2 MB corpus and tokenizer.json
# files, SentencePiece against Debian's libsentencepiece (linked by the
# benchmark). Prints MB/s and the ratios.
#   bench/text/run.sh        (BUILD=build dir with -DEMBER_BUILD_BENCH=ON; HF=/tmp/hf)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
BUILD=${BUILD:-$root/build}
HF=${HF:-/tmp/hf}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
/usr/bin/python3 "$here/make_corpus.py" "$work"
G=$root/tests/golden/text
bin=$BUILD/bench/text/text_tokenizers_bench
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'); ISA flags: $(grep -m1 -o -w -E 'avx512f|avx2' /proc/cpuinfo | sort -u | tr '\n' ' ')"
echo "load: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
"$bin" "$work/corpus.txt" "$G/gpt2_tokenizer.json" "$G/bert_tokenizer.json" "$G/sp_unigram.model" | tee "$work/ember.txt"
"$bin" "$work/corpus.txt" "$G/gpt2_tokenizer.json" "$G/bert_tokenizer.json" "$G/sp_bpe.model" | grep sentencepiece | sed 's/^sentencepiece/sentencepiece-bpe/'
"$bin" --rss "$work/bpe50k_tokenizer.json"
if [ -x "$BUILD/bench/text/sentencepiece_diff" ]; then
  "$BUILD/bench/text/sentencepiece_diff" "$G"/sp_*.model || true
fi
if [ -d "$HF/node_modules/tokenizers" ]; then
  NODE_PATH=$HF/node_modules node "$here/hf_tokenizers.js" "$work/corpus.txt" "$G/gpt2_tokenizer.json" \
    "$G/bert_tokenizer.json" | tee "$work/hf.txt"
  ember_bpe=$(grep 'byte-level BPE encode, 1 thread' "$work/ember.txt" | awk '{print $(NF-3)}')
  ember_wp=$(grep 'WordPiece encode, 1 thread' "$work/ember.txt" | awk '{print $(NF-3)}')
  hf_bpe=$(grep gpt2_tokenizer "$work/hf.txt" | awk '{print $3}')
  hf_wp=$(grep bert_tokenizer "$work/hf.txt" | awk '{print $3}')
  awk -v a="$ember_bpe" -v b="$hf_bpe" 'BEGIN { printf "byte-level BPE ember / HF tokenizers  %.1fx\n", a / b }'
  awk -v a="$ember_wp" -v b="$hf_wp" 'BEGIN { printf "WordPiece ember / HF tokenizers       %.1fx\n", a / b }'
else
  echo "npm tokenizers not found under $HF (mkdir -p $HF && cd $HF && npm install tokenizers)"
fi
