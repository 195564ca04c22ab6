"""torchaudio's side of issue 37's speed figures, with the shapes and the
best-of-reps protocol of bench/audio_transforms_bench.cpp and bench_audio_load.cpp.
Run with Debian's interpreter: /usr/bin/python3 torchaudio_side.py THREADS [file...]
"""
import sys
import time

import torch
import torchaudio


def best_ms(f, reps):
    f()
    best = 1e30
    for _ in range(reps):
        t0 = time.perf_counter()
        f()
        best = min(best, (time.perf_counter() - t0) * 1e3)
    return best


threads = int(sys.argv[1])
torch.set_num_threads(threads)
with torch.no_grad():
    mel = torchaudio.transforms.MelSpectrogram(sample_rate=16000)
    for batch in (1, 32):
        x = torch.randn(batch, 160000)
        print("MelSpectrogram batch %d, %d thread(s): %.2f ms" % (batch, threads,
                                                                 best_ms(lambda: mel(x), 20 if batch == 1 else 5)))
    resample = torchaudio.transforms.Resample(44100, 16000)
    y = torch.randn(1, 44100 * 60)
    print("Resample 44.1k->16k 60 s, %d thread(s): %.2f ms" % (threads, best_ms(lambda: resample(y), 5)))
    for path in sys.argv[2:]:
        wave, rate = torchaudio.load(path)
        print("load %s [%d x %d at %d Hz]: %.2f ms" % (path, wave.shape[0], wave.shape[1], rate,
                                                     best_ms(lambda: torchaudio.load(path), 5)))
