#pragma once
// RAII owners of FFmpeg's objects and the pieces StreamReader and StreamWriter
// share: error text, option dictionaries, sample formats as dtypes, and
// AVIOContexts that read bytes in memory or a std::istream.
extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/dict.h>
#include <libavutil/pixdesc.h>
#include <libswresample/swresample.h>
#include <libswscale/swscale.h>
}

#include <istream>
#include <map>
#include <memory>
#include <ostream>
#include <string>

#include "ember/core/dtype.h"

namespace torch::audio::io::detail {

struct InputContextCloser {
  void operator()(AVFormatContext* p) const { avformat_close_input(&p); }
};
struct CodecContextFreer {
  void operator()(AVCodecContext* p) const { avcodec_free_context(&p); }
};
struct FrameFreer {
  void operator()(AVFrame* p) const { av_frame_free(&p); }
};
struct PacketFreer {
  void operator()(AVPacket* p) const { av_packet_free(&p); }
};
struct SwrFreer {
  void operator()(SwrContext* p) const { swr_free(&p); }
};
struct DictFreer {
  void operator()(AVDictionary* p) const { av_dict_free(&p); }
};
// An AVIOContext and the buffer FFmpeg may have reallocated behind it.
struct AvioFreer {
  void operator()(AVIOContext* p) const {
    if (p != nullptr) av_freep(&p->buffer);
    avio_context_free(&p);
  }
};

using InputContextPtr = std::unique_ptr<AVFormatContext, InputContextCloser>;
using CodecContextPtr = std::unique_ptr<AVCodecContext, CodecContextFreer>;
using FramePtr = std::unique_ptr<AVFrame, FrameFreer>;
using PacketPtr = std::unique_ptr<AVPacket, PacketFreer>;
using SwrPtr = std::unique_ptr<SwrContext, SwrFreer>;
using AvioPtr = std::unique_ptr<AVIOContext, AvioFreer>;

// FFmpeg's description of an error code.
std::string av_error(int code);

// A dictionary FFmpeg consumes (the entries it does not use stay in it).
class Dict {
 public:
  explicit Dict(const std::map<std::string, std::string>& entries);
  AVDictionary** get() { return &dict_; }
  ~Dict() { av_dict_free(&dict_); }
  Dict(const Dict&) = delete;
  Dict& operator=(const Dict&) = delete;
  // The keys left over after an open call: options nothing recognised.
  std::string unused_keys() const;

 private:
  AVDictionary* dict_ = nullptr;
};

std::map<std::string, std::string> dict_entries(const AVDictionary* d);

// The dtype torchaudio gives a sample format (u8, s16, s32, s64, flt, dbl and
// their planar forms); raises naming `fn` for others.
ScalarType dtype_of(const std::string& fn, AVSampleFormat fmt);
// A sample format by FFmpeg's name ("s16", "fltp", ...); raises naming `fn`.
AVSampleFormat sample_format_named(const std::string& fn, const std::string& name);

// Source bytes FFmpeg reads through a custom AVIOContext. Owns nothing but
// the read position; what it points at must outlive the context.
struct MemoryReader {
  const uint8_t* data = nullptr;
  int64_t size = 0;
  int64_t pos = 0;
};
AvioPtr make_memory_avio(MemoryReader* reader, int buffer_size);
AvioPtr make_istream_avio(std::istream* stream, int buffer_size);
// A writing AVIOContext on a std::ostream (seekable when the stream is).
AvioPtr make_ostream_avio(std::ostream* stream, int buffer_size);

}  // namespace torch::audio::io::detail
