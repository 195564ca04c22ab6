"""Golden values for ember::audio::models::HuBERTPretrainModel from torchaudio 0.13.

Run with Debian's interpreter: /usr/bin/python3 tools/golden/gen_audio_models_hubert.py
A small hubert_pretrain_model(...) filled by models_fill() (the formula of
gen_audio_models.py, computed again in tests/audio/models_common.cpp) runs forward in
eval mode; the random span mask forward drew is recomputed under the same seed and
stored, so the C++ test can run the rest of the pipeline on that very mask (Ember's
generator draws other masks). Also compute_logits on a case with repeated labels.
"""
import os
import sys

import torch
import torchaudio.models as M
from torchaudio.models.wav2vec2 import components

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from golden import GoldenWriter  # noqa: E402
from audio_models_fill import add_keys, models_fill  # noqa: E402


torch.manual_seed(0)
w = GoldenWriter("audio_models_hubert")
m = M.hubert_pretrain_model(
    extractor_mode="group_norm", extractor_conv_layer_config=[(8, 10, 5), (8, 3, 2)], extractor_conv_bias=False,
    encoder_embed_dim=12, encoder_projection_dropout=0.1, encoder_pos_conv_kernel=4, encoder_pos_conv_groups=2,
    encoder_num_layers=2, encoder_num_heads=3, encoder_attention_dropout=0.1, encoder_ff_interm_features=16,
    encoder_ff_interm_dropout=0.0, encoder_dropout=0.1, encoder_layer_norm_first=False, encoder_layer_drop=0.05,
    mask_prob=0.5, mask_selection="static", mask_other=0.0, mask_length=3, no_mask_overlap=False, mask_min_space=1,
    mask_channel_prob=0.0, mask_channel_selection="static", mask_channel_other=0.0, mask_channel_length=4,
    no_mask_channel_overlap=False, mask_channel_min_space=1, skip_masked=False, skip_nomask=False, num_classes=6,
    final_dim=5, feature_grad_mult=0.1).eval()
models_fill(m)
add_keys(w, "small", m)
wave = torch.randn(2, 400) * 0.5
lengths = torch.tensor([400, 330])
with torch.no_grad():
    x, xl = m.wav2vec2.feature_extractor(wave, lengths)
labels = torch.randint(0, 6, (2, x.shape[1]))
w.add("wave", wave)
w.add("lengths", lengths)
w.add("labels", labels)
with torch.no_grad():
    torch.manual_seed(5)
    logit_m, logit_u, pen = m(wave, labels, lengths)
    torch.manual_seed(5)
    x, xl = m.wav2vec2.feature_extractor(wave, lengths)
    padding_mask = components._get_padding_mask(x, xl)
    h, _ = m.wav2vec2.encoder._preprocess(x, xl)
    _, mask = m.mask_generator(h, padding_mask)
w.add("mask", mask)
w.add("padding_mask", padding_mask)
w.add("logit_m", logit_m)
w.add("logit_u", logit_u)
w.add("pen", pen)

proj = torch.randn(4, 3)
emb = torch.tensor([[1.0, 0.0, 2.0], [0.5, -1.0, 0.0], [1.0, 0.0, 2.0]])  # classes 0 and 2 coincide
target = torch.tensor([0, 1, 2, 1])
w.add("logits.proj", proj)
w.add("logits.emb", emb)
w.add("logits.target", target)
w.add("logits.out", components._compute_logits(proj, target, emb))
w.save()
