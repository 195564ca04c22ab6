#include "ember/audio/io/stream_writer.h"

#include <algorithm>
#include <vector>

extern "C" {
#include <libavutil/audio_fifo.h>
#include <libavutil/channel_layout.h>
}

#include "ember/audio/io/ffmpeg_util.h"
#include "ember/core/error.h"

namespace torch::audio::io {
namespace {

using detail::av_error;

struct FifoFreer {
  void operator()(AVAudioFifo* f) const { av_audio_fifo_free(f); }
};
struct OutputContextFreer {
  void operator()(AVFormatContext* c) const {
    if (c == nullptr) return;
    if (c->oformat && !(c->oformat->flags & AVFMT_NOFILE) && !(c->flags & AVFMT_FLAG_CUSTOM_IO)) avio_closep(&c->pb);
    avformat_free_context(c);
  }
};

bool supports(const AVCodec* codec, AVSampleFormat f) {
  if (codec->sample_fmts == nullptr) return true;
  for (const AVSampleFormat* p = codec->sample_fmts; *p != AV_SAMPLE_FMT_NONE; ++p)
    if (*p == f) return true;
  return false;
}

// One encoded stream: converts chunks to the encoder's format, queues them,
// and cuts encoder-sized frames.
struct AudioOutput {
  AVStream* stream = nullptr;
  detail::CodecContextPtr enc;
  detail::SwrPtr swr;
  std::unique_ptr<AVAudioFifo, FifoFreer> fifo;
  detail::FramePtr frame{av_frame_alloc()};
  detail::PacketPtr packet{av_packet_alloc()};
  AVSampleFormat in_fmt = AV_SAMPLE_FMT_NONE;
  ScalarType dtype = kFloat;
  int64_t next_pts = 0;
};

}  // namespace

struct StreamWriter::Impl {
  std::string dst;
  // Declared before fmt so it is destroyed after: the muxer writes through it.
  detail::AvioPtr custom_avio;
  std::unique_ptr<AVFormatContext, OutputContextFreer> fmt;
  std::vector<std::unique_ptr<AudioOutput>> outputs;
  bool opened = false;
  bool closed = false;

  AudioOutput& output(const std::string& fn, int64_t i) {
    EMBER_CHECK(i >= 0 && i < static_cast<int64_t>(outputs.size()), fn, ": stream index ", i, " is out of range; ",
                outputs.size(), " streams were added");
    return *outputs[i];
  }

  void write_packets(AudioOutput& o) {
    while (true) {
      int ret = avcodec_receive_packet(o.enc.get(), o.packet.get());
      if (ret == AVERROR(EAGAIN) || ret == AVERROR_EOF) return;
      EMBER_CHECK(ret >= 0, "write_audio_chunk: encoding failed (", av_error(ret), ")");
      av_packet_rescale_ts(o.packet.get(), o.enc->time_base, o.stream->time_base);
      o.packet->stream_index = o.stream->index;
      ret = av_interleaved_write_frame(fmt.get(), o.packet.get());  // takes the packet's reference
      EMBER_CHECK(ret >= 0, "write_audio_chunk: writing to \"", dst, "\" failed (", av_error(ret), ")");
    }
  }

  // Encodes `n` samples from the queue (n may be short only for the last frame).
  void encode_from_fifo(AudioOutput& o, int n) {
    const int frame_size = o.enc->frame_size;
    const bool pad = frame_size > 0 && n < frame_size &&
                     !(o.enc->codec->capabilities & (AV_CODEC_CAP_SMALL_LAST_FRAME | AV_CODEC_CAP_VARIABLE_FRAME_SIZE));
    av_frame_unref(o.frame.get());
    o.frame->format = o.enc->sample_fmt;
    o.frame->sample_rate = o.enc->sample_rate;
    o.frame->nb_samples = pad ? frame_size : n;
    int ret = av_channel_layout_copy(&o.frame->ch_layout, &o.enc->ch_layout);
    EMBER_CHECK(ret >= 0, "write_audio_chunk: bad channel layout (", av_error(ret), ")");
    ret = av_frame_get_buffer(o.frame.get(), 0);
    EMBER_CHECK(ret >= 0, "write_audio_chunk: out of memory (", av_error(ret), ")");
    if (pad)
      av_samples_set_silence(o.frame->extended_data, 0, frame_size, o.enc->ch_layout.nb_channels, o.enc->sample_fmt);
    int got = av_audio_fifo_read(o.fifo.get(), reinterpret_cast<void**>(o.frame->extended_data), n);
    EMBER_CHECK(got == n, "write_audio_chunk: internal queue underflow");
    o.frame->pts = o.next_pts;
    o.next_pts += n;
    ret = avcodec_send_frame(o.enc.get(), o.frame.get());
    EMBER_CHECK(ret >= 0, "write_audio_chunk: the encoder refused a frame (", av_error(ret), ")");
    write_packets(o);
  }

  void drain_fifo(AudioOutput& o, bool final) {
    const int frame_size = o.enc->frame_size > 0 ? o.enc->frame_size : 0;
    while (true) {
      int have = av_audio_fifo_size(o.fifo.get());
      if (have == 0) return;
      if (frame_size == 0) {
        encode_from_fifo(o, have);
      } else if (have >= frame_size) {
        encode_from_fifo(o, frame_size);
      } else if (final) {
        encode_from_fifo(o, have);
      } else {
        return;
      }
    }
  }
};

StreamWriter::StreamWriter(const std::string& dst, const std::optional<std::string>& format)
    : impl_(std::make_unique<Impl>()) {
  impl_->dst = dst;
  AVFormatContext* raw = nullptr;
  int ret = avformat_alloc_output_context2(&raw, nullptr, format ? format->c_str() : nullptr, dst.c_str());
  EMBER_CHECK(ret >= 0 && raw != nullptr, "StreamWriter: cannot find a muxer for \"", dst, "\"",
              format ? " with format \"" + *format + "\"" : std::string(), " (", av_error(ret), ")");
  impl_->fmt.reset(raw);
}

StreamWriter::StreamWriter(std::ostream& dst, const std::optional<std::string>& format, int64_t buffer_size)
    : impl_(std::make_unique<Impl>()) {
  impl_->dst = "file-like object";
  EMBER_CHECK(format.has_value(), "StreamWriter: format is required when writing to a file-like object");
  EMBER_CHECK(buffer_size > 0 && buffer_size <= (1 << 30), "StreamWriter: buffer_size must be positive, got ",
              buffer_size);
  AVFormatContext* raw = nullptr;
  int ret = avformat_alloc_output_context2(&raw, nullptr, format->c_str(), nullptr);
  EMBER_CHECK(ret >= 0 && raw != nullptr, "StreamWriter: cannot find a muxer for format \"", *format, "\" (",
              av_error(ret), ")");
  impl_->fmt.reset(raw);
  impl_->custom_avio = detail::make_ostream_avio(&dst, static_cast<int>(buffer_size));
  raw->pb = impl_->custom_avio.get();
  raw->flags |= AVFMT_FLAG_CUSTOM_IO;
}

StreamWriter::~StreamWriter() {
  if (impl_ && impl_->opened && !impl_->closed) {
    try {
      close();
    } catch (const Error&) {
      // A destructor cannot report; close() explicitly to see failures.
    }
  }
}
StreamWriter::StreamWriter(StreamWriter&&) noexcept = default;
StreamWriter& StreamWriter::operator=(StreamWriter&&) noexcept = default;

void StreamWriter::add_audio_stream(int64_t sample_rate, int64_t num_channels, const std::string& format,
                                    const std::optional<std::string>& encoder,
                                    const std::optional<std::map<std::string, std::string>>& encoder_option,
                                    const std::optional<std::string>& encoder_format) {
  const std::string fn = "add_audio_stream";
  EMBER_CHECK(!impl_->opened, fn, ": streams must be added before open()");
  EMBER_CHECK(sample_rate > 0 && sample_rate <= (1 << 30), fn, ": sample_rate must be positive, got ", sample_rate);
  EMBER_CHECK(num_channels > 0 && num_channels <= 64, fn, ": num_channels must be in [1, 64], got ", num_channels);
  auto out = std::make_unique<AudioOutput>();
  EMBER_CHECK(out->frame && out->packet, fn, ": out of memory");
  out->in_fmt = detail::sample_format_named(fn, format);
  EMBER_CHECK(!av_sample_fmt_is_planar(out->in_fmt), fn, ": format must be a packed sample format, got \"", format,
              "\"");
  out->dtype = detail::dtype_of(fn, out->in_fmt);

  const AVOutputFormat* ofmt = impl_->fmt->oformat;
  const AVCodec* codec = nullptr;
  if (encoder) {
    codec = avcodec_find_encoder_by_name(encoder->c_str());
    EMBER_CHECK(codec != nullptr, fn, ": unknown encoder \"", *encoder, "\"");
  } else {
    AVCodecID id = av_guess_codec(ofmt, nullptr, impl_->dst.c_str(), nullptr, AVMEDIA_TYPE_AUDIO);
    codec = avcodec_find_encoder(id);
    EMBER_CHECK(codec != nullptr, fn, ": the \"", ofmt->name, "\" format has no default audio encoder");
  }
  EMBER_CHECK(codec->type == AVMEDIA_TYPE_AUDIO, fn, ": \"", codec->name, "\" is not an audio encoder");

  AVSampleFormat enc_fmt = out->in_fmt;
  if (encoder_format) {
    enc_fmt = detail::sample_format_named(fn, *encoder_format);
    EMBER_CHECK(supports(codec, enc_fmt), fn, ": encoder \"", codec->name, "\" does not support sample format \"",
                *encoder_format, "\"");
  } else if (!supports(codec, enc_fmt)) {
    // The planar twin keeps the precision; otherwise the encoder's own first choice.
    AVSampleFormat planar = av_get_planar_sample_fmt(enc_fmt);
    enc_fmt = supports(codec, planar) ? planar : codec->sample_fmts[0];
  }
  if (codec->supported_samplerates != nullptr) {
    bool ok = false;
    for (const int* r = codec->supported_samplerates; *r != 0; ++r) ok = ok || *r == sample_rate;
    EMBER_CHECK(ok, fn, ": encoder \"", codec->name, "\" does not support the sample rate ", sample_rate);
  }

  out->enc.reset(avcodec_alloc_context3(codec));
  EMBER_CHECK(out->enc != nullptr, fn, ": out of memory");
  AVCodecContext* enc = out->enc.get();
  enc->sample_fmt = enc_fmt;
  enc->sample_rate = static_cast<int>(sample_rate);
  av_channel_layout_default(&enc->ch_layout, static_cast<int>(num_channels));
  enc->time_base = AVRational{1, static_cast<int>(sample_rate)};
  if (ofmt->flags & AVFMT_GLOBALHEADER) enc->flags |= AV_CODEC_FLAG_GLOBAL_HEADER;
  detail::Dict opts(encoder_option.value_or(std::map<std::string, std::string>{}));
  int ret = avcodec_open2(enc, codec, opts.get());
  EMBER_CHECK(ret >= 0, fn, ": failed to open encoder \"", codec->name, "\" (", av_error(ret), ")");
  std::string unused = opts.unused_keys();
  EMBER_CHECK(unused.empty(), fn, ": unrecognized encoder option(s): ", unused);

  out->stream = avformat_new_stream(impl_->fmt.get(), nullptr);
  EMBER_CHECK(out->stream != nullptr, fn, ": out of memory");
  ret = avcodec_parameters_from_context(out->stream->codecpar, enc);
  EMBER_CHECK(ret >= 0, fn, ": bad encoder parameters (", av_error(ret), ")");
  out->stream->time_base = enc->time_base;

  SwrContext* raw = nullptr;
  ret = swr_alloc_set_opts2(&raw, &enc->ch_layout, enc_fmt, enc->sample_rate, &enc->ch_layout, out->in_fmt,
                            enc->sample_rate, 0, nullptr);
  out->swr.reset(raw);
  EMBER_CHECK(ret >= 0 && swr_init(out->swr.get()) >= 0, fn, ": cannot convert ", format, " to ",
              av_get_sample_fmt_name(enc_fmt));
  out->fifo.reset(av_audio_fifo_alloc(enc_fmt, static_cast<int>(num_channels), std::max(enc->frame_size, 1024)));
  EMBER_CHECK(out->fifo != nullptr, fn, ": out of memory");
  impl_->outputs.push_back(std::move(out));
}

void StreamWriter::set_metadata(const std::map<std::string, std::string>& metadata) {
  av_dict_free(&impl_->fmt->metadata);
  for (const auto& [k, v] : metadata) av_dict_set(&impl_->fmt->metadata, k.c_str(), v.c_str(), 0);
}

void StreamWriter::open(const std::optional<std::map<std::string, std::string>>& option) {
  EMBER_CHECK(!impl_->opened, "open: the output \"", impl_->dst, "\" is already open");
  EMBER_CHECK(!impl_->outputs.empty(), "open: no stream was added to \"", impl_->dst, "\"");
  AVFormatContext* c = impl_->fmt.get();
  detail::Dict opts(option.value_or(std::map<std::string, std::string>{}));
  if (!(c->oformat->flags & AVFMT_NOFILE) && !(c->flags & AVFMT_FLAG_CUSTOM_IO)) {
    int ret = avio_open2(&c->pb, impl_->dst.c_str(), AVIO_FLAG_WRITE, nullptr, opts.get());
    EMBER_CHECK(ret >= 0, "open: failed to open \"", impl_->dst, "\" for writing (", av_error(ret), ")");
  }
  int ret = avformat_write_header(c, opts.get());
  EMBER_CHECK(ret >= 0, "open: failed to write the header of \"", impl_->dst, "\" (", av_error(ret), ")");
  impl_->opened = true;
}

void StreamWriter::write_audio_chunk(int64_t i, const Tensor& chunk) {
  const std::string fn = "write_audio_chunk";
  EMBER_CHECK(impl_->opened && !impl_->closed, fn, ": the output is not open; call open() first");
  AudioOutput& o = impl_->output(fn, i);
  const int64_t channels = o.enc->ch_layout.nb_channels;
  EMBER_CHECK(chunk.defined() && chunk.dim() == 2 && chunk.size(1) == channels, fn, ": expected a [frames, ", channels,
              "] chunk, got ", chunk.defined() ? str(chunk.sizes()) : std::string("an undefined tensor"));
  EMBER_CHECK(chunk.scalar_type() == o.dtype, fn, ": expected dtype ", o.dtype, " (format ",
              av_get_sample_fmt_name(o.in_fmt), "), got ", chunk.scalar_type());
  EMBER_CHECK(chunk.size(0) <= (1 << 30), fn, ": a chunk of ", chunk.size(0), " frames is too long");
  const int n = static_cast<int>(chunk.size(0));
  if (n == 0) return;
  Tensor c = chunk.contiguous();
  // Convert into the queue's format: at most n samples (no resampling).
  std::vector<uint8_t*> planes(static_cast<size_t>(channels), nullptr);
  int linesize = 0;
  uint8_t** buf = nullptr;
  int ret = av_samples_alloc_array_and_samples(&buf, &linesize, static_cast<int>(channels), n, o.enc->sample_fmt, 0);
  EMBER_CHECK(ret >= 0, fn, ": out of memory (", av_error(ret), ")");
  struct Free {
    uint8_t*** b;
    ~Free() {
      if (*b) av_freep(&(*b)[0]);
      av_freep(b);
    }
  } free_buf{&buf};
  const uint8_t* in[1] = {static_cast<const uint8_t*>(c.data_ptr())};
  int got = swr_convert(o.swr.get(), buf, n, in, n);
  EMBER_CHECK(got >= 0, fn, ": sample conversion failed (", av_error(got), ")");
  EMBER_CHECK(av_audio_fifo_write(o.fifo.get(), reinterpret_cast<void**>(buf), got) == got, fn,
              ": out of memory queueing samples");
  impl_->drain_fifo(o, false);
}

void StreamWriter::flush() {
  EMBER_CHECK(impl_->opened && !impl_->closed, "flush: the output is not open");
  for (auto& o : impl_->outputs) {
    impl_->drain_fifo(*o, true);
    int ret = avcodec_send_frame(o->enc.get(), nullptr);
    EMBER_CHECK(ret >= 0 || ret == AVERROR_EOF, "flush: flushing the encoder failed (", av_error(ret), ")");
    impl_->write_packets(*o);
  }
}

void StreamWriter::close() {
  EMBER_CHECK(impl_->opened, "close: the output \"", impl_->dst, "\" was never opened");
  if (impl_->closed) return;
  impl_->closed = true;
  for (auto& o : impl_->outputs) {
    impl_->drain_fifo(*o, true);
    avcodec_send_frame(o->enc.get(), nullptr);
    impl_->write_packets(*o);
  }
  int ret = av_write_trailer(impl_->fmt.get());
  AVFormatContext* c = impl_->fmt.get();
  if (c->flags & AVFMT_FLAG_CUSTOM_IO) {
    avio_flush(c->pb);
  } else if (!(c->oformat->flags & AVFMT_NOFILE)) {
    avio_closep(&c->pb);
  }
  EMBER_CHECK(ret >= 0, "close: writing the trailer of \"", impl_->dst, "\" failed (", av_error(ret), ")");
}

}  // namespace torch::audio::io
