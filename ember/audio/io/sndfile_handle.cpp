#include "ember/audio/io/sndfile_handle.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <limits>
#include <system_error>
#include <vector>

#include "ember/core/error.h"

namespace torch::audio::io::detail {
namespace {

sf_count_t mem_length(void* user) { return static_cast<MemorySource*>(user)->size; }

sf_count_t mem_seek(sf_count_t offset, int whence, void* user) {
  auto* m = static_cast<MemorySource*>(user);
  sf_count_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? m->pos : m->size;
  // Saturating: a hostile header can ask for any offset; clamp into [0, size].
  if (offset > 0 && base > std::numeric_limits<sf_count_t>::max() - offset) return -1;
  sf_count_t target = base + offset;
  if (target < 0) return -1;
  m->pos = std::min(target, m->size);
  return m->pos;
}

sf_count_t mem_read(void* ptr, sf_count_t count, void* user) {
  auto* m = static_cast<MemorySource*>(user);
  if (count <= 0) return 0;
  sf_count_t n = std::min(count, m->size - m->pos);
  if (n <= 0) return 0;
  std::memcpy(ptr, m->data + m->pos, static_cast<size_t>(n));
  m->pos += n;
  return n;
}

sf_count_t mem_write(const void*, sf_count_t, void*) { return 0; }

sf_count_t mem_tell(void* user) { return static_cast<MemorySource*>(user)->pos; }

SF_VIRTUAL_IO memory_io() { return SF_VIRTUAL_IO{mem_length, mem_seek, mem_read, mem_write, mem_tell}; }

sf_count_t sink_length(void* user) { return static_cast<sf_count_t>(static_cast<MemorySink*>(user)->data.size()); }

sf_count_t sink_seek(sf_count_t offset, int whence, void* user) {
  auto* m = static_cast<MemorySink*>(user);
  sf_count_t size = static_cast<sf_count_t>(m->data.size());
  sf_count_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? m->pos : size;
  if (offset > 0 && base > std::numeric_limits<sf_count_t>::max() - offset) return -1;
  sf_count_t target = base + offset;
  if (target < 0) return -1;
  m->pos = target;
  return target;
}

sf_count_t sink_read(void* ptr, sf_count_t count, void* user) {
  auto* m = static_cast<MemorySink*>(user);
  sf_count_t size = static_cast<sf_count_t>(m->data.size());
  sf_count_t n = std::min(count, size - m->pos);
  if (n <= 0) return 0;
  std::memcpy(ptr, m->data.data() + m->pos, static_cast<size_t>(n));
  m->pos += n;
  return n;
}

sf_count_t sink_write(const void* ptr, sf_count_t count, void* user) {
  auto* m = static_cast<MemorySink*>(user);
  if (count <= 0) return 0;
  size_t end = static_cast<size_t>(m->pos + count);
  if (end > m->data.size()) m->data.resize(end);
  std::memcpy(m->data.data() + m->pos, ptr, static_cast<size_t>(count));
  m->pos += count;
  return count;
}

sf_count_t sink_tell(void* user) { return static_cast<MemorySink*>(user)->pos; }

}  // namespace

SndFile SndFile::open_read(const std::string& fn, const std::string& path) {
  std::error_code ec;
  EMBER_CHECK(!std::filesystem::is_directory(path, ec), fn, ": \"", path, "\" is a directory, not an audio file");
  SndFile f;
  f.name_ = "\"" + path + "\"";
  f.file_.reset(sf_open(path.c_str(), SFM_READ, &f.info_));
  EMBER_CHECK(f.file_ != nullptr, fn, ": failed to open the input \"", path, "\" (", sf_strerror(nullptr), ")");
  auto size = std::filesystem::file_size(path, ec);
  f.source_size_ = ec ? std::numeric_limits<int64_t>::max() : static_cast<int64_t>(size);
  return f;
}

SndFile SndFile::open_read(const std::string& fn, const unsigned char* data, int64_t size, const std::string& name) {
  SndFile f;
  f.name_ = name;
  f.memory_ = std::make_unique<MemorySource>(MemorySource{data, size, 0});
  f.source_size_ = size;
  SF_VIRTUAL_IO io = memory_io();
  f.file_.reset(sf_open_virtual(&io, SFM_READ, &f.info_, f.memory_.get()));
  EMBER_CHECK(f.file_ != nullptr, fn, ": failed to open the input ", name, " (", sf_strerror(nullptr), ")");
  return f;
}

SndFile SndFile::open_write(const std::string& fn, const std::string& path, SF_INFO info) {
  SndFile f;
  f.name_ = "\"" + path + "\"";
  f.info_ = info;
  EMBER_CHECK(sf_format_check(&f.info_), fn, ": libsndfile cannot write this combination of format, encoding, ",
              "channels (", info.channels, ") and sample rate (", info.samplerate, ") to \"", path, "\"");
  f.file_.reset(sf_open(path.c_str(), SFM_WRITE, &f.info_));
  EMBER_CHECK(f.file_ != nullptr, fn, ": failed to open the output \"", path, "\" (", sf_strerror(nullptr), ")");
  return f;
}

SndFile SndFile::open_write(const std::string& fn, MemorySink* sink, SF_INFO info) {
  SndFile f;
  f.name_ = "the output stream";
  f.info_ = info;
  EMBER_CHECK(sf_format_check(&f.info_), fn, ": libsndfile cannot write this combination of format, encoding, ",
              "channels (", info.channels, ") and sample rate (", info.samplerate, ")");
  SF_VIRTUAL_IO io{sink_length, sink_seek, sink_read, sink_write, sink_tell};
  f.file_.reset(sf_open_virtual(&io, SFM_WRITE, &f.info_, sink));
  EMBER_CHECK(f.file_ != nullptr, fn, ": failed to start writing (", sf_strerror(nullptr), ")");
  return f;
}

std::string SndFile::log() const {
  std::vector<char> buf(8192, '\0');
  sf_command(file_.get(), SFC_GET_LOG_INFO, buf.data(), static_cast<int>(buf.size()));
  return std::string(buf.data());
}

void SndFile::close(const std::string& fn) {
  SNDFILE* f = file_.release();
  if (f == nullptr) return;
  int err = sf_close(f);
  EMBER_CHECK(err == 0, fn, ": failed to finish writing ", name_, " (", sf_error_number(err), ")");
}

std::optional<int> major_format_for(const std::string& format) {
  std::string f = format;
  std::transform(f.begin(), f.end(), f.begin(), [](unsigned char c) { return std::tolower(c); });
  if (f == "wav") return SF_FORMAT_WAV;
  if (f == "flac") return SF_FORMAT_FLAC;
  if (f == "ogg" || f == "vorbis" || f == "opus") return SF_FORMAT_OGG;
  if (f == "mp3") return SF_FORMAT_MPEG;
  if (f == "sph") return SF_FORMAT_NIST;
  if (f == "aiff" || f == "aif") return SF_FORMAT_AIFF;
  return std::nullopt;
}

std::string encoding_name(int sf_format) {
  int major = sf_format & SF_FORMAT_TYPEMASK;
  int sub = sf_format & SF_FORMAT_SUBMASK;
  if (major == SF_FORMAT_FLAC) return "FLAC";
  switch (sub) {
    case SF_FORMAT_PCM_S8:
    case SF_FORMAT_PCM_16:
    case SF_FORMAT_PCM_24:
    case SF_FORMAT_PCM_32:
      return "PCM_S";
    case SF_FORMAT_PCM_U8:
      return "PCM_U";
    case SF_FORMAT_FLOAT:
    case SF_FORMAT_DOUBLE:
      return "PCM_F";
    case SF_FORMAT_ULAW:
      return "ULAW";
    case SF_FORMAT_ALAW:
      return "ALAW";
    case SF_FORMAT_VORBIS:
      return "VORBIS";
    case SF_FORMAT_OPUS:
      return "OPUS";
    case SF_FORMAT_MPEG_LAYER_III:
      return "MP3";
    case SF_FORMAT_MPEG_LAYER_I:
    case SF_FORMAT_MPEG_LAYER_II:
      return "MPEG";
    case SF_FORMAT_GSM610:
      return "GSM";
    case SF_FORMAT_IMA_ADPCM:
    case SF_FORMAT_MS_ADPCM:
      return "ADPCM";
    default:
      return "UNKNOWN";
  }
}

int64_t bits_per_sample(int sf_format) {
  switch (sf_format & SF_FORMAT_SUBMASK) {
    case SF_FORMAT_PCM_S8:
    case SF_FORMAT_PCM_U8:
    case SF_FORMAT_ULAW:
    case SF_FORMAT_ALAW:
      return 8;
    case SF_FORMAT_PCM_16:
      return 16;
    case SF_FORMAT_PCM_24:
      return 24;
    case SF_FORMAT_PCM_32:
    case SF_FORMAT_FLOAT:
      return 32;
    case SF_FORMAT_DOUBLE:
      return 64;
    default:
      return 0;
  }
}

int64_t fixed_bytes_per_sample(int sf_format) {
  int major = sf_format & SF_FORMAT_TYPEMASK;
  if (major == SF_FORMAT_FLAC || major == SF_FORMAT_OGG || major == SF_FORMAT_MPEG) return 0;
  switch (sf_format & SF_FORMAT_SUBMASK) {
    case SF_FORMAT_PCM_S8:
    case SF_FORMAT_PCM_U8:
    case SF_FORMAT_ULAW:
    case SF_FORMAT_ALAW:
      return 1;
    case SF_FORMAT_PCM_16:
      return 2;
    case SF_FORMAT_PCM_24:
      return 3;
    case SF_FORMAT_PCM_32:
    case SF_FORMAT_FLOAT:
      return 4;
    case SF_FORMAT_DOUBLE:
      return 8;
    default:
      return 0;
  }
}

std::string extension_of(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  if (!ext.empty() && ext[0] == '.') ext.erase(0, 1);
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return std::tolower(c); });
  return ext;
}

}  // namespace torch::audio::io::detail
