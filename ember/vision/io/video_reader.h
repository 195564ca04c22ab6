#pragma once
// torchvision.io.VideoReader: frame-by-frame reading of one stream of a media file, with seek.
#include <cstdint>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ember/core/device.h"
#include "ember/core/tensor.h"

namespace torch::vision::io {

namespace detail {
class StreamDecoder;
class RgbConverter;
}  // namespace detail

// One decoded frame: Python's {"data": ..., "pts": ...}. Video data is [3, H, W] uint8 RGB;
// audio data is [samples, channels] float32. pts is in seconds. An exhausted reader returns a
// frame whose data is empty (numel() == 0), where Python raises StopIteration.
struct VideoFrame {
  Tensor data;
  double pts = 0;
  // Python's spelling frame["data"] / frame["pts"] (pts as a 0-dim float64 tensor).
  Tensor operator[](const std::string& key) const;
};

class VideoReader {
 public:
  // stream is "video" or "audio", optionally with the index among streams of that type
  // ("video:1"); num_threads 0 lets FFmpeg choose. device must be the CPU.
  explicit VideoReader(const std::string& path, const std::string& stream = "video", int64_t num_threads = 0,
                       const Device& device = kCPU);
  ~VideoReader();
  VideoReader(VideoReader&&) noexcept;
  VideoReader& operator=(VideoReader&&) noexcept;

  // The next frame of the current stream (empty data at the end).
  VideoFrame next();
  // Precise seek: the next frame is the first with pts >= time_s; with keyframes_only, the
  // keyframe at or before time_s.
  VideoReader& seek(double time_s, bool keyframes_only = false);
  // {"video": {"duration": [...], "fps": [...]}, "audio": {"duration": [...], "framerate": [...]},
  //  "subtitles": {"duration": [...]}, "cc": {"duration": [...]}}, one entry per stream.
  std::map<std::string, std::map<std::string, std::vector<double>>> get_metadata() const;
  // Switches to another stream ("video", "audio:0", ...), reading from its start; false when
  // the file has no such stream.
  bool set_current_stream(const std::string& stream);

  // `for (const VideoFrame& f : reader)` reads to the end, as Python's iteration.
  class iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = VideoFrame;
    using difference_type = std::ptrdiff_t;
    using pointer = const VideoFrame*;
    using reference = const VideoFrame&;
    iterator() = default;
    explicit iterator(VideoReader* reader);
    reference operator*() const { return frame_; }
    pointer operator->() const { return &frame_; }
    iterator& operator++();
    void operator++(int) { ++*this; }
    bool operator==(const iterator& o) const { return reader_ == o.reader_; }
    bool operator!=(const iterator& o) const { return reader_ != o.reader_; }

   private:
    VideoReader* reader_ = nullptr;
    VideoFrame frame_;
  };
  iterator begin() { return iterator(this); }
  iterator end() { return iterator(); }

 private:
  void open_stream(const std::string& stream);

  std::string path_;
  int threads_ = 0;
  bool video_ = true;
  double skip_before_ = 0;  // a precise seek drops frames before this time
  bool skipping_ = false;
  std::unique_ptr<detail::StreamDecoder> decoder_;
  std::unique_ptr<detail::RgbConverter> rgb_;
};

}  // namespace torch::vision::io
