#pragma once
// LibTorch compatibility header (target Ember::torch_compat): <c10/util/tempfile.h>.
// Temporary files and directories that remove themselves (c10::TempFile, c10::TempDir).
#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <torch/ember_prelude.h>

namespace c10 {
namespace detail {
inline std::string tempfile_template(const std::string& prefix) {
  const char* tmp = std::getenv("TMPDIR");
  return std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/" + prefix + "XXXXXX";
}
}  // namespace detail

struct TempFile {
  TempFile(std::string n, int f) : name(std::move(n)), fd(f) {}
  TempFile(TempFile&& o) noexcept : name(std::move(o.name)), fd(o.fd) {
    o.fd = -1;
    o.name.clear();
  }
  TempFile& operator=(TempFile&& o) noexcept {
    std::swap(name, o.name);
    std::swap(fd, o.fd);
    return *this;
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  ~TempFile() {
    if (fd >= 0) ::close(fd);
    if (!name.empty()) ::unlink(name.c_str());
  }
  std::string name;
  int fd;
};

struct TempDir {
  explicit TempDir(std::string n) : name(std::move(n)) {}
  TempDir(TempDir&& o) noexcept : name(std::move(o.name)) { o.name.clear(); }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() {
    std::error_code ec;
    if (!name.empty()) std::filesystem::remove_all(name, ec);
  }
  std::string name;
};

inline std::optional<TempFile> try_make_tempfile(std::string name_prefix = "torch-file-") {
  std::string path = detail::tempfile_template(name_prefix);
  std::vector<char> buf(path.begin(), path.end());
  buf.push_back('\0');
  const int fd = ::mkstemp(buf.data());
  if (fd < 0) return std::nullopt;
  return TempFile(std::string(buf.data()), fd);
}
inline TempFile make_tempfile(std::string name_prefix = "torch-file-") {
  auto f = try_make_tempfile(std::move(name_prefix));
  TORCH_CHECK(f.has_value(), "make_tempfile: could not create a temporary file");
  return std::move(*f);
}
inline std::optional<TempDir> try_make_tempdir(std::string name_prefix = "torch-dir-") {
  std::string path = detail::tempfile_template(name_prefix);
  std::vector<char> buf(path.begin(), path.end());
  buf.push_back('\0');
  if (::mkdtemp(buf.data()) == nullptr) return std::nullopt;
  return TempDir(std::string(buf.data()));
}
inline TempDir make_tempdir(std::string name_prefix = "torch-dir-") {
  auto d = try_make_tempdir(std::move(name_prefix));
  TORCH_CHECK(d.has_value(), "make_tempdir: could not create a temporary directory");
  return std::move(*d);
}
}  // namespace c10
