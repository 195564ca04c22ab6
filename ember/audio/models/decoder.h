#pragma once
// torchaudio.models.decoder as ember::audio::models::decoder: the CTC beam
// search decoder (ctc_decoder, CTCDecoder, CTCHypothesis, CTCDecoderLM,
// CTCDecoderLMState) and greedy CTC decoding.
#include "ember/audio/models/decoder/ctc_decoder.h"
#include "ember/audio/models/decoder/greedy.h"
#include "ember/audio/models/decoder/lm.h"
