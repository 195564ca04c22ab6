#include "ember/distributed/gloo/heartbeat.h"

#include <sstream>

#include "ember/core/error.h"

namespace torch::distributed::gloo_detail {

using store_detail::Clock;

Heartbeat::Heartbeat(std::shared_ptr<Store> store, int64_t rank, int64_t size, std::chrono::milliseconds interval)
    : store_(std::move(store)), rank_(rank), size_(size), interval_(interval), peers_(static_cast<size_t>(size)) {
  thread_ = std::thread([this] { run(); });
}

Heartbeat::~Heartbeat() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void Heartbeat::run() {
  int64_t beat = 0;
  for (;;) {
    try {
      store_->set("heartbeat/" + std::to_string(rank_),
                  std::to_string(++beat) + " " + std::to_string(seq_.load(std::memory_order_relaxed)));
      for (int64_t r = 0; r < size_; ++r) {
        if (r == rank_) continue;
        std::string key = "heartbeat/" + std::to_string(r);
        if (!store_->check({key})) continue;
        auto v = store_->get(key);
        std::string value(v.begin(), v.end());
        std::lock_guard<std::mutex> lock(mu_);
        Peer& p = peers_[static_cast<size_t>(r)];
        if (!p.seen || value != p.last) {
          if (p.seen) p.advanced = rounds_;  // a first sighting may be an old value: not a beat
          p.last = value;
          p.seen = true;
          std::istringstream in(value);
          int64_t b = 0;
          in >> b >> p.seq;
        }
      }
    } catch (const Error&) {
      std::lock_guard<std::mutex> lock(mu_);
      store_lost_ = true;  // the store is gone (its rank died): keep the last snapshot
      return;
    }
    std::unique_lock<std::mutex> lock(mu_);
    ++rounds_;
    cv_.notify_all();
    if (cv_.wait_for(lock, interval_, [&] { return stop_; })) return;
  }
}

int64_t Heartbeat::round() {
  std::lock_guard<std::mutex> lock(mu_);
  return rounds_;
}

void Heartbeat::wait_rounds(int64_t rounds) {
  std::unique_lock<std::mutex> lock(mu_);
  int64_t target = rounds_ + rounds;
  cv_.wait_for(lock, interval_ * (2 * rounds), [&] { return rounds_ >= target || stop_ || store_lost_; });
}

std::string Heartbeat::diagnose(int64_t seq, int64_t since) {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<int64_t> behind, silent;
  std::ostringstream os;
  for (int64_t r = 0; r < size_; ++r) {
    if (r == rank_) continue;
    const Peer& p = peers_[static_cast<size_t>(r)];
    if (!store_lost_ && p.advanced < since && rounds_ - since >= 2)
      silent.push_back(r);
    else if (p.seq < seq)
      behind.push_back(r);
  }
  auto list = [](const std::vector<int64_t>& v) {
    std::string s = "[";
    for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
    return s + "]";
  };
  if (!silent.empty()) os << "ranks " << list(silent) << " stopped responding (no heartbeat; dead or hung)";
  if (!behind.empty()) {
    if (!silent.empty()) os << "; ";
    os << "ranks " << list(behind) << " have not entered this collective";
  }
  if (store_lost_) os << (behind.empty() ? "" : "; ") << "the store became unreachable (its host rank may be dead)";
  return os.str();
}

}  // namespace torch::distributed::gloo_detail
