// write_video with the encoder settings torchvision 0.14 gets from PyAV's
// add_stream (bit rate 1024000, time base 1/fps, yuv420p, bilinear swscale
// conversion from RGB24, pts = frame index) so the files match.
#include <cmath>
#include <cstring>

#include "ember/core/error.h"
#include "ember/ops/factory/factory.h"
#include "ember/vision/io/detail/ffmpeg.h"
#include "ember/vision/io/detail/image_layout.h"
#include "ember/vision/io/video.h"

extern "C" {
#include <libavutil/opt.h>
}

namespace torch::vision::io {

namespace {

using detail::av_error_text;

struct OutputDeleter {
  void operator()(AVFormatContext* p) const {
    if (p->pb != nullptr && !(p->oformat->flags & AVFMT_NOFILE)) avio_closep(&p->pb);
    avformat_free_context(p);
  }
};
using OutputPtr = std::unique_ptr<AVFormatContext, OutputDeleter>;

struct DictDeleter {
  void operator()(AVDictionary* d) const { av_dict_free(&d); }
};

constexpr const char* kOp = "write_video";

// One output stream with its encoder.
struct EncodedStream {
  AVStream* stream = nullptr;
  detail::CodecContextPtr codec;
};

EncodedStream add_stream(AVFormatContext* out, const std::string& codec_name, AVMediaType type) {
  const AVCodec* codec = avcodec_find_encoder_by_name(codec_name.c_str());
  EMBER_CHECK(codec != nullptr, kOp, ": unknown encoder '", codec_name, "'");
  EMBER_CHECK(codec->type == type, kOp, ": '", codec_name, "' is not a",
              type == AVMEDIA_TYPE_VIDEO ? " video" : "n audio", " encoder");
  EncodedStream s;
  s.stream = avformat_new_stream(out, nullptr);
  EMBER_CHECK(s.stream != nullptr, kOp, ": cannot add a stream");
  s.codec.reset(avcodec_alloc_context3(codec));
  EMBER_CHECK(s.codec != nullptr, kOp, ": cannot allocate the ", codec_name, " encoder");
  if (out->oformat->flags & AVFMT_GLOBALHEADER) s.codec->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
  return s;
}

void open_encoder(EncodedStream& s, const std::optional<std::map<std::string, std::string>>& options) {
  AVDictionary* raw = nullptr;
  if (options)
    for (const auto& [k, v] : *options) av_dict_set(&raw, k.c_str(), v.c_str(), 0);
  int err = avcodec_open2(s.codec.get(), s.codec->codec, &raw);
  std::unique_ptr<AVDictionary, DictDeleter> left(raw);
  EMBER_CHECK(err >= 0, kOp, ": cannot open the ", s.codec->codec->name, " encoder: ", av_error_text(err));
  if (left) {
    const AVDictionaryEntry* e = av_dict_get(left.get(), "", nullptr, AV_DICT_IGNORE_SUFFIX);
    EMBER_CHECK(e == nullptr, kOp, ": the ", s.codec->codec->name, " encoder has no option '", e->key, "'");
  }
  err = avcodec_parameters_from_context(s.stream->codecpar, s.codec.get());
  EMBER_CHECK(err >= 0, kOp, ": cannot set the stream parameters: ", av_error_text(err));
  s.stream->time_base = s.codec->time_base;
}

// Sends `frame` (nullptr drains) and writes every packet the encoder returns.
void encode(AVFormatContext* out, EncodedStream& s, const AVFrame* frame, AVPacket* packet) {
  int err = avcodec_send_frame(s.codec.get(), frame);
  EMBER_CHECK(err >= 0, kOp, ": ", s.codec->codec->name, " encoder rejected a frame: ", av_error_text(err));
  while ((err = avcodec_receive_packet(s.codec.get(), packet)) >= 0) {
    av_packet_rescale_ts(packet, s.codec->time_base, s.stream->time_base);
    packet->stream_index = s.stream->index;
    err = av_interleaved_write_frame(out, packet);
    EMBER_CHECK(err >= 0, kOp, ": cannot write a packet: ", av_error_text(err));
  }
  EMBER_CHECK(err == AVERROR(EAGAIN) || err == AVERROR_EOF, kOp, ": encoding failed: ", av_error_text(err));
}

}  // namespace

void write_video(const std::string& filename, const Tensor& video_array, double fps, const std::string& video_codec,
                 const std::optional<std::map<std::string, std::string>>& options,
                 const std::optional<Tensor>& audio_array, std::optional<double> audio_fps,
                 const std::optional<std::string>& audio_codec,
                 const std::optional<std::map<std::string, std::string>>& audio_options) {
  EMBER_CHECK(video_array.defined() && video_array.dim() == 4 && video_array.size(3) == 3, kOp,
              ": video_array should be a [T, H, W, 3] tensor, got shape ",
              video_array.defined() ? video_array.sizes() : IntArrayRef{});
  const Tensor video = video_array.to(kUInt8).contiguous();
  const int64_t frames = video.size(0), height = video.size(1), width = video.size(2);
  detail::check_image_size(width, height, kOp);
  // torchvision rounds a float rate (numpy's round half to even).
  const double rate = std::nearbyint(fps);
  EMBER_CHECK(std::isfinite(fps) && rate >= 1 && rate <= 1e6, kOp, ": fps must be a positive frame rate, got ", fps);
  const bool with_audio = audio_array.has_value() && audio_array->defined();
  if (with_audio) {
    EMBER_CHECK(audio_fps.has_value() && *audio_fps >= 1, kOp, ": audio_fps is required with audio_array");
    EMBER_CHECK(audio_codec.has_value(), kOp, ": audio_codec is required with audio_array");
    EMBER_CHECK(audio_array->dim() == 2 && audio_array->size(0) >= 1 && audio_array->size(0) <= 2, kOp,
                ": audio_array should be a [channels, samples] tensor with 1 or 2 channels, got shape ",
                audio_array->sizes());
  }

  AVFormatContext* raw = nullptr;
  int err = avformat_alloc_output_context2(&raw, nullptr, nullptr, filename.c_str());
  EMBER_CHECK(err >= 0 && raw != nullptr, kOp, ": no container format for '", filename, "': ", av_error_text(err));
  OutputPtr out(raw);

  EncodedStream vs = add_stream(out.get(), video_codec, AVMEDIA_TYPE_VIDEO);
  AVCodecContext* vc = vs.codec.get();
  const AVPixelFormat pix_fmt = video_codec == "libx264rgb" ? AV_PIX_FMT_RGB24 : AV_PIX_FMT_YUV420P;
  vc->pix_fmt = pix_fmt;
  vc->width = static_cast<int>(width);
  vc->height = static_cast<int>(height);
  vc->bit_rate = 1024000;
  vc->bit_rate_tolerance = 128000;
  vc->framerate = AVRational{static_cast<int>(rate), 1};
  vc->time_base = AVRational{1, static_cast<int>(rate)};
  vs.stream->avg_frame_rate = vc->framerate;
  open_encoder(vs, options);

  EncodedStream as;
  if (with_audio) {
    as = add_stream(out.get(), *audio_codec, AVMEDIA_TYPE_AUDIO);
    AVCodecContext* ac = as.codec.get();
    const AVCodec* codec = ac->codec;
    ac->sample_fmt = codec->sample_fmts != nullptr ? codec->sample_fmts[0] : AV_SAMPLE_FMT_FLTP;
    ac->bit_rate = 128000;
    ac->bit_rate_tolerance = 32000;
    ac->sample_rate = static_cast<int>(std::lround(*audio_fps));
    ac->time_base = AVRational{1, ac->sample_rate};
    av_channel_layout_default(&ac->ch_layout, static_cast<int>(audio_array->size(0)));
    open_encoder(as, audio_options);
  }

  if (!(out->oformat->flags & AVFMT_NOFILE)) {
    err = avio_open(&out->pb, filename.c_str(), AVIO_FLAG_WRITE);
    EMBER_CHECK(err >= 0, kOp, ": cannot open '", filename, "' for writing: ", av_error_text(err));
  }
  err = avformat_write_header(out.get(), nullptr);
  EMBER_CHECK(err >= 0, kOp, ": cannot write the header of '", filename, "': ", av_error_text(err));

  detail::PacketPtr packet(av_packet_alloc());
  detail::FramePtr frame(av_frame_alloc());
  EMBER_CHECK(packet && frame, kOp, ": out of memory");

  // torchvision encodes all the audio first, then the video.
  if (with_audio) {
    AVCodecContext* ac = as.codec.get();
    const Tensor samples = audio_array->to(detail::sample_dtype(ac->sample_fmt, kOp)).contiguous();
    const int64_t channels = samples.size(0), total = samples.size(1);
    const int64_t bytes = av_get_bytes_per_sample(ac->sample_fmt);
    const bool planar = av_sample_fmt_is_planar(ac->sample_fmt) != 0;
    const bool variable = (ac->codec->capabilities & AV_CODEC_CAP_VARIABLE_FRAME_SIZE) != 0;
    const int64_t chunk = ac->frame_size > 0 && !variable ? ac->frame_size : std::max<int64_t>(total, 1);
    const auto* src = static_cast<const uint8_t*>(samples.data_ptr());
    for (int64_t s0 = 0; s0 < total; s0 += chunk) {
      const int64_t n = std::min(chunk, total - s0);
      detail::FramePtr af(av_frame_alloc());
      EMBER_CHECK(af != nullptr, kOp, ": out of memory");
      af->format = ac->sample_fmt;
      af->nb_samples = static_cast<int>(n);
      af->sample_rate = ac->sample_rate;
      err = av_channel_layout_copy(&af->ch_layout, &ac->ch_layout);
      EMBER_CHECK(err >= 0, kOp, ": ", av_error_text(err));
      err = av_frame_get_buffer(af.get(), 0);
      EMBER_CHECK(err >= 0, kOp, ": cannot allocate an audio frame: ", av_error_text(err));
      for (int64_t c = 0; c < channels; ++c)
        for (int64_t i = 0; i < n; ++i) {
          const uint8_t* from = src + (c * total + s0 + i) * bytes;
          uint8_t* to = planar ? af->extended_data[c] + i * bytes : af->extended_data[0] + (i * channels + c) * bytes;
          std::memcpy(to, from, static_cast<size_t>(bytes));
        }
      af->pts = s0;
      encode(out.get(), as, af.get(), packet.get());
    }
    encode(out.get(), as, nullptr, packet.get());
  }

  frame->format = pix_fmt;
  frame->width = static_cast<int>(width);
  frame->height = static_cast<int>(height);
  err = av_frame_get_buffer(frame.get(), 0);
  EMBER_CHECK(err >= 0, kOp, ": cannot allocate a video frame: ", av_error_text(err));
  detail::SwsPtr sws(sws_getContext(frame->width, frame->height, AV_PIX_FMT_RGB24, frame->width, frame->height, pix_fmt,
                                    SWS_BILINEAR, nullptr, nullptr, nullptr));
  EMBER_CHECK(sws != nullptr, kOp, ": swscale cannot convert rgb24 to ", av_get_pix_fmt_name(pix_fmt));
  // PyAV's RGB frames: rows aligned to 16 bytes.
  uint8_t* rgb[4] = {nullptr, nullptr, nullptr, nullptr};
  int rgb_linesize[4] = {0, 0, 0, 0};
  err = av_image_alloc(rgb, rgb_linesize, frame->width, frame->height, AV_PIX_FMT_RGB24, 16);
  EMBER_CHECK(err >= 0, kOp, ": cannot allocate an RGB frame: ", av_error_text(err));
  std::unique_ptr<uint8_t, void (*)(uint8_t*)> rgb_owner(rgb[0], [](uint8_t* p) { av_free(p); });
  const uint8_t* pixels = video.data_ptr<uint8_t>();
  for (int64_t t = 0; t < frames; ++t) {
    err = av_frame_make_writable(frame.get());
    EMBER_CHECK(err >= 0, kOp, ": ", av_error_text(err));
    for (int64_t y = 0; y < height; ++y)
      std::memcpy(rgb[0] + y * rgb_linesize[0], pixels + (t * height + y) * width * 3, static_cast<size_t>(width * 3));
    sws_scale(sws.get(), rgb, rgb_linesize, 0, frame->height, frame->data, frame->linesize);
    frame->pts = t;
    frame->pict_type = AV_PICTURE_TYPE_NONE;
    encode(out.get(), vs, frame.get(), packet.get());
  }
  encode(out.get(), vs, nullptr, packet.get());
  err = av_write_trailer(out.get());
  EMBER_CHECK(err >= 0, kOp, ": cannot finish '", filename, "': ", av_error_text(err));
}

}  // namespace torch::vision::io
