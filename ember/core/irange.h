#pragma once
// irange(end) / irange(begin, end): c10::irange, the integer range LibTorch code
// loops over (for (const auto i : c10::irange(n))). The element type is the
// common type of the bounds; an empty range when end <= begin.
#include <cstddef>
#include <iterator>
#include <type_traits>

#include "ember/core/namespace.h"

namespace torch {

template <typename I>
class IntegerRange {
 public:
  class iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = I;
    using difference_type = std::ptrdiff_t;
    using pointer = const I*;
    using reference = I;
    constexpr explicit iterator(I v) : v_(v) {}
    constexpr I operator*() const { return v_; }
    constexpr iterator& operator++() {
      ++v_;
      return *this;
    }
    constexpr iterator operator++(int) {
      iterator old = *this;
      ++v_;
      return old;
    }
    constexpr bool operator==(const iterator& o) const { return v_ == o.v_; }
    constexpr bool operator!=(const iterator& o) const { return v_ != o.v_; }

   private:
    I v_;
  };
  constexpr IntegerRange(I begin, I end) : begin_(begin), end_(end < begin ? begin : end) {}
  constexpr iterator begin() const { return iterator(begin_); }
  constexpr iterator end() const { return iterator(end_); }
  constexpr bool empty() const { return begin_ == end_; }

 private:
  I begin_, end_;
};

template <typename I, typename = std::enable_if_t<std::is_integral_v<I>>>
constexpr IntegerRange<I> irange(I end) {
  return IntegerRange<I>(I(0), end);
}

template <typename B, typename E, typename = std::enable_if_t<std::is_integral_v<B> && std::is_integral_v<E>>>
constexpr IntegerRange<std::common_type_t<B, E>> irange(B begin, E end) {
  using I = std::common_type_t<B, E>;
  return IntegerRange<I>(static_cast<I>(begin), static_cast<I>(end));
}

}  // namespace torch
