#pragma once
// torchaudio:: names the same namespace as ember::audio (DOMAIN_API.md).
#include <ember/audio.h>

namespace torchaudio = ::torch::audio;
