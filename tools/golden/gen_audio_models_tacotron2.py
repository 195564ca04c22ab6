"""Golden values for ember::audio::models::Tacotron2 from torchaudio 0.13.

Run with Debian's interpreter: /usr/bin/python3 tools/golden/gen_audio_models_tacotron2.py
Weights are filled by models_fill() (the formula of gen_audio_models.py, computed
again in tests/audio/models_common.cpp), then the prenet's weights are zeroed:
torchaudio's prenet applies dropout even in eval mode, and on a zero input that
dropout is the identity whatever its random mask, so forward and infer become
deterministic and comparable. Everything else runs as torchaudio runs it.
"""
import os
import sys

import torch
import torchaudio.models as M

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden import GoldenWriter  # noqa: E402
from audio_models_fill import add_keys  # noqa: E402
from audio_models_fill import models_fill as shared_fill  # noqa: E402


def models_fill(model):
    """The shared fill, then the prenet's weights zeroed (see the module docstring)."""
    shared_fill(model)
    with torch.no_grad():
        for layer in model.decoder.prenet.layers:
            layer.weight.zero_()


SMALL = dict(n_mels=6, n_symbol=10, symbol_embedding_dim=8, encoder_embedding_dim=8, encoder_n_convolution=2,
             encoder_kernel_size=3, decoder_rnn_dim=10, decoder_max_step=7, attention_rnn_dim=9,
             attention_hidden_dim=5, attention_location_n_filter=4, attention_location_kernel_size=3, prenet_dim=6,
             postnet_n_convolution=3, postnet_kernel_size=3, postnet_embedding_dim=7)

torch.manual_seed(0)
w = GoldenWriter("audio_models_tacotron2")
tokens = torch.tensor([[1, 4, 2, 9, 3], [5, 0, 7, 0, 0]])
token_lengths = torch.tensor([5, 3])
mel = torch.randn(2, 6, 4)
mel_lengths = torch.tensor([4, 3])
w.add("tokens", tokens)
w.add("token_lengths", token_lengths)
w.add("mel", mel)
w.add("mel_lengths", mel_lengths)

# The threshold sits between the two utterances' first gates: the first stops after one step.
m = M.Tacotron2(mask_padding=True, gate_threshold=0.4845, **SMALL).eval()
models_fill(m)
add_keys(w, "small", m)
with torch.no_grad():
    for name, t in zip(["mel", "postnet", "gate", "align"], m(tokens, token_lengths, mel, mel_lengths)):
        w.add("a.fwd." + name, t)
    for name, t in zip(["postnet", "lengths", "align"], m.infer(tokens, token_lengths)):
        w.add("a.infer." + name, t)
    for name, t in zip(["postnet", "lengths", "align"], m.infer(tokens[:1])):
        w.add("a.infer1." + name, t)

m = M.Tacotron2(n_frames_per_step=2, decoder_early_stopping=False, **SMALL).eval()
models_fill(m)
with torch.no_grad():
    # (torchaudio's forward cannot view() its transposed input when n_frames_per_step > 1; infer can run.)
    for name, t in zip(["postnet", "lengths", "align"], m.infer(tokens, token_lengths)):
        w.add("b.infer." + name, t)

add_keys(w, "default", M.Tacotron2())
w.save()
