#include "ember/audio/io/ffmpeg_fallback.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "ember/audio/io/sndfile_handle.h"
#include "ember/core/error.h"

namespace torch::audio::io::detail {
namespace {

// Containers libsndfile 1.2 reads, by the extensions and names they go by.
const std::set<std::string>& sndfile_names() {
  static const std::set<std::string> names = {"wav",  "wave", "flac", "ogg",  "oga",   "opus", "vorbis", "mp3", "mp2",
                                              "mpeg", "aif",  "aiff", "aifc", "au",    "snd",  "caf",    "w64", "rf64",
                                              "sph",  "nist", "voc",  "sf",   "ircam", "mat",  "paf",    "svx", "htk",
                                              "xi",   "sd2",  "avr",  "wve",  "mpc",   "pvf",  "raw",    "amb"};
  return names;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

// The decoded samples of the best audio stream, [frames, channels] float32.
Tensor decode_all(StreamReader& r) {
  r.add_audio_stream(-1, -1, std::nullopt, std::nullopt, std::nullopt, "aformat=sample_fmts=fltp");
  r.process_all_packets();
  auto chunks = r.pop_chunks();
  EMBER_CHECK(!chunks.empty() && chunks[0].has_value(), "Failed to decode audio.");
  return *chunks[0];
}

// Runs `f`, and names `fn` in front of a StreamReader error so that the
// message starts with the function the user called.
template <typename F>
auto as_call_of(const std::string& fn, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const Error& e) {
    std::string msg = e.what();
    if (msg.rfind(fn + ":", 0) == 0) throw;
    EMBER_ERROR(fn, ": ", msg);
  }
}

}  // namespace

bool needs_ffmpeg(const std::string& path, const std::optional<std::string>& format) {
  std::string name = format ? lower(*format) : extension_of(path);
  return !name.empty() && sndfile_names().count(name) == 0;
}

std::tuple<Tensor, int64_t> ffmpeg_load(const std::function<StreamReader()>& open, const std::string& name,
                                        int64_t frame_offset, int64_t num_frames, bool channels_first) {
  return as_call_of("load", [&]() -> std::tuple<Tensor, int64_t> {
    StreamReader r = open();
    auto best = r.default_audio_stream();
    EMBER_CHECK(best.has_value(), "load: ", name, " has no audio stream");
    auto rate = static_cast<int64_t>(r.get_src_stream_info(*best).sample_rate);
    Tensor wave = decode_all(r);
    int64_t start = std::min(frame_offset, wave.size(0));
    int64_t len = num_frames < 0 ? wave.size(0) - start : std::min(num_frames, wave.size(0) - start);
    wave = wave.narrow(0, start, len);
    wave = channels_first ? wave.transpose(0, 1).contiguous() : wave.contiguous();
    return {wave, rate};
  });
}

AudioMetaData ffmpeg_info(const std::function<StreamReader()>& open, const std::string& name) {
  return as_call_of("info", [&] {
    StreamReader r = open();
    auto best = r.default_audio_stream();
    EMBER_CHECK(best.has_value(), "info: ", name, " has no audio stream");
    auto s = r.get_src_stream_info(*best);
    // torchaudio reports the container's frame (packet) count when it has one,
    // and decodes to count samples only when it has not.
    int64_t frames = s.num_frames.value_or(0);
    if (frames == 0) frames = decode_all(r).size(0);
    std::string encoding = s.codec;
    std::transform(encoding.begin(), encoding.end(), encoding.begin(), [](unsigned char c) { return std::toupper(c); });
    return AudioMetaData{static_cast<int64_t>(s.sample_rate), frames, s.num_channels, s.bits_per_sample.value_or(0),
                         encoding};
  });
}

}  // namespace torch::audio::io::detail
