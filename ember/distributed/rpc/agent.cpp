#include "ember/distributed/rpc/agent.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>

#include "ember/core/error.h"
#include "ember/distributed/rpc/dist_autograd.h"
#include "ember/distributed/rpc/registry.h"

namespace torch::distributed::rpc::detail {
namespace {

using store_detail::Clock;
constexpr auto kForever = std::chrono::hours(24 * 365);

std::mutex& agent_mu() {
  static std::mutex mu;
  return mu;
}
std::shared_ptr<Agent>& agent_slot() {
  static std::shared_ptr<Agent> agent;
  return agent;
}

Object::List as_fields(const Object& payload, size_t n, const char* what) {
  EMBER_CHECK(payload.is_list() && payload.to_list().size() == n, "rpc: malformed ", what, " message");
  return payload.to_list();
}

std::vector<int64_t> int_list(const Object& o) {
  std::vector<int64_t> out;
  for (const auto& e : o.to_list()) out.push_back(e.to_int());
  return out;
}

Object int_list_object(const std::vector<int64_t>& v) {
  Object::List l;
  for (int64_t x : v) l.emplace_back(x);
  return Object(std::move(l));
}

}  // namespace

// The delete goes after the owner's confirmation, so it cannot overtake the
// creation on the owner's pool.
RRefState::~RRefState() {
  created.then([owner = owner.id, id = id](const Object&) {
    if (auto agent = Agent::get_if_running()) {
      try {
        agent->send(owner, MessageType::kDeleteRRef, Object(Object::List{Object(id)}), kUnsetRpcTimeout);
      } catch (...) {  // the owner is gone: nothing holds the value any more
      }
    }
    return Object();
  });
}

Agent::Agent(std::string name, int64_t rank, int64_t world_size, TensorPipeRpcBackendOptions options)
    : name_(std::move(name)), rank_(rank), world_size_(world_size), options_(std::move(options)) {
  EMBER_CHECK(options_.num_worker_threads >= 1, "init_rpc: num_worker_threads must be >= 1, got ",
              options_.num_worker_threads);
}

Agent::~Agent() {
  if (!stopping_) stop(false);
}

std::shared_ptr<Agent> Agent::get() {
  auto a = get_if_running();
  EMBER_CHECK(a != nullptr, "rpc: RPC has not been initialized. Call torch.distributed.rpc.init_rpc first.");
  return a;
}
std::shared_ptr<Agent> Agent::get_if_running() {
  std::lock_guard<std::mutex> lock(agent_mu());
  return agent_slot();
}
void Agent::set(std::shared_ptr<Agent> agent) {
  std::lock_guard<std::mutex> lock(agent_mu());
  agent_slot() = std::move(agent);
}

const WorkerInfo& Agent::info(int64_t rank) const {
  EMBER_CHECK(rank >= 0 && rank < world_size_, "rpc: worker id ", rank, " is not in [0, ", world_size_, ")");
  return infos_[static_cast<size_t>(rank)];
}

int64_t Agent::resolve(const WorkerRef& to) const {
  if (auto* id = std::get_if<int64_t>(&to.v)) return info(*id).id;
  const auto& name = std::get<std::string>(to.v);
  for (const auto& w : infos_)
    if (w.name == name) return w.id;
  EMBER_ERROR("rpc: Unknown destination worker ", name);
}

std::chrono::milliseconds Agent::timeout(std::chrono::milliseconds t) const {
  return t == kUnsetRpcTimeout ? options_.rpc_timeout : t;
}

void Agent::start(std::shared_ptr<Store> store) {
  store_ = std::move(store);
  listener_ = store_detail::listen_tcp(0, "init_rpc");
  store_detail::set_nonblocking(listener_);
  uint16_t port = store_detail::local_port(listener_);
  // The address peers reach this worker on: the one it reaches the store from.
  std::string host = "127.0.0.1";
  if (const char* h = std::getenv("EMBER_RPC_HOST")) host = h;
  store_->set("rpc/name/" + std::to_string(rank_), name_);
  store_->set("rpc/addr/" + std::to_string(rank_), host + ":" + std::to_string(port));
  infos_.resize(static_cast<size_t>(world_size_));
  addrs_.resize(static_cast<size_t>(world_size_));
  for (int64_t r = 0; r < world_size_; ++r) {
    auto n = store_->get("rpc/name/" + std::to_string(r));
    auto a = store_->get("rpc/addr/" + std::to_string(r));
    std::string addr(a.begin(), a.end());
    auto colon = addr.rfind(':');
    EMBER_CHECK(colon != std::string::npos, "init_rpc: worker ", r, " published a bad address ", addr);
    infos_[static_cast<size_t>(r)] = {std::string(n.begin(), n.end()), r};
    addrs_[static_cast<size_t>(r)] = {addr.substr(0, colon), static_cast<uint16_t>(std::stoi(addr.substr(colon + 1)))};
  }
  for (int64_t r = 0; r < world_size_; ++r)
    for (int64_t q = 0; q < r; ++q)
      EMBER_CHECK(infos_[static_cast<size_t>(r)].name != infos_[static_cast<size_t>(q)].name, "init_rpc: workers ", q,
                  " and ", r, " share the name ", infos_[static_cast<size_t>(r)].name, "; worker names must be unique");
  for (int64_t i = 0; i < options_.num_worker_threads; ++i) pool_.emplace_back([this] { pool_loop(); });
  acceptor_ = std::thread([this] { accept_loop(); });
}

void Agent::submit(std::function<void()> task) {
  {
    std::lock_guard<std::mutex> lock(pool_mu_);
    tasks_.push_back(std::move(task));
  }
  pool_cv_.notify_one();
}

void Agent::pool_loop() {
  for (;;) {
    std::function<void()> task;
    {
      std::unique_lock<std::mutex> lock(pool_mu_);
      pool_cv_.wait(lock, [&] { return stopping_ || !tasks_.empty(); });
      if (tasks_.empty()) return;
      task = std::move(tasks_.front());
      tasks_.pop_front();
      ++busy_;
    }
    task();
    {
      std::lock_guard<std::mutex> lock(pool_mu_);
      --busy_;
    }
    idle_cv_.notify_all();
  }
}

void Agent::write_frame(Conn& c, MessageType type, uint64_t id, const Object& payload) {
  std::vector<uint8_t> bytes(kHeaderBytes);
  encode_object(payload, bytes);
  encode_header({type, id, bytes.size() - kHeaderBytes}, bytes.data());
  std::lock_guard<std::mutex> lock(c.write_mu);
  EMBER_CHECK(store_detail::send_all(c.fd, bytes.data(), bytes.size(), Clock::now() + options_.rpc_timeout, "rpc"),
              "rpc: sending a message timed out");
}

std::shared_ptr<Agent::Conn> Agent::connection(int64_t to) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    EMBER_CHECK(!stopping_, "rpc: the agent is shut down");
    auto it = out_.find(to);
    if (it != out_.end() && !it->second->dead) return it->second;
  }
  // Connecting may take until the timeout: not under mu_, which the readers need.
  auto c = std::make_shared<Conn>();
  const auto& [host, port] = addrs_.at(static_cast<size_t>(to));
  c->fd = store_detail::connect_tcp(host, port, Clock::now() + options_.rpc_timeout, "rpc");
  store_detail::set_nonblocking(c->fd);
  store_detail::set_nodelay(c->fd);
  std::lock_guard<std::mutex> lock(mu_);
  EMBER_CHECK(!stopping_, "rpc: the agent is shut down");
  auto it = out_.find(to);
  if (it != out_.end() && !it->second->dead) return it->second;  // another thread won: ours closes
  if (it != out_.end()) in_.push_back(it->second);               // the dead one is joined at stop
  out_[to] = c;
  c->reader = std::thread([this, c, to] { reply_loop(c, to); });
  return c;
}

Future Agent::send(int64_t to, MessageType type, Object payload, std::chrono::milliseconds timeout) {
  auto t = this->timeout(timeout);
  Future f;
  if (t.count() > 0) f.set_deadline(Clock::now() + t, "rpc to " + info(to).name);
  uint64_t id = static_cast<uint64_t>(next_id());
  auto c = connection(to);
  {
    std::lock_guard<std::mutex> lock(mu_);
    pending_[id] = {to, f};
  }
  try {
    write_frame(*c, type, id, payload);
  } catch (const std::exception& e) {
    std::lock_guard<std::mutex> lock(mu_);
    pending_.erase(id);
    throw;
  }
  return f;
}

void Agent::reply_loop(std::shared_ptr<Conn> c, int64_t peer) {
  std::string why = "the connection closed";
  try {
    for (;;) {
      uint8_t head[kHeaderBytes];
      if (!store_detail::recv_exact(c->fd, head, kHeaderBytes, Clock::now() + kForever, "rpc")) continue;
      auto h = parse_header(head, kHeaderBytes);
      std::vector<uint8_t> body(static_cast<size_t>(h->length));
      if (h->length && !store_detail::recv_exact(c->fd, body.data(), body.size(), Clock::now() + kForever, "rpc"))
        EMBER_ERROR("rpc: a reply's body did not arrive");
      EMBER_CHECK(h->type == MessageType::kReplyOk || h->type == MessageType::kReplyError,
                  "rpc: a request where a reply was expected");
      Object payload = decode_object(body);
      Future f;
      {
        std::lock_guard<std::mutex> lock(mu_);
        auto it = pending_.find(h->id);
        if (it == pending_.end()) continue;  // not ours (garbage): ignored
        f = it->second.second;
        pending_.erase(it);
      }
      idle_cv_.notify_all();
      if (h->type == MessageType::kReplyOk)
        f.set_result(std::move(payload));
      else
        f.set_error(payload.is_string() ? payload.to_string() : "rpc: remote error");
    }
  } catch (const std::exception& e) {
    why = e.what();
  }
  c->dead = true;
  fail_pending(peer, "rpc: lost the connection to worker " + info(peer).name + ": " + why);
}

void Agent::fail_pending(int64_t peer, const std::string& why) {
  std::vector<Future> failed;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto it = pending_.begin(); it != pending_.end();)
      if (it->second.first == peer) {
        failed.push_back(it->second.second);
        it = pending_.erase(it);
      } else {
        ++it;
      }
  }
  idle_cv_.notify_all();
  for (auto& f : failed) f.set_error(why);
}

void Agent::accept_loop() {
  while (!stopping_) {
    pollfd p{listener_.get(), POLLIN, 0};
    if (::poll(&p, 1, 50) <= 0) continue;
    int fd = ::accept(listener_.get(), nullptr, nullptr);
    if (fd < 0) continue;
    auto c = std::make_shared<Conn>();
    c->fd = store_detail::Fd(fd);
    store_detail::set_nonblocking(c->fd);
    store_detail::set_nodelay(c->fd);
    std::lock_guard<std::mutex> lock(mu_);
    in_.push_back(c);
    c->reader = std::thread([this, c] { serve_loop(c); });
  }
}

// One peer's requests: each runs on the pool and is answered on this connection.
// A malformed frame ends the connection (the peer's calls fail), nothing else.
void Agent::serve_loop(std::shared_ptr<Conn> c) {
  try {
    while (!stopping_) {
      uint8_t head[kHeaderBytes];
      if (!store_detail::recv_exact(c->fd, head, kHeaderBytes, Clock::now() + kForever, "rpc")) continue;
      auto h = parse_header(head, kHeaderBytes);
      std::vector<uint8_t> body(static_cast<size_t>(h->length));
      if (h->length && !store_detail::recv_exact(c->fd, body.data(), body.size(), Clock::now() + kForever, "rpc"))
        break;
      Object payload = decode_object(body);
      // A new RRef is registered before any later message on this connection
      // (a fetch, a function reading it) can run on the pool.
      if (h->type == MessageType::kRemote) register_owned(payload);
      submit([this, c, type = h->type, id = h->id, p = std::move(payload)]() mutable {
        handle(c, type, id, std::move(p));
      });
    }
  } catch (const std::exception&) {
  }
  c->dead = true;
}

Object Agent::call_function(const Object::List& f, int64_t from) {
  // [func, args, kwargs, context id, message id, grad positions]
  const std::string& func = f[0].to_string();
  int64_t ctx = f[3].to_int();
  if (ctx >= 0)
    autograd::detail::attach_recv(ctx, from, f[4].to_int(), Object(Object::List{f[1], f[2]}), int_list(f[5]));
  autograd::detail::ContextGuard guard(ctx);
  return lookup_function(func)(f[1].to_list(), f[2].to_dict());
}

void Agent::handle(const std::shared_ptr<Conn>& c, MessageType type, uint64_t id, Object payload) {
  MessageType reply = MessageType::kReplyOk;
  Object result;
  try {
    switch (type) {
      case MessageType::kCall: {
        auto f = as_fields(payload, 6, "call");
        int64_t from = static_cast<int64_t>(id >> 48);
        Object value = call_function(f, from);
        int64_t ctx = f[3].to_int();
        int64_t msg = -1;
        std::vector<int64_t> positions;
        if (ctx >= 0) {
          msg = next_id();
          positions = autograd::detail::record_send(ctx, msg, value, from);
        }
        result = Object(Object::List{std::move(value), Object(msg), int_list_object(positions)});
        break;
      }
      case MessageType::kRemote: {
        // The entry was made in arrival order by serve_loop (register_owned).
        auto f = as_fields(payload, 7, "remote");
        Future value;
        {
          std::lock_guard<std::mutex> lock(mu_);
          value = owned_.at(f[6].to_int()).value;
        }
        try {
          value.set_result(call_function(f, static_cast<int64_t>(id >> 48)));
        } catch (const std::exception& e) {
          value.set_error(e.what());
          throw;
        }
        break;
      }
      case MessageType::kFetch: {
        // [rref id, context id]: in a context the value goes back as a send (Note [Distributed autograd]).
        auto f = as_fields(payload, 2, "fetch");
        Object value = owner_value(f[0].to_int());
        int64_t ctx = f[1].to_int(), msg = -1;
        std::vector<int64_t> positions;
        if (ctx >= 0) {
          msg = next_id();
          positions = autograd::detail::record_send(ctx, msg, value, static_cast<int64_t>(id >> 48));
        }
        result = Object(Object::List{std::move(value), Object(msg), int_list_object(positions)});
        break;
      }
      case MessageType::kDeleteRRef: {
        int64_t rref = as_fields(payload, 1, "delete")[0].to_int();
        std::lock_guard<std::mutex> lock(mu_);
        auto it = owned_.find(rref);
        if (it != owned_.end() && --it->second.users <= 0) owned_.erase(it);
        break;
      }
      case MessageType::kForkRRef: {
        int64_t rref = as_fields(payload, 1, "fork")[0].to_int();
        std::lock_guard<std::mutex> lock(mu_);
        auto it = owned_.find(rref);
        EMBER_CHECK(it != owned_.end(), "rpc: worker ", name_, " owns no RRef ", rref, " to share");
        it->second.users += 1;
        break;
      }
      case MessageType::kBackward: {
        auto f = as_fields(payload, 3, "backward");
        autograd::detail::backward_from_message(f[0].to_int(), f[1].to_int(), f[2].to_list());
        break;
      }
      case MessageType::kCleanup: {
        autograd::detail::release_context(as_fields(payload, 1, "cleanup")[0].to_int());
        break;
      }
      default:
        EMBER_ERROR("rpc: a reply where a request was expected");
    }
  } catch (const std::exception& e) {
    reply = MessageType::kReplyError;
    result = Object(std::string("rpc: error on worker ") + name_ + ": " + e.what());
  }
  try {
    write_frame(*c, reply, id, result);
  } catch (const std::exception&) {  // the caller is gone
  }
}

Object Agent::owner_value(int64_t rref_id) {
  Future f;
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = owned_.find(rref_id);
    EMBER_CHECK(it != owned_.end(), "rpc: worker ", name_, " owns no RRef ", rref_id, " (deleted?)");
    f = it->second.value;
  }
  return f.wait();
}

void Agent::register_owned(const Object& payload) {
  auto f = as_fields(payload, 7, "remote");
  std::lock_guard<std::mutex> lock(mu_);
  owned_[f[6].to_int()].users += 1;
}

size_t Agent::num_owned_rrefs() {
  std::lock_guard<std::mutex> lock(mu_);
  return owned_.size();
}

void Agent::wait_idle(std::chrono::milliseconds limit) {
  auto deadline = Clock::now() + limit;
  std::unique_lock<std::mutex> lock(mu_);
  idle_cv_.wait_until(lock, deadline, [&] { return pending_.empty(); });
}

void Agent::stop(bool graceful) {
  if (graceful && store_) {
    wait_idle(options_.rpc_timeout);
    // Every worker stops sending before any stops serving.
    int64_t arrived = store_->add("rpc/shutdown", 1);
    if (arrived == world_size_) store_->set("rpc/shutdown_all", "1");
    store_->wait({"rpc/shutdown_all"}, options_.rpc_timeout);
    store_->add("rpc/shutdown_exit", 1);
    if (rank_ == 0) {  // the store's server lives here: keep it until all have read the flag
      auto deadline = Clock::now() + options_.rpc_timeout;
      while (store_->add("rpc/shutdown_exit", 0) < world_size_ && Clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  stopping_ = true;
  pool_cv_.notify_all();
  if (acceptor_.joinable()) acceptor_.join();
  std::vector<std::shared_ptr<Conn>> conns;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& [r, c] : out_) conns.push_back(c);
    for (auto& c : in_) conns.push_back(c);
  }
  for (auto& c : conns)
    if (c->fd.valid()) ::shutdown(c->fd.get(), SHUT_RDWR);
  for (auto& t : pool_)
    if (t.joinable()) t.join();
  for (auto& c : conns)
    if (c->reader.joinable()) c->reader.join();
  {
    std::lock_guard<std::mutex> lock(mu_);
    out_.clear();
    in_.clear();
    owned_.clear();
  }
  std::vector<Future> left;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& [id, p] : pending_) left.push_back(p.second);
    pending_.clear();
  }
  for (auto& f : left) f.set_error("rpc: shut down before the reply came");
}

}  // namespace torch::distributed::rpc::detail
