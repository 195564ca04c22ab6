#include "rendezvous_wire.h"

#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <sstream>
#include <system_error>

#include "rendezvous.h"
#include "signal_watch.h"

namespace ember_run::rdzv {

std::runtime_error rdzv_error(const std::string& what) { return std::runtime_error("ember-run: rendezvous: " + what); }

std::string seconds_text(double s) {
  std::ostringstream out;
  out << s;
  return out.str();
}

std::string endpoint_text(const Endpoint& ep) { return ep.host + ":" + std::to_string(ep.port); }

Clock::time_point deadline_after(double seconds) {
  return Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

int ms_until(Clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return left <= 0 ? 0 : static_cast<int>(std::min<long long>(left, 200));
}

void poll_signals(int signal_fd, short revents) {
  if (!(revents & POLLIN)) return;
  for (int sig : drain_signals(signal_fd))
    if (is_termination_signal(sig)) throw RendezvousInterrupted{sig};
}

bool wait_for(int fd, short events, int signal_fd, Clock::time_point deadline) {
  while (true) {
    pollfd fds[2] = {{fd, events, 0}, {signal_fd, POLLIN, 0}};
    int timeout = ms_until(deadline);
    int n = ::poll(fds, 2, timeout);
    if (n < 0 && errno != EINTR) throw std::system_error(errno, std::generic_category(), "ember-run: poll");
    if (n > 0) {
      poll_signals(signal_fd, fds[1].revents);
      if (fds[0].revents) return true;
    }
    if (Clock::now() >= deadline) return false;
  }
}

bool LineReader::read_some(int fd, bool& eof) {
  char chunk[256];
  ssize_t n = ::recv(fd, chunk, sizeof(chunk), MSG_DONTWAIT);
  if (n == 0) eof = true;
  if (n > 0) buffer.append(chunk, static_cast<size_t>(n));
  if (buffer.find('\n') != std::string::npos) return true;
  if (buffer.size() > kMaxLine) throw rdzv_error("a peer sent an over-long message");
  return false;
}

UniqueFd connect_once(const Endpoint& ep) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* res = nullptr;
  std::string port = std::to_string(ep.port);
  if (int rc = ::getaddrinfo(ep.host.c_str(), port.c_str(), &hints, &res); rc != 0)
    throw rdzv_error("cannot resolve '" + ep.host + "': " + gai_strerror(rc));
  UniqueFd sock;
  for (addrinfo* ai = res; ai; ai = ai->ai_next) {
    UniqueFd s(::socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol));
    if (s && ::connect(s.get(), ai->ai_addr, ai->ai_addrlen) == 0) {
      sock = std::move(s);
      break;
    }
  }
  ::freeaddrinfo(res);
  return sock;
}

void send_line(int fd, const std::string& line) {
  std::string out = line + "\n";
  ::send(fd, out.data(), out.size(), MSG_NOSIGNAL);  // a peer that left is found by its own timeout
}

UniqueFd listen_on(int port) {
  for (int family : {AF_INET6, AF_INET}) {
    UniqueFd s(::socket(family, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (!s) continue;
    int one = 1, zero = 0;
    ::setsockopt(s.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
    int rc;
    if (family == AF_INET6) {
      ::setsockopt(s.get(), IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
      sockaddr_in6 addr{};
      addr.sin6_family = AF_INET6;
      addr.sin6_addr = in6addr_any;
      addr.sin6_port = htons(static_cast<uint16_t>(port));
      rc = ::bind(s.get(), reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
    } else {
      sockaddr_in addr{};
      addr.sin_family = AF_INET;
      addr.sin_addr.s_addr = htonl(INADDR_ANY);
      addr.sin_port = htons(static_cast<uint16_t>(port));
      rc = ::bind(s.get(), reinterpret_cast<sockaddr*>(&addr), sizeof(addr));
    }
    if (rc == 0 && ::listen(s.get(), 64) == 0) return s;
    if (errno == EADDRINUSE) throw rdzv_error("port " + std::to_string(port) + " is in use on node 0");
  }
  throw std::system_error(errno, std::generic_category(),
                          "ember-run: rendezvous: listen on port " + std::to_string(port));
}

}  // namespace ember_run::rdzv
