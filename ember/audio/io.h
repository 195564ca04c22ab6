#pragma once
// ember::audio IO: torchaudio.load / save / info (libsndfile) and
// torchaudio.io.StreamReader / StreamWriter (FFmpeg).
#include "ember/audio/io/audio_metadata.h"
#include "ember/audio/io/info.h"
#include "ember/audio/io/load.h"
#include "ember/audio/io/save.h"
#include "ember/audio/io/stream_reader.h"
#include "ember/audio/io/stream_writer.h"

namespace torch::audio::backend::sox_io_backend {
// torchaudio 0.13's default backend; the top-level functions are its.
using ::torch::audio::info;
using ::torch::audio::load;
using ::torch::audio::save;
}  // namespace torch::audio::backend::sox_io_backend
