#pragma once
// torchaudio.transforms as ember::audio::transforms: LibTorch-style module
// holders whose buffers carry torchaudio's state_dict names.
#include "ember/audio/transforms/beamforming.h"
#include "ember/audio/transforms/convolution.h"
#include "ember/audio/transforms/features.h"
#include "ember/audio/transforms/mel.h"
#include "ember/audio/transforms/mvdr.h"
#include "ember/audio/transforms/resample.h"
#include "ember/audio/transforms/rnnt.h"
#include "ember/audio/transforms/spectrogram.h"
