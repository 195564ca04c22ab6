#include "ember/audio/io/load.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "ember/audio/io/ffmpeg_fallback.h"
#include "ember/audio/io/input_source.h"
#include "ember/core/error.h"
#include "ember/ops/factory/factory.h"

namespace torch::audio {
namespace {

using io::detail::SndFile;

// Note [Untrusted frame counts]
// A header's frame count is a claim. Uncompressed encodings must fit in the
// bytes that exist, so their claim is checked exactly; compressed ones
// (FLAC, Vorbis, Opus, MP3) can expand a lot, so at most kMaxExpansion
// samples per byte of input are allocated up front and the buffer grows
// only as frames are actually decoded.
constexpr int64_t kMaxExpansion = 64;
constexpr int64_t kReadBlock = 1 << 16;

// The sample type load returns: integer WAV kept as is when !normalize
// (torchaudio's rule), float32 otherwise.
ScalarType output_dtype(int sf_format, bool normalize) {
  if (normalize) return kFloat;
  int major = sf_format & SF_FORMAT_TYPEMASK;
  if (major != SF_FORMAT_WAV && major != SF_FORMAT_WAVEX && major != SF_FORMAT_RF64) return kFloat;
  switch (sf_format & SF_FORMAT_SUBMASK) {
    case SF_FORMAT_PCM_U8:
      return kByte;
    case SF_FORMAT_PCM_16:
      return kShort;
    case SF_FORMAT_PCM_24:
    case SF_FORMAT_PCM_32:
      return kInt;
    default:
      return kFloat;
  }
}

// Note [libsox's float samples]
// torchaudio's WAV reader (libsox) turns 32-bit, float and double samples into
// 32-bit integers (x * 2^31, rounded half away from zero, clipped) and those
// into float by rounding to 25 significant bits (SOX_SAMPLE_TO_FLOAT_32BIT).
// Tiny float samples therefore come back coarser than they are stored; the
// same steps here give torchaudio's values bit for bit.
bool via_sox_samples(int sf_format) {
  int major = sf_format & SF_FORMAT_TYPEMASK;
  int sub = sf_format & SF_FORMAT_SUBMASK;
  bool wav = major == SF_FORMAT_WAV || major == SF_FORMAT_WAVEX || major == SF_FORMAT_RF64;
  return wav && (sub == SF_FORMAT_PCM_32 || sub == SF_FORMAT_FLOAT || sub == SF_FORMAT_DOUBLE);
}

float sox_float(double x) {
  if (std::isnan(x)) return 0.0f;  // a stored NaN has no integer sample; libsox's cast would be undefined
  double v = std::round(x * 2147483648.0);
  int64_t s = static_cast<int64_t>(std::clamp(v, -2147483648.0, 2147483647.0));
  if (s > 2147483647 - 64) return 1.0f;
  return static_cast<float>(static_cast<double>((s + 64) & ~int64_t{127}) * (1.0 / 2147483648.0));
}

struct Scratch {
  std::vector<int16_t> shorts;
  std::vector<double> doubles;
};

// Reads up to `frames` frames at `dst` (interleaved) in the output dtype.
sf_count_t read_frames(SNDFILE* f, ScalarType dtype, bool sox_samples, void* dst, sf_count_t frames, int channels,
                       Scratch& scratch) {
  switch (dtype) {
    case kFloat: {
      if (!sox_samples) return sf_readf_float(f, static_cast<float*>(dst), frames);
      scratch.doubles.resize(static_cast<size_t>(frames * channels));
      sf_count_t n = sf_readf_double(f, scratch.doubles.data(), frames);
      auto* out = static_cast<float*>(dst);
      for (sf_count_t k = 0; k < n * channels; ++k) out[k] = sox_float(scratch.doubles[k]);
      return n;
    }
    case kInt:
      return sf_readf_int(f, static_cast<int*>(dst), frames);
    case kShort:
      return sf_readf_short(f, static_cast<short*>(dst), frames);
    case kByte: {
      // libsndfile has no unsigned-byte read; its shorts are (u8 - 128) << 8.
      scratch.shorts.resize(static_cast<size_t>(frames * channels));
      sf_count_t n = sf_readf_short(f, scratch.shorts.data(), frames);
      auto* out = static_cast<uint8_t*>(dst);
      for (sf_count_t k = 0; k < n * channels; ++k) out[k] = static_cast<uint8_t>((scratch.shorts[k] >> 8) + 128);
      return n;
    }
    default:
      EMBER_INTERNAL_ASSERT(false, "load: unexpected dtype ", dtype);
  }
  return 0;
}

// Note [Lying WAV headers]
// libsndfile accepts a data chunk that claims more bytes than the file holds
// (it trims it) and PCM bit widths libsox rejects (12 bits in 3-byte blocks),
// reporting both only in its log ("data : 2147483392 (should be 800)",
// "Bit Width : 12"). torchaudio's reader refuses odd widths, and a size
// that lies is a damaged file, so both raise here. A data size of 0 or
// 0xFFFFFFFF is what streaming writers leave and is accepted.
int64_t log_number_after(const std::string& log, const std::string& key, size_t from = 0) {
  size_t at = log.find(key, from);
  if (at == std::string::npos) return -1;
  return std::strtoll(log.c_str() + at + key.size(), nullptr, 10);
}

void check_wav_header(const SndFile& f) {
  const std::string log = f.log();
  size_t data = log.find("\ndata : ");
  if (data != std::string::npos) {
    size_t line_end = log.find('\n', data + 1);
    std::string line = log.substr(data + 1, line_end == std::string::npos ? std::string::npos : line_end - data - 1);
    int64_t claimed = log_number_after(line, "data : ");
    int64_t actual = log_number_after(line, "(should be ");
    EMBER_CHECK(actual < 0 || claimed <= actual || claimed == 0xFFFFFFFFLL, "load: ", f.name(),
                " is truncated or its header lies: the data chunk claims ", claimed, " bytes but only ", actual,
                " follow it (the data chunk is larger than the file)");
  }
  if (log.find("WAVE_FORMAT_PCM") != std::string::npos) {
    int64_t bits = log_number_after(log, "Bit Width     : ");
    EMBER_CHECK(bits < 0 || bits == 8 || bits == 16 || bits == 24 || bits == 32, "load: ", f.name(),
                " has an unsupported bits per sample of ", bits,
                " (PCM WAV must have 8, 16, 24 or 32 bits per sample)");
  }
}

std::tuple<Tensor, int64_t> decode(io::detail::OpenedInput in, int64_t frame_offset, int64_t num_frames, bool normalize,
                                   bool channels_first) {
  SndFile& f = in.file;
  const SF_INFO& si = f.info();
  const int64_t channels = si.channels;
  const int major = si.format & SF_FORMAT_TYPEMASK;
  const ScalarType dtype = output_dtype(si.format, normalize);

  const int64_t bytes_per_sample = io::detail::fixed_bytes_per_sample(si.format);
  if (major == SF_FORMAT_WAV || major == SF_FORMAT_WAVEX) check_wav_header(f);
  if (bytes_per_sample > 0) {
    EMBER_CHECK(si.frames <= f.source_size() / (bytes_per_sample * channels), "load: ", f.name(), " claims ", si.frames,
                " frames of ", channels, " x ", bytes_per_sample, " bytes but holds only ", f.source_size(), " bytes");
  }
  // MP3's frame count is an estimate (from a Xing/LAME tag or the bit rate),
  // so it neither bounds the read nor signals truncation.
  const bool exact_count = major != SF_FORMAT_MPEG;

  int64_t available = std::max<int64_t>(si.frames - frame_offset, 0);
  int64_t wanted = num_frames == -1 ? available : std::min(num_frames, available);
  if (!exact_count) wanted = num_frames == -1 ? std::numeric_limits<int64_t>::max() : num_frames;

  if (frame_offset > 0 && (available > 0 || !exact_count)) {
    sf_count_t pos = sf_seek(f.get(), frame_offset, SEEK_SET);
    if (pos < 0) wanted = 0;  // past the end (an MP3 shorter than frame_offset)
  } else if (frame_offset > 0) {
    wanted = 0;
  }

  const int64_t per_frame_cap =
      std::max<int64_t>(kReadBlock, f.source_size() / channels * (bytes_per_sample > 0 ? 1 : kMaxExpansion));
  int64_t capacity = std::min(wanted, per_frame_cap);
  Tensor out = empty({capacity, channels}, TensorOptions().dtype(dtype));
  const int64_t item = static_cast<int64_t>(element_size(dtype)) * channels;
  const bool sox_samples = via_sox_samples(si.format);
  Scratch scratch;
  int64_t got = 0;
  while (got < wanted) {
    if (got == capacity) {
      int64_t grown = std::min(wanted, std::max<int64_t>(capacity * 2, kReadBlock));
      Tensor bigger = empty({grown, channels}, TensorOptions().dtype(dtype));
      if (got > 0) std::memcpy(bigger.data_ptr(), out.data_ptr(), static_cast<size_t>(got * item));
      out = bigger;
      capacity = grown;
    }
    int64_t ask = std::min(capacity - got, kReadBlock * 16);
    auto* dst = static_cast<char*>(out.data_ptr()) + got * item;
    sf_count_t n = read_frames(f.get(), dtype, sox_samples, dst, ask, static_cast<int>(channels), scratch);
    EMBER_CHECK(sf_error(f.get()) == SF_ERR_NO_ERROR, "load: decoding ", f.name(), " failed after ", got + n,
                " frames (", sf_strerror(f.get()), ")");
    if (n <= 0) break;
    got += n;
  }
  EMBER_CHECK(!exact_count || got == wanted, "load: ", f.name(), " is truncated or corrupt: decoded ", got, " of the ",
              wanted, " frames its header declares from frame ", frame_offset);
  if (got < capacity) out = out.narrow(0, 0, got).clone();
  if (channels_first) out = out.transpose(0, 1).contiguous();
  return {out, static_cast<int64_t>(si.samplerate)};
}

void check_args(int64_t frame_offset, int64_t num_frames) {
  EMBER_CHECK(num_frames == -1 || num_frames > 0,
              "load: Invalid argument: num_frames must be -1 or greater than 0. Found: ", num_frames);
  EMBER_CHECK(frame_offset >= 0, "load: Invalid argument: frame_offset must be non-negative. Found: ", frame_offset);
}

}  // namespace

std::tuple<Tensor, int64_t> load(const std::string& filepath, int64_t frame_offset, int64_t num_frames, bool normalize,
                                 bool channels_first, const std::optional<std::string>& format) {
  check_args(frame_offset, num_frames);
  if (io::detail::needs_ffmpeg(filepath, format))  // Note [FFmpeg fallback]
    return io::detail::ffmpeg_load([&] { return io::StreamReader(filepath, format); }, "\"" + filepath + "\"",
                                   frame_offset, num_frames, channels_first);
  return decode(io::detail::open_input("load", filepath, format), frame_offset, num_frames, normalize, channels_first);
}

std::tuple<Tensor, int64_t> load(const Tensor& src, int64_t frame_offset, int64_t num_frames, bool normalize,
                                 bool channels_first, const std::optional<std::string>& format) {
  check_args(frame_offset, num_frames);
  if (io::detail::needs_ffmpeg("", format))
    return io::detail::ffmpeg_load([&] { return io::StreamReader(src, format); }, "the byte buffer", frame_offset,
                                   num_frames, channels_first);
  return decode(io::detail::open_input("load", src, format), frame_offset, num_frames, normalize, channels_first);
}

std::tuple<Tensor, int64_t> load(std::istream& fileobj, int64_t frame_offset, int64_t num_frames, bool normalize,
                                 bool channels_first, const std::optional<std::string>& format) {
  check_args(frame_offset, num_frames);
  if (io::detail::needs_ffmpeg("", format))
    return io::detail::ffmpeg_load([&] { return io::StreamReader(fileobj, format); }, "the file-like object",
                                   frame_offset, num_frames, channels_first);
  return decode(io::detail::open_input("load", fileobj, format), frame_offset, num_frames, normalize, channels_first);
}

}  // namespace torch::audio
