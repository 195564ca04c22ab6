#pragma once
// A libavfilter graph between decoded frames and StreamReader's output
// streams: "abuffer"/"buffer" -> the user's filter description ->
// "abuffersink"/"buffersink", as torchaudio 0.13 builds it.
#include <cstdint>  // before FFmpeg's headers, which need INT64_C in C++

extern "C" {
#include <libavfilter/avfilter.h>
#include <libavutil/frame.h>
}

#include <memory>
#include <string>

// Its own namespace (not io::detail): only StreamReader uses it, and other
// parts of ember::audio may bring graphs of their own.
namespace torch::audio::io::reader_filter {

// What the frames entering the graph look like.
struct AudioSourceParams {
  AVRational time_base{1, 1};
  int sample_rate = 0;
  AVSampleFormat format = AV_SAMPLE_FMT_NONE;
  const AVChannelLayout* layout = nullptr;
};

struct VideoSourceParams {
  AVRational time_base{1, 1};
  AVRational frame_rate{0, 1};
  AVRational sample_aspect_ratio{0, 1};
  int width = 0;
  int height = 0;
  AVPixelFormat format = AV_PIX_FMT_NONE;
};

struct FilterGraphFreer {
  void operator()(AVFilterGraph* g) const { avfilter_graph_free(&g); }
};

class FilterGraph {
 public:
  // desc: an FFmpeg filter graph description ("aresample=8000,atempo=1.5");
  // empty means "anull"/"null". fn names the caller in errors.
  FilterGraph(const std::string& fn, const AudioSourceParams& src, const std::string& desc);
  FilterGraph(const std::string& fn, const VideoSourceParams& src, const std::string& desc);

  // Feeds a decoded frame; nullptr marks the end of the stream.
  void add_frame(AVFrame* frame);
  // Takes the next filtered frame into `out`: false when the graph needs
  // more input or has ended.
  bool get_frame(AVFrame* out);

  // The sink's negotiated output.
  int format() const;
  int sample_rate() const;
  int channels() const;
  int width() const;
  int height() const;

 private:
  void build(const std::string& fn, const char* sink_name, const std::string& desc);

  std::unique_ptr<AVFilterGraph, FilterGraphFreer> graph_;
  AVFilterContext* src_ = nullptr;   // owned by graph_
  AVFilterContext* sink_ = nullptr;  // owned by graph_
  std::string desc_;
};

}  // namespace torch::audio::io::reader_filter
