#pragma once
// RAII owners for FFmpeg's objects and the stream decoder that read_video,
// read_video_timestamps and VideoReader share. FFmpeg reports errors by return
// code (no longjmp), so plain C++ error handling applies.
#include <memory>
#include <string>

#include "ember/core/tensor.h"

extern "C" {
#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/imgutils.h>
#include <libswscale/swscale.h>
}

namespace torch::vision::io::detail {

struct FormatInputDeleter {
  void operator()(AVFormatContext* p) const { avformat_close_input(&p); }
};
struct CodecContextDeleter {
  void operator()(AVCodecContext* p) const { avcodec_free_context(&p); }
};
struct FrameDeleter {
  void operator()(AVFrame* p) const { av_frame_free(&p); }
};
struct PacketDeleter {
  void operator()(AVPacket* p) const { av_packet_free(&p); }
};
struct SwsDeleter {
  void operator()(SwsContext* p) const { sws_freeContext(p); }
};
using FormatInputPtr = std::unique_ptr<AVFormatContext, FormatInputDeleter>;
using CodecContextPtr = std::unique_ptr<AVCodecContext, CodecContextDeleter>;
using FramePtr = std::unique_ptr<AVFrame, FrameDeleter>;
using PacketPtr = std::unique_ptr<AVPacket, PacketDeleter>;
using SwsPtr = std::unique_ptr<SwsContext, SwsDeleter>;

// FFmpeg's text for an AVERROR code.
std::string av_error_text(int err);

// The total bytes of decoded frames one read may hold; a file whose frames
// would exceed it raises instead of exhausting memory.
constexpr int64_t kMaxDecodedBytes = int64_t{8} << 30;

// Converts decoded video frames to packed RGB24 as PyAV's frame.to_rgb() does
// (swscale, bilinear, 16-byte aligned destination rows), so the pixels agree.
class RgbConverter {
 public:
  RgbConverter() = default;
  RgbConverter(const RgbConverter&) = delete;
  RgbConverter& operator=(const RgbConverter&) = delete;
  ~RgbConverter();
  // A new [H, W, 3] uint8 tensor; `op` names the caller in errors.
  Tensor to_hwc(const AVFrame* frame, const char* op);

 private:
  SwsPtr sws_;
  uint8_t* buffer_[4] = {nullptr, nullptr, nullptr, nullptr};
  int linesize_[4] = {0, 0, 0, 0};
  int width_ = 0, height_ = 0;
};

// An audio frame's samples as PyAV's frame.to_ndarray(): [channels, samples]
// for planar formats, [1, samples * channels] for packed ones, in the
// format's own dtype.
Tensor audio_frame_to_tensor(const AVFrame* frame, const char* op);

// The same samples as float32 [samples, channels] (torchvision's VideoReader),
// integers scaled to [-1, 1) as libswresample does.
Tensor audio_frame_to_float(const AVFrame* frame, const char* op);

// One stream of a media file, decoded frame by frame.
class StreamDecoder {
 public:
  // Opens `path` and the `index`-th stream of `type` (0 = the first) with `threads` decoding
  // threads (0: FFmpeg picks); raises naming `op`.
  StreamDecoder(const std::string& path, AVMediaType type, int index, const char* op, int threads = 1);
  StreamDecoder(const StreamDecoder&) = delete;
  StreamDecoder& operator=(const StreamDecoder&) = delete;

  // The next decoded frame (owned by the decoder until the next call), or nullptr at the end.
  // A decoding error ends the stream; error() then says what it was.
  AVFrame* next();
  // Seeks to the keyframe at or before `ts` (in stream time base); false when FFmpeg cannot.
  bool seek(int64_t ts);
  // The timestamp of a decoded frame: its pts, else FFmpeg's best-effort estimate.
  static int64_t frame_pts(const AVFrame* frame);

  AVFormatContext* format() const { return format_.get(); }
  AVStream* stream() const { return stream_; }
  AVCodecContext* codec() const { return codec_.get(); }
  const std::string& error() const { return error_; }

 private:
  FormatInputPtr format_;
  CodecContextPtr codec_;
  FramePtr frame_;
  PacketPtr packet_;
  AVStream* stream_ = nullptr;
  const char* op_;
  bool flushed_ = false, ended_ = false;
  std::string error_;
};

// Opens a media file for reading (format probed, stream info found); raises naming `op`.
FormatInputPtr open_input(const std::string& path, const char* op);

// The stream index of the `index`-th stream of `type`, or -1.
int find_stream(const AVFormatContext* format, AVMediaType type, int index);

// The dtype of an FFmpeg sample format's samples (planar or packed); raises naming op otherwise.
ScalarType sample_dtype(AVSampleFormat fmt, const char* op);

}  // namespace torch::vision::io::detail
