#include "ember/audio/io/filter_graph.h"

#include <cctype>

extern "C" {
#include <libavfilter/buffersink.h>
#include <libavfilter/buffersrc.h>
#include <libavutil/mem.h>
}

#include "ember/audio/io/ffmpeg_util.h"
#include "ember/core/error.h"

namespace torch::audio::io::reader_filter {
namespace {

using detail::av_error;

struct InOutFreer {
  void operator()(AVFilterInOut* p) const { avfilter_inout_free(&p); }
};
using InOutPtr = std::unique_ptr<AVFilterInOut, InOutFreer>;

struct ParamsFreer {
  void operator()(AVBufferSrcParameters* p) const { av_free(p); }
};

// An end of the user's chain, labelled the way the description sees it:
// "in" is fed by the source, "out" feeds the sink.
InOutPtr endpoint(const std::string& fn, const char* label, AVFilterContext* ctx) {
  InOutPtr io(avfilter_inout_alloc());
  EMBER_CHECK(io != nullptr, fn, ": out of memory");
  io->name = av_strdup(label);
  EMBER_CHECK(io->name != nullptr, fn, ": out of memory");
  io->filter_ctx = ctx;
  io->pad_idx = 0;
  io->next = nullptr;
  return io;
}

// The filter names in a description FFmpeg has no filter for: the word that
// starts each ','/';'-separated entry after its [labels]. Only a diagnostic
// (FFmpeg's parser reports an unknown filter as a bare EINVAL): entries that
// do not start with a plain name, such as the pieces of a quoted argument
// holding a comma, are skipped.
std::string unknown_filters(const std::string& desc) {
  std::string out;
  size_t start = 0;
  while (start <= desc.size()) {
    const size_t end = desc.find_first_of(",;", start);
    const std::string part = desc.substr(start, end == std::string::npos ? std::string::npos : end - start);
    size_t p = 0;
    while (p < part.size() && (part[p] == ' ' || part[p] == '[')) {
      if (part[p] == '[') {
        const size_t close = part.find(']', p);
        p = close == std::string::npos ? part.size() : close;
      }
      ++p;
    }
    size_t q = p;
    while (q < part.size() && (std::isalnum(static_cast<unsigned char>(part[q])) || part[q] == '_')) ++q;
    const std::string name = part.substr(p, q - p);
    const bool plain = q == part.size() || part[q] == '=' || part[q] == '@' || part[q] == '[' || part[q] == ' ';
    if (!name.empty() && plain && avfilter_get_by_name(name.c_str()) == nullptr)
      out += (out.empty() ? "\"" : ", \"") + name + "\"";
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return out;
}

}  // namespace

FilterGraph::FilterGraph(const std::string& fn, const AudioSourceParams& src, const std::string& desc) {
  EMBER_CHECK(src.layout != nullptr && src.layout->nb_channels > 0 && src.sample_rate > 0, fn,
              ": cannot filter audio with ", src.layout ? src.layout->nb_channels : 0, " channels at ", src.sample_rate,
              " Hz");
  std::unique_ptr<AVBufferSrcParameters, ParamsFreer> params(av_buffersrc_parameters_alloc());
  EMBER_CHECK(params != nullptr, fn, ": out of memory");
  params->time_base = src.time_base;
  params->sample_rate = src.sample_rate;
  params->format = src.format;
  // A layout without channel positions gets the default one for its count,
  // as torchaudio does: several filters (amix, pan, ...) need positions.
  AVChannelLayout layout{};
  if (src.layout->order == AV_CHANNEL_ORDER_UNSPEC) {
    av_channel_layout_default(&layout, src.layout->nb_channels);
  } else {
    int ret = av_channel_layout_copy(&layout, src.layout);
    EMBER_CHECK(ret >= 0, fn, ": bad channel layout (", av_error(ret), ")");
  }
  params->ch_layout = layout;  // shallow: freed below after the source copied it
  graph_.reset(avfilter_graph_alloc());
  EMBER_CHECK(graph_ != nullptr, fn, ": out of memory");
  src_ = avfilter_graph_alloc_filter(graph_.get(), avfilter_get_by_name("abuffer"), "in");
  EMBER_CHECK(src_ != nullptr, fn, ": cannot create the audio filter source");
  int ret = av_buffersrc_parameters_set(src_, params.get());
  if (ret >= 0) ret = avfilter_init_str(src_, nullptr);
  av_channel_layout_uninit(&layout);
  EMBER_CHECK(ret >= 0, fn, ": cannot create the audio filter source (", av_error(ret), ")");
  build(fn, "abuffersink", desc.empty() ? "anull" : desc);
}

FilterGraph::FilterGraph(const std::string& fn, const VideoSourceParams& src, const std::string& desc) {
  EMBER_CHECK(src.width > 0 && src.height > 0 && src.format != AV_PIX_FMT_NONE, fn, ": cannot filter video of ",
              src.width, "x", src.height);
  std::unique_ptr<AVBufferSrcParameters, ParamsFreer> params(av_buffersrc_parameters_alloc());
  EMBER_CHECK(params != nullptr, fn, ": out of memory");
  params->time_base = src.time_base;
  params->frame_rate = src.frame_rate;
  params->sample_aspect_ratio = src.sample_aspect_ratio;
  params->width = src.width;
  params->height = src.height;
  params->format = src.format;
  graph_.reset(avfilter_graph_alloc());
  EMBER_CHECK(graph_ != nullptr, fn, ": out of memory");
  src_ = avfilter_graph_alloc_filter(graph_.get(), avfilter_get_by_name("buffer"), "in");
  EMBER_CHECK(src_ != nullptr, fn, ": cannot create the video filter source");
  int ret = av_buffersrc_parameters_set(src_, params.get());
  if (ret >= 0) ret = avfilter_init_str(src_, nullptr);
  EMBER_CHECK(ret >= 0, fn, ": cannot create the video filter source (", av_error(ret), ")");
  build(fn, "buffersink", desc.empty() ? "null" : desc);
}

void FilterGraph::build(const std::string& fn, const char* sink_name, const std::string& desc) {
  desc_ = desc;
  int ret =
      avfilter_graph_create_filter(&sink_, avfilter_get_by_name(sink_name), "out", nullptr, nullptr, graph_.get());
  EMBER_CHECK(ret >= 0, fn, ": cannot create the filter sink (", av_error(ret), ")");
  // avfilter_graph_parse_ptr consumes what it links and leaves the rest in
  // the lists, which the owners then free.
  InOutPtr source_end = endpoint(fn, "in", src_), sink_end = endpoint(fn, "out", sink_);
  AVFilterInOut* outputs = source_end.release();
  AVFilterInOut* inputs = sink_end.release();
  ret = avfilter_graph_parse_ptr(graph_.get(), desc.c_str(), &inputs, &outputs, nullptr);
  InOutPtr free_in(inputs), free_out(outputs);
  if (ret < 0) {
    const std::string unknown = unknown_filters(desc);
    EMBER_ERROR(fn, ": invalid filter description \"", desc, "\" (", av_error(ret),
                unknown.empty() ? "" : "; no such filter: " + unknown, ")");
  }
  ret = avfilter_graph_config(graph_.get(), nullptr);
  EMBER_CHECK(ret >= 0, fn, ": cannot configure the filter graph \"", desc, "\" (", av_error(ret), ")");
}

void FilterGraph::add_frame(AVFrame* frame) {
  int ret = av_buffersrc_add_frame_flags(src_, frame, AV_BUFFERSRC_FLAG_KEEP_REF);
  EMBER_CHECK(ret >= 0, "StreamReader: filter graph \"", desc_, "\" rejected a frame (", av_error(ret), ")");
}

bool FilterGraph::get_frame(AVFrame* out) {
  int ret = av_buffersink_get_frame(sink_, out);
  if (ret == AVERROR(EAGAIN) || ret == AVERROR_EOF) return false;
  EMBER_CHECK(ret >= 0, "StreamReader: filter graph \"", desc_, "\" failed (", av_error(ret), ")");
  return true;
}

int FilterGraph::format() const { return av_buffersink_get_format(sink_); }
int FilterGraph::sample_rate() const { return av_buffersink_get_sample_rate(sink_); }
int FilterGraph::channels() const { return av_buffersink_get_channels(sink_); }
int FilterGraph::width() const { return av_buffersink_get_w(sink_); }
int FilterGraph::height() const { return av_buffersink_get_h(sink_); }

}  // namespace torch::audio::io::reader_filter
