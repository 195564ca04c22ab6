#include "ember/audio/io/input_source.h"

#include <iterator>

#include "ember/core/error.h"

namespace torch::audio::io::detail {
namespace {

// Rejects what libsndfile accepts but no waveform can be made of, and a
// `format` the content contradicts.
void check_opened(const std::string& fn, const SndFile& f, const std::optional<std::string>& format) {
  const SF_INFO& i = f.info();
  EMBER_CHECK(i.channels > 0, fn, ": ", f.name(), " declares ", i.channels, " channels");
  EMBER_CHECK(i.samplerate > 0, fn, ": ", f.name(), " declares a sample rate of ", i.samplerate);
  EMBER_CHECK(i.frames >= 0, fn, ": ", f.name(), " declares ", i.frames, " frames");
  if (!format) return;
  auto major = major_format_for(*format);
  EMBER_CHECK(major.has_value(), fn, ": unsupported format \"", *format,
              "\" (expected one of wav, flac, ogg, vorbis, opus, mp3, sph, aiff)");
  EMBER_CHECK((i.format & SF_FORMAT_TYPEMASK) == *major, fn, ": ", f.name(), " is not in the \"", *format,
              "\" format (it holds ", encoding_name(i.format), " audio)");
}

}  // namespace

OpenedInput open_input(const std::string& fn, const std::string& path, const std::optional<std::string>& format) {
  OpenedInput in{Tensor(), {}, SndFile::open_read(fn, path)};
  check_opened(fn, in.file, format);
  return in;
}

OpenedInput open_input(const std::string& fn, const Tensor& src, const std::optional<std::string>& format) {
  EMBER_CHECK(src.defined(), fn, ": the byte buffer is an undefined tensor");
  EMBER_CHECK(src.dim() == 1 && src.scalar_type() == kUInt8, fn,
              ": the byte buffer must be a 1-D uint8 tensor, got dtype ", src.scalar_type(), " and shape ",
              src.sizes());
  Tensor bytes = src.contiguous();
  auto data = static_cast<const unsigned char*>(bytes.data_ptr());
  SndFile f = SndFile::open_read(fn, data, bytes.numel(), "byte buffer of " + std::to_string(bytes.numel()) + " bytes");
  OpenedInput in{bytes, {}, std::move(f)};
  check_opened(fn, in.file, format);
  return in;
}

OpenedInput open_input(const std::string& fn, std::istream& fileobj, const std::optional<std::string>& format) {
  std::vector<unsigned char> s((std::istreambuf_iterator<char>(fileobj)), std::istreambuf_iterator<char>());
  EMBER_CHECK(!fileobj.bad(), fn, ": reading the file-like object failed");
  OpenedInput in{Tensor(), std::move(s), SndFile()};
  in.file = SndFile::open_read(fn, in.stream_bytes.data(), static_cast<int64_t>(in.stream_bytes.size()),
                               "file-like object of " + std::to_string(in.stream_bytes.size()) + " bytes");
  check_opened(fn, in.file, format);
  return in;
}

}  // namespace torch::audio::io::detail
