#include "ember/data/datasets/mnist.h"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <vector>

#include "ember/core/parallel.h"
#include "ember/ops/factory/factory.h"

namespace torch::data::datasets {

namespace {

constexpr uint32_t kImageMagic = 2051;  // 0x00000803: ubyte, 3 dims
constexpr uint32_t kLabelMagic = 2049;  // 0x00000801: ubyte, 1 dim
constexpr int64_t kTrainSize = 60000;
constexpr int64_t kTestSize = 10000;
constexpr int64_t kImageRows = 28;
constexpr int64_t kImageColumns = 28;

// A gzFile that closes itself. gzread also reads uncompressed files, so one
// code path serves both spellings.
struct GzCloser {
  void operator()(gzFile_s* f) const { gzclose(f); }
};
using GzFile = std::unique_ptr<gzFile_s, GzCloser>;

// The file to read: `path` if present, else `path.gz`.
std::string resolve(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_regular_file(path, ec)) return path;
  if (std::filesystem::is_regular_file(path + ".gz", ec)) return path + ".gz";
  EMBER_ERROR("MNIST: error opening file at ", path, " (nor ", path, ".gz)");
}

// Reads exactly n bytes or raises (truncated file, corrupt gzip stream).
void read_exact(gzFile_s* f, uint8_t* out, size_t n, const std::string& path, const char* what) {
  constexpr size_t kChunk = size_t{1} << 26;  // gzread takes an unsigned int
  size_t done = 0;
  while (done < n) {
    const unsigned want = static_cast<unsigned>(std::min(kChunk, n - done));
    const int got = gzread(f, out + done, want);
    if (got < 0) {
      int errnum = 0;
      const char* msg = gzerror(f, &errnum);
      EMBER_ERROR("MNIST: error reading ", what, " of ", path, ": ", msg ? msg : "unknown zlib error");
    }
    if (got == 0) {
      EMBER_ERROR("MNIST: file ", path, " is truncated: expected ", n, " bytes of ", what, ", got ", done);
    }
    done += static_cast<size_t>(got);
  }
}

uint32_t read_be32(gzFile_s* f, const std::string& path) {
  std::array<uint8_t, 4> b{};
  read_exact(f, b.data(), b.size(), path, "header");
  return (uint32_t{b[0]} << 24) | (uint32_t{b[1]} << 16) | (uint32_t{b[2]} << 8) | uint32_t{b[3]};
}

std::string join_path(const std::string& root, const std::string& name) {
  return (std::filesystem::path(root) / name).string();
}

}  // namespace

namespace detail {

Tensor read_idx_ubyte(const std::string& path, uint32_t magic, IntArrayRef expected_dims) {
  const std::string file = resolve(path);
  GzFile f(gzopen(file.c_str(), "rb"));
  EMBER_CHECK(f, "MNIST: error opening file at ", file);
  // A 1 MiB buffer reads the 47 MB training images in few calls; a small file
  // gets a buffer of its own size (zlib's minimum is 8 KiB), not a megabyte.
  std::error_code ec;
  const uintmax_t file_bytes = std::filesystem::file_size(file, ec);
  gzbuffer(f.get(), static_cast<unsigned>(std::clamp<uintmax_t>(ec ? 0 : file_bytes, 8192, 1 << 20)));
  const uint32_t found_magic = read_be32(f.get(), file);
  EMBER_CHECK(found_magic == magic, "MNIST: ", file, " is not an IDX file of the expected kind: magic number ",
              found_magic, ", expected ", magic);
  // The header is checked in full before anything is allocated, so a
  // hostile header cannot make us reserve gigabytes.
  for (size_t d = 0; d < expected_dims.size(); ++d) {
    const uint32_t dim = read_be32(f.get(), file);
    EMBER_CHECK(dim == static_cast<uint64_t>(expected_dims[d]), "MNIST: ", file, ": dimension ", d, " is ", dim,
                ", expected ", expected_dims[d]);
  }
  // empty() reserves address space without touching it: the pages become
  // resident only as read_exact fills them, so a truncated file costs the bytes
  // it holds, not the 47 MB its header names (LoaderMemory tests measure this).
  Tensor out = empty(expected_dims, kByte);
  read_exact(f.get(), out.data_ptr<uint8_t>(), static_cast<size_t>(out.numel()), file, "data");
  return out;
}

}  // namespace detail

MNIST::MNIST(const std::string& root, Mode mode) {
  const bool train = mode == Mode::kTrain;
  const int64_t count = train ? kTrainSize : kTestSize;
  const std::string prefix = train ? "train" : "t10k";
  const Tensor pixels = detail::read_idx_ubyte(join_path(root, prefix + "-images-idx3-ubyte"), kImageMagic,
                                               {count, kImageRows, kImageColumns});
  const Tensor labels = detail::read_idx_ubyte(join_path(root, prefix + "-labels-idx1-ubyte"), kLabelMagic, {count});

  // One pass each; the table holds float(b) / 255 exactly as LibTorch's
  // to(kFloat32).div_(255) computes it.
  std::array<float, 256> scale{};
  for (int b = 0; b < 256; ++b) scale[b] = static_cast<float>(b) / 255.0f;
  images_ = empty({count, 1, kImageRows, kImageColumns}, kFloat32);
  const uint8_t* src = pixels.data_ptr<uint8_t>();
  float* dst = images_.data_ptr<float>();
  parallel_for(0, images_.numel(), 1 << 16, [&](int64_t begin, int64_t end) {
    for (int64_t i = begin; i < end; ++i) dst[i] = scale[src[i]];
  });
  targets_ = empty({count}, kInt64);
  const uint8_t* lsrc = labels.data_ptr<uint8_t>();
  int64_t* ldst = targets_.data_ptr<int64_t>();
  for (int64_t i = 0; i < count; ++i) ldst[i] = lsrc[i];
}

Example<> MNIST::get(size_t index) {
  EMBER_CHECK(index < static_cast<size_t>(images_.size(0)), "MNIST: index ", index,
              " out of range for a dataset of size ", images_.size(0));
  const auto i = static_cast<int64_t>(index);
  return {images_[i], targets_[i]};
}

std::optional<size_t> MNIST::size() const { return static_cast<size_t>(images_.size(0)); }

bool MNIST::is_train() const noexcept { return images_.size(0) == kTrainSize; }

}  // namespace torch::data::datasets
