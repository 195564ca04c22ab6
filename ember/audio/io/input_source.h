#pragma once
// The three inputs load and info accept (a path, bytes in a uint8 tensor, a
// std::istream), opened uniformly as a SndFile and checked against `format`.
#include <istream>
#include <optional>
#include <string>
#include <vector>

#include "ember/audio/io/sndfile_handle.h"
#include "ember/core/tensor.h"

namespace torch::audio::io::detail {

// Keeps the bytes an in-memory SndFile reads alive for as long as it reads them.
struct OpenedInput {
  Tensor bytes;
  // A vector, not a string: moving it keeps its buffer where libsndfile points.
  std::vector<unsigned char> stream_bytes;
  SndFile file;
};

OpenedInput open_input(const std::string& fn, const std::string& path, const std::optional<std::string>& format);
OpenedInput open_input(const std::string& fn, const Tensor& src, const std::optional<std::string>& format);
OpenedInput open_input(const std::string& fn, std::istream& fileobj, const std::optional<std::string>& format);

}  // namespace torch::audio::io::detail
