#pragma once
// AnyValue: a value of any type, as torch::nn::AnyValue; what type-erased
// modules (AnyModule, Sequential) pass between their forward() calls.
#include <any>
#include <typeinfo>
#include <utility>

#include "ember/autograd/custom_function.h"
#include "ember/core/error.h"

namespace torch::nn {

class AnyValue {
 public:
  AnyValue() = default;
  template <typename T, typename = std::enable_if_t<!std::is_same_v<std::decay_t<T>, AnyValue>>>
  explicit AnyValue(T&& value) : content_(std::in_place_type<std::decay_t<T>>, std::forward<T>(value)) {}

  // The value as T, or null when it holds another type.
  template <typename T>
  T* try_get() {
    return std::any_cast<T>(&content_);
  }
  template <typename T>
  const T* try_get() const {
    return std::any_cast<T>(&content_);
  }
  // The value as T; raises when it holds another type.
  template <typename T>
  T get() const {
    if (const T* value = try_get<T>()) return *value;
    EMBER_ERROR("Attempted to cast AnyValue to ", autograd::demangle_type_name(typeid(T).name()),
                ", but its actual type is ", autograd::demangle_type_name(content_.type().name()));
  }
  template <typename T>
  bool is() const {
    return try_get<T>() != nullptr;
  }
  const std::type_info& type_info() const noexcept { return content_.type(); }
  bool has_value() const noexcept { return content_.has_value(); }

 private:
  std::any content_;
};

}  // namespace torch::nn
