#include "ember/vision/io/detail/ffmpeg.h"

#include <cstring>
#include <filesystem>

#include "ember/core/error.h"
#include "ember/ops/factory/factory.h"
#include "ember/vision/io/detail/image_layout.h"

extern "C" {
#include <libavutil/samplefmt.h>
}

namespace torch::vision::io::detail {

std::string av_error_text(int err) {
  char buf[AV_ERROR_MAX_STRING_SIZE] = {};
  av_strerror(err, buf, sizeof(buf));
  return buf;
}

FormatInputPtr open_input(const std::string& path, const char* op) {
  std::error_code ec;
  EMBER_CHECK(std::filesystem::exists(path, ec), op, ": File not found: ", path);
  AVFormatContext* raw = nullptr;
  int err = avformat_open_input(&raw, path.c_str(), nullptr, nullptr);
  EMBER_CHECK(err >= 0, op, ": cannot open '", path, "' as a media file: ", av_error_text(err));
  FormatInputPtr format(raw);
  err = avformat_find_stream_info(format.get(), nullptr);
  EMBER_CHECK(err >= 0, op, ": cannot read the streams of '", path, "': ", av_error_text(err));
  return format;
}

int find_stream(const AVFormatContext* format, AVMediaType type, int index) {
  int seen = 0;
  for (unsigned i = 0; i < format->nb_streams; ++i) {
    if (format->streams[i]->codecpar->codec_type != type) continue;
    if (seen++ == index) return static_cast<int>(i);
  }
  return -1;
}

RgbConverter::~RgbConverter() { av_freep(&buffer_[0]); }

Tensor RgbConverter::to_hwc(const AVFrame* frame, const char* op) {
  const int w = frame->width, h = frame->height;
  check_image_size(w, h, op);
  EMBER_CHECK(frame->format >= 0, op, ": decoded video frame has no pixel format");
  SwsContext* sws = sws_getCachedContext(sws_.release(), w, h, static_cast<AVPixelFormat>(frame->format), w, h,
                                         AV_PIX_FMT_RGB24, SWS_BILINEAR, nullptr, nullptr, nullptr);
  sws_.reset(sws);
  EMBER_CHECK(sws != nullptr, op, ": swscale cannot convert pixel format ",
              av_get_pix_fmt_name(static_cast<AVPixelFormat>(frame->format)), " to rgb24");
  if (w != width_ || h != height_) {
    av_freep(&buffer_[0]);
    width_ = height_ = 0;
    const int err = av_image_alloc(buffer_, linesize_, w, h, AV_PIX_FMT_RGB24, 16);
    EMBER_CHECK(err >= 0, op, ": cannot allocate a ", w, "x", h, " RGB frame: ", av_error_text(err));
    width_ = w;
    height_ = h;
  }
  const int rows = sws_scale(sws, frame->data, frame->linesize, 0, h, buffer_, linesize_);
  EMBER_CHECK(rows == h, op, ": swscale converted ", rows, " of ", h, " rows");
  Tensor out = empty({h, w, 3}, kUInt8);
  uint8_t* dst = out.data_ptr<uint8_t>();
  for (int y = 0; y < h; ++y) std::memcpy(dst + static_cast<int64_t>(y) * w * 3, buffer_[0] + y * linesize_[0], w * 3);
  return out;
}

ScalarType sample_dtype(AVSampleFormat fmt, const char* op) {
  switch (av_get_packed_sample_fmt(fmt)) {
    case AV_SAMPLE_FMT_U8:
      return kUInt8;
    case AV_SAMPLE_FMT_S16:
      return kInt16;
    case AV_SAMPLE_FMT_S32:
      return kInt32;
    case AV_SAMPLE_FMT_S64:
      return kInt64;
    case AV_SAMPLE_FMT_FLT:
      return kFloat;
    case AV_SAMPLE_FMT_DBL:
      return kDouble;
    default:
      EMBER_ERROR(op, ": unsupported audio sample format ", av_get_sample_fmt_name(fmt));
  }
}

namespace {

struct AudioShape {
  AVSampleFormat fmt;
  int channels, samples, bytes_per_sample;
  bool planar;
};

AudioShape audio_shape(const AVFrame* frame, const char* op) {
  AudioShape s;
  s.fmt = static_cast<AVSampleFormat>(frame->format);
  s.channels = frame->ch_layout.nb_channels;
  s.samples = frame->nb_samples;
  EMBER_CHECK(s.fmt > AV_SAMPLE_FMT_NONE && s.fmt < AV_SAMPLE_FMT_NB, op, ": decoded audio frame has no sample format");
  EMBER_CHECK(s.channels > 0 && s.channels <= 64 && s.samples >= 0, op, ": invalid audio frame (", s.channels,
              " channels, ", s.samples, " samples)");
  s.bytes_per_sample = av_get_bytes_per_sample(s.fmt);
  s.planar = av_sample_fmt_is_planar(s.fmt) != 0;
  return s;
}

// Sample i of plane p as a float, scaled as libswresample scales integers.
float sample_as_float(const AudioShape& s, const uint8_t* plane, int64_t i) {
  switch (av_get_packed_sample_fmt(s.fmt)) {
    case AV_SAMPLE_FMT_U8:
      return (static_cast<float>(plane[i]) - 128.0f) * (1.0f / 128.0f);
    case AV_SAMPLE_FMT_S16: {
      int16_t v;
      std::memcpy(&v, plane + 2 * i, 2);
      return static_cast<float>(v) * (1.0f / 32768.0f);
    }
    case AV_SAMPLE_FMT_S32: {
      int32_t v;
      std::memcpy(&v, plane + 4 * i, 4);
      return static_cast<float>(v) * (1.0f / 2147483648.0f);
    }
    case AV_SAMPLE_FMT_S64: {
      int64_t v;
      std::memcpy(&v, plane + 8 * i, 8);
      return static_cast<float>(static_cast<double>(v) * (1.0 / 9223372036854775808.0));
    }
    case AV_SAMPLE_FMT_FLT: {
      float v;
      std::memcpy(&v, plane + 4 * i, 4);
      return v;
    }
    case AV_SAMPLE_FMT_DBL: {
      double v;
      std::memcpy(&v, plane + 8 * i, 8);
      return static_cast<float>(v);
    }
    default:
      return 0.0f;
  }
}

}  // namespace

Tensor audio_frame_to_tensor(const AVFrame* frame, const char* op) {
  const AudioShape s = audio_shape(frame, op);
  const ScalarType dtype = sample_dtype(s.fmt, op);
  const int64_t per_plane = static_cast<int64_t>(s.samples) * (s.planar ? 1 : s.channels);
  Tensor out = empty({s.planar ? s.channels : 1, per_plane}, dtype);
  auto* dst = static_cast<uint8_t*>(out.data_ptr());
  for (int p = 0; p < (s.planar ? s.channels : 1); ++p) {
    EMBER_CHECK(frame->extended_data[p] != nullptr, op, ": audio frame lacks plane ", p);
    std::memcpy(dst + p * per_plane * s.bytes_per_sample, frame->extended_data[p],
                static_cast<size_t>(per_plane * s.bytes_per_sample));
  }
  return out;
}

Tensor audio_frame_to_float(const AVFrame* frame, const char* op) {
  const AudioShape s = audio_shape(frame, op);
  (void)sample_dtype(s.fmt, op);
  Tensor out = empty({s.samples, s.channels}, kFloat);
  float* dst = out.data_ptr<float>();
  for (int64_t i = 0; i < s.samples; ++i)
    for (int c = 0; c < s.channels; ++c)
      dst[i * s.channels + c] = s.planar ? sample_as_float(s, frame->extended_data[c], i)
                                         : sample_as_float(s, frame->extended_data[0], i * s.channels + c);
  return out;
}

StreamDecoder::StreamDecoder(const std::string& path, AVMediaType type, int index, const char* op, int threads)
    : format_(open_input(path, op)), op_(op) {
  const int si = find_stream(format_.get(), type, index);
  EMBER_CHECK(si >= 0, op, ": '", path, "' has no ", av_get_media_type_string(type), " stream ", index);
  stream_ = format_->streams[si];
  // Only this stream's packets are needed.
  for (unsigned i = 0; i < format_->nb_streams; ++i)
    if (static_cast<int>(i) != si) format_->streams[i]->discard = AVDISCARD_ALL;
  const AVCodec* codec = avcodec_find_decoder(stream_->codecpar->codec_id);
  EMBER_CHECK(codec != nullptr, op, ": no decoder for codec '", avcodec_get_name(stream_->codecpar->codec_id), "'");
  codec_.reset(avcodec_alloc_context3(codec));
  EMBER_CHECK(codec_ != nullptr, op, ": cannot allocate a decoder");
  int err = avcodec_parameters_to_context(codec_.get(), stream_->codecpar);
  EMBER_CHECK(err >= 0, op, ": bad codec parameters: ", av_error_text(err));
  codec_->pkt_timebase = stream_->time_base;
  codec_->thread_count = threads;
  // FFmpeg sizes frame buffers from the bitstream's own dimensions; cap them as images are.
  codec_->max_pixels = kMaxImagePixels;
  if (type == AVMEDIA_TYPE_VIDEO) check_image_size(std::max(codec_->width, 1), std::max(codec_->height, 1), op);
  err = avcodec_open2(codec_.get(), codec, nullptr);
  EMBER_CHECK(err >= 0, op, ": cannot open the ", avcodec_get_name(codec->id), " decoder: ", av_error_text(err));
  frame_.reset(av_frame_alloc());
  packet_.reset(av_packet_alloc());
  EMBER_CHECK(frame_ && packet_, op, ": out of memory");
}

AVFrame* StreamDecoder::next() {
  while (!ended_) {
    av_frame_unref(frame_.get());
    int err = avcodec_receive_frame(codec_.get(), frame_.get());
    if (err == 0) return frame_.get();
    if (err == AVERROR_EOF) break;
    if (err != AVERROR(EAGAIN)) {
      error_ = av_error_text(err);
      break;
    }
    if (flushed_) break;
    err = av_read_frame(format_.get(), packet_.get());
    if (err < 0) {
      if (err != AVERROR_EOF) error_ = av_error_text(err);
      avcodec_send_packet(codec_.get(), nullptr);  // drain the frames the decoder still holds
      flushed_ = true;
      continue;
    }
    if (packet_->stream_index == stream_->index) {
      err = avcodec_send_packet(codec_.get(), packet_.get());
      if (err < 0 && err != AVERROR(EAGAIN)) {
        error_ = av_error_text(err);
        av_packet_unref(packet_.get());
        break;
      }
    }
    av_packet_unref(packet_.get());
  }
  ended_ = true;
  return nullptr;
}

bool StreamDecoder::seek(int64_t ts) {
  if (av_seek_frame(format_.get(), stream_->index, ts, AVSEEK_FLAG_BACKWARD) < 0) return false;
  avcodec_flush_buffers(codec_.get());
  flushed_ = ended_ = false;
  error_.clear();
  return true;
}

int64_t StreamDecoder::frame_pts(const AVFrame* frame) {
  return frame->pts != AV_NOPTS_VALUE ? frame->pts : frame->best_effort_timestamp;
}

}  // namespace torch::vision::io::detail
