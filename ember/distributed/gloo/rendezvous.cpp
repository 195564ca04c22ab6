#include "ember/distributed/gloo/rendezvous.h"

#include <unistd.h>

#include <random>
#include <thread>

#include "ember/core/error.h"
#include "ember/distributed/store/prefix_store.h"
#include "ember/distributed/store/tcp_store.h"

namespace torch::distributed::gloo_detail {
namespace {

constexpr const char* kWorldSizeKey = "ember/world_size";
constexpr const char* kJoinedKey = "ember/joined";
constexpr const char* kErrorKey = "ember/error";

std::string to_string(const std::vector<uint8_t>& v) { return {v.begin(), v.end()}; }

std::string process_token() {
  char host[256] = {0};
  ::gethostname(host, sizeof host - 1);
  std::random_device rd;
  return std::string(host) + ":" + std::to_string(::getpid()) + ":" + std::to_string(rd());
}

[[noreturn]] void fail_everyone(Store& store, const std::string& msg) {
  try {
    store.set(kErrorKey, msg);
  } catch (const Error&) {
  }
  EMBER_ERROR(msg);
}

}  // namespace

namespace {

void join_group_impl(Store& store, int64_t rank, int64_t size, std::chrono::milliseconds timeout,
                     const std::string& where) {
  auto ws = to_string(store.compare_set(kWorldSizeKey, std::string(), std::to_string(size)));
  if (ws != std::to_string(size))
    fail_everyone(store, where + ": rank " + std::to_string(rank) + " was started with world_size " +
                             std::to_string(size) + " but another rank registered world_size " + ws);
  std::string token = process_token();
  std::string key = "ember/rank/" + std::to_string(rank);
  auto claim = to_string(store.compare_set(key, std::string(), token));
  if (claim != token)
    fail_everyone(store, where + ": rank " + std::to_string(rank) + " is claimed by two processes (" + claim + " and " +
                             token + ")");
  store.add(kJoinedKey, 1);
  auto deadline = std::chrono::steady_clock::now() + timeout;
  auto pause = std::chrono::milliseconds(1);
  // The ranks still missing, recomputed whenever the count of joined ranks
  // moves, so a timeout can name them even when the store's host has gone.
  int64_t last_count = -1;
  std::string missing;
  for (;;) {
    std::string other_error;
    try {
      if (store.check({kErrorKey})) other_error = to_string(store.get(kErrorKey));
      int64_t count = store.add(kJoinedKey, 0);
      if (other_error.empty() && count >= size) return;
      if (count != last_count) {
        missing.clear();
        for (int64_t r = 0; r < size; ++r)
          if (!store.check({"ember/rank/" + std::to_string(r)}))
            missing += (missing.empty() ? "" : ", ") + std::to_string(r);
        last_count = count;
      }
    } catch (const Error& e) {
      EMBER_ERROR(where, ": the store failed while waiting for ranks [", missing, "] to join (world_size ", size,
                  "): ", e.what());
    }
    EMBER_CHECK(other_error.empty(), where, ": another rank failed to join: ", other_error);
    EMBER_CHECK(std::chrono::steady_clock::now() < deadline, where, ": timed out after ", timeout.count(),
                " ms waiting for ranks [", missing, "] to join (world_size ", size, ")");
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(20));
  }
}

}  // namespace

void join_group(Store& store, int64_t rank, int64_t size, std::chrono::milliseconds timeout,
                const std::string& group_name) {
  const std::string where = "init_process_group: process group '" + group_name + "'";
  try {
    join_group_impl(store, rank, size, timeout, where);
  } catch (const Error& e) {
    if (std::string(e.what()).rfind(where, 0) == 0) throw;
    // A store call failed: most often the store's host (rank 0) already gave up.
    EMBER_ERROR(where, ": rank ", rank, " (world_size ", size, ") lost the store while joining: ", e.what());
  }
}

std::string reachable_hostname(Store& store) {
  Store* s = &store;
  while (auto* p = dynamic_cast<PrefixStore*>(s)) s = p->underlying_store().get();
  if (auto* tcp = dynamic_cast<TCPStore*>(s)) return tcp->local_address();
  return "127.0.0.1";
}

}  // namespace torch::distributed::gloo_detail
