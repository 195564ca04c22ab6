#include "ember/distributed/store/tcp_store.h"

#include "ember/core/error.h"
#include "ember/distributed/store/tcp_store_server.h"

namespace torch::distributed {

using store_detail::Clock;
using store_detail::StoreOp;
using store_detail::StoreRequest;

namespace {

constexpr const char* kInitKey = "init/num_workers";
constexpr const char* kInitDoneKey = "init/done";

Clock::time_point deadline_after(std::chrono::milliseconds t) { return Clock::now() + t; }

// The reply's status byte; an error reply raises with the server's text.
store_detail::FrameReader open_reply(const std::vector<uint8_t>& payload, const char* op) {
  store_detail::FrameReader r(payload.data(), payload.size());
  uint8_t status = r.u8();
  EMBER_CHECK(status <= 1, op, ": malformed reply from the store server (status ", int(status), ")");
  if (status == 1) {
    auto msg = r.bytes();
    EMBER_ERROR(op, ": ", std::string(msg.begin(), msg.end()));
  }
  return r;
}

}  // namespace

TCPStore::TCPStore(std::string host_name, int64_t port, std::optional<int64_t> world_size, bool is_master,
                   std::chrono::milliseconds timeout, bool wait_for_workers, bool /*multi_tenant*/)
    : Store(timeout), host_(std::move(host_name)), port_(port) {
  EMBER_CHECK(port >= 0 && port <= 65535, "TCPStore: port ", port, " is out of range [0, 65535]");
  EMBER_CHECK(!world_size || *world_size >= 1, "TCPStore: world_size must be positive, got ", *world_size);
  EMBER_CHECK(is_master || port != 0, "TCPStore: a client needs the master's port, got 0");
  if (is_master) {
    server_ = std::make_unique<store_detail::TCPStoreServer>(static_cast<uint16_t>(port));
    port_ = server_->port();
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    connect_locked(deadline_after(timeout));
  }
  if (world_size) {
    int64_t joined = add(kInitKey, 1);
    if (joined == *world_size) set(kInitDoneKey, std::string("1"));
    if (is_master && wait_for_workers) {
      try {
        wait({kInitDoneKey}, timeout);
      } catch (const Error&) {
        int64_t now = add(kInitKey, 0);
        EMBER_ERROR("TCPStore: timed out after ", timeout.count(), " ms waiting for ", *world_size,
                    " workers to connect to port ", port_, "; ", now, " connected");
      }
    }
  }
}

TCPStore::~TCPStore() {
  // The client first, then the server thread (which closes the remaining connections).
  fd_.reset();
  server_.reset();
}

void TCPStore::connect_locked(Clock::time_point deadline) {
  fd_ = store_detail::connect_tcp(host_, static_cast<uint16_t>(port_), deadline, "TCPStore");
}

std::shared_ptr<Store> TCPStore::clone() {
  return std::make_shared<TCPStore>(host_, port_, std::nullopt, false, timeout());
}

std::string TCPStore::local_address() const { return store_detail::local_address(fd_); }

std::optional<std::vector<uint8_t>> TCPStore::roundtrip(const StoreRequest& req, Clock::time_point deadline,
                                                        const char* op) {
  std::vector<uint8_t> frame;
  store_detail::encode_request(req, frame);
  std::lock_guard<std::mutex> lock(mu_);
  if (!fd_.valid()) connect_locked(deadline);
  try {
    uint8_t len[4];
    if (!store_detail::send_all(fd_, frame.data(), frame.size(), deadline, op) ||
        !store_detail::recv_exact(fd_, len, 4, deadline, op)) {
      fd_.reset();  // a reply may still come: this connection is out of step now
      return std::nullopt;
    }
    uint32_t n = store_detail::frame_length(len);
    // Read in pieces, so a lying length costs only the bytes that really arrive.
    std::vector<uint8_t> payload;
    while (payload.size() < n) {
      size_t piece = std::min<size_t>(n - payload.size(), 1 << 20);
      size_t at = payload.size();
      payload.resize(at + piece);
      if (!store_detail::recv_exact(fd_, payload.data() + at, piece, deadline, op)) {
        fd_.reset();
        return std::nullopt;
      }
    }
    return payload;
  } catch (const Error&) {
    fd_.reset();
    throw;
  }
}

void TCPStore::set(const std::string& key, const std::vector<uint8_t>& value) {
  StoreRequest req{StoreOp::SET, {key}, value, {}, 0};
  auto reply = roundtrip(req, deadline_after(timeout()), "TCPStore.set");
  EMBER_CHECK(reply, "TCPStore.set: timed out after ", timeout().count(), " ms setting key '", key, "'");
  open_reply(*reply, "TCPStore.set").expect_end();
}

std::vector<uint8_t> TCPStore::get(const std::string& key) {
  wait({key}, timeout());
  StoreRequest req{StoreOp::GET, {key}, {}, {}, 0};
  auto reply = roundtrip(req, deadline_after(timeout()), "TCPStore.get");
  EMBER_CHECK(reply, "TCPStore.get: timed out after ", timeout().count(), " ms reading key '", key, "'");
  auto r = open_reply(*reply, "TCPStore.get");
  auto v = r.bytes();
  r.expect_end();
  return v;
}

int64_t TCPStore::add(const std::string& key, int64_t amount) {
  StoreRequest req{StoreOp::ADD, {key}, {}, {}, amount};
  auto reply = roundtrip(req, deadline_after(timeout()), "TCPStore.add");
  EMBER_CHECK(reply, "TCPStore.add: timed out after ", timeout().count(), " ms adding to key '", key, "'");
  auto r = open_reply(*reply, "TCPStore.add");
  int64_t v = r.i64();
  r.expect_end();
  return v;
}

std::vector<uint8_t> TCPStore::compare_set(const std::string& key, const std::vector<uint8_t>& expected,
                                           const std::vector<uint8_t>& desired) {
  StoreRequest req{StoreOp::COMPARE_SET, {key}, expected, desired, 0};
  auto reply = roundtrip(req, deadline_after(timeout()), "TCPStore.compare_set");
  EMBER_CHECK(reply, "TCPStore.compare_set: timed out after ", timeout().count(), " ms on key '", key, "'");
  auto r = open_reply(*reply, "TCPStore.compare_set");
  auto v = r.bytes();
  r.expect_end();
  return v;
}

bool TCPStore::delete_key(const std::string& key) {
  StoreRequest req{StoreOp::DELETE_KEY, {key}, {}, {}, 0};
  auto reply = roundtrip(req, deadline_after(timeout()), "TCPStore.delete_key");
  EMBER_CHECK(reply, "TCPStore.delete_key: timed out after ", timeout().count(), " ms on key '", key, "'");
  auto r = open_reply(*reply, "TCPStore.delete_key");
  bool v = r.u8() != 0;
  r.expect_end();
  return v;
}

int64_t TCPStore::num_keys() {
  StoreRequest req{StoreOp::NUM_KEYS, {}, {}, {}, 0};
  auto reply = roundtrip(req, deadline_after(timeout()), "TCPStore.num_keys");
  EMBER_CHECK(reply, "TCPStore.num_keys: timed out after ", timeout().count(), " ms");
  auto r = open_reply(*reply, "TCPStore.num_keys");
  int64_t v = r.i64();
  r.expect_end();
  return v;
}

bool TCPStore::check(const std::vector<std::string>& keys) {
  StoreRequest req{StoreOp::CHECK, keys, {}, {}, 0};
  auto reply = roundtrip(req, deadline_after(timeout()), "TCPStore.check");
  EMBER_CHECK(reply, "TCPStore.check: timed out after ", timeout().count(), " ms");
  auto r = open_reply(*reply, "TCPStore.check");
  bool v = r.u8() != 0;
  r.expect_end();
  return v;
}

void TCPStore::wait(const std::vector<std::string>& keys, std::chrono::milliseconds timeout) {
  timeout = effective(timeout);
  StoreRequest req{StoreOp::WAIT, keys, {}, {}, 0};
  auto reply = roundtrip(req, deadline_after(timeout), "TCPStore.wait");
  EMBER_CHECK(reply, "TCPStore.wait: timed out after ", timeout.count(), " ms waiting for keys ",
              store_detail::keys_str(keys));
  open_reply(*reply, "TCPStore.wait").expect_end();
}

}  // namespace torch::distributed
