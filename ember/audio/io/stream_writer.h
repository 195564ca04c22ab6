#pragma once
// torchaudio.io.StreamWriter (0.13) on FFmpeg: encodes audio chunks into a
// media file through libavcodec/libavformat, converting the samples to the
// encoder's format with libswresample.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>

#include "ember/core/tensor.h"

namespace torch::audio::io {

class StreamWriter {
 public:
  // dst: the output path; format overrides the muxer the extension picks.
  explicit StreamWriter(const std::string& dst, const std::optional<std::string>& format = std::nullopt);
  // A file-like object (it must outlive the writer); format is required.
  explicit StreamWriter(std::ostream& dst, const std::optional<std::string>& format = std::nullopt,
                        int64_t buffer_size = 4096);
  ~StreamWriter();
  StreamWriter(StreamWriter&&) noexcept;
  StreamWriter& operator=(StreamWriter&&) noexcept;

  // format: the sample format of the chunks written ("u8", "s16", "s32",
  // "s64", "flt", "dbl"); encoder: libavcodec's name (default: the muxer's);
  // encoder_format: the sample format it encodes (default: `format` when it
  // supports it, otherwise its first).
  void add_audio_stream(int64_t sample_rate, int64_t num_channels, const std::string& format = "flt",
                        const std::optional<std::string>& encoder = std::nullopt,
                        const std::optional<std::map<std::string, std::string>>& encoder_option = std::nullopt,
                        const std::optional<std::string>& encoder_format = std::nullopt);
  void set_metadata(const std::map<std::string, std::string>& metadata);
  // Creates the file and writes its header; option goes to the muxer.
  void open(const std::optional<std::map<std::string, std::string>>& option = std::nullopt);
  // chunk: [frames, num_channels] in the stream's `format` dtype.
  void write_audio_chunk(int64_t i, const Tensor& chunk);
  // Encodes what is pending (a short last frame included) and writes it.
  void flush();
  // Flushes, writes the trailer and closes the file.
  void close();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace torch::audio::io
