#pragma once
// The few POSIX socket calls the TCP store needs, behind an owning fd type and
// deadline-bounded helpers that raise ember::Error instead of blocking forever.
#include <chrono>
#include <cstdint>
#include <string>
#include <utility>

#include "ember/core/namespace.h"

namespace torch::distributed::store_detail {

using Clock = std::chrono::steady_clock;

// Owns a file descriptor; closes it once.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() { reset(); }
  Fd(Fd&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
  Fd& operator=(Fd&& o) noexcept {
    if (this != &o) {
      reset();
      fd_ = std::exchange(o.fd_, -1);
    }
    return *this;
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }
  void reset();

 private:
  int fd_ = -1;
};

// A listening IPv4/IPv6 socket on every interface; port 0 picks a free port.
Fd listen_tcp(uint16_t port, const char* who);
uint16_t local_port(const Fd& fd);
// The local address (numeric) this connected socket talks from.
std::string local_address(const Fd& fd);
// Connects, retrying refused connections (the server may not be up yet) until the deadline.
Fd connect_tcp(const std::string& host, uint16_t port, Clock::time_point deadline, const char* who);
void set_nonblocking(const Fd& fd);
void set_nodelay(const Fd& fd);
// Blocking-with-deadline transfers on a non-blocking socket: false when the
// deadline passes first; an ember::Error (naming `who`) on EOF or a socket error.
[[nodiscard]] bool send_all(const Fd& fd, const void* data, size_t n, Clock::time_point deadline, const char* who);
[[nodiscard]] bool recv_exact(const Fd& fd, void* data, size_t n, Clock::time_point deadline, const char* who);

}  // namespace torch::distributed::store_detail
