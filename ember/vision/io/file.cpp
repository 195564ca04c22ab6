#include "ember/vision/io/file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

#include "ember/core/error.h"
#include "ember/ops/factory/factory.h"

namespace torch::vision::io {

namespace {

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

}  // namespace

Tensor read_file(const std::string& path) {
  std::error_code ec;
  EMBER_CHECK(std::filesystem::exists(path, ec), "read_file: file does not exist: '", path, "'");
  EMBER_CHECK(!std::filesystem::is_directory(path, ec), "read_file: '", path, "' is a directory");
  FilePtr f(std::fopen(path.c_str(), "rb"));
  EMBER_CHECK(f != nullptr, "read_file: cannot open '", path, "': ", std::strerror(errno));
  // The size comes from seeking, not from a stat that may race with a writer.
  EMBER_CHECK(std::fseek(f.get(), 0, SEEK_END) == 0, "read_file: cannot seek in '", path, "'");
  const long size = std::ftell(f.get());
  EMBER_CHECK(size >= 0, "read_file: cannot determine the size of '", path, "'");
  std::rewind(f.get());
  Tensor out = empty({static_cast<int64_t>(size)}, kUInt8);
  if (size > 0) {
    const size_t got = std::fread(out.data_ptr<uint8_t>(), 1, static_cast<size_t>(size), f.get());
    EMBER_CHECK(got == static_cast<size_t>(size), "read_file: short read of '", path, "': ", got, " of ", size,
                " bytes");
  }
  return out;
}

void write_file(const std::string& filename, const Tensor& data) {
  EMBER_CHECK(data.defined(), "write_file: expected a tensor, got an undefined tensor");
  EMBER_CHECK(data.scalar_type() == kUInt8, "write_file: input tensor dtype should be uint8, got ", data.scalar_type());
  EMBER_CHECK(data.dim() == 1, "write_file: input data should be a 1-dimensional tensor, got shape ", data.sizes());
  const Tensor bytes = data.contiguous();
  FilePtr f(std::fopen(filename.c_str(), "wb"));
  EMBER_CHECK(f != nullptr, "write_file: cannot open '", filename, "' for writing: ", std::strerror(errno));
  const size_t n = static_cast<size_t>(bytes.numel());
  if (n > 0)
    EMBER_CHECK(std::fwrite(bytes.data_ptr<uint8_t>(), 1, n, f.get()) == n, "write_file: short write to '", filename,
                "'");
  EMBER_CHECK(std::fclose(f.release()) == 0, "write_file: cannot finish writing '", filename, "'");
}

}  // namespace torch::vision::io
