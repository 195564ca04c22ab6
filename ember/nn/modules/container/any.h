#pragma once
// AnyModule: holds any module with a (non-template, non-overloaded)
// forward() and calls it with type-erased arguments, as torch::nn::AnyModule.
// Sequential stores its layers as AnyModules, so layers with different
// forward signatures chain: each receives the previous one's AnyValue.
#include <memory>
#include <optional>
#include <tuple>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

#include "ember/autograd/custom_function.h"
#include "ember/nn/module.h"
#include "ember/nn/modules/container/any_value.h"

namespace torch::nn {

namespace detail {

// Argument and return types of a member function pointer (forward).
template <typename F>
struct forward_signature;
template <typename C, typename R, typename... Args>
struct forward_signature<R (C::*)(Args...)> {
  using return_type = R;
  using args = std::tuple<Args...>;
};
template <typename C, typename R, typename... Args>
struct forward_signature<R (C::*)(Args...) const> : forward_signature<R (C::*)(Args...)> {};

template <typename T>
AnyValue to_any_value(T&& value) {
  if constexpr (std::is_same_v<std::decay_t<T>, AnyValue>)
    return std::forward<T>(value);
  else
    return AnyValue(std::forward<T>(value));
}

struct AnyModulePlaceholder {
  virtual ~AnyModulePlaceholder() = default;
  virtual AnyValue forward(std::vector<AnyValue>&& arguments) = 0;
  virtual std::shared_ptr<Module> ptr() = 0;
  virtual std::shared_ptr<AnyModulePlaceholder> clone_module(const std::optional<Device>& device) const = 0;
  virtual const std::type_info& type_info() const = 0;
};

template <typename ModuleType>
struct AnyModuleHolder final : AnyModulePlaceholder {
  using Signature = forward_signature<decltype(&ModuleType::forward)>;
  using Args = typename Signature::args;
  static constexpr size_t kArity = std::tuple_size_v<Args>;

  explicit AnyModuleHolder(std::shared_ptr<ModuleType> m) : module(std::move(m)) {}

  AnyValue forward(std::vector<AnyValue>&& arguments) override {
    Module& base = *module;
    if (base._forward_has_default_args()) {
      const unsigned int required = base._forward_num_required_args();
      EMBER_CHECK(arguments.size() >= required && arguments.size() <= kArity, module->name(),
                  "'s forward() method expects at least ", required, " argument(s) and at most ", kArity,
                  " argument(s), but received ", arguments.size(), ".");
      if (arguments.size() < kArity) arguments = base._forward_populate_default_args(std::move(arguments));
    } else {
      EMBER_CHECK(arguments.size() == kArity, module->name(), "'s forward() method expects ", kArity,
                  " argument(s), but received ", arguments.size(), ". If ", module->name(),
                  "'s forward() method has default arguments, please make sure the forward() method is declared "
                  "with a corresponding `FORWARD_HAS_DEFAULT_ARGS` macro.");
    }
    return call(arguments, std::make_index_sequence<kArity>{});
  }
  std::shared_ptr<Module> ptr() override { return module; }
  std::shared_ptr<AnyModulePlaceholder> clone_module(const std::optional<Device>& device) const override {
    auto cloned = std::dynamic_pointer_cast<ModuleType>(module->clone(device));
    EMBER_CHECK(cloned != nullptr, "clone: the cloned module is not a ", module->name());
    return std::make_shared<AnyModuleHolder>(std::move(cloned));
  }
  const std::type_info& type_info() const override { return typeid(ModuleType); }

  template <size_t... I>
  AnyValue call(std::vector<AnyValue>& arguments, std::index_sequence<I...>) {
    using R = typename Signature::return_type;
    static_assert(!std::is_void_v<R>, "AnyModule: forward() must return a value");
    // Each stored argument is consumed by the call: moved into by-value and `T&&` parameters.
    return AnyValue(module->forward(std::forward<std::tuple_element_t<I, Args>>(argument<I>(arguments[I]))...));
  }
  template <size_t I>
  std::decay_t<std::tuple_element_t<I, Args>>& argument(AnyValue& value) {
    using T = std::decay_t<std::tuple_element_t<I, Args>>;
    if (T* v = value.try_get<T>()) return *v;
    EMBER_ERROR("Expected argument #", I, " to be of type ", autograd::demangle_type_name(typeid(T).name()),
                ", but received value of type ", autograd::demangle_type_name(value.type_info().name()));
  }

  std::shared_ptr<ModuleType> module;
};

// Modules whose forward() is a template (Sequential) expose
// `AnyValue _any_forward(std::vector<AnyValue>&&)` instead, so they can be
// nested inside a Sequential (an extension: LibTorch rejects this at compile time).
template <typename M, typename = void>
struct has_any_forward : std::false_type {};
template <typename M>
struct has_any_forward<M,
                       std::void_t<decltype(std::declval<M&>()._any_forward(std::declval<std::vector<AnyValue>&&>()))>>
    : std::true_type {};

template <typename ModuleType>
struct AnyValueModuleHolder final : AnyModulePlaceholder {
  explicit AnyValueModuleHolder(std::shared_ptr<ModuleType> m) : module(std::move(m)) {}
  AnyValue forward(std::vector<AnyValue>&& arguments) override { return module->_any_forward(std::move(arguments)); }
  std::shared_ptr<Module> ptr() override { return module; }
  std::shared_ptr<AnyModulePlaceholder> clone_module(const std::optional<Device>& device) const override {
    auto cloned = std::dynamic_pointer_cast<ModuleType>(module->clone(device));
    EMBER_CHECK(cloned != nullptr, "clone: the cloned module is not a ", module->name());
    return std::make_shared<AnyValueModuleHolder>(std::move(cloned));
  }
  const std::type_info& type_info() const override { return typeid(ModuleType); }
  std::shared_ptr<ModuleType> module;
};

template <typename ModuleType>
std::shared_ptr<AnyModulePlaceholder> make_any_module_holder(std::shared_ptr<ModuleType> module) {
  if constexpr (has_any_forward<ModuleType>::value)
    return std::make_shared<AnyValueModuleHolder<ModuleType>>(std::move(module));
  else
    return std::make_shared<AnyModuleHolder<ModuleType>>(std::move(module));
}

}  // namespace detail

class AnyModule {
 public:
  AnyModule() = default;
  template <typename ModuleType>
  explicit AnyModule(std::shared_ptr<ModuleType> module) : content_(detail::make_any_module_holder(std::move(module))) {
    EMBER_CHECK(content_->ptr() != nullptr, "AnyModule: cannot hold a null module");
  }
  template <typename ModuleType, typename = std::enable_if_t<std::is_base_of_v<Module, std::decay_t<ModuleType>>>>
  explicit AnyModule(ModuleType&& module)
      : AnyModule(std::make_shared<std::decay_t<ModuleType>>(std::forward<ModuleType>(module))) {}
  template <typename ModuleType>
  explicit AnyModule(const ModuleHolder<ModuleType>& holder) : AnyModule(holder.ptr()) {}

  // Holds `module` from now on (LibTorch's `any = std::make_shared<M>()`).
  template <typename ModuleType>
  AnyModule& operator=(std::shared_ptr<ModuleType> module) {
    return *this = AnyModule(std::move(module));
  }

  // Copies share the module; clone() deep-copies it.

  // Calls forward with the arguments (each wrapped in an AnyValue unless it is one).
  template <typename... ArgumentTypes>
  AnyValue any_forward(ArgumentTypes&&... arguments) {
    check_not_empty("any_forward");
    std::vector<AnyValue> values;
    values.reserve(sizeof...(ArgumentTypes));
    (values.push_back(detail::to_any_value(std::forward<ArgumentTypes>(arguments))), ...);
    return content_->forward(std::move(values));
  }
  // Calls forward with already type-erased arguments.
  AnyValue any_forward_list(std::vector<AnyValue>&& arguments) {
    check_not_empty("any_forward");
    return content_->forward(std::move(arguments));
  }
  template <typename ReturnType = Tensor, typename... ArgumentTypes>
  ReturnType forward(ArgumentTypes&&... arguments) {
    check_not_empty("forward");
    return any_forward(std::forward<ArgumentTypes>(arguments)...).template get<ReturnType>();
  }

  // The module as its concrete type; raises on a type mismatch.
  template <typename T, typename = std::enable_if_t<std::is_base_of_v<Module, T>>>
  T& get() {
    check_not_empty("get");
    return *ptr<T>();
  }
  template <typename T, typename = std::enable_if_t<detail::is_module_holder_v<T>>, typename = void>
  T get() const {
    check_not_empty("get");
    return T(ptr<typename T::ContainedType>());
  }
  std::shared_ptr<Module> ptr() const {
    check_not_empty("ptr");
    return content_->ptr();
  }
  template <typename T, typename = std::enable_if_t<std::is_base_of_v<Module, T>>>
  std::shared_ptr<T> ptr() const {
    check_not_empty("ptr");
    EMBER_CHECK(typeid(T) == content_->type_info(), "Attempted to cast module of type ",
                autograd::demangle_type_name(content_->type_info().name()), " to type ",
                autograd::demangle_type_name(typeid(T).name()));
    return std::static_pointer_cast<T>(content_->ptr());
  }
  const std::type_info& type_info() const {
    check_not_empty("type_info");
    return content_->type_info();
  }
  bool is_empty() const noexcept { return content_ == nullptr; }

  // A deep copy of the held module.
  AnyModule clone(std::optional<Device> device = std::nullopt) const {
    AnyModule copy;
    if (content_) copy.content_ = content_->clone_module(device);
    return copy;
  }

 private:
  void check_not_empty(const char* what) const {
    EMBER_CHECK(content_ != nullptr, "AnyModule::", what, ": Cannot call ", what, "() on an empty AnyModule");
  }
  std::shared_ptr<detail::AnyModulePlaceholder> content_;
};

}  // namespace torch::nn

// In a module class whose forward() has trailing default arguments, lists
// them as {index, AnyValue(default)} pairs, so AnyModule/Sequential can call
// it with fewer arguments, as LibTorch's macro:
//   Tensor forward(const Tensor& x, Tensor mask = {});
//  protected:
//   FORWARD_HAS_DEFAULT_ARGS({1, ::ember::nn::AnyValue(::ember::Tensor())})
#define FORWARD_HAS_DEFAULT_ARGS(...)                                                                               \
  bool _forward_has_default_args() override { return true; }                                                        \
  unsigned int _forward_num_required_args() override {                                                              \
    std::pair<unsigned int, ::ember::nn::AnyValue> args_info[] = {__VA_ARGS__};                                     \
    return args_info[0].first;                                                                                      \
  }                                                                                                                 \
  std::vector<::ember::nn::AnyValue> _forward_populate_default_args(std::vector<::ember::nn::AnyValue>&& arguments) \
      override {                                                                                                    \
    std::pair<unsigned int, ::ember::nn::AnyValue> args_info[] = {__VA_ARGS__};                                     \
    std::vector<::ember::nn::AnyValue> result = std::move(arguments);                                               \
    for (auto& info : args_info)                                                                                    \
      if (info.first >= result.size()) result.push_back(std::move(info.second));                                    \
    return result;                                                                                                  \
  }
