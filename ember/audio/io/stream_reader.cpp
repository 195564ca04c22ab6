#include "ember/audio/io/stream_reader.h"

#include <chrono>
#include <cstring>
#include <thread>

#include "ember/audio/io/chunk_buffer.h"
#include "ember/audio/io/ffmpeg_util.h"
#include "ember/audio/io/filter_graph.h"
#include "ember/audio/io/video_frame.h"
#include "ember/core/error.h"
#include "ember/ops/factory/factory.h"

namespace torch::audio::io {
namespace {

using detail::av_error;

// One output stream: runs decoded frames through its filter graph, turns the
// filtered frames into tensors and buffers them in chunks.
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

  void push(const AVFrame* frame) {
    if (!graph_ || changed(frame)) {
      // New input parameters mid-stream: drain the old graph first.
      if (graph_) flush();
      graph_ = make_graph("StreamReader", frame);
    }
    graph_->add_frame(const_cast<AVFrame*>(frame));  // AV_BUFFERSRC_FLAG_KEEP_REF: not modified
    pull();
  }
  // The end of the stream: emits what the filters still hold.
  void flush() {
    if (!graph_) return;
    graph_->add_frame(nullptr);
    pull();
    graph_.reset();
  }
  // After a seek: nothing buffered, filters restart.
  void reset() {
    buffer_.clear();
    graph_.reset();
  }

 protected:
  // A graph fed by frames like `frame` (the decoder's announced parameters
  // when the stream is added, the real ones from the first frame on).
  virtual std::unique_ptr<reader_filter::FilterGraph> make_graph(const std::string& fn, const AVFrame* frame) = 0;
  virtual bool changed(const AVFrame* frame) const = 0;
  virtual Tensor to_tensor(const AVFrame* frame) const = 0;

  void pull() {
    while (graph_->get_frame(out_.get())) {
      struct Unref {
        AVFrame* f;
        ~Unref() { av_frame_unref(f); }
      } unref{out_.get()};
      buffer_.push(to_tensor(out_.get()));
    }
  }

  int64_t source_;
  std::string desc_;
  detail::ChunkBuffer buffer_;
  std::unique_ptr<reader_filter::FilterGraph> graph_;
  detail::FramePtr out_{av_frame_alloc()};
};

// Audio: [frames, channels] tensors in the sample format the graph ends with.
class AudioSink : public Sink {
 public:
  AudioSink(int64_t source, std::string desc, AVRational time_base, int64_t frames_per_chunk, int64_t buffer_chunks)
      : Sink(source, std::move(desc), frames_per_chunk, buffer_chunks), time_base_(time_base) {
    EMBER_CHECK(out_ != nullptr, "add_audio_stream: out of memory");
  }
  ~AudioSink() override { av_channel_layout_uninit(&layout_); }

  // Builds the graph for the decoder's announced parameters (as torchaudio
  // does; the first frame rebuilds it if they were wrong), so a bad
  // description or an output format without a dtype raises when the stream is added.
  void validate(const AVCodecContext* ctx) {
    detail::FramePtr probe(av_frame_alloc());
    EMBER_CHECK(probe != nullptr, "add_audio_stream: out of memory");
    probe->sample_rate = ctx->sample_rate > 0 ? ctx->sample_rate : 44100;
    probe->format = ctx->sample_fmt != AV_SAMPLE_FMT_NONE ? ctx->sample_fmt : AV_SAMPLE_FMT_FLTP;
    int n = ctx->ch_layout.nb_channels > 0 ? ctx->ch_layout.nb_channels : 1;
    int ret = ctx->ch_layout.nb_channels > 0 ? av_channel_layout_copy(&probe->ch_layout, &ctx->ch_layout)
                                             : (av_channel_layout_default(&probe->ch_layout, n), 0);
    EMBER_CHECK(ret >= 0, "add_audio_stream: bad channel layout (", av_error(ret), ")");
    graph_ = make_graph("add_audio_stream", probe.get());
    (void)detail::dtype_of("add_audio_stream", static_cast<AVSampleFormat>(graph_->format()));
  }

 protected:
  std::unique_ptr<reader_filter::FilterGraph> make_graph(const std::string& fn, const AVFrame* frame) override {
    reader_filter::AudioSourceParams p;
    p.time_base = time_base_;
    p.sample_rate = frame->sample_rate;
    p.format = static_cast<AVSampleFormat>(frame->format);
    p.layout = &frame->ch_layout;
    auto graph = std::make_unique<reader_filter::FilterGraph>(fn, p, desc_);
    // Remembers what the graph was built for.
    format_ = frame->format;
    rate_ = frame->sample_rate;
    av_channel_layout_uninit(&layout_);
    int ret = av_channel_layout_copy(&layout_, &frame->ch_layout);
    EMBER_CHECK(ret >= 0, fn, ": bad channel layout (", av_error(ret), ")");
    return graph;
  }

  bool changed(const AVFrame* frame) const override {
    return frame->format != format_ || frame->sample_rate != rate_ ||
           av_channel_layout_compare(&frame->ch_layout, &layout_) != 0;
  }

  Tensor to_tensor(const AVFrame* frame) const override {
    const auto fmt = static_cast<AVSampleFormat>(frame->format);
    const ScalarType dtype = detail::dtype_of("StreamReader", fmt);
    const int64_t channels = frame->ch_layout.nb_channels, n = frame->nb_samples;
    EMBER_CHECK(channels > 0 && n >= 0, "StreamReader: filtered audio of stream ", source_, " has ", channels,
                " channels");
    const size_t bytes = static_cast<size_t>(n) * element_size(dtype);
    if (av_sample_fmt_is_planar(fmt)) {
      // One plane per channel: gathered as [channels, frames], returned [frames, channels].
      Tensor planes = empty({channels, n}, TensorOptions().dtype(dtype));
      auto* dst = static_cast<uint8_t*>(planes.data_ptr());
      for (int64_t c = 0; c < channels; ++c) std::memcpy(dst + c * bytes, frame->extended_data[c], bytes);
      return planes.t().contiguous();
    }
    Tensor t = empty({n, channels}, TensorOptions().dtype(dtype));
    std::memcpy(t.data_ptr(), frame->data[0], bytes * static_cast<size_t>(channels));
    return t;
  }

 private:
  AVRational time_base_;
  int format_ = -1;
  int rate_ = 0;
  AVChannelLayout layout_{};
};

// Video: one [1, C, H, W] uint8 tensor per filtered frame.
class VideoSink : public Sink {
 public:
  VideoSink(int64_t source, std::string desc, AVRational time_base, AVRational frame_rate, int64_t frames_per_chunk,
            int64_t buffer_chunks)
      : Sink(source, std::move(desc), frames_per_chunk, buffer_chunks), time_base_(time_base), frame_rate_(frame_rate) {
    EMBER_CHECK(out_ != nullptr, "add_video_stream: out of memory");
  }

  void validate(const AVCodecContext* ctx) {
    detail::FramePtr probe(av_frame_alloc());
    EMBER_CHECK(probe != nullptr, "add_video_stream: out of memory");
    probe->width = ctx->width > 0 ? ctx->width : 16;
    probe->height = ctx->height > 0 ? ctx->height : 16;
    probe->format = ctx->pix_fmt != AV_PIX_FMT_NONE ? ctx->pix_fmt : AV_PIX_FMT_YUV420P;
    probe->sample_aspect_ratio = ctx->sample_aspect_ratio;
    graph_ = make_graph("add_video_stream", probe.get());
    reader_filter::check_tensor_pixel_format("add_video_stream", graph_->format());
  }

 protected:
  std::unique_ptr<reader_filter::FilterGraph> make_graph(const std::string& fn, const AVFrame* frame) override {
    reader_filter::VideoSourceParams p;
    p.time_base = time_base_;
    p.frame_rate = frame_rate_;
    p.sample_aspect_ratio = frame->sample_aspect_ratio;
    p.width = frame->width;
    p.height = frame->height;
    p.format = static_cast<AVPixelFormat>(frame->format);
    auto graph = std::make_unique<reader_filter::FilterGraph>(fn, p, desc_);
    w_ = frame->width;
    h_ = frame->height;
    format_ = frame->format;
    return graph;
  }

  bool changed(const AVFrame* frame) const override {
    return frame->width != w_ || frame->height != h_ || frame->format != format_;
  }

  Tensor to_tensor(const AVFrame* frame) const override { return reader_filter::video_frame_to_tensor(frame); }

 private:
  AVRational time_base_;
  AVRational frame_rate_;
  int w_ = 0, h_ = 0, format_ = -1;
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

  // Closes the decoder of a source no output stream reads any more.
  void release_unused_decoder(int64_t source) {
    for (const auto& sink : sinks)
      if (sink->source() == source) return;
    decoders.erase(source);
    fmt->streams[source]->discard = AVDISCARD_ALL;
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
  impl_->open_decoder("add_audio_stream", *i, decoder, decoder_option);
  auto sink =
      std::make_unique<AudioSink>(*i, filter_desc.value_or(""), s->time_base, frames_per_chunk, buffer_chunk_size);
  try {
    sink->validate(impl_->decoders.at(*i).get());
  } catch (...) {
    impl_->release_unused_decoder(*i);
    throw;
  }
  impl_->sinks.push_back(std::move(sink));
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
  impl_->open_decoder("add_video_stream", *i, decoder, decoder_option);
  auto sink = std::make_unique<VideoSink>(*i, filter_desc.value_or(""), s->time_base,
                                          av_guess_frame_rate(impl_->fmt.get(), const_cast<AVStream*>(s), nullptr),
                                          frames_per_chunk, buffer_chunk_size);
  try {
    sink->validate(impl_->decoders.at(*i).get());
  } catch (...) {
    impl_->release_unused_decoder(*i);
    throw;
  }
  impl_->sinks.push_back(std::move(sink));
}

void StreamReader::remove_stream(int64_t i) {
  impl_->check_sink("remove_stream", i);
  int64_t source = impl_->sinks[i]->source();
  impl_->sinks.erase(impl_->sinks.begin() + i);
  impl_->release_unused_decoder(source);
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
