#include "ember/distributed/store/socket.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

#include "ember/core/error.h"

namespace torch::distributed::store_detail {
namespace {

int ms_until(Clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left <= 0 ? 0 : static_cast<int>(std::min<int64_t>(left, 1 << 30));
}

// Waits for `events` on fd; false on timeout.
bool wait_fd(int fd, short events, Clock::time_point deadline) {
  for (;;) {
    pollfd p{fd, events, 0};
    int r = ::poll(&p, 1, ms_until(deadline));
    if (r > 0) return true;
    if (r == 0) return false;
    if (errno != EINTR) return true;  // let the following call report the error
  }
}

}  // namespace

void Fd::reset() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

Fd listen_tcp(uint16_t port, const char* who) {
  Fd fd(::socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0));
  bool v6 = fd.valid();
  if (!v6) fd = Fd(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  EMBER_CHECK(fd.valid(), who, ": socket() failed: ", std::strerror(errno));
  int one = 1, zero = 0;
  ::setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  int rc;
  if (v6) {
    ::setsockopt(fd.get(), IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof zero);  // accept IPv4 too
    sockaddr_in6 a{};
    a.sin6_family = AF_INET6;
    a.sin6_addr = in6addr_any;
    a.sin6_port = htons(port);
    rc = ::bind(fd.get(), reinterpret_cast<sockaddr*>(&a), sizeof a);
  } else {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_ANY);
    a.sin_port = htons(port);
    rc = ::bind(fd.get(), reinterpret_cast<sockaddr*>(&a), sizeof a);
  }
  EMBER_CHECK(rc == 0, who, ": cannot bind port ", port, ": ", std::strerror(errno),
              errno == EADDRINUSE ? " (the port is in use)" : "");
  EMBER_CHECK(::listen(fd.get(), 1024) == 0, who, ": listen() on port ", port, " failed: ", std::strerror(errno));
  return fd;
}

uint16_t local_port(const Fd& fd) {
  sockaddr_storage a{};
  socklen_t len = sizeof a;
  EMBER_CHECK(::getsockname(fd.get(), reinterpret_cast<sockaddr*>(&a), &len) == 0,
              "getsockname failed: ", std::strerror(errno));
  if (a.ss_family == AF_INET6) return ntohs(reinterpret_cast<sockaddr_in6*>(&a)->sin6_port);
  return ntohs(reinterpret_cast<sockaddr_in*>(&a)->sin_port);
}

std::string local_address(const Fd& fd) {
  sockaddr_storage a{};
  socklen_t len = sizeof a;
  if (::getsockname(fd.get(), reinterpret_cast<sockaddr*>(&a), &len) != 0) return "127.0.0.1";
  char host[NI_MAXHOST];
  if (::getnameinfo(reinterpret_cast<sockaddr*>(&a), len, host, sizeof host, nullptr, 0, NI_NUMERICHOST) != 0)
    return "127.0.0.1";
  std::string h = host;
  if (h.rfind("::ffff:", 0) == 0) h = h.substr(7);  // an IPv4 peer of a dual-stack socket
  return h;
}

void set_nonblocking(const Fd& fd) {
  int flags = ::fcntl(fd.get(), F_GETFL, 0);
  ::fcntl(fd.get(), F_SETFL, flags | O_NONBLOCK);
}

void set_nodelay(const Fd& fd) {
  int one = 1;
  ::setsockopt(fd.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

Fd connect_tcp(const std::string& host, uint16_t port, Clock::time_point deadline, const char* who) {
  std::string last = "timed out";
  for (;;) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* res = nullptr;
    int gai = ::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &res);
    EMBER_CHECK(gai == 0, who, ": cannot resolve host '", host, "': ", ::gai_strerror(gai));
    std::unique_ptr<addrinfo, void (*)(addrinfo*)> guard(res, ::freeaddrinfo);
    for (addrinfo* ai = res; ai; ai = ai->ai_next) {
      Fd fd(::socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol));
      if (!fd.valid()) continue;
      set_nonblocking(fd);
      int rc = ::connect(fd.get(), ai->ai_addr, ai->ai_addrlen);
      if (rc != 0 && errno == EINPROGRESS) {
        if (!wait_fd(fd.get(), POLLOUT, deadline)) {
          last = "connect timed out";
          continue;
        }
        int err = 0;
        socklen_t len = sizeof err;
        ::getsockopt(fd.get(), SOL_SOCKET, SO_ERROR, &err, &len);
        rc = err == 0 ? 0 : -1;
        errno = err;
      }
      if (rc == 0) {
        set_nodelay(fd);
        return fd;
      }
      last = std::strerror(errno);
    }
    EMBER_CHECK(Clock::now() < deadline, who, ": could not connect to ", host, ":", port,
                " before the timeout: ", last);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

bool send_all(const Fd& fd, const void* data, size_t n, Clock::time_point deadline, const char* who) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    ssize_t w = ::send(fd.get(), p, n, MSG_NOSIGNAL);
    if (w > 0) {
      p += w;
      n -= static_cast<size_t>(w);
      continue;
    }
    EMBER_CHECK(w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR), who,
                ": send failed: ", std::strerror(errno));
    if (!wait_fd(fd.get(), POLLOUT, deadline)) return false;
  }
  return true;
}

bool recv_exact(const Fd& fd, void* data, size_t n, Clock::time_point deadline, const char* who) {
  char* p = static_cast<char*>(data);
  while (n > 0) {
    ssize_t r = ::recv(fd.get(), p, n, 0);
    if (r > 0) {
      p += r;
      n -= static_cast<size_t>(r);
      continue;
    }
    EMBER_CHECK(r != 0, who, ": the store server closed the connection");
    EMBER_CHECK(errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR, who,
                ": recv failed: ", std::strerror(errno));
    if (!wait_fd(fd.get(), POLLIN, deadline)) return false;
  }
  return true;
}

}  // namespace torch::distributed::store_detail
