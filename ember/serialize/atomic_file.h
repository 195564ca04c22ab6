#pragma once
// AtomicFile: writes a file so that readers see either the old contents or
// the complete new contents, never a torn mixture (see Note [Atomic replace]).
#include <cstddef>
#include <string>
#include <string_view>

#include "ember/core/namespace.h"

namespace torch::serialize {

// Note [Atomic replace]
// The bytes go to a temporary file created next to the target (same directory,
// hence same filesystem, so rename(2) is atomic). commit() fsyncs the file,
// renames it over the target and fsyncs the directory so the rename itself is
// durable. Until commit() succeeds the target is untouched; if anything fails,
// or the object is destroyed without commit(), the temporary file is removed.
class AtomicFile {
 public:
  explicit AtomicFile(std::string path);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  void write(const void* data, size_t size);
  void write(std::string_view bytes) { write(bytes.data(), bytes.size()); }
  // Makes the new contents visible under path(); throws ember::Error on failure
  // (the previous file then stays intact and the temporary file is removed).
  void commit();

  const std::string& path() const { return path_; }
  const std::string& temp_path() const { return temp_path_; }

 private:
  void discard() noexcept;

  std::string path_;
  std::string temp_path_;
  int fd_ = -1;
  bool committed_ = false;
};

// Writes `bytes` to `path` through an AtomicFile.
void write_file_atomic(const std::string& path, std::string_view bytes);

// Reads a whole file; throws ember::Error naming the file when it cannot.
std::string read_file(const std::string& path);

}  // namespace torch::serialize
