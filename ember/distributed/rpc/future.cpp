#include "ember/distributed/rpc/future.h"

#include "ember/core/error.h"

namespace torch::distributed::rpc {

Future::Future() : s_(std::make_shared<State>()) {}

Object Future::wait() const {
  std::unique_lock<std::mutex> lock(s_->mu);
  if (s_->deadline) {
    if (!s_->cv.wait_until(lock, *s_->deadline, [&] { return s_->done; }))
      EMBER_ERROR(s_->what, ": RPC ran for more than the set timeout and was not completed");
  } else {
    s_->cv.wait(lock, [&] { return s_->done; });
  }
  if (s_->error) EMBER_ERROR(*s_->error);
  return s_->value;
}

bool Future::done() const {
  std::lock_guard<std::mutex> lock(s_->mu);
  return s_->done;
}

void Future::complete(std::unique_lock<std::mutex>& lock) const {
  s_->done = true;
  auto callbacks = std::move(s_->callbacks);
  lock.unlock();
  s_->cv.notify_all();
  for (auto& cb : callbacks) cb();
}

void Future::set_result(Object value) const {
  std::unique_lock<std::mutex> lock(s_->mu);
  if (s_->done) return;
  s_->value = std::move(value);
  complete(lock);
}

void Future::set_error(std::string message) const {
  std::unique_lock<std::mutex> lock(s_->mu);
  if (s_->done) return;
  s_->error = std::move(message);
  complete(lock);
}

void Future::set_deadline(std::chrono::steady_clock::time_point deadline, std::string what) const {
  std::lock_guard<std::mutex> lock(s_->mu);
  s_->deadline = deadline;
  s_->what = std::move(what);
}

Future Future::then(std::function<Object(const Object&)> f) const {
  Future next;
  {
    std::lock_guard<std::mutex> lock(s_->mu);
    if (s_->deadline) next.set_deadline(*s_->deadline, s_->what);  // the chain keeps the call's timeout
  }
  auto run = [self = *this, next, f = std::move(f)] {
    try {
      next.set_result(f(self.wait()));
    } catch (const std::exception& e) {
      next.set_error(e.what());
    }
  };
  std::unique_lock<std::mutex> lock(s_->mu);
  if (s_->done) {
    lock.unlock();
    run();
  } else {
    s_->callbacks.push_back(std::move(run));
  }
  return next;
}

}  // namespace torch::distributed::rpc
