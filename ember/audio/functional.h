#pragma once
// torchaudio.functional as ember::audio::functional (DOMAIN_API.md's spelling
// rule; torchaudio 0.13's numerics).
#include "ember/audio/functional/beamforming.h"
#include "ember/audio/functional/cmn_pitch.h"
#include "ember/audio/functional/codec.h"
#include "ember/audio/functional/convolution.h"
#include "ember/audio/functional/edit_distance.h"
#include "ember/audio/functional/filtering.h"
#include "ember/audio/functional/kaldi_pitch.h"
#include "ember/audio/functional/loudness.h"
#include "ember/audio/functional/masking.h"
#include "ember/audio/functional/mu_law.h"
#include "ember/audio/functional/resample.h"
#include "ember/audio/functional/rnnt.h"
#include "ember/audio/functional/spectral.h"
#include "ember/audio/functional/vad.h"
