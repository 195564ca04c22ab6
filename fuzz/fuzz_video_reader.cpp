// libFuzzer target: ember::vision::io::VideoReader (FFmpeg's demuxers and decoders behind it)
// on arbitrary bytes. VideoReader opens a path, so each input goes to a private temporary
// file. Opening, reading the metadata, iterating frames (bounded), seeking and switching to the
// audio stream must each give a result or an ember::Error: never a crash, a sanitizer report,
// a hang, or an allocation sized by a header the bytes do not back.
// Seeds (fuzz/corpus/video_reader/): tiny mpeg4/AVI, MJPEG/Matroska, mpeg4+PCM/Matroska
// clips written with PyAV (Debian's python3-av), tests/golden/vision/io/h264.mp4, and each
// truncated to two thirds.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "ember/core/error.h"
#include "ember/vision/io/video_reader.h"

namespace {

// A temporary file holding the input, removed when it goes out of scope.
class TempFile {
 public:
  TempFile(const uint8_t* data, size_t size) {
    const char* dir = std::getenv("TMPDIR");
    std::string templ = std::string(dir && *dir ? dir : "/tmp") + "/fuzz_video_reader_XXXXXX";
    const int fd = mkstemp(templ.data());
    if (fd < 0) std::abort();
    path_ = templ;
    size_t done = 0;
    while (done < size) {
      const ssize_t n = write(fd, data + done, size - done);
      if (n <= 0) std::abort();
      done += static_cast<size_t>(n);
    }
    close(fd);
  }
  ~TempFile() { unlink(path_.c_str()); }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Reads at most `limit` frames; each must be a [3, H, W] uint8 video frame or [samples, channels] audio.
void drain(ember::vision::io::VideoReader& reader, int limit) {
  for (int i = 0; i < limit; ++i) {
    const ember::vision::io::VideoFrame f = reader.next();
    if (f.data.numel() == 0) return;
    if (f.data.dim() != 3 && f.data.dim() != 2) __builtin_trap();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace io = ember::vision::io;
  if (size == 0 || size > (1u << 20)) return 0;
  const TempFile file(data, size);
  try {
    io::VideoReader reader(file.path(), "video", 1);
    (void)reader.get_metadata();
    drain(reader, 16);
    reader.seek(0.25);
    drain(reader, 4);
    reader.seek(0.0, /*keyframes_only=*/true);
    drain(reader, 2);
    if (reader.set_current_stream("audio")) drain(reader, 8);
  } catch (const ember::Error&) {
  }
  return 0;
}
