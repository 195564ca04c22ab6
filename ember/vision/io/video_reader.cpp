#include "ember/vision/io/video_reader.h"

#include <cmath>

#include "ember/core/error.h"
#include "ember/ops/factory/factory.h"
#include "ember/vision/io/detail/ffmpeg.h"

namespace torch::vision::io {

namespace {

struct StreamSpec {
  AVMediaType type;
  int index;
};

// "video", "audio", "video:1": the type and the index among streams of that type.
std::optional<StreamSpec> parse_stream(const std::string& stream) {
  const size_t colon = stream.find(':');
  const std::string type = stream.substr(0, colon);
  StreamSpec spec{AVMEDIA_TYPE_UNKNOWN, 0};
  if (type == "video") spec.type = AVMEDIA_TYPE_VIDEO;
  if (type == "audio") spec.type = AVMEDIA_TYPE_AUDIO;
  if (spec.type == AVMEDIA_TYPE_UNKNOWN) return std::nullopt;
  if (colon != std::string::npos) {
    const std::string idx = stream.substr(colon + 1);
    if (idx.empty() || idx.size() > 4 || idx.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
    spec.index = std::stoi(idx);
  }
  return spec;
}

double stream_duration(const AVFormatContext* fmt, const AVStream* s) {
  if (s->duration != AV_NOPTS_VALUE && s->duration > 0) return static_cast<double>(s->duration) * av_q2d(s->time_base);
  if (fmt->duration != AV_NOPTS_VALUE && fmt->duration > 0) return static_cast<double>(fmt->duration) / AV_TIME_BASE;
  return 0;
}

}  // namespace

Tensor VideoFrame::operator[](const std::string& key) const {
  if (key == "data") return data;
  EMBER_CHECK(key == "pts", "VideoFrame: no key '", key, "' (the keys are 'data' and 'pts')");
  return scalar_tensor(pts, kDouble);
}

VideoReader::VideoReader(const std::string& path, const std::string& stream, int64_t num_threads, const Device& device)
    : path_(path) {
  EMBER_CHECK(device.is_cpu(), "VideoReader: device '", device, "' is not available; Ember decodes on the CPU");
  EMBER_CHECK(num_threads >= 0 && num_threads <= 256, "VideoReader: num_threads must be in [0, 256], got ",
              num_threads);
  threads_ = static_cast<int>(num_threads);
  open_stream(stream);
}

VideoReader::~VideoReader() = default;
VideoReader::VideoReader(VideoReader&&) noexcept = default;
VideoReader& VideoReader::operator=(VideoReader&&) noexcept = default;

void VideoReader::open_stream(const std::string& stream) {
  const std::optional<StreamSpec> spec = parse_stream(stream);
  EMBER_CHECK(spec.has_value(), "VideoReader: stream should be 'video' or 'audio', optionally with ':<index>', got '",
              stream, "'");
  decoder_ = std::make_unique<detail::StreamDecoder>(path_, spec->type, spec->index, "VideoReader", threads_);
  video_ = spec->type == AVMEDIA_TYPE_VIDEO;
  rgb_ = std::make_unique<detail::RgbConverter>();
  skipping_ = false;
}

VideoFrame VideoReader::next() {
  const AVRational tb = decoder_->stream()->time_base;
  while (AVFrame* f = decoder_->next()) {
    // Seconds through microseconds, as torchvision's decoder computes them (so 0.2 s
    // reads 0.19999999999999998 there and here).
    const int64_t us = av_rescale_q(detail::StreamDecoder::frame_pts(f), tb, AV_TIME_BASE_Q);
    const double pts = static_cast<double>(us) * av_q2d(AV_TIME_BASE_Q);
    if (skipping_ && pts < skip_before_) continue;
    skipping_ = false;
    if (video_) return {rgb_->to_hwc(f, "VideoReader").permute({2, 0, 1}).contiguous(), pts};
    return {detail::audio_frame_to_float(f, "VideoReader"), pts};
  }
  return {empty({0}, video_ ? kUInt8 : kFloat), 0.0};
}

VideoReader& VideoReader::seek(double time_s, bool keyframes_only) {
  EMBER_CHECK(std::isfinite(time_s), "VideoReader.seek: time_s must be finite, got ", time_s);
  const AVRational tb = decoder_->stream()->time_base;
  const auto ts = static_cast<int64_t>(std::floor(std::max(time_s, 0.0) / av_q2d(tb)));
  EMBER_CHECK(decoder_->seek(ts), "VideoReader.seek: cannot seek to ", time_s, " s");
  skipping_ = !keyframes_only;
  skip_before_ = time_s;
  return *this;
}

std::map<std::string, std::map<std::string, std::vector<double>>> VideoReader::get_metadata() const {
  std::map<std::string, std::map<std::string, std::vector<double>>> meta;
  meta["video"] = {{"duration", {}}, {"fps", {}}};
  meta["audio"] = {{"duration", {}}, {"framerate", {}}};
  meta["subtitles"] = {{"duration", {}}};
  meta["cc"] = {{"duration", {}}};
  const AVFormatContext* fmt = decoder_->format();
  for (unsigned i = 0; i < fmt->nb_streams; ++i) {
    const AVStream* s = fmt->streams[i];
    const double duration = stream_duration(fmt, s);
    switch (s->codecpar->codec_type) {
      case AVMEDIA_TYPE_VIDEO:
        meta["video"]["duration"].push_back(duration);
        meta["video"]["fps"].push_back(s->avg_frame_rate.den != 0 ? av_q2d(s->avg_frame_rate) : 0.0);
        break;
      case AVMEDIA_TYPE_AUDIO:
        meta["audio"]["duration"].push_back(duration);
        meta["audio"]["framerate"].push_back(s->codecpar->sample_rate);
        break;
      case AVMEDIA_TYPE_SUBTITLE:
        meta["subtitles"]["duration"].push_back(duration);
        break;
      default:
        break;
    }
  }
  return meta;
}

bool VideoReader::set_current_stream(const std::string& stream) {
  try {
    open_stream(stream);
  } catch (const Error&) {
    return false;
  }
  return true;
}

VideoReader::iterator::iterator(VideoReader* reader) : reader_(reader) { ++*this; }

VideoReader::iterator& VideoReader::iterator::operator++() {
  frame_ = reader_->next();
  if (frame_.data.numel() == 0) reader_ = nullptr;
  return *this;
}

}  // namespace torch::vision::io
