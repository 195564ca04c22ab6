// libFuzzer target: the MNIST IDX reader (plain or gzipped, through zlib's
// gzread) on arbitrary bytes, as an images file and as a labels file. The bytes
// go through a file in the temporary directory so that the reader's own path
// (resolve, gzopen, header checks, read_exact) is what runs.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>

#include "ember/core/error.h"
#include "ember/data/datasets/mnist.h"

namespace {

// The scratch file, in /dev/shm when there is one (a file on disk makes the
// fuzzer I/O-bound), removed when the fuzzer exits.
struct ScratchFile {
  std::string path;
  ScratchFile() {
    std::error_code ec;
    const std::filesystem::path dir =
        std::filesystem::is_directory("/dev/shm", ec) ? "/dev/shm" : std::filesystem::temp_directory_path();
    path = (dir / ("ember-fuzz-mnist-" + std::to_string(getpid()))).string();
  }
  ~ScratchFile() { std::remove(path.c_str()); }
};

const std::string& scratch_path() {
  static const ScratchFile file;
  return file.path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using ember::data::datasets::detail::read_idx_ubyte;
  const std::string& path = scratch_path();
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (f == nullptr) __builtin_trap();
  if (size > 0 && std::fwrite(data, 1, size, f) != size) __builtin_trap();
  std::fclose(f);
  try {
    (void)read_idx_ubyte(path, 2051, {3, 28, 28});  // images: magic 0x803
  } catch (const ember::Error&) {
  }
  try {
    (void)read_idx_ubyte(path, 2049, {5});  // labels: magic 0x801
  } catch (const ember::Error&) {
  }
  return 0;
}
