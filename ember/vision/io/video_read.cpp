// read_video and read_video_timestamps, following torchvision 0.14's PyAV
// backend (torchvision/io/video.py) step for step: its seek offsets, its
// frame selection (with the frame preceding start_pts) and its audio trimming.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <limits>

#include "ember/core/error.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/shape/shape_ops.h"
#include "ember/vision/io/detail/ffmpeg.h"
#include "ember/vision/io/detail/image_layout.h"
#include "ember/vision/io/video.h"

namespace torch::vision::io {

namespace {

using detail::FramePtr;
using detail::StreamDecoder;

// torchvision keeps decoding 5 frames past end_pts unless the stream is a DivX
// file without packed B-frames ("DivX<version>Build<build><flag>", flag 'p').
bool should_buffer(const AVCodecParameters* par) {
  if (par->extradata == nullptr || par->extradata_size <= 0) return true;
  const std::string extra(reinterpret_cast<const char*>(par->extradata), static_cast<size_t>(par->extradata_size));
  const size_t pos = extra.find("DivX");
  if (pos == std::string::npos) return true;
  // DivX(\d+)(Build|b)(\d+)(\w)
  size_t i = pos + 4;
  const auto digits = [&](size_t& j) {
    const size_t s = j;
    while (j < extra.size() && std::isdigit(static_cast<unsigned char>(extra[j]))) ++j;
    return j > s;
  };
  if (!digits(i)) return true;
  if (extra.compare(i, 5, "Build") == 0) {
    i += 5;
  } else if (i < extra.size() && extra[i] == 'b') {
    i += 1;
  } else {
    return true;
  }
  if (!digits(i) || i >= extra.size()) return true;
  const unsigned char flag = static_cast<unsigned char>(extra[i]);
  if (!(std::isalnum(flag) || flag == '_')) return true;
  return flag == 'p';
}

// The selected frames of one stream, in pts order, still as FFmpeg frames.
struct Selection {
  std::vector<std::pair<int64_t, FramePtr>> frames;
  std::string error;
  int64_t decoded = 0;
};

FramePtr clone_frame(const AVFrame* f, const char* op) {
  FramePtr copy(av_frame_clone(f));
  EMBER_CHECK(copy != nullptr, op, ": out of memory");
  return copy;
}

int64_t frame_bytes(const AVFrame* f) {
  if (f->nb_samples > 0) return int64_t{f->nb_samples} * f->ch_layout.nb_channels * 8;
  return int64_t{f->width} * f->height * 3;
}

// torchvision's _read_from_stream: offsets in the stream's time base.
Selection read_from_stream(const std::string& path, AVMediaType type, double start_offset, double end_offset,
                           bool seconds, const char* op) {
  StreamDecoder dec(path, type, 0, op, /*threads=*/0);
  const AVRational tb = dec.stream()->time_base;
  if (seconds) {
    const double per_second = static_cast<double>(tb.den) / static_cast<double>(tb.num);
    start_offset = std::floor(start_offset * per_second);
    if (!std::isinf(end_offset)) end_offset = std::ceil(end_offset * per_second);
  }
  const bool buffer = type != AVMEDIA_TYPE_VIDEO || should_buffer(dec.stream()->codecpar);
  constexpr int kMaxBufferSize = 5;
  double seek_offset = std::max(start_offset - 1, 0.0);
  if (buffer) seek_offset = std::max(seek_offset - kMaxBufferSize, 0.0);
  Selection sel;
  if (!dec.seek(static_cast<int64_t>(std::floor(seek_offset)))) return sel;
  std::map<int64_t, FramePtr> in_range;
  std::optional<std::pair<int64_t, FramePtr>> preceding;
  bool start_seen = false;
  int64_t bytes = 0;
  int buffered = 0;
  while (AVFrame* f = dec.next()) {
    ++sel.decoded;
    const int64_t pts = StreamDecoder::frame_pts(f);
    const auto p = static_cast<double>(pts);
    if (p == start_offset) start_seen = true;
    if (p >= start_offset && p <= end_offset) {
      bytes += frame_bytes(f);
      EMBER_CHECK(bytes <= detail::kMaxDecodedBytes, op, ": the selected frames exceed ", detail::kMaxDecodedBytes,
                  " bytes; read a shorter interval");
      in_range[pts] = clone_frame(f, op);
    } else if (p < start_offset && (!preceding || pts >= preceding->first)) {
      preceding.emplace(pts, clone_frame(f, op));
    }
    if (p >= end_offset) {
      if (buffer && buffered < kMaxBufferSize) {
        ++buffered;
        continue;
      }
      break;
    }
  }
  sel.error = dec.error();
  if (preceding && start_offset > 0 && !start_seen) sel.frames.push_back(std::move(*preceding));
  for (auto& [pts, frame] : in_range) sel.frames.emplace_back(pts, std::move(frame));
  return sel;
}

// Python's a[:, s:e] for the indices torchvision's _align_audio_frames computes.
Tensor align_audio(const Tensor& audio, int64_t first_pts, int64_t last_pts, double ref_start, double ref_end) {
  const int64_t total = audio.size(1);
  if (total == 0) return audio;
  const double step = static_cast<double>(last_pts - first_pts + 1) / static_cast<double>(total);
  int64_t s = 0, e = total;
  if (static_cast<double>(first_pts) < ref_start) s = static_cast<int64_t>((ref_start - first_pts) / step);
  if (static_cast<double>(last_pts) > ref_end) e = static_cast<int64_t>((ref_end - last_pts) / step);
  const auto wrap = [total](int64_t i) { return std::clamp<int64_t>(i < 0 ? i + total : i, 0, total); };
  s = wrap(s);
  e = wrap(e);
  return audio.slice(1, s, std::max(s, e));
}

std::string upper(std::string s) {
  for (char& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

std::tuple<Tensor, Tensor, std::map<std::string, double>> read_video(const std::string& filename, double start_pts,
                                                                     std::optional<double> end_pts,
                                                                     const std::string& pts_unit,
                                                                     const std::string& output_format) {
  const char* op = "read_video";
  const std::string format = upper(output_format);
  EMBER_CHECK(format == "THWC" || format == "TCHW", op, ": output_format should be either 'THWC' or 'TCHW', got ",
              output_format, ".");
  EMBER_CHECK(pts_unit == "pts" || pts_unit == "sec", op, ": pts_unit should be 'pts' or 'sec', got '", pts_unit, "'");
  const bool seconds = pts_unit == "sec";
  const double end = end_pts.value_or(std::numeric_limits<double>::infinity());
  EMBER_CHECK(!(end < start_pts), op, ": end_pts should be larger than start_pts, got start_pts=", start_pts,
              " and end_pts=", end);
  detail::FormatInputPtr probe = detail::open_input(filename, op);
  const int video_index = detail::find_stream(probe.get(), AVMEDIA_TYPE_VIDEO, 0);
  const int audio_index = detail::find_stream(probe.get(), AVMEDIA_TYPE_AUDIO, 0);
  std::map<std::string, double> info;
  Tensor vframes = empty({0, 1, 1, 3}, kUInt8);
  Tensor aframes = empty({1, 0}, kFloat);
  if (video_index >= 0) {
    const AVStream* vs = probe->streams[video_index];
    Selection sel = read_from_stream(filename, AVMEDIA_TYPE_VIDEO, start_pts, end, seconds, op);
    EMBER_CHECK(sel.decoded > 0 || sel.error.empty(), op, ": cannot decode the video stream of '", filename,
                "': ", sel.error);
    if (vs->avg_frame_rate.num != 0 && vs->avg_frame_rate.den != 0) info["video_fps"] = av_q2d(vs->avg_frame_rate);
    if (!sel.frames.empty()) {
      const AVFrame* first = sel.frames.front().second.get();
      const int64_t h = first->height, w = first->width;
      detail::check_image_size(w, h, op);
      vframes = empty({static_cast<int64_t>(sel.frames.size()), h, w, 3}, kUInt8);
      detail::RgbConverter rgb;
      for (size_t i = 0; i < sel.frames.size(); ++i) {
        const AVFrame* f = sel.frames[i].second.get();
        EMBER_CHECK(f->width == w && f->height == h, op, ": frame size changes from ", w, "x", h, " to ", f->width, "x",
                    f->height, " within the stream");
        const Tensor hwc = rgb.to_hwc(f, op);
        std::memcpy(vframes.data_ptr<uint8_t>() + static_cast<int64_t>(i) * h * w * 3, hwc.data_ptr<uint8_t>(),
                    static_cast<size_t>(h * w * 3));
        sel.frames[i].second.reset();  // release each decoded frame once converted
      }
    }
  }
  if (audio_index >= 0) {
    const AVStream* as = probe->streams[audio_index];
    Selection sel = read_from_stream(filename, AVMEDIA_TYPE_AUDIO, start_pts, end, seconds, op);
    EMBER_CHECK(sel.decoded > 0 || sel.error.empty(), op, ": cannot decode the audio stream of '", filename,
                "': ", sel.error);
    info["audio_fps"] = as->codecpar->sample_rate;
    if (!sel.frames.empty()) {
      std::vector<Tensor> parts;
      for (auto& [pts, f] : sel.frames) parts.push_back(detail::audio_frame_to_tensor(f.get(), op));
      for (const Tensor& p : parts)
        EMBER_CHECK(p.size(0) == parts[0].size(0) && p.scalar_type() == parts[0].scalar_type(), op,
                    ": audio frames change layout within the stream");
      Tensor audio = cat(parts, 1);
      double ref_start = start_pts, ref_end = end;
      if (seconds) {
        const double per_second = static_cast<double>(as->time_base.den) / static_cast<double>(as->time_base.num);
        ref_start = std::floor(start_pts * per_second);
        if (!std::isinf(ref_end)) ref_end = std::ceil(ref_end * per_second);
      }
      aframes = align_audio(audio, sel.frames.front().first, sel.frames.back().first, ref_start, ref_end);
    }
  }
  if (format == "TCHW") vframes = vframes.permute({0, 3, 1, 2});
  return {vframes, aframes, info};
}

std::tuple<std::vector<double>, std::optional<double>> read_video_timestamps(const std::string& filename,
                                                                             const std::string& pts_unit) {
  const char* op = "read_video_timestamps";
  EMBER_CHECK(pts_unit == "pts" || pts_unit == "sec", op, ": pts_unit should be 'pts' or 'sec', got '", pts_unit, "'");
  detail::FormatInputPtr format = detail::open_input(filename, op);
  const int vi = detail::find_stream(format.get(), AVMEDIA_TYPE_VIDEO, 0);
  std::vector<int64_t> pts;
  std::optional<double> fps;
  if (vi < 0) return std::make_tuple(std::vector<double>{}, fps);
  const AVStream* vs = format->streams[vi];
  const AVRational tb = vs->time_base;
  if (vs->avg_frame_rate.num != 0 && vs->avg_frame_rate.den != 0) fps = av_q2d(vs->avg_frame_rate);
  // torchvision trusts packet timestamps of files FFmpeg (libavcodec, "Lavc") wrote; it looks
  // at the first stream's extradata, whatever that stream is.
  const AVCodecParameters* first = format->streams[0]->codecpar;
  const bool from_packets =
      first->extradata != nullptr && first->extradata_size >= 4 &&
      std::search(first->extradata, first->extradata + first->extradata_size, reinterpret_cast<const uint8_t*>("Lavc"),
                  reinterpret_cast<const uint8_t*>("Lavc") + 4) != first->extradata + first->extradata_size;
  if (from_packets) {
    detail::PacketPtr packet(av_packet_alloc());
    EMBER_CHECK(packet != nullptr, op, ": out of memory");
    while (av_read_frame(format.get(), packet.get()) >= 0) {
      if (packet->stream_index == vi && packet->pts != AV_NOPTS_VALUE) pts.push_back(packet->pts);
      av_packet_unref(packet.get());
    }
  } else {
    StreamDecoder dec(filename, AVMEDIA_TYPE_VIDEO, 0, op);
    while (AVFrame* f = dec.next())
      if (f->pts != AV_NOPTS_VALUE) pts.push_back(f->pts);
  }
  std::sort(pts.begin(), pts.end());
  std::vector<double> out;
  out.reserve(pts.size());
  for (int64_t p : pts)
    out.push_back(pts_unit == "sec" ? static_cast<double>(p) * tb.num / tb.den : static_cast<double>(p));
  return std::make_tuple(std::move(out), fps);
}

}  // namespace torch::vision::io
