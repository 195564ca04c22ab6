#pragma once
// Note [FFmpeg fallback]
// torchaudio's load/info hand a file libsox cannot read to FFmpeg (its
// StreamReader). Here libsndfile reads every format it knows; a file whose
// extension (or `format`; for bytes and streams only `format`) names a
// container libsndfile does not know (m4a, aac, wma, webm, ...) is decoded by
// StreamReader to float32 instead, as torchaudio does, with frame_offset/num_frames cutting the decoded samples.
// Files libsndfile knows never fall back, so a damaged WAV still raises
// rather than being guessed at by FFmpeg's probing.
#include <functional>
#include <optional>
#include <string>
#include <tuple>

#include "ember/audio/io/audio_metadata.h"
#include "ember/audio/io/stream_reader.h"
#include "ember/core/tensor.h"

namespace torch::audio::io::detail {

// True when `format`, or else the extension of `path`, names a container
// libsndfile does not read.
bool needs_ffmpeg(const std::string& path, const std::optional<std::string>& format);

// `open` makes the StreamReader on the source (a path, bytes or a stream);
// `name` is what errors call the source.
std::tuple<Tensor, int64_t> ffmpeg_load(const std::function<StreamReader()>& open, const std::string& name,
                                        int64_t frame_offset, int64_t num_frames, bool channels_first);
AudioMetaData ffmpeg_info(const std::function<StreamReader()>& open, const std::string& name);

}  // namespace torch::audio::io::detail
