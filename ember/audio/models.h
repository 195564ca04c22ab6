#pragma once
// ember::audio::models: torchaudio.models with torchaudio's module trees, so
// torchaudio's state_dicts load through ember::serialize::load_pytorch_state_dict.
// (The CTC decoder, ember::audio::models::decoder, has its own header.)
#include "ember/audio/models/conformer.h"
#include "ember/audio/models/conv_tasnet.h"
#include "ember/audio/models/deepspeech.h"
#include "ember/audio/models/emformer.h"
#include "ember/audio/models/hdemucs.h"
#include "ember/audio/models/rnnt.h"
#include "ember/audio/models/rnnt_decoder.h"
#include "ember/audio/models/tacotron2.h"
#include "ember/audio/models/wav2letter.h"
#include "ember/audio/models/wav2vec2/hubert_pretrain.h"
#include "ember/audio/models/wav2vec2/model.h"
#include "ember/audio/models/wavernn.h"
