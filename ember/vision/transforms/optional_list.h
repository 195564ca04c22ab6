#pragma once
// Python's Optional[List[float]] / Optional[List[int]] parameters (fill, center,
// sigma): std::optional of a vector that also takes a braced list, so
// `rotate(img, 30, mode, false, std::nullopt, {0.5, 0.2, 0.1})` compiles as it
// reads, which a plain std::optional<std::vector<T>> does not allow.
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <vector>

namespace torch::vision::transforms {

template <typename T>
class OptionalList : public std::optional<std::vector<T>> {
  using Base = std::optional<std::vector<T>>;

 public:
  OptionalList() = default;
  OptionalList(std::nullopt_t) {}  // NOLINT(google-explicit-constructor)
  OptionalList(std::initializer_list<T> values) : Base(std::vector<T>(values)) {}
  OptionalList(std::vector<T> values) : Base(std::move(values)) {}  // NOLINT(google-explicit-constructor)
  OptionalList(const Base& values) : Base(values) {}                // NOLINT(google-explicit-constructor)
};

using OptionalFloats = OptionalList<double>;
using OptionalInts = OptionalList<int64_t>;

}  // namespace torch::vision::transforms
