#include "ember/audio/io/save.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "ember/audio/io/sndfile_handle.h"
#include "ember/core/error.h"

namespace torch::audio {
namespace {

using io::detail::SndFile;

// The encoding and bit depth a WAV file gets: torchaudio's sox_io defaults
// and its checks, with its messages.
int wav_subtype(ScalarType dtype, const std::optional<std::string>& encoding, std::optional<int64_t> bits) {
  std::string enc;
  int64_t b = 0;
  if (!encoding && !bits) {
    enc = dtype == kByte ? "PCM_U" : dtype == kFloat ? "PCM_F" : "PCM_S";
    b = dtype == kByte ? 8 : dtype == kShort ? 16 : 32;
  } else if (!encoding) {
    b = *bits;
    enc = b == 8 ? "PCM_U" : "PCM_S";
  } else {
    enc = *encoding;
    if (bits) {
      b = *bits;
    } else {
      // torchaudio's documentation says 16 for PCM_S; libsox's actual choice is 32.
      b = (enc == "PCM_U" || enc == "ULAW" || enc == "ALAW") ? 8 : 32;
    }
  }
  if (enc == "PCM_S") {
    EMBER_CHECK(b == 16 || b == 24 || b == 32, "save: wav only supports 16-bit, 24-bit or 32-bit for signed PCM ",
                "encoding, got bits_per_sample=", b);
    return b == 16 ? SF_FORMAT_PCM_16 : b == 24 ? SF_FORMAT_PCM_24 : SF_FORMAT_PCM_32;
  }
  if (enc == "PCM_U") {
    EMBER_CHECK(b == 8, "save: wav only supports 8-bit for unsigned PCM encoding, got bits_per_sample=", b);
    return SF_FORMAT_PCM_U8;
  }
  if (enc == "PCM_F") {
    EMBER_CHECK(b == 32 || b == 64, "save: wav only supports 32-bit or 64-bit for floating-point PCM encoding, ",
                "got bits_per_sample=", b);
    return b == 32 ? SF_FORMAT_FLOAT : SF_FORMAT_DOUBLE;
  }
  if (enc == "ULAW" || enc == "ALAW") {
    EMBER_CHECK(b == 8, "save: wav only supports 8-bit for ", enc == "ULAW" ? "mu-law" : "a-law",
                " encoding, got bits_per_sample=", b);
    return enc == "ULAW" ? SF_FORMAT_ULAW : SF_FORMAT_ALAW;
  }
  EMBER_ERROR("save: unsupported encoding \"", enc, "\" for wav (expected PCM_S, PCM_U, PCM_F, ULAW or ALAW)");
}

int flac_subtype(std::optional<int64_t> bits) {
  int64_t b = bits.value_or(24);
  EMBER_CHECK(b <= 24, "save: flac does not support `bits_per_sample` larger than 24, got ", b);
  EMBER_CHECK(b == 8 || b == 16 || b == 24, "save: flac supports 8, 16 or 24 bits per sample, got ", b);
  return b == 8 ? SF_FORMAT_PCM_S8 : b == 16 ? SF_FORMAT_PCM_16 : SF_FORMAT_PCM_24;
}

int sph_subtype(const std::optional<std::string>& encoding, std::optional<int64_t> bits) {
  std::string enc = encoding.value_or("PCM_S");
  if (enc == "ULAW" || enc == "ALAW") return enc == "ULAW" ? SF_FORMAT_ULAW : SF_FORMAT_ALAW;
  EMBER_CHECK(enc == "PCM_S", "save: sph supports PCM_S, ULAW and ALAW encodings, got \"", enc, "\"");
  int64_t b = bits.value_or(16);
  EMBER_CHECK(b == 8 || b == 16 || b == 24 || b == 32, "save: sph supports 8, 16, 24 or 32 bits, got ", b);
  return b == 8 ? SF_FORMAT_PCM_S8 : b == 16 ? SF_FORMAT_PCM_16 : b == 24 ? SF_FORMAT_PCM_24 : SF_FORMAT_PCM_32;
}

// Note [Sample conversion on save]
// torchaudio hands libsox 32-bit samples: float x becomes x * 2^31, rounded half
// away from zero and clipped; int16 is shifted up 16 bits, uint8 recentred and
// shifted up 24. libsox then rounds to the file's depth. Doing the
// same here, and giving libsndfile integers at the file's depth, writes the
// bytes torchaudio writes (libsndfile's own float scaling differs by one LSB).
// µ-law and A-law are the exception: libsndfile companding picks the nearest
// codeword, libsox a neighbour for about 1 sample in 100 near a decision level.
std::vector<int32_t> to_sox_samples(const Tensor& interleaved) {
  const int64_t n = interleaved.numel();
  std::vector<int32_t> s(static_cast<size_t>(n));
  switch (interleaved.scalar_type()) {
    case kFloat: {
      const float* p = interleaved.data_ptr<float>();
      for (int64_t k = 0; k < n; ++k) {
        double x = p[k];
        if (std::isnan(x)) x = 0;
        s[k] = static_cast<int32_t>(std::clamp(std::round(x * 2147483648.0), -2147483648.0, 2147483647.0));
      }
      break;
    }
    case kInt: {
      const int32_t* p = interleaved.data_ptr<int32_t>();
      std::copy(p, p + n, s.begin());
      break;
    }
    case kShort: {
      const int16_t* p = interleaved.data_ptr<int16_t>();
      for (int64_t k = 0; k < n; ++k) s[k] = static_cast<int32_t>(p[k]) * 65536;
      break;
    }
    case kByte: {
      const uint8_t* p = interleaved.data_ptr<uint8_t>();
      for (int64_t k = 0; k < n; ++k) s[k] = (static_cast<int32_t>(p[k]) - 128) * 16777216;
      break;
    }
    default:
      EMBER_INTERNAL_ASSERT(false, "save: unexpected dtype");
  }
  return s;
}

// libsox's SOX_SAMPLE_TO_SIGNED(bits): round to nearest by adding half an LSB, clipping at the top.
int32_t round_to_bits(int32_t s, int bits) {
  const int shift = 32 - bits;
  const int64_t half = int64_t{1} << (shift - 1);
  const int64_t max = (int64_t{1} << (bits - 1)) - 1;
  int64_t v = (static_cast<int64_t>(s) + half) >> shift;
  return static_cast<int32_t>(std::min(v, max));
}

void write_samples(SndFile& out, const std::vector<int32_t>& s, int sf_format, int64_t frames) {
  const int sub = sf_format & SF_FORMAT_SUBMASK;
  const int major = sf_format & SF_FORMAT_TYPEMASK;
  sf_count_t written = 0;
  const bool lossy = major == SF_FORMAT_OGG || major == SF_FORMAT_MPEG;
  if (sub == SF_FORMAT_PCM_16 || sub == SF_FORMAT_PCM_S8 || sub == SF_FORMAT_PCM_U8 || sub == SF_FORMAT_ULAW ||
      sub == SF_FORMAT_ALAW) {
    // libsndfile narrows shorts to 8 bits by dropping the low byte and
    // companding from 16 bits, so 8-bit formats get their value in the top byte.
    const int bits = (sub == SF_FORMAT_PCM_16 || sub == SF_FORMAT_ULAW || sub == SF_FORMAT_ALAW) ? 16 : 8;
    std::vector<int16_t> v(s.size());
    for (size_t k = 0; k < s.size(); ++k) v[k] = static_cast<int16_t>(round_to_bits(s[k], bits) << (16 - bits));
    written = sf_writef_short(out.get(), v.data(), frames);
  } else if (!lossy && (sub == SF_FORMAT_PCM_24 || sub == SF_FORMAT_PCM_32)) {
    std::vector<int32_t> v(s.size());
    const int bits = sub == SF_FORMAT_PCM_24 ? 24 : 32;
    for (size_t k = 0; k < s.size(); ++k) v[k] = bits == 32 ? s[k] : round_to_bits(s[k], 24) * 256;
    written = sf_writef_int(out.get(), v.data(), frames);
  } else {
    std::vector<double> v(s.size());
    for (size_t k = 0; k < s.size(); ++k) v[k] = s[k] / 2147483648.0;
    written = sf_writef_double(out.get(), v.data(), frames);
  }
  EMBER_CHECK(written == frames, "save: writing ", out.name(), " failed after ", written, " of ", frames, " frames (",
              sf_strerror(out.get()), ")");
}

void set_compression(SndFile& out, int major, int sub, double c, bool given) {
  double level = -1;
  if (major == SF_FORMAT_FLAC) {
    EMBER_CHECK(c >= 0 && c <= 8, "save: flac compression level must be in [0, 8], got ", c);
    level = c / 8.0;
  } else if (major == SF_FORMAT_OGG && sub == SF_FORMAT_VORBIS) {
    EMBER_CHECK(c >= -1 && c <= 10, "save: vorbis quality must be in [-1, 10], got ", c);
    level = 1.0 - (c + 1.0) / 11.0;
  } else if (major == SF_FORMAT_MPEG) {
    int mode = c > 0 ? SF_BITRATE_MODE_CONSTANT : SF_BITRATE_MODE_VARIABLE;
    sf_command(out.get(), SFC_SET_BITRATE_MODE, &mode, sizeof(mode));
    // Constant: 32..320 kbps onto libsndfile's 1..0; variable: LAME's quality 0 (best) .. 9.
    level = c > 0 ? 1.0 - (std::clamp(c, 32.0, 320.0) - 32.0) / 288.0 : std::min(-c, 9.0) / 9.0;
  } else {
    EMBER_CHECK(!given, "save: compression applies to flac, ogg/vorbis and mp3, not to this format");
    return;
  }
  sf_command(out.get(), SFC_SET_COMPRESSION_LEVEL, &level, sizeof(level));
}

}  // namespace

namespace {

// Everything but where the bytes go: checks, format choice, then `open` makes
// the SndFile for the chosen SF_INFO.
template <typename Open>
void save_to(const std::string& name, const std::string& fmt_in, const Tensor& src, int64_t sample_rate,
             bool channels_first, std::optional<double> compression, const std::optional<std::string>& encoding,
             std::optional<int64_t> bits_per_sample, Open&& open) {
  EMBER_CHECK(src.defined(), "save: the input is an undefined tensor");
  EMBER_CHECK(src.dim() == 2, "save: Input tensor has to be 2D, got shape ", src.sizes());
  ScalarType dt = src.scalar_type();
  EMBER_CHECK(dt == kFloat || dt == kInt || dt == kShort || dt == kByte,
              "save: Input tensor has to be one of float32, int32, int16 or uint8 type, got ", dt);
  EMBER_CHECK(sample_rate > 0 && sample_rate <= 2147483647, "save: sample_rate must be positive, got ", sample_rate);
  std::string fmt = fmt_in;
  std::transform(fmt.begin(), fmt.end(), fmt.begin(), [](unsigned char c) { return std::tolower(c); });
  auto major = io::detail::major_format_for(fmt);
  EMBER_CHECK(major.has_value() && *major != SF_FORMAT_AIFF, "save: unsupported format \"", fmt, "\" for ", name,
              " (expected wav, flac, ogg, vorbis, opus, mp3 or sph)");
  if (*major != SF_FORMAT_WAV && *major != SF_FORMAT_NIST)
    EMBER_CHECK(!encoding, "save: encoding applies to wav and sph only, not to ", fmt);

  int sub = 0;
  switch (*major) {
    case SF_FORMAT_WAV:
      sub = wav_subtype(dt, encoding, bits_per_sample);
      break;
    case SF_FORMAT_FLAC:
      sub = flac_subtype(bits_per_sample);
      break;
    case SF_FORMAT_NIST:
      sub = sph_subtype(encoding, bits_per_sample);
      break;
    case SF_FORMAT_OGG:
      sub = fmt == "opus" ? SF_FORMAT_OPUS : SF_FORMAT_VORBIS;
      break;
    default:
      sub = SF_FORMAT_MPEG_LAYER_III;
  }

  Tensor interleaved = (channels_first ? src.transpose(0, 1) : src).contiguous();
  const int64_t frames = interleaved.size(0), channels = interleaved.size(1);
  EMBER_CHECK(channels > 0 && channels <= 1024, "save: the number of channels must be in [1, 1024], got ", channels);

  SF_INFO si{};
  si.samplerate = static_cast<int>(sample_rate);
  si.channels = static_cast<int>(channels);
  si.format = *major | sub;
  SndFile out = open(si);
  const bool is_compressed = *major == SF_FORMAT_FLAC || *major == SF_FORMAT_OGG || *major == SF_FORMAT_MPEG;
  if (is_compressed || compression) {
    double c = compression.value_or(*major == SF_FORMAT_FLAC ? 8.0 : *major == SF_FORMAT_MPEG ? -4.5 : 3.0);
    if (sub != SF_FORMAT_OPUS || compression) set_compression(out, *major, sub, c, compression.has_value());
  }
  write_samples(out, to_sox_samples(interleaved), si.format, frames);
  out.close("save");
}

}  // namespace

void save(const std::string& filepath, const Tensor& src, int64_t sample_rate, bool channels_first,
          std::optional<double> compression, const std::optional<std::string>& format,
          const std::optional<std::string>& encoding, std::optional<int64_t> bits_per_sample) {
  save_to("\"" + filepath + "\"", format.value_or(io::detail::extension_of(filepath)), src, sample_rate, channels_first,
          compression, encoding, bits_per_sample,
          [&](const SF_INFO& si) { return SndFile::open_write("save", filepath, si); });
}

void save(std::ostream& fileobj, const Tensor& src, int64_t sample_rate, bool channels_first,
          std::optional<double> compression, const std::optional<std::string>& format,
          const std::optional<std::string>& encoding, std::optional<int64_t> bits_per_sample) {
  EMBER_CHECK(format.has_value(), "save: format is required when saving to a file-like object");
  io::detail::MemorySink sink;
  save_to("the output stream", *format, src, sample_rate, channels_first, compression, encoding, bits_per_sample,
          [&](const SF_INFO& si) { return SndFile::open_write("save", &sink, si); });
  fileobj.write(reinterpret_cast<const char*>(sink.data.data()), static_cast<std::streamsize>(sink.data.size()));
  EMBER_CHECK(fileobj.good(), "save: writing to the file-like object failed");
}

}  // namespace torch::audio
