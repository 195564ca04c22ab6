#pragma once
// Owning file descriptors: every fd the launcher opens (pipes, sockets, log
// files, the signalfd) is held by a UniqueFd, so no path leaks one into a
// worker or keeps a pipe's write end open after a worker exits.
#include <unistd.h>

#include <utility>

namespace ember_run {

class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  UniqueFd(UniqueFd&& other) noexcept : fd_(other.release()) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept {
    if (this != &other) reset(other.release());
    return *this;
  }
  ~UniqueFd() { reset(); }

  int get() const { return fd_; }
  explicit operator bool() const { return fd_ >= 0; }
  int release() { return std::exchange(fd_, -1); }
  void reset(int fd = -1) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_ = -1;
};

// A pipe whose ends are close-on-exec: a worker gets only the end that is
// dup2'ed onto its stdout/stderr, never its siblings' pipes.
struct Pipe {
  UniqueFd read_end;
  UniqueFd write_end;
};
Pipe make_pipe();

// write(2) until all of `size` bytes are out or the reader is gone; returns
// false when the fd cannot take more (EPIPE, closed console), which the caller
// treats as "stop echoing", never as a reason to kill the job.
bool write_all(int fd, const char* data, size_t size);

}  // namespace ember_run
