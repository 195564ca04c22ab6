#include "ember/audio/io/ffmpeg_util.h"

#include <algorithm>
#include <cstring>

#include "ember/core/error.h"

namespace torch::audio::io::detail {

std::string av_error(int code) {
  char buf[AV_ERROR_MAX_STRING_SIZE] = {0};
  av_strerror(code, buf, sizeof(buf));
  return buf;
}

Dict::Dict(const std::map<std::string, std::string>& entries) {
  for (const auto& [k, v] : entries) av_dict_set(&dict_, k.c_str(), v.c_str(), 0);
}

std::string Dict::unused_keys() const {
  std::string keys;
  for (const auto& [k, v] : dict_entries(dict_)) keys += (keys.empty() ? "" : ", ") + k;
  return keys;
}

std::map<std::string, std::string> dict_entries(const AVDictionary* d) {
  std::map<std::string, std::string> out;
  const AVDictionaryEntry* e = nullptr;
  while ((e = av_dict_get(d, "", e, AV_DICT_IGNORE_SUFFIX)) != nullptr) out[e->key] = e->value;
  return out;
}

ScalarType dtype_of(const std::string& fn, AVSampleFormat fmt) {
  switch (av_get_packed_sample_fmt(fmt)) {
    case AV_SAMPLE_FMT_U8:
      return kByte;
    case AV_SAMPLE_FMT_S16:
      return kShort;
    case AV_SAMPLE_FMT_S32:
      return kInt;
    case AV_SAMPLE_FMT_S64:
      return kLong;
    case AV_SAMPLE_FMT_FLT:
      return kFloat;
    case AV_SAMPLE_FMT_DBL:
      return kDouble;
    default: {
      const char* name = av_get_sample_fmt_name(fmt);
      EMBER_ERROR(fn, ": unsupported sample format ", name ? name : "none");
    }
  }
}

AVSampleFormat sample_format_named(const std::string& fn, const std::string& name) {
  AVSampleFormat f = av_get_sample_fmt(name.c_str());
  EMBER_CHECK(f != AV_SAMPLE_FMT_NONE, fn, ": unknown sample format \"", name,
              "\" (expected u8, s16, s32, s64, flt, dbl or a planar form such as fltp)");
  return f;
}

namespace {

int memory_read(void* opaque, uint8_t* buf, int size) {
  auto* r = static_cast<MemoryReader*>(opaque);
  int64_t n = std::min<int64_t>(size, r->size - r->pos);
  if (n <= 0) return AVERROR_EOF;
  std::memcpy(buf, r->data + r->pos, static_cast<size_t>(n));
  r->pos += n;
  return static_cast<int>(n);
}

int64_t memory_seek(void* opaque, int64_t offset, int whence) {
  auto* r = static_cast<MemoryReader*>(opaque);
  if (whence & AVSEEK_SIZE) return r->size;
  int64_t base = 0;
  switch (whence & ~AVSEEK_FORCE) {
    case SEEK_SET:
      base = 0;
      break;
    case SEEK_CUR:
      base = r->pos;
      break;
    case SEEK_END:
      base = r->size;
      break;
    default:
      return AVERROR(EINVAL);
  }
  if ((offset > 0 && base > INT64_MAX - offset)) return AVERROR(EINVAL);
  int64_t target = base + offset;
  if (target < 0 || target > r->size) return AVERROR(EINVAL);
  r->pos = target;
  return target;
}

int istream_read(void* opaque, uint8_t* buf, int size) {
  auto* s = static_cast<std::istream*>(opaque);
  s->read(reinterpret_cast<char*>(buf), size);
  auto n = s->gcount();
  if (n <= 0) return AVERROR_EOF;
  return static_cast<int>(n);
}

int64_t istream_seek(void* opaque, int64_t offset, int whence) {
  auto* s = static_cast<std::istream*>(opaque);
  s->clear();
  if (whence & AVSEEK_SIZE) {
    auto here = s->tellg();
    s->seekg(0, std::ios::end);
    auto end = s->tellg();
    s->seekg(here);
    return end < 0 ? AVERROR(ENOSYS) : static_cast<int64_t>(end);
  }
  std::ios::seekdir dir = std::ios::beg;
  switch (whence & ~AVSEEK_FORCE) {
    case SEEK_SET:
      dir = std::ios::beg;
      break;
    case SEEK_CUR:
      dir = std::ios::cur;
      break;
    case SEEK_END:
      dir = std::ios::end;
      break;
    default:
      return AVERROR(EINVAL);
  }
  s->seekg(offset, dir);
  if (s->fail()) return AVERROR(EINVAL);
  return static_cast<int64_t>(s->tellg());
}

// FFmpeg 5 declares the buffer non-const; it is only read.
int ostream_write(void* opaque, uint8_t* buf, int size) {
  auto* s = static_cast<std::ostream*>(opaque);
  s->write(reinterpret_cast<const char*>(buf), size);
  return s->good() ? size : AVERROR(EIO);
}

int64_t ostream_seek(void* opaque, int64_t offset, int whence) {
  auto* s = static_cast<std::ostream*>(opaque);
  if (whence & AVSEEK_SIZE) return AVERROR(ENOSYS);
  std::ios::seekdir dir = (whence & ~AVSEEK_FORCE) == SEEK_CUR   ? std::ios::cur
                          : (whence & ~AVSEEK_FORCE) == SEEK_END ? std::ios::end
                                                                 : std::ios::beg;
  s->clear();
  s->seekp(offset, dir);
  if (s->fail()) return AVERROR(EINVAL);
  return static_cast<int64_t>(s->tellp());
}

AvioPtr make_avio(void* opaque, int buffer_size, int (*read)(void*, uint8_t*, int),
                  int64_t (*seek)(void*, int64_t, int), int (*write)(void*, uint8_t*, int) = nullptr) {
  EMBER_CHECK(buffer_size > 0, "StreamReader: buffer_size must be positive, got ", buffer_size);
  auto* buf = static_cast<unsigned char*>(av_malloc(static_cast<size_t>(buffer_size)));
  EMBER_CHECK(buf != nullptr, "StreamReader: failed to allocate an IO buffer of ", buffer_size, " bytes");
  AVIOContext* ctx = avio_alloc_context(buf, buffer_size, write != nullptr ? 1 : 0, opaque, read, write, seek);
  if (ctx == nullptr) {
    av_free(buf);
    EMBER_ERROR("StreamReader: failed to allocate an AVIOContext");
  }
  return AvioPtr(ctx);
}

}  // namespace

AvioPtr make_memory_avio(MemoryReader* reader, int buffer_size) {
  return make_avio(reader, buffer_size, memory_read, memory_seek);
}

AvioPtr make_istream_avio(std::istream* stream, int buffer_size) {
  return make_avio(stream, buffer_size, istream_read, istream_seek);
}

AvioPtr make_ostream_avio(std::ostream* stream, int buffer_size) {
  return make_avio(stream, buffer_size, nullptr, ostream_seek, ostream_write);
}

}  // namespace torch::audio::io::detail
