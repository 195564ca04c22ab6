#include "rendezvous.h"

#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <vector>

#include "signal_watch.h"

namespace ember_run {
namespace {

using Clock = std::chrono::steady_clock;

// A rendezvous message is one short text line; anything longer is not ours.
constexpr size_t kMaxLine = 512;
constexpr const char* kHello = "ember-run-rdzv-1";

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

// Throws RendezvousInterrupted on SIGINT/SIGTERM; other signals are dropped
// (no workers exist while a rendezvous runs).
void poll_signals(int signal_fd, short revents) {
  if (!(revents & POLLIN)) return;
  for (int sig : drain_signals(signal_fd))
    if (is_termination_signal(sig)) throw RendezvousInterrupted{sig};
}

// Waits until `fd` has `events` or the deadline passes, watching signals.
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

struct LineReader {
  std::string buffer;
  // Reads what is there; returns true once a full line is buffered. Throws on
  // an over-long line; `eof` is set when the peer closed.
  bool read_some(int fd, bool& eof) {
    char chunk[256];
    ssize_t n = ::recv(fd, chunk, sizeof(chunk), MSG_DONTWAIT);
    if (n == 0) eof = true;
    if (n > 0) buffer.append(chunk, static_cast<size_t>(n));
    if (buffer.find('\n') != std::string::npos) return true;
    if (buffer.size() > kMaxLine) throw rdzv_error("a peer sent an over-long message");
    return false;
  }
  std::string line() const { return buffer.substr(0, buffer.find('\n')); }
};

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

// One try. nullopt when whatever answers on the endpoint is not node 0's
// rendezvous (yet): after a restart, rank 0's store from the previous attempt
// may still hold the port, so the caller tries again until the deadline.
std::optional<RendezvousResult> try_join(const LaunchOptions& o, int signal_fd, Clock::time_point deadline) {
  UniqueFd sock = connect_once(o.rdzv_endpoint);
  if (!sock) return std::nullopt;
  std::ostringstream hello;
  hello << kHello << ' ' << o.run_id << ' ' << o.nnodes << ' ' << o.node_rank << ' ' << o.nproc_per_node;
  send_line(sock.get(), hello.str());
  // Node 0 acknowledges a valid hello at once ("wait") and answers when every node is in.
  const Clock::time_point ack_deadline = std::min(deadline, Clock::now() + std::chrono::seconds(3));
  bool acknowledged = false;
  LineReader reader;
  while (true) {
    bool eof = false, have_line = false;
    try {
      have_line = reader.read_some(sock.get(), eof);
    } catch (const std::runtime_error&) {
      return std::nullopt;  // not ours
    }
    if (have_line) {
      std::string line = reader.line();
      reader.buffer.erase(0, line.size() + 1);
      std::istringstream reply(line);
      std::string status;
      reply >> status;
      if (status == "wait") {
        acknowledged = true;
        continue;
      }
      if (status == "error") {
        std::string why;
        std::getline(reply, why);
        throw rdzv_error("node 0 refused node " + std::to_string(o.node_rank) + ":" + why);
      }
      RendezvousResult r;
      if (status != "ok" || !(reply >> r.world_size >> r.rank_offset) || r.world_size < 1 || r.rank_offset < 0 ||
          r.rank_offset > r.world_size - o.nproc_per_node)
        return std::nullopt;
      r.group_rank = o.node_rank;
      r.group_world_size = o.nnodes;
      // sock closes here, before node 0 closes its side: the TIME_WAIT lands on
      // this node, not on the port rank 0's store is about to bind.
      return r;
    }
    if (eof) return std::nullopt;
    if (!wait_for(sock.get(), POLLIN, signal_fd, acknowledged ? deadline : ack_deadline)) {
      if (acknowledged)
        throw rdzv_error("the other nodes did not join at " + endpoint_text(o.rdzv_endpoint) + " within " +
                         seconds_text(o.rdzv_timeout_s) + " s");
      return std::nullopt;
    }
  }
}

RendezvousResult join_as_client(const LaunchOptions& o, int signal_fd) {
  const Clock::time_point deadline = deadline_after(o.rdzv_timeout_s);
  while (true) {
    if (auto r = try_join(o, signal_fd, deadline)) return *r;
    if (Clock::now() >= deadline)
      throw rdzv_error("node 0 did not accept at " + endpoint_text(o.rdzv_endpoint) + " within " +
                       seconds_text(o.rdzv_timeout_s) + " s");
    pollfd pfd{signal_fd, POLLIN, 0};
    if (::poll(&pfd, 1, ms_until(deadline)) > 0) poll_signals(signal_fd, pfd.revents);
  }
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

struct Peer {
  UniqueFd sock;
  LineReader reader;
  int node_rank = -1;
  int local_world_size = 0;
};

// Parses a node's hello; returns an error text for the node, or "".
std::string check_hello(const std::string& line, const LaunchOptions& o,
                        const std::map<int, std::unique_ptr<Peer>>& joined, Peer& peer) {
  std::istringstream in(line);
  std::string magic, run_id;
  int nnodes = 0;
  if (!(in >> magic >> run_id >> nnodes >> peer.node_rank >> peer.local_world_size) || magic != kHello)
    return "not an ember-run rendezvous message";
  if (run_id != o.run_id) return "run id '" + run_id + "' differs from node 0's '" + o.run_id + "'";
  if (nnodes != o.nnodes)
    return "--nnodes " + std::to_string(nnodes) + " differs from node 0's " + std::to_string(o.nnodes);
  if (peer.node_rank < 1 || peer.node_rank >= o.nnodes)
    return "node rank " + std::to_string(peer.node_rank) + " is out of range";
  if (joined.count(peer.node_rank)) return "node rank " + std::to_string(peer.node_rank) + " joined twice";
  if (peer.local_world_size < 1 || peer.local_world_size > 4096) return "bad local world size";
  return "";
}

// A joined node whose connection closed has left (it was stopped or
// restarted) and may join again; one that sends more after its hello breaks
// the protocol and is dropped the same way.
bool has_left(const Peer& peer) {
  char c;
  ssize_t n = ::recv(peer.sock.get(), &c, 1, MSG_DONTWAIT);
  return !(n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR));
}

RendezvousResult host(const LaunchOptions& o, int signal_fd) {
  const Clock::time_point deadline = deadline_after(o.rdzv_timeout_s);
  UniqueFd listener = listen_on(o.rdzv_endpoint.port);
  std::vector<std::unique_ptr<Peer>> pending;   // connected, hello not complete yet
  std::map<int, std::unique_ptr<Peer>> joined;  // by node rank
  while (static_cast<int>(joined.size()) < o.nnodes - 1) {
    if (Clock::now() >= deadline) {
      std::string missing;
      for (int r = 1; r < o.nnodes; ++r)
        if (!joined.count(r)) {
          if (!missing.empty()) missing += ',';
          missing += std::to_string(r);
        }
      throw rdzv_error("timed out after " + seconds_text(o.rdzv_timeout_s) + " s at " + endpoint_text(o.rdzv_endpoint) +
                       "; node ranks that did not join: " + missing);
    }
    std::vector<pollfd> fds = {{listener.get(), POLLIN, 0}, {signal_fd, POLLIN, 0}};
    for (auto& p : pending) fds.push_back({p->sock.get(), POLLIN, 0});
    std::vector<int> joined_ranks;
    for (auto& [rank, p] : joined) {
      fds.push_back({p->sock.get(), POLLIN, 0});
      joined_ranks.push_back(rank);
    }
    int n = ::poll(fds.data(), fds.size(), ms_until(deadline));
    if (n < 0 && errno != EINTR) throw std::system_error(errno, std::generic_category(), "ember-run: poll");
    if (n <= 0) continue;
    poll_signals(signal_fd, fds[1].revents);
    for (size_t j = 0; j < joined_ranks.size(); ++j)
      if (fds[2 + pending.size() + j].revents && has_left(*joined.at(joined_ranks[j]))) joined.erase(joined_ranks[j]);
    for (size_t i = pending.size(); i-- > 0;) {
      if (!fds[i + 2].revents) continue;
      Peer& peer = *pending[i];
      bool eof = false, drop = false;
      try {
        if (peer.reader.read_some(peer.sock.get(), eof)) {
          std::string why = check_hello(peer.reader.line(), o, joined, peer);
          if (why.empty()) {
            send_line(peer.sock.get(), "wait");
            joined[peer.node_rank] = std::move(pending[i]);
          } else {
            send_line(peer.sock.get(), "error " + why);
          }
          drop = true;
        } else if (eof) {
          drop = true;
        }
      } catch (const std::runtime_error&) {
        drop = true;  // garbage from the network fails that connection only
      }
      if (drop) pending.erase(pending.begin() + static_cast<std::ptrdiff_t>(i));
    }
    if (fds[0].revents & POLLIN) {
      UniqueFd conn(::accept4(listener.get(), nullptr, nullptr, SOCK_CLOEXEC));
      if (conn && pending.size() < 256) {
        auto peer = std::make_unique<Peer>();
        peer->sock = std::move(conn);
        pending.push_back(std::move(peer));
      }
    }
  }
  listener.reset();
  std::vector<int> offsets(static_cast<size_t>(o.nnodes), 0);
  int world = o.nproc_per_node;
  for (int r = 1; r < o.nnodes; ++r) {
    offsets[static_cast<size_t>(r)] = world;
    world += joined.at(r)->local_world_size;
  }
  for (auto& [rank, peer] : joined)
    send_line(peer->sock.get(),
              "ok " + std::to_string(world) + " " + std::to_string(offsets[static_cast<size_t>(rank)]));
  // Let the nodes close first (see try_join), but never wait long.
  auto close_deadline = Clock::now() + std::chrono::seconds(2);
  for (auto& [rank, peer] : joined) {
    char c;
    while (wait_for(peer->sock.get(), POLLIN, signal_fd, close_deadline) &&
           ::recv(peer->sock.get(), &c, 1, MSG_DONTWAIT) > 0) {
    }
  }
  RendezvousResult r;
  r.group_rank = 0;
  r.group_world_size = o.nnodes;
  r.world_size = world;
  r.rank_offset = 0;
  return r;
}

}  // namespace

RendezvousResult next_rendezvous(const LaunchOptions& o, int signal_fd) {
  RendezvousResult r;
  if (o.nnodes > 1)
    r = o.node_rank == 0 ? host(o, signal_fd) : join_as_client(o, signal_fd);
  else
    r.world_size = o.nproc_per_node;
  if (o.standalone) {
    // torchrun --standalone: group rank 0 publishes its host name and a free port.
    r.master_addr = fq_hostname();
    r.master_port = pick_free_port();
  } else {
    r.master_addr = o.rdzv_endpoint.host;
    r.master_port = o.rdzv_endpoint.port;
  }
  return r;
}

int pick_free_port() {
  UniqueFd s(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_ANY);
  addr.sin_port = 0;
  socklen_t len = sizeof(addr);
  if (!s || ::bind(s.get(), reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 ||
      ::getsockname(s.get(), reinterpret_cast<sockaddr*>(&addr), &len) != 0)
    throw std::system_error(errno, std::generic_category(), "ember-run: cannot find a free port");
  return ntohs(addr.sin_port);
}

// Python's socket.getfqdn: the host name's address, looked up in reverse; the
// first of its names that contains a dot, else its canonical name.
std::string fq_hostname() {
  char name[256] = {};
  if (::gethostname(name, sizeof(name) - 1) != 0) return "127.0.0.1";
  addrinfo* res = nullptr;
  if (::getaddrinfo(name, nullptr, nullptr, &res) != 0 || !res) return "127.0.0.1";  // workers could not resolve it
  const void* addr = nullptr;
  socklen_t len = 0;
  if (res->ai_family == AF_INET) {
    addr = &reinterpret_cast<const sockaddr_in*>(res->ai_addr)->sin_addr;
    len = sizeof(in_addr);
  } else if (res->ai_family == AF_INET6) {
    addr = &reinterpret_cast<const sockaddr_in6*>(res->ai_addr)->sin6_addr;
    len = sizeof(in6_addr);
  }
  std::string fqdn = name;
  hostent entry{}, *found = nullptr;
  std::vector<char> buf(16384);
  int herr = 0;
  if (addr && ::gethostbyaddr_r(addr, len, res->ai_family, &entry, buf.data(), buf.size(), &found, &herr) == 0 &&
      found && found->h_name) {
    fqdn = found->h_name;
    if (fqdn.find('.') == std::string::npos)
      for (char** alias = found->h_aliases; alias && *alias; ++alias)
        if (std::strchr(*alias, '.')) {
          fqdn = *alias;
          break;
        }
  }
  ::freeaddrinfo(res);
  return fqdn;
}

}  // namespace ember_run
