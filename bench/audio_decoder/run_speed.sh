#!/bin/sh
# Issue 37's speed figures, Ember against Debian's torchaudio in the same run:
# MelSpectrogram (10 s at 16 kHz, batch 1 and 32), Resample (44.1 -> 16 kHz,
# 60 s) at 1 and 2 threads, and load of a 60 s 44.1 kHz stereo WAV and FLAC.
# The two sides alternate ROUNDS times; the table gives each figure's median
# over the rounds (each round's figure is a best of several repetitions) and
# the load average before and after.
#   bench/audio_decoder/run_speed.sh BUILD_DIR [ROUNDS=5]
set -eu
build=$1
rounds=${2:-5}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 - "$tmp" <<'PY'
import sys, torch, torchaudio
t = torch.arange(44100 * 60) / 44100.0
x = torch.stack([0.4 * torch.sin(2 * 3.14159 * 220 * t), 0.3 * torch.sin(2 * 3.14159 * 331 * t)])
x = x + 0.05 * torch.randn_like(x)
torchaudio.save(sys.argv[1] + "/a60.wav", x, 44100, encoding="PCM_S", bits_per_sample=16)
torchaudio.save(sys.argv[1] + "/a60.flac", x, 44100, bits_per_sample=16)
PY
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$rounds"); do
  for th in 1 2; do
    "$build/bench/audio_transforms_bench" "$th" | sed 's/^/ember /' >>"$tmp/out"
    /usr/bin/python3 "$here/torchaudio_side.py" "$th" | sed 's/^/torchaudio /' >>"$tmp/out"
  done
  "$build/bench/audio_decoder/bench_audio_load" 5 "$tmp/a60.wav" "$tmp/a60.flac" | sed 's/^/ember /' >>"$tmp/out"
  /usr/bin/python3 "$here/torchaudio_side.py" 1 "$tmp/a60.wav" "$tmp/a60.flac" | grep '^load' |
    sed 's/^/torchaudio /' >>"$tmp/out"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/python3 - "$tmp/out" "$tmp" <<'PY'
import collections, statistics, sys
runs = collections.defaultdict(list)
for line in open(sys.argv[1]):
    side, rest = line.split(" ", 1)
    name, ms = rest.rsplit(":", 1)
    name = name.replace(sys.argv[2] + "/", "")
    runs[(name.strip(), side)].append(float(ms.split()[0]))
names = sorted({n for n, _ in runs}, key=lambda n: list(runs).index((n, "ember")))
print("| case | Ember ms | torchaudio ms | ratio (torchaudio / Ember) |")
print("|---|---|---|---|")
for n in names:
    e, t = statistics.median(runs[(n, "ember")]), statistics.median(runs[(n, "torchaudio")])
    print("| %s | %.2f | %.2f | %.2f |" % (n, e, t, t / e))
PY
