#include <poll.h>
#include <sys/socket.h>

#include <algorithm>
#include <optional>
#include <sstream>

#include "rendezvous_roles.h"
#include "rendezvous_wire.h"

namespace ember_run::rdzv {
namespace {

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

}  // namespace

RendezvousResult join_rendezvous(const LaunchOptions& o, int signal_fd) {
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

}  // namespace ember_run::rdzv
