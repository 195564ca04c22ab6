#pragma once
// TORCH_ARG(T, name): an options field with a chaining setter and getters,
// as LibTorch's torch/arg.h: `LinearOptions(3, 4).bias(false)`, `opts.bias()`.
//
// The setters are templates whose parameter type is T itself (U defaults to T
// and type_identity_t<U> is not deduced, so `.size({4, 4})` and
// `.mode(torch::kBilinear)` convert as before): their bodies are only
// compiled where a program calls them. As plain members, every options
// struct's assignments (std::variant modes, optionals, vectors) were
// instantiated in every translation unit that included nn.h.
#include <type_traits>
#include <utility>

#define TORCH_ARG(T, name)                                                       \
 public:                                                                         \
  template <typename U = T>                                                      \
  inline auto name(const std::type_identity_t<U>& new_##name)->decltype(*this) { \
    this->name##_ = new_##name;                                                  \
    return *this;                                                                \
  }                                                                              \
  template <typename U = T>                                                      \
  inline auto name(std::type_identity_t<U>&& new_##name)->decltype(*this) {      \
    this->name##_ = std::move(new_##name);                                       \
    return *this;                                                                \
  }                                                                              \
  inline const T& name() const noexcept { return this->name##_; }                \
  inline T& name() noexcept { return this->name##_; }                            \
                                                                                 \
 private:                                                                        \
  T name##_

#define EMBER_ARG(T, name) TORCH_ARG(T, name)
