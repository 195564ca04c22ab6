#include "ember/distributed/rpc/api.h"

#include <cstdlib>
#include <map>
#include <mutex>

#include "ember/core/error.h"
#include "ember/distributed/rpc/agent.h"
#include "ember/distributed/rpc/dist_autograd.h"
#include "ember/distributed/rpc/registry.h"
#include "ember/distributed/store/tcp_store.h"

namespace torch::distributed::rpc {
namespace {

std::mutex& registry_mu() {
  static std::mutex mu;
  return mu;
}
std::map<std::string, Function>& registry() {
  static std::map<std::string, Function> functions;
  return functions;
}

int64_t env_int(const char* name, const char* who) {
  const char* v = std::getenv(name);
  EMBER_CHECK(v != nullptr, who, ": ", name, " is not set and was not given");
  try {
    return std::stoll(v);
  } catch (const std::exception&) {
    EMBER_ERROR(who, ": ", name, "=", v, " is not an integer");
  }
}

std::shared_ptr<Store> rendezvous(const std::string& init_method, int64_t rank, int64_t world_size,
                                  std::chrono::milliseconds timeout) {
  std::string host;
  int64_t port = 0;
  if (init_method == "env://") {
    const char* addr = std::getenv("MASTER_ADDR");
    EMBER_CHECK(addr != nullptr, "init_rpc: MASTER_ADDR is not set (init_method env://)");
    host = addr;
    port = env_int("MASTER_PORT", "init_rpc");
  } else if (init_method.rfind("tcp://", 0) == 0) {
    std::string rest = init_method.substr(6);
    auto colon = rest.rfind(':');
    EMBER_CHECK(colon != std::string::npos, "init_rpc: init_method ", init_method, " lacks a port");
    host = rest.substr(0, colon);
    try {
      port = std::stoll(rest.substr(colon + 1));
    } catch (const std::exception&) {
      EMBER_ERROR("init_rpc: bad port in init_method ", init_method);
    }
  } else {
    EMBER_ERROR("init_rpc: init_method must be env:// or tcp://host:port, got ", init_method);
  }
  EMBER_CHECK(port > 0 && port < 65536, "init_rpc: port ", port, " out of range");
  return std::make_shared<TCPStore>(host, port, world_size, rank == 0, timeout, true);
}

}  // namespace

namespace detail {
Function lookup_function(const std::string& name) {
  std::lock_guard<std::mutex> lock(registry_mu());
  auto it = registry().find(name);
  EMBER_CHECK(it != registry().end(), "rpc: no function named '", name,
              "' is registered on this worker (rpc::register_function)");
  return it->second;
}
}  // namespace detail

void register_function(const std::string& name, Function fn) {
  EMBER_CHECK(!name.empty(), "register_function: the name is empty");
  EMBER_CHECK(fn != nullptr, "register_function: the function for '", name, "' is empty");
  std::lock_guard<std::mutex> lock(registry_mu());
  registry()[name] = std::move(fn);
}

void init_rpc(const std::string& name, std::optional<int64_t> rank, std::optional<int64_t> world_size,
              const TensorPipeRpcBackendOptions& options) {
  EMBER_CHECK(!name.empty(), "init_rpc: the worker name is empty");
  EMBER_CHECK(detail::Agent::get_if_running() == nullptr, "init_rpc: RPC is already initialized");
  int64_t r = rank ? *rank : env_int("RANK", "init_rpc");
  int64_t n = world_size ? *world_size : env_int("WORLD_SIZE", "init_rpc");
  EMBER_CHECK(n >= 1, "init_rpc: world_size must be >= 1, got ", n);
  EMBER_CHECK(r >= 0 && r < n, "init_rpc: rank ", r, " is not in [0, ", n, ")");
  auto store = rendezvous(options.init_method, r, n, options.rpc_timeout);
  auto agent = std::make_shared<detail::Agent>(name, r, n, options);
  agent->start(store);
  detail::Agent::set(agent);
}

void shutdown(bool graceful) {
  auto agent = detail::Agent::get();
  agent->stop(graceful);
  detail::Agent::set(nullptr);
}

WorkerInfo get_worker_info(std::optional<std::string> worker_name) {
  auto agent = detail::Agent::get();
  if (!worker_name) return agent->info(agent->rank());
  return agent->info(agent->resolve(*worker_name));
}

std::vector<WorkerInfo> _get_all_worker_infos() { return detail::Agent::get()->infos(); }

Future rpc_async(const WorkerRef& to, const std::string& func, Object::List args, Object::Dict kwargs,
                 std::chrono::milliseconds timeout) {
  auto agent = detail::Agent::get();
  int64_t dst = agent->resolve(to);
  int64_t ctx = autograd::detail::current_context_id();
  int64_t msg = -1;
  Object args_obj(std::move(args)), kwargs_obj(std::move(kwargs));
  Object::List positions;
  if (ctx >= 0) {
    // Positions count the tensors of [args, kwargs], in that order.
    msg = agent->next_id();
    for (int64_t p : autograd::detail::record_send(ctx, msg, Object(Object::List{args_obj, kwargs_obj}), dst))
      positions.emplace_back(p);
  }
  Object payload(Object::List{Object(func), std::move(args_obj), std::move(kwargs_obj), Object(ctx), Object(msg),
                              Object(std::move(positions))});
  Future reply = agent->send(dst, detail::MessageType::kCall, std::move(payload), timeout);
  return reply.then([ctx, dst](const Object& r) {
    EMBER_CHECK(r.is_list() && r.to_list().size() == 3, "rpc: malformed reply");
    const auto& f = r.to_list();
    int64_t msg_back = f[1].to_int();
    if (ctx >= 0 && msg_back >= 0) {
      std::vector<int64_t> pos;
      for (const auto& p : f[2].to_list()) pos.push_back(p.to_int());
      autograd::detail::attach_recv(ctx, dst, msg_back, f[0], pos);
    }
    return f[0];
  });
}

Object rpc_sync(const WorkerRef& to, const std::string& func, Object::List args, Object::Dict kwargs,
                std::chrono::milliseconds timeout) {
  return rpc_async(to, func, std::move(args), std::move(kwargs), timeout).wait();
}

RRef remote(const WorkerRef& to, const std::string& func, Object::List args, Object::Dict kwargs,
            std::chrono::milliseconds timeout) {
  auto agent = detail::Agent::get();
  int64_t dst = agent->resolve(to);
  auto state = std::make_shared<detail::RRefState>();
  state->id = agent->next_id();
  state->owner = agent->info(dst);
  state->is_owner = dst == agent->rank();
  Object payload(Object::List{Object(func), Object(std::move(args)), Object(std::move(kwargs)), Object(int64_t{-1}),
                              Object(int64_t{-1}), Object(Object::List{}), Object(state->id)});
  state->created = agent->send(dst, detail::MessageType::kRemote, std::move(payload), timeout);
  return RRef(state);
}

Object RRef::to_here(std::chrono::milliseconds timeout) const {
  EMBER_CHECK(state_ != nullptr, "RRef.to_here: an empty RRef");
  state_->created.wait();  // the owner holds the value (or the function's error raises here)
  auto agent = detail::Agent::get();
  int64_t ctx = autograd::detail::current_context_id(), owner = state_->owner.id;
  Object r =
      agent->send(owner, detail::MessageType::kFetch, Object(Object::List{Object(state_->id), Object(ctx)}), timeout)
          .wait();
  EMBER_CHECK(r.is_list() && r.to_list().size() == 3, "RRef.to_here: malformed reply");
  const auto& f = r.to_list();
  if (ctx >= 0 && f[1].to_int() >= 0) {
    std::vector<int64_t> pos;
    for (const auto& p : f[2].to_list()) pos.push_back(p.to_int());
    autograd::detail::attach_recv(ctx, owner, f[1].to_int(), f[0], pos);
  }
  return f[0];
}

Object RRef::local_value() const {
  EMBER_CHECK(state_ != nullptr, "RRef.local_value: an empty RRef");
  EMBER_CHECK(state_->is_owner, "RRef.local_value: called on a user RRef; its owner is ", state_->owner.name,
              " (use to_here())");
  state_->created.wait();
  return detail::Agent::get()->owner_value(state_->id);
}

WorkerInfo RRef::owner() const {
  EMBER_CHECK(state_ != nullptr, "RRef.owner: an empty RRef");
  return state_->owner;
}
int64_t RRef::id() const {
  EMBER_CHECK(state_ != nullptr, "RRef.id: an empty RRef");
  return state_->id;
}

Object RRef::to_object() const {
  EMBER_CHECK(state_ != nullptr, "RRef.to_object: an empty RRef");
  state_->created.wait();
  auto agent = detail::Agent::get();
  agent
      ->send(state_->owner.id, detail::MessageType::kForkRRef, Object(Object::List{Object(state_->id)}),
             kUnsetRpcTimeout)
      .wait();
  return Object(Object::Dict{{"__rref__", Object(state_->id)}, {"owner", Object(state_->owner.id)}});
}

RRef RRef::from_object(const Object& obj) {
  EMBER_CHECK(obj.is_dict() && obj.to_dict().count("__rref__") && obj.to_dict().count("owner"),
              "RRef.from_object: the object is not an RRef made by to_object(), but a ", obj.kind());
  auto agent = detail::Agent::get();
  auto state = std::make_shared<detail::RRefState>();
  state->id = obj.to_dict().at("__rref__").to_int();
  state->owner = agent->info(obj.to_dict().at("owner").to_int());
  state->is_owner = state->owner.id == agent->rank();
  state->created.set_result(Object());
  return RRef(state);
}

Object local_rref_value(int64_t rref_id) { return detail::Agent::get()->owner_value(rref_id); }

std::string RRef::owner_name() const { return owner().name; }
bool RRef::is_owner() const { return state_ && state_->is_owner; }
bool RRef::confirmed_by_owner() const {
  if (!state_ || !state_->created.done()) return false;
  try {
    state_->created.wait();
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace torch::distributed::rpc
