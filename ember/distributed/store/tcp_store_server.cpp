#include "ember/distributed/store/tcp_store_server.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "ember/core/error.h"
#include "ember/distributed/store/store.h"

namespace torch::distributed::store_detail {

struct TCPStoreServer::Conn {
  Fd fd;
  std::vector<uint8_t> in;
  std::vector<uint8_t> out;
  size_t out_pos = 0;
  std::vector<std::string> waiting;  // keys of a WAIT not yet answered
  bool is_waiting = false;
};

TCPStoreServer::TCPStoreServer(uint16_t port) : listener_(listen_tcp(port, "TCPStore")) {
  port_ = local_port(listener_);
  set_nonblocking(listener_);
  int p[2];
  EMBER_CHECK(::pipe2(p, O_CLOEXEC | O_NONBLOCK) == 0, "TCPStore: pipe failed: ", std::strerror(errno));
  wake_read_ = Fd(p[0]);
  wake_write_ = Fd(p[1]);
  thread_ = std::thread([this] { run(); });
}

TCPStoreServer::~TCPStoreServer() {
  char b = 1;
  (void)!::write(wake_write_.get(), &b, 1);
  if (thread_.joinable()) thread_.join();
}

void TCPStoreServer::handle(Conn& c, const StoreRequest& req) {
  const std::string& key = req.keys.empty() ? std::string() : req.keys[0];
  switch (req.op) {
    case StoreOp::SET:
      map_[key] = req.value;
      encode_reply_empty(c.out);
      wake_waiters();
      break;
    case StoreOp::GET: {
      auto it = map_.find(key);
      if (it == map_.end()) {
        std::string msg = "key '" + key + "' not found";
        encode_reply_bytes({msg.begin(), msg.end()}, c.out, true);
      } else {
        encode_reply_bytes(it->second, c.out);
      }
      break;
    }
    case StoreOp::ADD: {
      auto it = map_.find(key);
      int64_t v = req.amount;
      if (it != map_.end()) {
        try {
          v += parse_counter(it->second, key);
        } catch (const Error& e) {
          std::string msg = e.what();
          encode_reply_bytes({msg.begin(), msg.end()}, c.out, true);
          break;
        }
      }
      map_[key] = counter_bytes(v);
      encode_reply_int(v, c.out);
      wake_waiters();
      break;
    }
    case StoreOp::COMPARE_SET: {
      auto it = map_.find(key);
      if (it == map_.end()) {
        if (req.value.empty()) {
          map_[key] = req.desired;
          encode_reply_bytes(req.desired, c.out);
          wake_waiters();
        } else {
          encode_reply_bytes(req.value, c.out);
        }
      } else if (it->second == req.value) {
        it->second = req.desired;
        encode_reply_bytes(req.desired, c.out);
        wake_waiters();
      } else {
        encode_reply_bytes(it->second, c.out);
      }
      break;
    }
    case StoreOp::DELETE_KEY:
      encode_reply_bool(map_.erase(key) > 0, c.out);
      break;
    case StoreOp::NUM_KEYS:
      encode_reply_int(static_cast<int64_t>(map_.size()), c.out);
      break;
    case StoreOp::CHECK: {
      bool all = true;
      for (const auto& k : req.keys) all = all && map_.count(k);
      encode_reply_bool(all, c.out);
      break;
    }
    case StoreOp::WAIT:
      c.waiting = req.keys;
      c.is_waiting = true;
      wake_waiters();
      break;
  }
}

void TCPStoreServer::wake_waiters() {
  for (auto& [fd, c] : conns_) {
    if (!c->is_waiting) continue;
    bool all = true;
    for (const auto& k : c->waiting) all = all && map_.count(k);
    if (!all) continue;
    c->is_waiting = false;
    c->waiting.clear();
    encode_reply_empty(c->out);
  }
}

bool TCPStoreServer::serve(Conn& c) {
  size_t pos = 0;
  try {
    while (!c.is_waiting) {
      size_t used = 0;
      auto req = decode_request(c.in.data() + pos, c.in.size() - pos, &used);
      if (!req) break;
      pos += used;
      handle(c, *req);
    }
  } catch (const Error&) {
    return false;  // a malformed frame: this peer is not speaking the protocol
  }
  c.in.erase(c.in.begin(), c.in.begin() + static_cast<std::ptrdiff_t>(pos));
  return true;
}

void TCPStoreServer::run() {
  std::vector<pollfd> fds;
  std::vector<uint8_t> buf(1 << 16);
  for (;;) {
    fds.clear();
    fds.push_back({wake_read_.get(), POLLIN, 0});
    fds.push_back({listener_.get(), POLLIN, 0});
    for (auto& [fd, c] : conns_)
      fds.push_back({fd, static_cast<short>(POLLIN | (c->out.size() > c->out_pos ? POLLOUT : 0)), 0});
    if (::poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    if (fds[0].revents) return;
    if (fds[1].revents & POLLIN) {
      for (;;) {
        int cfd = ::accept4(listener_.get(), nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (cfd < 0) break;
        auto c = std::make_unique<Conn>();
        c->fd = Fd(cfd);
        set_nodelay(c->fd);
        conns_[cfd] = std::move(c);
      }
    }
    std::vector<int> dead;
    for (size_t i = 2; i < fds.size(); ++i) {
      auto it = conns_.find(fds[i].fd);
      if (it == conns_.end()) continue;
      Conn& c = *it->second;
      bool ok = true;
      if (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) {
        ssize_t r = ::recv(c.fd.get(), buf.data(), buf.size(), 0);
        if (r > 0) {
          c.in.insert(c.in.end(), buf.begin(), buf.begin() + r);
          ok = serve(c);
        } else if (r == 0 || (errno != EAGAIN && errno != EINTR)) {
          ok = false;
        }
      }
      if (ok && c.out.size() > c.out_pos) {
        ssize_t w = ::send(c.fd.get(), c.out.data() + c.out_pos, c.out.size() - c.out_pos, MSG_NOSIGNAL);
        if (w > 0) c.out_pos += static_cast<size_t>(w);
        if (w < 0 && errno != EAGAIN && errno != EINTR) ok = false;
        if (c.out_pos == c.out.size()) {
          c.out.clear();
          c.out_pos = 0;
        }
      }
      if (!ok) dead.push_back(fds[i].fd);
    }
    for (int fd : dead) conns_.erase(fd);
    // A WAIT answered by another connection's SET queued output on a peer not yet polled for POLLOUT.
    for (auto& [fd, c] : conns_)
      if (!c->is_waiting && !c->in.empty() && !serve(*c)) dead.push_back(fd);
    for (int fd : dead) conns_.erase(fd);
  }
}

}  // namespace torch::distributed::store_detail
