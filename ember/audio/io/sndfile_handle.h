#pragma once
// RAII over libsndfile's SNDFILE*, opened on a path or on bytes in memory
// (libsndfile's virtual IO), shared by load, info and save.
#include <sndfile.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ember/core/namespace.h"

namespace torch::audio::io::detail {

// A read-only view of bytes that libsndfile reads through SF_VIRTUAL_IO. The
// bytes must outlive the SndFile that reads them.
struct MemorySource {
  const unsigned char* data = nullptr;
  sf_count_t size = 0;
  sf_count_t pos = 0;
};

// Growing bytes libsndfile writes through SF_VIRTUAL_IO (it seeks back to
// patch header sizes, so this is random access, not a stream).
struct MemorySink {
  std::vector<unsigned char> data;
  sf_count_t pos = 0;
};

class SndFile {
 public:
  // Opens `path` for reading; raises naming `fn`, the path and libsndfile's reason.
  static SndFile open_read(const std::string& fn, const std::string& path);
  // Opens bytes in memory for reading; `name` is what errors call the source.
  static SndFile open_read(const std::string& fn, const unsigned char* data, int64_t size, const std::string& name);
  // Creates `path` for writing with `info` (format, channels, samplerate).
  static SndFile open_write(const std::string& fn, const std::string& path, SF_INFO info);
  // Creates a file in `sink`, which must outlive the SndFile.
  static SndFile open_write(const std::string& fn, MemorySink* sink, SF_INFO info);

  SNDFILE* get() const { return file_.get(); }
  const SF_INFO& info() const { return info_; }
  // Bytes in the source (the file's length), to check header claims against.
  int64_t source_size() const { return source_size_; }
  const std::string& name() const { return name_; }
  // libsndfile's log of what it noticed while parsing the header.
  std::string log() const;
  // Closes now and raises if libsndfile reports a failure (a write that did not finish).
  void close(const std::string& fn);

 private:
  struct Closer {
    void operator()(SNDFILE* f) const { sf_close(f); }
  };
  std::unique_ptr<SNDFILE, Closer> file_;
  // Heap-held so its address, which libsndfile keeps, survives moves of SndFile.
  std::unique_ptr<MemorySource> memory_;
  SF_INFO info_{};
  int64_t source_size_ = 0;
  std::string name_;
};

// The container a format name (torchaudio's `format`, or a file extension)
// selects; nullopt for a name libsndfile cannot write.
std::optional<int> major_format_for(const std::string& format);
// torchaudio's encoding name and bits_per_sample for a libsndfile format word.
std::string encoding_name(int sf_format);
int64_t bits_per_sample(int sf_format);
// Bytes one sample occupies when the format stores samples uncompressed and
// byte-aligned (PCM, float, µ-law, A-law in WAV, AIFF, ...); 0 otherwise.
int64_t fixed_bytes_per_sample(int sf_format);
// Lower-cased file extension of `path` without the dot ("" when none).
std::string extension_of(const std::string& path);

}  // namespace torch::audio::io::detail
