#include "ember/serialize/atomic_file.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

#include "ember/core/error.h"

namespace torch::serialize {
namespace {

std::string errno_text() { return std::strerror(errno); }

std::string parent_dir(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

// Note [Dead temporaries]
// A save writes "<name>.tmp.<pid>.XXXXXX" and renames it over <name>; a
// process killed before the rename leaves the temporary behind, and a job that
// crashes repeatedly would fill its disk with them. So each save first removes
// the temporaries of the same target whose writer is provably gone: the pid in
// the name no longer exists (kill(pid, 0) fails with ESRCH). A live writer,
// one whose liveness cannot be probed (EPERM), this process's own, and names
// not in this form are left alone. A reused pid only delays a removal.
void remove_dead_temporaries(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  const std::string prefix = base + ".tmp.";
  DIR* dir = ::opendir(parent_dir(path).c_str());
  if (dir == nullptr) return;  // mkstemp reports what is wrong with the directory
  const pid_t self = ::getpid();
  while (const dirent* e = ::readdir(dir)) {
    const std::string_view name = e->d_name;
    if (name.substr(0, prefix.size()) != prefix) continue;
    const std::string_view rest = name.substr(prefix.size());  // "<pid>.XXXXXX"
    const size_t dot = rest.find('.');
    if (dot == std::string_view::npos || rest.size() - dot - 1 != 6) continue;
    pid_t pid = 0;
    const auto r = std::from_chars(rest.data(), rest.data() + dot, pid);
    if (r.ec != std::errc() || r.ptr != rest.data() + dot || pid <= 0 || pid == self) continue;
    if (::kill(pid, 0) == 0 || errno != ESRCH) continue;
    ::unlinkat(::dirfd(dir), e->d_name, 0);
  }
  ::closedir(dir);
}

}  // namespace

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)) {
  EMBER_CHECK(!path_.empty() && path_.back() != '/', "AtomicFile: invalid file name '", path_, "'");
  remove_dead_temporaries(path_);
  std::string tmpl = path_ + ".tmp." + std::to_string(::getpid()) + ".XXXXXX";
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  fd_ = ::mkstemp(buf.data());
  EMBER_CHECK(fd_ >= 0, "AtomicFile: cannot create a temporary file for '", path_, "': ", errno_text());
  temp_path_ = buf.data();
  // mkstemp creates 0600; give the file the permissions a plain open() would.
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd_, 0666 & ~mask);
}

AtomicFile::~AtomicFile() {
  if (!committed_) discard();
}

void AtomicFile::discard() noexcept {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!temp_path_.empty()) ::unlink(temp_path_.c_str());
  temp_path_.clear();
}

void AtomicFile::write(const void* data, size_t size) {
  EMBER_CHECK(fd_ >= 0 && !committed_, "AtomicFile: write to '", path_, "' after commit or failure");
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t n = ::write(fd_, p, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string why = errno_text();
      discard();
      EMBER_ERROR("AtomicFile: writing '", path_, "' failed: ", why);
    }
    p += n;
    size -= static_cast<size_t>(n);
  }
}

void AtomicFile::commit() {
  EMBER_CHECK(fd_ >= 0 && !committed_, "AtomicFile: commit of '", path_, "' after commit or failure");
  auto fail = [&](const char* step) {
    const std::string why = errno_text();
    discard();
    EMBER_ERROR("AtomicFile: ", step, " for '", path_, "' failed: ", why);
  };
  if (::fsync(fd_) != 0) fail("fsync");
  const int rc = ::close(fd_);
  fd_ = -1;
  if (rc != 0) fail("close");
  if (::rename(temp_path_.c_str(), path_.c_str()) != 0) fail("rename");
  committed_ = true;
  temp_path_.clear();
  // The rename is done; make it durable. A failure here cannot undo it, so
  // it is reported but the new file stays.
  const int dir = ::open(parent_dir(path_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  EMBER_CHECK(dir >= 0, "AtomicFile: cannot open the directory of '", path_, "' to fsync it: ", errno_text());
  const int drc = ::fsync(dir);
  const std::string why = errno_text();
  ::close(dir);
  EMBER_CHECK(drc == 0, "AtomicFile: fsync of the directory of '", path_, "' failed: ", why);
}

void write_file_atomic(const std::string& path, std::string_view bytes) {
  AtomicFile f(path);
  f.write(bytes);
  f.commit();
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EMBER_CHECK(in.good(), "serialize: cannot open '", path, "': ", errno_text());
  std::ostringstream ss;
  ss << in.rdbuf();
  EMBER_CHECK(!in.bad(), "serialize: reading '", path, "' failed");
  return std::move(ss).str();
}

}  // namespace torch::serialize
