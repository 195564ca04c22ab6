#include "ember/audio/io/info.h"

#include "ember/audio/io/ffmpeg_fallback.h"
#include "ember/audio/io/input_source.h"

namespace torch::audio {
namespace {

AudioMetaData metadata_of(const io::detail::SndFile& f) {
  const SF_INFO& i = f.info();
  return AudioMetaData{i.samplerate, i.frames, i.channels, io::detail::bits_per_sample(i.format),
                       io::detail::encoding_name(i.format)};
}

}  // namespace

AudioMetaData info(const std::string& filepath, const std::optional<std::string>& format) {
  if (io::detail::needs_ffmpeg(filepath, format))  // Note [FFmpeg fallback]
    return io::detail::ffmpeg_info([&] { return io::StreamReader(filepath, format); }, "\"" + filepath + "\"");
  return metadata_of(io::detail::open_input("info", filepath, format).file);
}

AudioMetaData info(const Tensor& src, const std::optional<std::string>& format) {
  if (io::detail::needs_ffmpeg("", format))
    return io::detail::ffmpeg_info([&] { return io::StreamReader(src, format); }, "the byte buffer");
  return metadata_of(io::detail::open_input("info", src, format).file);
}

AudioMetaData info(std::istream& fileobj, const std::optional<std::string>& format) {
  if (io::detail::needs_ffmpeg("", format))
    return io::detail::ffmpeg_info([&] { return io::StreamReader(fileobj, format); }, "the file-like object");
  return metadata_of(io::detail::open_input("info", fileobj, format).file);
}

}  // namespace torch::audio
