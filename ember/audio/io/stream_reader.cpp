#include "ember/audio/io/stream_reader.h"

#include <chrono>
#include <cstring>
#include <thread>

#include "ember/audio/io/chunk_buffer.h"
#include "ember/audio/io/ffmpeg_util.h"
#include "ember/core/error.h"
#include "ember/ops/factory/factory.h"

namespace torch::audio::io {
namespace {

using detail::av_error;

// What an output stream's filter description asks for. Ember links no
// libavfilter, so only the descriptions add_basic_audio_stream builds are
// understood; libswresample does the work aresample/aformat would.
struct AudioFilter {
  std::optional<int64_t> sample_rate;
  std::optional<AVSampleFormat> sample_format;
};

AudioFilter parse_filter(const std::optional<std::string>& desc) {
  AudioFilter f;
  if (!desc || desc->empty() || *desc == "anull") return f;
  size_t start = 0;
  while (start <= desc->size()) {
    size_t comma = desc->find(',', start);
    std::string part = desc->substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const std::string resample = "aresample=", aformat = "aformat=sample_fmts=";
    if (part.rfind(resample, 0) == 0) {
      std::string v = part.substr(resample.size());
      char* end = nullptr;
      long long rate = std::strtoll(v.c_str(), &end, 10);
      EMBER_CHECK(!v.empty() && *end == '\0' && rate > 0 && rate <= (1 << 30),
                  "StreamReader: invalid sample rate in filter \"", part, "\"");
      f.sample_rate = rate;
    } else if (part.rfind(aformat, 0) == 0) {
      f.sample_format = detail::sample_format_named("StreamReader", part.substr(aformat.size()));
    } else {
      EMBER_ERROR("StreamReader: unsupported filter \"", part, "\" in \"", *desc,
                  "\" (supported: aresample=<rate>, aformat=sample_fmts=<format>)");
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return f;
}

// One output stream: turns decoded frames into tensors and buffers them in chunks.
class Sink {
 public:
  Sink(int64_t source, std::string desc, int64_t frames_per_chunk, int64_t buffer_chunks)
      : source_(source), desc_(std::move(desc)), buffer_(frames_per_chunk, buffer_chunks) {}
  virtual ~Sink() = default;
  Sink(const Sink&) = delete;
  Sink& operator=(const Sink&) = delete;

  int64_t source() const { return source_; }
  const std::string& description() const { return desc_; }
  detail::ChunkBuffer& buffer() { return buffer_; }

  virtual void push(const AVFrame* frame) = 0;
  // Emits what a converter still holds (the end of the stream).
  virtual void flush() {}
  // After a seek: nothing buffered, converters restart.
  virtual void reset() { buffer_.clear(); }

 protected:
  int64_t source_;
  std::string desc_;
  detail::ChunkBuffer buffer_;
};

// Audio: [frames, channels] tensors in the output sample format and rate.
class AudioSink : public Sink {
 public:
  AudioSink(int64_t source, std::string desc, AudioFilter filter, int64_t frames_per_chunk, int64_t buffer_chunks)
      : Sink(source, std::move(desc), frames_per_chunk, buffer_chunks), filter_(filter) {}
  ~AudioSink() override { av_channel_layout_uninit(&in_layout_); }

  void push(const AVFrame* frame) override {
    const int channels = frame->ch_layout.nb_channels;
    EMBER_CHECK(channels > 0 && frame->sample_rate > 0, "StreamReader: decoded audio of stream ", source_, " has ",
                channels, " channels at ", frame->sample_rate, " Hz");
    const auto in_fmt = static_cast<AVSampleFormat>(frame->format);
    const AVSampleFormat out_fmt = av_get_packed_sample_fmt(filter_.sample_format.value_or(in_fmt));
    const int64_t out_rate = filter_.sample_rate.value_or(frame->sample_rate);
    const ScalarType dtype = detail::dtype_of("StreamReader", out_fmt);
    if (!swr_ && in_fmt == out_fmt && out_rate == frame->sample_rate) {
      // Already packed in the wanted format and rate: a copy, no resampler.
      Tensor t = empty({frame->nb_samples, channels}, TensorOptions().dtype(dtype));
      std::memcpy(t.data_ptr(), frame->data[0], static_cast<size_t>(t.numel()) * element_size(dtype));
      buffer_.push(t);
      return;
    }
    configure(frame, out_fmt, out_rate);
    int cap = swr_get_out_samples(swr_.get(), frame->nb_samples);
    EMBER_CHECK(cap >= 0, "StreamReader: resampler failure (", av_error(cap), ")");
    Tensor t = empty({cap, channels}, TensorOptions().dtype(dtype));
    uint8_t* out[1] = {static_cast<uint8_t*>(t.data_ptr())};
    int n = swr_convert(swr_.get(), out, cap, const_cast<const uint8_t**>(frame->extended_data), frame->nb_samples);
    EMBER_CHECK(n >= 0, "StreamReader: resampling stream ", source_, " failed (", av_error(n), ")");
    buffer_.push(n == cap ? t : t.narrow(0, 0, n));
  }

  void flush() override {
    if (!swr_) return;
    const ScalarType dtype = detail::dtype_of("StreamReader", out_fmt_);
    const int channels = in_layout_.nb_channels;
    while (true) {
      int cap = swr_get_out_samples(swr_.get(), 0);
      if (cap <= 0) break;
      Tensor t = empty({cap, channels}, TensorOptions().dtype(dtype));
      uint8_t* out[1] = {static_cast<uint8_t*>(t.data_ptr())};
      int n = swr_convert(swr_.get(), out, cap, nullptr, 0);
      EMBER_CHECK(n >= 0, "StreamReader: flushing the resampler failed (", av_error(n), ")");
      if (n == 0) break;
      buffer_.push(t.narrow(0, 0, n));
    }
  }

  void reset() override {
    buffer_.clear();
    swr_.reset();
  }

 private:
  void configure(const AVFrame* frame, AVSampleFormat out_fmt, int64_t out_rate) {
    if (swr_ && frame->format == in_fmt_ && frame->sample_rate == in_rate_ &&
        av_channel_layout_compare(&frame->ch_layout, &in_layout_) == 0)
      return;
    // A change of input parameters mid-stream: drain the old resampler first.
    flush();
    swr_.reset();
    av_channel_layout_uninit(&in_layout_);
    int ret = av_channel_layout_copy(&in_layout_, &frame->ch_layout);
    EMBER_CHECK(ret >= 0, "StreamReader: bad channel layout (", av_error(ret), ")");
    SwrContext* raw = nullptr;
    ret = swr_alloc_set_opts2(&raw, &in_layout_, out_fmt, static_cast<int>(out_rate), &in_layout_,
                              static_cast<AVSampleFormat>(frame->format), frame->sample_rate, 0, nullptr);
    detail::SwrPtr swr(raw);
    EMBER_CHECK(ret >= 0, "StreamReader: cannot convert stream ", source_, " (", av_error(ret), ")");
    ret = swr_init(swr.get());
    EMBER_CHECK(ret >= 0, "StreamReader: cannot convert stream ", source_, " (", av_error(ret), ")");
    swr_ = std::move(swr);
    in_fmt_ = frame->format;
    in_rate_ = frame->sample_rate;
    out_fmt_ = out_fmt;
  }

  AudioFilter filter_;
  detail::SwrPtr swr_;
  int in_fmt_ = -1;
  int in_rate_ = 0;
  AVSampleFormat out_fmt_ = AV_SAMPLE_FMT_NONE;
  AVChannelLayout in_layout_{};
};

// What a video output's filter description asks for: the pieces
// add_basic_video_stream builds, done by libswscale.
struct VideoFilter {
  std::optional<int> width;
  std::optional<int> height;
  std::optional<AVPixelFormat> pixel_format;
};

int parse_dimension(const std::string& part, const std::string& v) {
  char* end = nullptr;
  long long x = std::strtoll(v.c_str(), &end, 10);
  EMBER_CHECK(!v.empty() && *end == '\0' && x > 0 && x <= 16384, "StreamReader: invalid size in filter \"", part, "\"");
  return static_cast<int>(x);
}

VideoFilter parse_video_filter(const std::optional<std::string>& desc) {
  VideoFilter f;
  if (!desc || desc->empty() || *desc == "null") return f;
  size_t start = 0;
  while (start <= desc->size()) {
    size_t comma = desc->find(',', start);
    std::string part = desc->substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const std::string scale = "scale=", format = "format=pix_fmts=";
    if (part.rfind(scale, 0) == 0) {
      std::string rest = part.substr(scale.size());
      size_t pos = 0;
      while (pos <= rest.size()) {
        size_t colon = rest.find(':', pos);
        std::string kv = rest.substr(pos, colon == std::string::npos ? std::string::npos : colon - pos);
        if (kv.rfind("width=", 0) == 0) {
          f.width = parse_dimension(part, kv.substr(6));
        } else if (kv.rfind("height=", 0) == 0) {
          f.height = parse_dimension(part, kv.substr(7));
        } else {
          EMBER_ERROR("StreamReader: unsupported scale option \"", kv, "\" in \"", *desc, "\"");
        }
        if (colon == std::string::npos) break;
        pos = colon + 1;
      }
    } else if (part.rfind(format, 0) == 0) {
      std::string name = part.substr(format.size());
      AVPixelFormat pf = av_get_pix_fmt(name.c_str());
      EMBER_CHECK(pf != AV_PIX_FMT_NONE, "StreamReader: unknown pixel format \"", name, "\"");
      f.pixel_format = pf;
    } else {
      EMBER_ERROR("StreamReader: unsupported filter \"", part, "\" in \"", *desc,
                  "\" (supported: scale=width=<w>:height=<h>, format=pix_fmts=<format>)");
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return f;
}

// Bytes per pixel of a packed 8-bit pixel format (rgb24: 3, gray: 1, rgba: 4);
// 0 for formats a [C, H, W] uint8 tensor cannot hold directly (planar, paletted, deep).
int packed_channels(AVPixelFormat f) {
  const AVPixFmtDescriptor* d = av_pix_fmt_desc_get(f);
  if (d == nullptr ||
      (d->flags & (AV_PIX_FMT_FLAG_PLANAR | AV_PIX_FMT_FLAG_PAL | AV_PIX_FMT_FLAG_BITSTREAM | AV_PIX_FMT_FLAG_HWACCEL)))
    return 0;
  if (d->nb_components == 0 || d->log2_chroma_w != 0 || d->log2_chroma_h != 0) return 0;
  for (int c = 0; c < d->nb_components; ++c)
    if (d->comp[c].depth != 8) return 0;
  return av_get_padded_bits_per_pixel(d) / 8;
}

struct SwsFreer {
  void operator()(SwsContext* c) const { sws_freeContext(c); }
};

// Video: one [1, C, H, W] uint8 tensor per frame, in the output pixel format and size.
class VideoSink : public Sink {
 public:
  VideoSink(int64_t source, std::string desc, VideoFilter filter, int64_t frames_per_chunk, int64_t buffer_chunks)
      : Sink(source, std::move(desc), frames_per_chunk, buffer_chunks), filter_(filter) {}

  void push(const AVFrame* frame) override {
    EMBER_CHECK(frame->width > 0 && frame->height > 0, "StreamReader: decoded video of stream ", source_, " is ",
                frame->width, "x", frame->height);
    const auto in_fmt = static_cast<AVPixelFormat>(frame->format);
    const AVPixelFormat out_fmt = filter_.pixel_format.value_or(in_fmt);
    const int channels = packed_channels(out_fmt);
    const char* name = av_get_pix_fmt_name(out_fmt);
    EMBER_CHECK(channels > 0, "StreamReader: pixel format ", name ? name : "none",
                " cannot be returned as a tensor; ask for a packed 8-bit format such as rgb24, bgr24 or gray");
    const int w = filter_.width.value_or(frame->width), h = filter_.height.value_or(frame->height);
    if (!sws_ || in_w_ != frame->width || in_h_ != frame->height || in_fmt_ != in_fmt) {
      sws_.reset(
          sws_getContext(frame->width, frame->height, in_fmt, w, h, out_fmt, SWS_BICUBIC, nullptr, nullptr, nullptr));
      EMBER_CHECK(sws_ != nullptr, "StreamReader: cannot convert video of stream ", source_, " to ", name);
      in_w_ = frame->width;
      in_h_ = frame->height;
      in_fmt_ = in_fmt;
    }
    Tensor hwc = empty({1, h, w, channels}, TensorOptions().dtype(kByte));
    uint8_t* dst[4] = {static_cast<uint8_t*>(hwc.data_ptr()), nullptr, nullptr, nullptr};
    int dst_stride[4] = {w * channels, 0, 0, 0};
    int rows = sws_scale(sws_.get(), frame->data, frame->linesize, 0, frame->height, dst, dst_stride);
    EMBER_CHECK(rows == h, "StreamReader: converting video of stream ", source_, " failed");
    buffer_.push(hwc.permute({0, 3, 1, 2}).contiguous());
  }

 private:
  VideoFilter filter_;
  std::unique_ptr<SwsContext, SwsFreer> sws_;
  int in_w_ = 0, in_h_ = 0;
  AVPixelFormat in_fmt_ = AV_PIX_FMT_NONE;
};

}  // namespace

struct StreamReader::Impl {
  // Declared first so they are destroyed last: the format context reads through them.
  Tensor bytes;
  detail::MemoryReader memory;
  detail::AvioPtr avio;
  detail::InputContextPtr fmt;
  std::map<int64_t, detail::CodecContextPtr> decoders;
  std::vector<std::unique_ptr<Sink>> sinks;
  detail::PacketPtr packet{av_packet_alloc()};
  detail::FramePtr frame{av_frame_alloc()};
  bool eof = false;

  void open(const char* url, const std::string& name, const std::optional<std::string>& format,
            const OptionDict& option) {
    EMBER_CHECK(packet && frame, "StreamReader: out of memory");
    const AVInputFormat* ifmt = nullptr;
    if (format) {
      ifmt = av_find_input_format(format->c_str());
      EMBER_CHECK(ifmt != nullptr, "StreamReader: unsupported format \"", *format, "\"");
    }
    AVFormatContext* raw = avformat_alloc_context();
    EMBER_CHECK(raw != nullptr, "StreamReader: out of memory");
    if (avio) {
      raw->pb = avio.get();
      raw->flags |= AVFMT_FLAG_CUSTOM_IO;
    }
    detail::Dict opts(option);
    int ret = avformat_open_input(&raw, url, ifmt, opts.get());  // frees raw on failure
    EMBER_CHECK(ret >= 0, "StreamReader: failed to open the input ", name, " (", av_error(ret), ")");
    fmt.reset(raw);
    std::string unused = opts.unused_keys();
    EMBER_CHECK(unused.empty(), "StreamReader: unrecognized option(s) for ", name, ": ", unused);
    ret = avformat_find_stream_info(fmt.get(), nullptr);
    EMBER_CHECK(ret >= 0, "StreamReader: failed to find stream information in ", name, " (", av_error(ret), ")");
    for (unsigned i = 0; i < fmt->nb_streams; ++i) fmt->streams[i]->discard = AVDISCARD_ALL;
  }

  AVStream* stream(const std::string& fn, int64_t i) const {
    EMBER_CHECK(i >= 0 && i < static_cast<int64_t>(fmt->nb_streams), fn, ": stream index ", i,
                " is out of range; the source has ", fmt->nb_streams, " streams");
    return fmt->streams[i];
  }

  void check_sink(const std::string& fn, int64_t i) const {
    EMBER_CHECK(i >= 0 && i < static_cast<int64_t>(sinks.size()), fn, ": output stream index ", i, " is out of range; ",
                sinks.size(), " output streams are configured");
  }

  void open_decoder(const std::string& fn, int64_t i, const std::optional<std::string>& decoder,
                    const std::optional<OptionDict>& option) {
    if (decoders.count(i)) return;
    AVStream* s = fmt->streams[i];
    const AVCodec* codec =
        decoder ? avcodec_find_decoder_by_name(decoder->c_str()) : avcodec_find_decoder(s->codecpar->codec_id);
    EMBER_CHECK(codec != nullptr, fn, ": ",
                decoder ? "unsupported decoder \"" + *decoder + "\""
                        : std::string("no decoder for stream ") + std::to_string(i) + " (" +
                              avcodec_get_name(s->codecpar->codec_id) + ")");
    detail::CodecContextPtr ctx(avcodec_alloc_context3(codec));
    EMBER_CHECK(ctx != nullptr, fn, ": out of memory");
    int ret = avcodec_parameters_to_context(ctx.get(), s->codecpar);
    EMBER_CHECK(ret >= 0, fn, ": bad codec parameters in stream ", i, " (", av_error(ret), ")");
    ctx->pkt_timebase = s->time_base;
    detail::Dict opts(option.value_or(OptionDict{}));
    ret = avcodec_open2(ctx.get(), codec, opts.get());
    EMBER_CHECK(ret >= 0, fn, ": failed to open the decoder for stream ", i, " (", av_error(ret), ")");
    std::string unused = opts.unused_keys();
    EMBER_CHECK(unused.empty(), fn, ": unrecognized decoder option(s): ", unused);
    s->discard = AVDISCARD_DEFAULT;
    decoders[i] = std::move(ctx);
  }

  void deliver(int64_t source) {
    for (auto& sink : sinks)
      if (sink->source() == source) sink->push(frame.get());
  }

  void receive_frames(int64_t source, AVCodecContext* ctx) {
    while (true) {
      int ret = avcodec_receive_frame(ctx, frame.get());
      if (ret == AVERROR(EAGAIN) || ret == AVERROR_EOF) return;
      EMBER_CHECK(ret >= 0, "StreamReader: failed to decode stream ", source, " (", av_error(ret), ")");
      struct Unref {
        AVFrame* f;
        ~Unref() { av_frame_unref(f); }
      } unref{frame.get()};
      deliver(source);
    }
  }

  void decode(int64_t source, AVCodecContext* ctx, const AVPacket* pkt) {
    int ret = avcodec_send_packet(ctx, pkt);
    EMBER_CHECK(ret >= 0 || ret == AVERROR_EOF || ret == AVERROR(EAGAIN), "StreamReader: failed to decode a packet ",
                "of stream ", source, " (", av_error(ret), ")");
    receive_frames(source, ctx);
  }

  void drain() {
    for (auto& [i, ctx] : decoders) decode(i, ctx.get(), nullptr);
    for (auto& sink : sinks) sink->flush();
  }
};

StreamReader::StreamReader(const std::string& src, const std::optional<std::string>& format, const OptionDict& option,
                           int64_t buffer_size)
    : impl_(std::make_unique<Impl>()) {
  impl_->open(src.c_str(), "\"" + src + "\"", format, option);
}

StreamReader::StreamReader(const Tensor& src, const std::optional<std::string>& format, const OptionDict& option,
                           int64_t buffer_size)
    : impl_(std::make_unique<Impl>()) {
  EMBER_CHECK(src.defined() && src.dim() == 1 && src.scalar_type() == kUInt8,
              "StreamReader: a source tensor must be 1-D uint8 bytes, got ",
              src.defined() ? str(src.scalar_type(), " of shape ", src.sizes()) : std::string("an undefined tensor"));
  EMBER_CHECK(buffer_size > 0 && buffer_size <= (1 << 30), "StreamReader: buffer_size must be positive, got ",
              buffer_size);
  impl_->bytes = src.contiguous();
  impl_->memory = {static_cast<const uint8_t*>(impl_->bytes.data_ptr()), impl_->bytes.numel(), 0};
  impl_->avio = detail::make_memory_avio(&impl_->memory, static_cast<int>(buffer_size));
  impl_->open(nullptr, "byte buffer of " + std::to_string(impl_->bytes.numel()) + " bytes", format, option);
}

StreamReader::StreamReader(std::istream& src, const std::optional<std::string>& format, const OptionDict& option,
                           int64_t buffer_size)
    : impl_(std::make_unique<Impl>()) {
  EMBER_CHECK(buffer_size > 0 && buffer_size <= (1 << 30), "StreamReader: buffer_size must be positive, got ",
              buffer_size);
  impl_->avio = detail::make_istream_avio(&src, static_cast<int>(buffer_size));
  impl_->open(nullptr, "file-like object", format, option);
}

StreamReader::~StreamReader() = default;
StreamReader::StreamReader(StreamReader&&) noexcept = default;
StreamReader& StreamReader::operator=(StreamReader&&) noexcept = default;

int64_t StreamReader::num_src_streams() const { return impl_->fmt->nb_streams; }
int64_t StreamReader::num_out_streams() const { return static_cast<int64_t>(impl_->sinks.size()); }

std::optional<int64_t> StreamReader::default_audio_stream() const {
  int i = av_find_best_stream(impl_->fmt.get(), AVMEDIA_TYPE_AUDIO, -1, -1, nullptr, 0);
  return i < 0 ? std::nullopt : std::optional<int64_t>(i);
}

std::optional<int64_t> StreamReader::default_video_stream() const {
  int i = av_find_best_stream(impl_->fmt.get(), AVMEDIA_TYPE_VIDEO, -1, -1, nullptr, 0);
  return i < 0 ? std::nullopt : std::optional<int64_t>(i);
}

std::map<std::string, std::string> StreamReader::get_metadata() const {
  return detail::dict_entries(impl_->fmt->metadata);
}

StreamReaderSourceStream StreamReader::get_src_stream_info(int64_t i) const {
  const AVStream* s = impl_->stream("get_src_stream_info", i);
  const AVCodecParameters* p = s->codecpar;
  StreamReaderSourceStream info;
  const char* media = av_get_media_type_string(p->codec_type);
  info.media_type = media ? media : "unknown";
  if (const AVCodecDescriptor* d = avcodec_descriptor_get(p->codec_id)) {
    info.codec = d->name;
    info.codec_long_name = d->long_name ? d->long_name : "";
  }
  info.metadata = detail::dict_entries(s->metadata);
  if (p->codec_type == AVMEDIA_TYPE_AUDIO || p->codec_type == AVMEDIA_TYPE_VIDEO) {
    const char* f = p->codec_type == AVMEDIA_TYPE_AUDIO ? av_get_sample_fmt_name(static_cast<AVSampleFormat>(p->format))
                                                        : av_get_pix_fmt_name(static_cast<AVPixelFormat>(p->format));
    if (f != nullptr) info.format = f;
    info.bit_rate = p->bit_rate;
    info.num_frames = s->nb_frames;
    info.bits_per_sample = p->bits_per_raw_sample;
  }
  if (p->codec_type == AVMEDIA_TYPE_AUDIO) {
    info.sample_rate = p->sample_rate;
    info.num_channels = p->ch_layout.nb_channels;
  } else if (p->codec_type == AVMEDIA_TYPE_VIDEO) {
    info.width = p->width;
    info.height = p->height;
    info.frame_rate = av_q2d(s->r_frame_rate);
  }
  return info;
}

StreamReaderOutputStream StreamReader::get_out_stream_info(int64_t i) const {
  impl_->check_sink("get_out_stream_info", i);
  const auto& sink = impl_->sinks[i];
  if (!sink->description().empty()) return {sink->source(), sink->description()};
  bool video = impl_->fmt->streams[sink->source()]->codecpar->codec_type == AVMEDIA_TYPE_VIDEO;
  return {sink->source(), video ? "null" : "anull"};
}

void StreamReader::seek(double timestamp) {
  EMBER_CHECK(timestamp >= 0, "seek: timestamp must be non-negative, got ", timestamp);
  EMBER_CHECK(timestamp < 9.2e12, "seek: timestamp ", timestamp, " is too large");
  auto ts = static_cast<int64_t>(timestamp * AV_TIME_BASE);
  int ret = avformat_seek_file(impl_->fmt.get(), -1, INT64_MIN, ts, INT64_MAX, 0);
  EMBER_CHECK(ret >= 0, "seek: failed to seek to ", timestamp, " s (", av_error(ret), ")");
  for (auto& [i, ctx] : impl_->decoders) avcodec_flush_buffers(ctx.get());
  for (auto& sink : impl_->sinks) sink->reset();
  impl_->eof = false;
}

void StreamReader::add_basic_audio_stream(int64_t frames_per_chunk, int64_t buffer_chunk_size,
                                          std::optional<int64_t> stream_index,
                                          const std::optional<std::string>& decoder,
                                          const std::optional<OptionDict>& decoder_option,
                                          const std::optional<std::string>& format,
                                          std::optional<int64_t> sample_rate) {
  std::string desc;
  if (sample_rate) desc = "aresample=" + std::to_string(*sample_rate);
  if (format) desc += (desc.empty() ? "" : ",") + std::string("aformat=sample_fmts=") + *format;
  add_audio_stream(frames_per_chunk, buffer_chunk_size, stream_index, decoder, decoder_option,
                   desc.empty() ? std::nullopt : std::optional<std::string>(desc));
}

void StreamReader::add_audio_stream(int64_t frames_per_chunk, int64_t buffer_chunk_size,
                                    std::optional<int64_t> stream_index, const std::optional<std::string>& decoder,
                                    const std::optional<OptionDict>& decoder_option,
                                    const std::optional<std::string>& filter_desc) {
  std::optional<int64_t> i = stream_index ? stream_index : default_audio_stream();
  EMBER_CHECK(i.has_value(), "add_audio_stream: There is no audio stream.");
  const AVStream* s = impl_->stream("add_audio_stream", *i);
  EMBER_CHECK(s->codecpar->codec_type == AVMEDIA_TYPE_AUDIO, "add_audio_stream: stream ", *i, " is not audio but ",
              av_get_media_type_string(s->codecpar->codec_type));
  EMBER_CHECK(frames_per_chunk > 0 || frames_per_chunk == -1,
              "add_audio_stream: frames_per_chunk must be positive or -1, got ", frames_per_chunk);
  EMBER_CHECK(buffer_chunk_size > 0 || buffer_chunk_size == -1,
              "add_audio_stream: buffer_chunk_size must be positive or -1, got ", buffer_chunk_size);
  AudioFilter filter = parse_filter(filter_desc);
  if (filter.sample_format) (void)detail::dtype_of("add_audio_stream", *filter.sample_format);
  impl_->open_decoder("add_audio_stream", *i, decoder, decoder_option);
  impl_->sinks.push_back(
      std::make_unique<AudioSink>(*i, filter_desc.value_or(""), filter, frames_per_chunk, buffer_chunk_size));
}

void StreamReader::add_basic_video_stream(int64_t frames_per_chunk, int64_t buffer_chunk_size,
                                          std::optional<int64_t> stream_index,
                                          const std::optional<std::string>& decoder,
                                          const std::optional<OptionDict>& decoder_option,
                                          const std::optional<std::string>& hw_accel,
                                          const std::optional<std::string>& format, std::optional<double> frame_rate,
                                          std::optional<int64_t> width, std::optional<int64_t> height) {
  std::vector<std::string> parts;
  if (frame_rate) parts.push_back("fps=" + str(*frame_rate));
  std::vector<std::string> scales;
  if (width) scales.push_back("width=" + std::to_string(*width));
  if (height) scales.push_back("height=" + std::to_string(*height));
  if (!scales.empty()) parts.push_back("scale=" + scales[0] + (scales.size() > 1 ? ":" + scales[1] : ""));
  if (format) parts.push_back("format=pix_fmts=" + *format);
  std::string desc;
  for (const auto& p : parts) desc += (desc.empty() ? "" : ",") + p;
  add_video_stream(frames_per_chunk, buffer_chunk_size, stream_index, decoder, decoder_option, hw_accel,
                   desc.empty() ? std::nullopt : std::optional<std::string>(desc));
}

void StreamReader::add_video_stream(int64_t frames_per_chunk, int64_t buffer_chunk_size,
                                    std::optional<int64_t> stream_index, const std::optional<std::string>& decoder,
                                    const std::optional<OptionDict>& decoder_option,
                                    const std::optional<std::string>& hw_accel,
                                    const std::optional<std::string>& filter_desc) {
  std::optional<int64_t> i = stream_index ? stream_index : default_video_stream();
  EMBER_CHECK(i.has_value(), "add_video_stream: There is no video stream.");
  const AVStream* s = impl_->stream("add_video_stream", *i);
  EMBER_CHECK(s->codecpar->codec_type == AVMEDIA_TYPE_VIDEO, "add_video_stream: stream ", *i, " is not video but ",
              av_get_media_type_string(s->codecpar->codec_type));
  EMBER_CHECK(!hw_accel, "add_video_stream: hw_accel \"", hw_accel.value_or(""),
              "\" is not supported; Ember decodes on the CPU");
  EMBER_CHECK(frames_per_chunk > 0 || frames_per_chunk == -1,
              "add_video_stream: frames_per_chunk must be positive or -1, got ", frames_per_chunk);
  EMBER_CHECK(buffer_chunk_size > 0 || buffer_chunk_size == -1,
              "add_video_stream: buffer_chunk_size must be positive or -1, got ", buffer_chunk_size);
  VideoFilter filter = parse_video_filter(filter_desc);
  const char* pix_name = filter.pixel_format ? av_get_pix_fmt_name(*filter.pixel_format) : nullptr;
  EMBER_CHECK(!filter.pixel_format || packed_channels(*filter.pixel_format) > 0, "add_video_stream: pixel format ",
              pix_name ? pix_name : "none",
              " cannot be returned as a tensor; use a packed 8-bit format such as rgb24, bgr24, rgba or gray");
  impl_->open_decoder("add_video_stream", *i, decoder, decoder_option);
  impl_->sinks.push_back(
      std::make_unique<VideoSink>(*i, filter_desc.value_or(""), filter, frames_per_chunk, buffer_chunk_size));
}

void StreamReader::remove_stream(int64_t i) {
  impl_->check_sink("remove_stream", i);
  int64_t source = impl_->sinks[i]->source();
  impl_->sinks.erase(impl_->sinks.begin() + i);
  for (const auto& sink : impl_->sinks)
    if (sink->source() == source) return;
  impl_->decoders.erase(source);
  impl_->fmt->streams[source]->discard = AVDISCARD_ALL;
}

int64_t StreamReader::process_packet(std::optional<double> timeout, double backoff) {
  if (impl_->eof) return 1;
  const auto start = std::chrono::steady_clock::now();
  int ret = 0;
  while (true) {
    ret = av_read_frame(impl_->fmt.get(), impl_->packet.get());
    if (ret != AVERROR(EAGAIN)) break;
    double waited = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    EMBER_CHECK(!timeout || waited < *timeout, "process_packet: timed out after ", *timeout,
                " ms waiting for the source");
    std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(backoff));
  }
  if (ret == AVERROR_EOF) {
    impl_->eof = true;
    impl_->drain();
    return 1;
  }
  EMBER_CHECK(ret >= 0, "process_packet: failed to read a packet (", av_error(ret), ")");
  struct Unref {
    AVPacket* p;
    ~Unref() { av_packet_unref(p); }
  } unref{impl_->packet.get()};
  auto it = impl_->decoders.find(impl_->packet->stream_index);
  if (it != impl_->decoders.end()) impl_->decode(it->first, it->second.get(), impl_->packet.get());
  return 0;
}

void StreamReader::process_all_packets() {
  while (process_packet() == 0) {
  }
}

bool StreamReader::is_buffer_ready() const {
  for (const auto& sink : impl_->sinks)
    if (!sink->buffer().is_ready()) return false;
  return true;
}

Chunks StreamReader::pop_chunks() {
  Chunks out;
  out.reserve(impl_->sinks.size());
  for (auto& sink : impl_->sinks) out.push_back(sink->buffer().pop());
  return out;
}

int64_t StreamReader::fill_buffer(std::optional<double> timeout, double backoff) {
  while (!is_buffer_ready()) {
    int64_t code = process_packet(timeout, backoff);
    if (code != 0) return code;
  }
  return 0;
}

StreamReader::ChunkStream StreamReader::stream(std::optional<double> timeout, double backoff) {
  EMBER_CHECK(num_out_streams() > 0, "stream: No output stream is configured.");
  return ChunkStream(this, timeout, backoff);
}

bool StreamReader::ChunkStream::next(Chunks& out) {
  if (!draining_) {
    if (reader_->fill_buffer(timeout_, backoff_) == 0) {
      out = reader_->pop_chunks();
      return true;
    }
    draining_ = true;
  }
  out = reader_->pop_chunks();
  for (const auto& c : out)
    if (c.has_value()) return true;
  return false;
}

StreamReader::ChunkStream::iterator& StreamReader::ChunkStream::iterator::operator++() {
  if (!stream_->next(current_)) done_ = true;
  return *this;
}

}  // namespace torch::audio::io
