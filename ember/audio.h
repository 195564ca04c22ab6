#pragma once
// ember::audio — torchaudio in C++ (libember_audio, target Ember::audio;
// DOMAIN_API.md gives the spelling rule: torchaudio.X.f is ember::audio::X::f).
#include "ember/audio/functional.h"
#include "ember/audio/io.h"
#include "ember/audio/models.h"
#include "ember/audio/models/decoder.h"
#include "ember/audio/transforms.h"
