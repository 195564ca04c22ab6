#include "rendezvous.h"

#include <netinet/in.h>
#include <sys/socket.h>

#include <cerrno>
#include <system_error>

#include "host_name.h"
#include "rendezvous_roles.h"

namespace ember_run {

RendezvousResult next_rendezvous(const LaunchOptions& o, int signal_fd) {
  RendezvousResult r;
  if (o.nnodes > 1)
    r = o.node_rank == 0 ? rdzv::host_rendezvous(o, signal_fd) : rdzv::join_rendezvous(o, signal_fd);
  else
    r.world_size = o.nproc_per_node;
  if (o.pick_master_port) {
    // torchrun's c10d rendezvous (and --standalone): group rank 0 publishes its host name and a free port.
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

}  // namespace ember_run
