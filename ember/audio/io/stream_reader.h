#pragma once
// torchaudio.io.StreamReader (0.13) on FFmpeg: chunked decoding of the audio
// (and video) streams of a file, a byte buffer or a std::istream, with
// per-output-stream FFmpeg filter graphs (libavfilter: the sample format and
// rate, pixel format, size and frame rate of the basic streams are such
// graphs too), and seek.
#include <cstdint>
#include <istream>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ember/core/tensor.h"

namespace torch::audio::io {

// StreamReaderSourceStream and its audio/video forms in one struct: the
// media-specific fields are zero for other media.
struct StreamReaderSourceStream {
  std::string media_type;  // "audio", "video", "subtitle", "data", "attachment", "unknown"
  std::string codec;
  std::string codec_long_name;
  std::optional<std::string> format;  // sample (or pixel) format, e.g. "s16", "fltp"
  std::optional<int64_t> bit_rate;
  std::optional<int64_t> num_frames;
  std::optional<int64_t> bits_per_sample;
  std::map<std::string, std::string> metadata;
  double sample_rate = 0;
  int64_t num_channels = 0;
  int64_t width = 0;
  int64_t height = 0;
  double frame_rate = 0;
};
using StreamReaderSourceAudioStream = StreamReaderSourceStream;
using StreamReaderSourceVideoStream = StreamReaderSourceStream;

struct StreamReaderOutputStream {
  int64_t source_index = 0;
  std::string filter_description;
};

using OptionDict = std::map<std::string, std::string>;
// One entry per output stream: its next chunk ([frames, channels]) or nullopt.
using Chunks = std::vector<std::optional<Tensor>>;

class StreamReader {
 public:
  // src: a path or URL FFmpeg opens. format overrides the demuxer; option is
  // passed to it (avformat_open_input).
  explicit StreamReader(const std::string& src, const std::optional<std::string>& format = std::nullopt,
                        const OptionDict& option = {}, int64_t buffer_size = 4096);
  // The bytes of a media file: a 1-D uint8 tensor (kept alive by the reader).
  explicit StreamReader(const Tensor& src, const std::optional<std::string>& format = std::nullopt,
                        const OptionDict& option = {}, int64_t buffer_size = 4096);
  // A file-like object; it must outlive the reader. Seeks when it can.
  explicit StreamReader(std::istream& src, const std::optional<std::string>& format = std::nullopt,
                        const OptionDict& option = {}, int64_t buffer_size = 4096);
  ~StreamReader();
  StreamReader(StreamReader&&) noexcept;
  StreamReader& operator=(StreamReader&&) noexcept;

  int64_t num_src_streams() const;
  int64_t num_out_streams() const;
  std::optional<int64_t> default_audio_stream() const;
  std::optional<int64_t> default_video_stream() const;
  std::map<std::string, std::string> get_metadata() const;
  StreamReaderSourceStream get_src_stream_info(int64_t i) const;
  StreamReaderOutputStream get_out_stream_info(int64_t i) const;

  // Seeks every stream to the key frame at or before `timestamp` seconds and
  // empties the buffers.
  void seek(double timestamp);

  // format: output sample format ("u8", "s16", "s32", "s64", "flt"/"fltp",
  // "dbl"/"dblp"; nullopt keeps the source's); sample_rate resamples.
  void add_basic_audio_stream(int64_t frames_per_chunk, int64_t buffer_chunk_size = 3,
                              std::optional<int64_t> stream_index = std::nullopt,
                              const std::optional<std::string>& decoder = std::nullopt,
                              const std::optional<OptionDict>& decoder_option = std::nullopt,
                              const std::optional<std::string>& format = std::string("fltp"),
                              std::optional<int64_t> sample_rate = std::nullopt);
  // filter_desc: an FFmpeg audio filter graph description run by libavfilter
  // ("aresample=8000,aformat=sample_fmts=fltp", "atempo=1.5", "lowpass=f=1000");
  // nullopt passes the decoded frames through ("anull"). A description FFmpeg
  // rejects, or one ending in a sample format without a dtype, raises here.
  void add_audio_stream(int64_t frames_per_chunk, int64_t buffer_chunk_size = 3,
                        std::optional<int64_t> stream_index = std::nullopt,
                        const std::optional<std::string>& decoder = std::nullopt,
                        const std::optional<OptionDict>& decoder_option = std::nullopt,
                        const std::optional<std::string>& filter_desc = std::nullopt);
  // Video: chunks are [frames, C, H, W] uint8 in a packed 8-bit pixel format
  // ("rgb24", "bgr24", "gray", "rgba", ...) or as Y, U, V planes ("yuv444p",
  // "yuv420p", "nv12"; 4:2:0 chroma repeated over 2x2 blocks, as torchaudio
  // does). hw_accel is not supported and raises.
  void add_basic_video_stream(int64_t frames_per_chunk, int64_t buffer_chunk_size = 3,
                              std::optional<int64_t> stream_index = std::nullopt,
                              const std::optional<std::string>& decoder = std::nullopt,
                              const std::optional<OptionDict>& decoder_option = std::nullopt,
                              const std::optional<std::string>& hw_accel = std::nullopt,
                              const std::optional<std::string>& format = std::string("rgb24"),
                              std::optional<double> frame_rate = std::nullopt,
                              std::optional<int64_t> width = std::nullopt,
                              std::optional<int64_t> height = std::nullopt);
  // filter_desc: an FFmpeg video filter graph description ("fps=10,scale=width=64:height=48,
  // format=pix_fmts=rgb24", "hflip", ...), ending in one of those pixel formats.
  void add_video_stream(int64_t frames_per_chunk, int64_t buffer_chunk_size = 3,
                        std::optional<int64_t> stream_index = std::nullopt,
                        const std::optional<std::string>& decoder = std::nullopt,
                        const std::optional<OptionDict>& decoder_option = std::nullopt,
                        const std::optional<std::string>& hw_accel = std::nullopt,
                        const std::optional<std::string>& filter_desc = std::nullopt);
  void remove_stream(int64_t i);

  // Reads and decodes one packet: 0 while there is more, 1 at the end (after
  // flushing decoders and resamplers). timeout (ms) and backoff (ms) govern
  // retrying a source that is temporarily unavailable.
  int64_t process_packet(std::optional<double> timeout = std::nullopt, double backoff = 10.0);
  void process_all_packets();
  bool is_buffer_ready() const;
  Chunks pop_chunks();
  // Processes packets until every output stream has a chunk: 0, or 1 at the end.
  int64_t fill_buffer(std::optional<double> timeout = std::nullopt, double backoff = 10.0);

  // Python's generator `stream()`: for (auto& chunks : reader.stream()) ...
  class ChunkStream;
  ChunkStream stream(std::optional<double> timeout = std::nullopt, double backoff = 10.0);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

class StreamReader::ChunkStream {
 public:
  class iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = Chunks;
    using difference_type = std::ptrdiff_t;
    using pointer = const Chunks*;
    using reference = const Chunks&;
    iterator() = default;
    reference operator*() const { return current_; }
    pointer operator->() const { return &current_; }
    iterator& operator++();
    void operator++(int) { ++*this; }
    bool operator==(const iterator& o) const { return done_ == o.done_; }

   private:
    friend class ChunkStream;
    explicit iterator(ChunkStream* s) : stream_(s), done_(false) { ++*this; }
    ChunkStream* stream_ = nullptr;
    bool done_ = true;
    Chunks current_;
  };
  iterator begin() { return iterator(this); }
  iterator end() { return iterator(); }

 private:
  friend class StreamReader;
  ChunkStream(StreamReader* r, std::optional<double> timeout, double backoff)
      : reader_(r), timeout_(timeout), backoff_(backoff) {}
  // The next tuple of chunks; false when the stream has ended.
  bool next(Chunks& out);
  StreamReader* reader_;
  std::optional<double> timeout_;
  double backoff_;
  bool draining_ = false;
};

}  // namespace torch::audio::io
