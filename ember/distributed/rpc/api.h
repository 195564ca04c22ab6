#pragma once
// torch.distributed.rpc in C++. Note [RPC design]
// Python ships a pickled function and its arguments; C++ cannot ship code, so
// a worker calls functions by name from a registry every worker fills in
// (register_function, before init_rpc; the same binary registers the same
// functions), and arguments and results are Objects (object.h: None, bool,
// int, float, str, Tensor, lists and dicts), which carry data only. Each
// worker listens on a TCP port published through a TCPStore (init_method
// env:// or tcp://host:port); a call is a length-prefixed frame (frame.h) on a
// connection to the callee, served by the callee's pool of
// num_worker_threads threads, and answered on the same connection.
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "ember/distributed/object.h"
#include "ember/distributed/rpc/future.h"

namespace torch::distributed::rpc {

constexpr std::chrono::milliseconds kDefaultRpcTimeout{60000};
// timeout = kUnsetRpcTimeout: the backend options' rpc_timeout.
constexpr std::chrono::milliseconds kUnsetRpcTimeout{-1};

struct TensorPipeRpcBackendOptions {
  TensorPipeRpcBackendOptions(int64_t num_worker_threads_ = 16,
                              std::chrono::milliseconds rpc_timeout_ = kDefaultRpcTimeout,
                              std::string init_method_ = "env://")
      : num_worker_threads(num_worker_threads_), rpc_timeout(rpc_timeout_), init_method(std::move(init_method_)) {}
  int64_t num_worker_threads;
  std::chrono::milliseconds rpc_timeout;
  std::string init_method;
};

struct WorkerInfo {
  std::string name;
  int64_t id = -1;
  friend bool operator==(const WorkerInfo& a, const WorkerInfo& b) { return a.id == b.id && a.name == b.name; }
};

// Where a call goes: a worker's name, its id (rank) or its WorkerInfo.
struct WorkerRef {
  WorkerRef(std::string name) : v(std::move(name)) {}    // NOLINT: implicit, as Python's to=
  WorkerRef(const char* name) : v(std::string(name)) {}  // NOLINT
  WorkerRef(int64_t id) : v(id) {}                       // NOLINT
  WorkerRef(int id) : v(int64_t{id}) {}                  // NOLINT
  WorkerRef(WorkerInfo info) : v(info.id) {}             // NOLINT
  std::variant<std::string, int64_t> v;
};

// A registered function: positional and keyword arguments in, one Object out.
// An exception it throws reaches the caller as an ember::Error naming the callee.
using Function = std::function<Object(const Object::List& args, const Object::Dict& kwargs)>;
void register_function(const std::string& name, Function fn);

// Joins the RPC group of world_size workers (a collective); name must be unique.
void init_rpc(const std::string& name, std::optional<int64_t> rank = std::nullopt,
              std::optional<int64_t> world_size = std::nullopt,
              const TensorPipeRpcBackendOptions& rpc_backend_options = {});
// graceful: wait until every worker has no outstanding work (a collective), then stop.
void shutdown(bool graceful = true);

WorkerInfo get_worker_info(std::optional<std::string> worker_name = std::nullopt);
std::vector<WorkerInfo> _get_all_worker_infos();

Object rpc_sync(const WorkerRef& to, const std::string& func, Object::List args = {}, Object::Dict kwargs = {},
                std::chrono::milliseconds timeout = kUnsetRpcTimeout);
Future rpc_async(const WorkerRef& to, const std::string& func, Object::List args = {}, Object::Dict kwargs = {},
                 std::chrono::milliseconds timeout = kUnsetRpcTimeout);

namespace detail {
struct RRefState;
}

// A reference to an Object owned by one worker (remote() runs the function
// there and keeps the result). Copies share one reference; when the last copy
// on a user is gone, the owner is told and deletes the value once no user
// holds it (shutdown(graceful) waits for those deletions to be confirmed).
class RRef {
 public:
  RRef() = default;
  // Copies the value to the caller (blocking).
  Object to_here(std::chrono::milliseconds timeout = kUnsetRpcTimeout) const;
  // On the owner only: the value itself.
  Object local_value() const;
  WorkerInfo owner() const;
  std::string owner_name() const;
  bool is_owner() const;
  // Whether the owner has confirmed it holds this reference.
  bool confirmed_by_owner() const;
  explicit operator bool() const { return state_ != nullptr; }
  // The reference's id, unique in the group.
  int64_t id() const;
  // An RRef as an RPC argument or result: to_object() first registers the
  // receiver as one more user with the owner (a blocking call), so the value
  // lives until every copy anywhere is gone; from_object() on the receiver
  // makes the RRef back (the owner's, when it is the owner).
  Object to_object() const;
  static RRef from_object(const Object& obj);

  explicit RRef(std::shared_ptr<detail::RRefState> s) : state_(std::move(s)) {}
  const std::shared_ptr<detail::RRefState>& state() const { return state_; }

 private:
  std::shared_ptr<detail::RRefState> state_;
};

// On the owner: the value of the RRef with this id (raises if this worker does not own it).
// (A function given rref.id() instead of to_object() reads it so; the caller keeps it alive.)
Object local_rref_value(int64_t rref_id);

RRef remote(const WorkerRef& to, const std::string& func, Object::List args = {}, Object::Dict kwargs = {},
            std::chrono::milliseconds timeout = kUnsetRpcTimeout);

}  // namespace torch::distributed::rpc
