"""Golden values for ember::audio::models::Wav2Vec2Model from torchaudio 0.13.

Run with Debian's interpreter: /usr/bin/python3 tools/golden/gen_audio_models_wav2vec2.py
Small configurations through wav2vec2_model(...), filled by models_fill() of
gen_audio_models.py (computed again in tests/audio/models_common.cpp); the
state_dict names and shapes of wav2vec2_base; and a torchaudio-saved
state_dict (tests/golden/audio/models/wav2vec2_small.pth) with its output.
"""
import os
import sys

import torch
import torchaudio.models as M

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden import GOLDEN_DIR, GoldenWriter  # noqa: E402
from audio_models_fill import add_keys, models_fill  # noqa: E402


SMALL_A = dict(extractor_mode="group_norm", extractor_conv_layer_config=[(8, 10, 5), (8, 3, 2), (8, 2, 2)],
               extractor_conv_bias=False, encoder_embed_dim=12, encoder_projection_dropout=0.1,
               encoder_pos_conv_kernel=4, encoder_pos_conv_groups=2, encoder_num_layers=2, encoder_num_heads=3,
               encoder_attention_dropout=0.1, encoder_ff_interm_features=20, encoder_ff_interm_dropout=0.1,
               encoder_dropout=0.1, encoder_layer_norm_first=False, encoder_layer_drop=0.1, aux_num_out=5)
SMALL_B = dict(extractor_mode="layer_norm", extractor_conv_layer_config=[(6, 8, 4), (10, 3, 2)],
               extractor_conv_bias=True, encoder_embed_dim=8, encoder_projection_dropout=0.0,
               encoder_pos_conv_kernel=5, encoder_pos_conv_groups=4, encoder_num_layers=3, encoder_num_heads=2,
               encoder_attention_dropout=0.0, encoder_ff_interm_features=16, encoder_ff_interm_dropout=0.0,
               encoder_dropout=0.0, encoder_layer_norm_first=True, encoder_layer_drop=0.0, aux_num_out=None)

torch.manual_seed(0)
w = GoldenWriter("audio_models_wav2vec2")
wave = torch.randn(2, 400) * 0.5
lengths = torch.tensor([400, 297])
w.add("wave", wave)
w.add("lengths", lengths)

m = M.wav2vec2_model(**SMALL_A).eval()
models_fill(m)
add_keys(w, "small_a", m)
with torch.no_grad():
    y, ylen = m(wave, lengths)
    w.add("small_a.out", y)
    w.add("small_a.out_lengths", ylen)
    y, _ = m(wave)
    w.add("small_a.out_nolen", y)
    feats, _ = m.extract_features(wave, lengths, num_layers=1)
    assert len(feats) == 1
    w.add("small_a.feat1", feats[0])

m = M.wav2vec2_model(**SMALL_B).eval()
models_fill(m)
add_keys(w, "small_b", m)
with torch.no_grad():
    y, ylen = m(wave)
    assert ylen is None
    w.add("small_b.out", y)
    feats, _ = m.extract_features(wave, lengths)
    assert len(feats) == 3
    for i, f in enumerate(feats):
        w.add("small_b.feat%d" % i, f)

add_keys(w, "wav2vec2_base", M.wav2vec2_base(aux_num_out=32))

# A state_dict saved by torchaudio (default init, so weight_g != ||weight_v|| after a step of changes below).
torch.manual_seed(1)
m = M.wav2vec2_model(**SMALL_A).eval()
with torch.no_grad():
    m.encoder.transformer.pos_conv_embed.conv.weight_g.mul_(1.5)
torch.save(m.state_dict(), os.path.join(GOLDEN_DIR, "audio", "models", "wav2vec2_small.pth"))
with torch.no_grad():
    y, _ = m(wave, lengths)
    w.add("pth.out", y)

w.save()
