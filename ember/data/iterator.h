#pragma once
// Iterator over a DataLoader's batches: an input iterator that fetches the
// next batch lazily, on the first dereference or comparison with end().
#include <cstddef>
#include <functional>
#include <iterator>
#include <memory>
#include <optional>
#include <utility>

#include "ember/core/error.h"

namespace torch::data {

template <typename Batch>
class Iterator {
 public:
  using difference_type = std::ptrdiff_t;
  using value_type = Batch;
  using pointer = Batch*;
  using reference = Batch&;
  using iterator_category = std::input_iterator_tag;
  using NextFunction = std::function<std::optional<Batch>()>;

  // The end() sentinel.
  Iterator() = default;
  explicit Iterator(NextFunction next) : state_(std::make_shared<State>()) { state_->next = std::move(next); }

  Batch& operator*() {
    EMBER_CHECK(state_, "DataLoader iterator: Dereferencing the DataLoader's past-the-end iterator is not allowed");
    EMBER_CHECK(!exhausted(), "DataLoader iterator: Attempted to dereference iterator that was past the end");
    return *state_->batch;
  }
  Batch* operator->() { return &**this; }

  Iterator& operator++() {
    EMBER_CHECK(state_, "DataLoader iterator: Incrementing the DataLoader's past-the-end iterator is not allowed");
    EMBER_CHECK(!exhausted(), "DataLoader iterator: Attempted to increment iterator past the end");
    state_->batch.reset();
    state_->fetched = false;
    return *this;
  }

  // Copies share one position (input iterator); a valid iterator equals
  // end() once the loader has no more batches.
  bool operator==(const Iterator& other) const {
    if (!state_ && !other.state_) return true;
    if (!state_) return other.exhausted();
    if (!other.state_) return exhausted();
    return state_ == other.state_;
  }
  bool operator!=(const Iterator& other) const { return !(*this == other); }

 private:
  struct State {
    NextFunction next;
    std::optional<Batch> batch;
    bool fetched = false;
  };

  bool exhausted() const {
    EMBER_CHECK(state_, "DataLoader iterator: the end() sentinel has no batch");
    if (!state_->fetched) {
      state_->batch = state_->next();
      state_->fetched = true;
    }
    return !state_->batch.has_value();
  }

  std::shared_ptr<State> state_;
};

}  // namespace torch::data
