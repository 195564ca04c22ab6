// init_process_group, new_group, destroy_process_group and the queries on groups.
#include <algorithm>
#include <cstdlib>
#include <set>

#include "ember/core/error.h"
#include "ember/distributed/process_group_gloo.h"
#include "ember/distributed/process_group_mpi.h"
#include "ember/distributed/store/file_store.h"
#include "ember/distributed/store/prefix_store.h"
#include "ember/distributed/store/tcp_store.h"
#include "ember/distributed/world.h"

namespace torch::distributed {

using c10d_detail::World;
using c10d_detail::world;

namespace {

// A group of one process that is not part of it: its calls do nothing, as
// Python's NON_GROUP_MEMBER.
class NonGroupMember : public ProcessGroup {
 public:
  NonGroupMember() : ProcessGroup(-1, -1) {}
  std::string getBackendName() const override { return "none"; }
  const std::string& group_name() const override { return name_; }
#define EMBER_NON_MEMBER(sig) \
  std::shared_ptr<Work> sig override { return nullptr; }
  EMBER_NON_MEMBER(broadcast(std::vector<Tensor>&, const BroadcastOptions&))
  EMBER_NON_MEMBER(allreduce(std::vector<Tensor>&, const AllreduceOptions&))
  EMBER_NON_MEMBER(reduce(std::vector<Tensor>&, const ReduceOptions&))
  EMBER_NON_MEMBER(allgather(std::vector<std::vector<Tensor>>&, std::vector<Tensor>&, const AllgatherOptions&))
  EMBER_NON_MEMBER(_allgather_base(Tensor&, Tensor&, const AllgatherOptions&))
  EMBER_NON_MEMBER(gather(std::vector<std::vector<Tensor>>&, std::vector<Tensor>&, const GatherOptions&))
  EMBER_NON_MEMBER(scatter(std::vector<Tensor>&, std::vector<std::vector<Tensor>>&, const ScatterOptions&))
  EMBER_NON_MEMBER(reduce_scatter(std::vector<Tensor>&, std::vector<std::vector<Tensor>>&, const ReduceScatterOptions&))
  EMBER_NON_MEMBER(alltoall_base(Tensor&, Tensor&, std::vector<int64_t>&, std::vector<int64_t>&,
                                 const AllToAllOptions&))
  EMBER_NON_MEMBER(alltoall(std::vector<Tensor>&, std::vector<Tensor>&, const AllToAllOptions&))
  EMBER_NON_MEMBER(barrier(const BarrierOptions&))
  EMBER_NON_MEMBER(send(std::vector<Tensor>&, int64_t, int64_t))
  EMBER_NON_MEMBER(recv(std::vector<Tensor>&, int64_t, int64_t))
  EMBER_NON_MEMBER(recvAnysource(std::vector<Tensor>&, int64_t))
#undef EMBER_NON_MEMBER
  void monitored_barrier(const BarrierOptions&, bool) override {}

 private:
  std::string name_ = "NON_GROUP_MEMBER";
};

int64_t env_int(const char* name, const char* why) {
  const char* v = std::getenv(name);
  EMBER_CHECK(v && *v, "init_process_group: environment variable ", name, " expected, but not set (", why, ")");
  char* end = nullptr;
  long long x = std::strtoll(v, &end, 10);
  EMBER_CHECK(end && *end == 0, "init_process_group: environment variable ", name, " is not an integer: '", v, "'");
  return x;
}

struct Url {
  std::string scheme, host, path;
  int64_t port = -1;
  std::map<std::string, std::string> query;
};

Url parse_url(const std::string& s) {
  Url u;
  auto sep = s.find("://");
  EMBER_CHECK(sep != std::string::npos, "init_process_group: init_method '", s,
              "' is not a URL (expected env://, tcp://host:port or file:///path)");
  u.scheme = s.substr(0, sep);
  std::string rest = s.substr(sep + 3);
  if (auto q = rest.find('?'); q != std::string::npos) {
    std::string query = rest.substr(q + 1);
    rest = rest.substr(0, q);
    size_t at = 0;
    while (at <= query.size()) {
      size_t amp = query.find('&', at);
      std::string kv = query.substr(at, amp == std::string::npos ? std::string::npos : amp - at);
      if (auto eq = kv.find('='); eq != std::string::npos) u.query[kv.substr(0, eq)] = kv.substr(eq + 1);
      if (amp == std::string::npos) break;
      at = amp + 1;
    }
  }
  if (u.scheme == "file") {
    u.path = rest;
  } else if (u.scheme == "tcp") {
    auto colon = rest.rfind(':');
    EMBER_CHECK(colon != std::string::npos && colon + 1 < rest.size(), "init_process_group: init_method '", s,
                "' has no port");
    u.host = rest.substr(0, colon);
    if (u.host.size() >= 2 && u.host.front() == '[' && u.host.back() == ']')
      u.host = u.host.substr(1, u.host.size() - 2);
    char* end = nullptr;
    std::string port = rest.substr(colon + 1);
    u.port = std::strtoll(port.c_str(), &end, 10);
    EMBER_CHECK(end && *end == 0 && u.port >= 0 && u.port <= 65535, "init_process_group: init_method '", s,
                "' has an invalid port '", port, "'");
  }
  return u;
}

int64_t query_int(const Url& u, const char* key, int64_t fallback) {
  auto it = u.query.find(key);
  if (it == u.query.end()) return fallback;
  char* end = nullptr;
  long long v = std::strtoll(it->second.c_str(), &end, 10);
  EMBER_CHECK(end && *end == 0, "init_process_group: ", key, "='", it->second, "' in init_method is not an integer");
  return v;
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

}  // namespace

const ProcessGroupPtr& GroupMember::NON_GROUP_MEMBER() {
  static const ProcessGroupPtr sentinel = std::make_shared<NonGroupMember>();
  return sentinel;
}

bool is_available() { return true; }
bool is_gloo_available() { return true; }
bool is_nccl_available() { return false; }

void init_process_group(const std::string& backend, std::optional<std::string> init_method,
                        std::chrono::milliseconds timeout, int64_t world_size, int64_t rank,
                        std::shared_ptr<Store> store, const std::string& group_name) {
  std::string b = lower(backend);
  EMBER_CHECK(b == "gloo" || (b == "mpi" && is_mpi_available()), "init_process_group: backend '", backend,
              "' is not available; Ember's distributed library is built with gloo",
              is_mpi_available() ? " and mpi" : " (and without MPI)");
  EMBER_CHECK(timeout.count() > 0, "init_process_group: the timeout must be positive, got ", timeout.count(), " ms");
  {
    std::lock_guard<std::mutex> lock(world().mu);
    EMBER_CHECK(world().default_pg == nullptr,
                "init_process_group: trying to initialize the default process group twice!");
  }
  if (b == "mpi") {
    // As c10d: the MPI runtime assigns rank and world size; init_method, store,
    // world_size and rank are not used.
    auto pg = ProcessGroupMPI::createProcessGroupMPI();
    EMBER_CHECK(pg != nullptr, "init_process_group: MPI gave this process no rank in MPI_COMM_WORLD");
    EMBER_CHECK(world_size < 0 || world_size == pg->size(), "init_process_group: world_size ", world_size,
                " differs from the MPI job's size ", pg->size());
    EMBER_CHECK(rank < 0 || rank == pg->rank(), "init_process_group: rank ", rank, " differs from the MPI rank ",
                pg->rank());
    World& w = world();
    std::lock_guard<std::mutex> lock(w.mu);
    EMBER_CHECK(w.default_pg == nullptr, "init_process_group: trying to initialize the default process group twice!");
    w.default_pg = pg;
    w.store = std::move(store);
    w.backend = "mpi";
    w.group_count = 0;
    w.timeout = timeout;
    w.global_ranks.clear();
    return;
  }
  EMBER_CHECK(!(store && init_method), "init_process_group: cannot specify both init_method and store.");
  if (store) {
    EMBER_CHECK(world_size > 0, "init_process_group: world_size must be positive if using store, got ", world_size);
    EMBER_CHECK(rank >= 0, "init_process_group: rank must be non-negative if using store, got ", rank);
  } else {
    Url url = parse_url(init_method.value_or("env://"));
    if (url.scheme == "env") {
      if (rank < 0) rank = env_int("RANK", "the rank of this process");
      if (world_size < 0) world_size = env_int("WORLD_SIZE", "the number of processes");
      const char* addr = std::getenv("MASTER_ADDR");
      EMBER_CHECK(addr && *addr, "init_process_group: environment variable MASTER_ADDR expected, but not set");
      int64_t port = env_int("MASTER_PORT", "the port of rank 0's store");
      EMBER_CHECK(port > 0 && port <= 65535, "init_process_group: MASTER_PORT ", port, " is out of range");
      url.host = addr;
      url.port = port;
      url.scheme = "tcp";
    } else {
      EMBER_CHECK(url.scheme == "tcp" || url.scheme == "file", "init_process_group: unsupported init_method scheme '",
                  url.scheme, "://' (expected env://, tcp:// or file://)");
      rank = rank >= 0 ? rank : query_int(url, "rank", -1);
      world_size = world_size >= 0 ? world_size : query_int(url, "world_size", -1);
    }
    EMBER_CHECK(rank >= 0, "init_process_group: rank must be given (argument, RANK or ?rank=), got ", rank);
    EMBER_CHECK(world_size > 0, "init_process_group: world_size must be positive, got ", world_size);
    EMBER_CHECK(rank < world_size, "init_process_group: rank ", rank, " is out of range for world_size ", world_size);
    if (url.scheme == "tcp") {
      EMBER_CHECK(url.port > 0, "init_process_group: tcp:// needs a port other than 0");
      // The group's own rendezvous names missing ranks; the store need not wait for workers.
      store = std::make_shared<TCPStore>(url.host, url.port, world_size, rank == 0, timeout, false);
    } else if (url.scheme == "file") {
      store = std::make_shared<FileStore>(url.path, world_size);
    } else {
      EMBER_ERROR("init_process_group: unsupported init_method scheme '", url.scheme,
                  "://' (expected env://, tcp:// or file://)");
    }
  }
  EMBER_CHECK(rank < world_size, "init_process_group: rank ", rank, " is out of range for world_size ", world_size);
  ProcessGroupGloo::Options options;
  options.timeout = timeout;
  options.group_name = group_name.empty() ? "default_pg" : group_name;
  auto pg =
      std::make_shared<ProcessGroupGloo>(std::make_shared<PrefixStore>("default_pg", store), rank, world_size, options);
  World& w = world();
  std::lock_guard<std::mutex> lock(w.mu);
  EMBER_CHECK(w.default_pg == nullptr, "init_process_group: trying to initialize the default process group twice!");
  w.default_pg = pg;
  w.store = store;
  w.backend = "gloo";
  w.group_count = 0;
  w.timeout = timeout;
  w.global_ranks.clear();
}

bool is_initialized() {
  std::lock_guard<std::mutex> lock(world().mu);
  return world().default_pg != nullptr;
}

ProcessGroupPtr get_default_group() { return c10d_detail::resolve(nullptr, "get_default_group"); }

void destroy_process_group(const ProcessGroupPtr& group) {
  World& w = world();
  ProcessGroupPtr keep;  // destroyed after the lock: its destructor drains its queue
  std::vector<ProcessGroupPtr> subgroups;
  std::lock_guard<std::mutex> lock(w.mu);
  if (!group || group == w.default_pg) {
    EMBER_CHECK(w.default_pg != nullptr, "destroy_process_group: Invalid process group specified");
    keep = std::move(w.default_pg);
    w.store.reset();
    w.global_ranks.clear();
    w.group_count = 0;
    return;
  }
  if (c10d_detail::is_non_member(group)) return;
  EMBER_CHECK(w.global_ranks.erase(group.get()) == 1, "destroy_process_group: Invalid process group specified");
}

ProcessGroupPtr new_group(std::vector<int64_t> ranks, std::chrono::milliseconds timeout,
                          std::optional<std::string> backend) {
  auto pg = c10d_detail::resolve(nullptr, "new_group");
  World& w = world();
  std::shared_ptr<Store> store;
  int64_t id;
  std::string default_backend;
  {
    std::lock_guard<std::mutex> lock(w.mu);
    store = w.store;
    id = ++w.group_count;
    default_backend = w.backend;
  }
  std::string b = backend ? lower(*backend) : default_backend;
  EMBER_CHECK(b == "gloo" || (b == "mpi" && default_backend == "mpi"), "new_group: backend '", b, "' is not available",
              b == "mpi" ? " (an mpi subgroup needs the default group on mpi)" : "");
  EMBER_CHECK(b == "mpi" || store != nullptr, "new_group: a gloo group needs the default group's store");
  int64_t world_size = pg->size(), me = pg->rank();
  if (ranks.empty())
    for (int64_t r = 0; r < world_size; ++r) ranks.push_back(r);
  std::set<int64_t> seen;
  for (int64_t r : ranks) {
    EMBER_CHECK(r >= 0 && r < world_size, "new_group: rank ", r, " is out of range for world_size ", world_size);
    EMBER_CHECK(seen.insert(r).second, "new_group: rank ", r, " is listed twice");
  }
  std::sort(ranks.begin(), ranks.end());
  if (b == "mpi") {
    // Every process takes part in creating the communicator, members or not.
    auto group = ProcessGroupMPI::createProcessGroupMPI(ranks);
    if (!group) return GroupMember::NON_GROUP_MEMBER();
    std::lock_guard<std::mutex> lock(w.mu);
    w.global_ranks[group.get()] = ranks;
    return group;
  }
  auto pos = std::find(ranks.begin(), ranks.end(), me);
  if (pos == ranks.end()) return GroupMember::NON_GROUP_MEMBER();
  ProcessGroupGloo::Options options;
  options.timeout = timeout;
  options.group_name = std::to_string(id);
  auto group = std::make_shared<ProcessGroupGloo>(std::make_shared<PrefixStore>(std::to_string(id), store),
                                                  pos - ranks.begin(), static_cast<int64_t>(ranks.size()), options);
  std::lock_guard<std::mutex> lock(w.mu);
  w.global_ranks[group.get()] = ranks;
  return group;
}

int64_t get_rank(const ProcessGroupPtr& group) {
  if (c10d_detail::is_non_member(group)) return -1;
  return c10d_detail::resolve(group, "get_rank")->rank();
}

int64_t get_world_size(const ProcessGroupPtr& group) {
  if (c10d_detail::is_non_member(group)) return -1;
  return c10d_detail::resolve(group, "get_world_size")->size();
}

std::string get_backend(const ProcessGroupPtr& group) {
  EMBER_CHECK(!c10d_detail::is_non_member(group), "get_backend: Invalid group specified");
  return c10d_detail::resolve(group, "get_backend")->getBackendName();
}

int64_t get_global_rank(const ProcessGroupPtr& group, int64_t group_rank) {
  return c10d_detail::global_rank_of(c10d_detail::resolve(group, "get_global_rank"), group_rank);
}

int64_t get_group_rank(const ProcessGroupPtr& group, int64_t global_rank) {
  return c10d_detail::group_rank_of(c10d_detail::resolve(group, "get_group_rank"), global_rank, "get_group_rank");
}

}  // namespace torch::distributed
