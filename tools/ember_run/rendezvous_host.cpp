#include <poll.h>
#include <sys/socket.h>

#include <cerrno>
#include <map>
#include <memory>
#include <sstream>
#include <system_error>
#include <vector>

#include "rendezvous_roles.h"
#include "rendezvous_wire.h"

namespace ember_run::rdzv {
namespace {

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

}  // namespace

RendezvousResult host_rendezvous(const LaunchOptions& o, int signal_fd) {
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
  // Let the nodes close first (see try_join in rendezvous_join.cpp), but never wait long.
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

}  // namespace ember_run::rdzv
