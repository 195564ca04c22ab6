#pragma once
// ModuleHolder<Impl>: the shared-pointer handle that TORCH_MODULE(Name)
// declares as `Name` for a module class `NameImpl`, as in LibTorch: modules
// have reference semantics (`Linear fc(3, 4); auto g = fc;` share one layer),
// `fc->weight` reaches the Impl, `fc(x)` calls forward, and `Linear fc{nullptr}`
// is an empty holder to be assigned later.
#include <cstddef>
#include <memory>
#include <type_traits>
#include <utility>

#include "ember/core/error.h"

namespace ember::nn {

namespace detail {
// Base of every ModuleHolder, so templates can tell holders from modules.
struct ModuleHolderIndicator {};

template <typename T>
inline constexpr bool is_module_holder_v = std::is_base_of_v<ModuleHolderIndicator, std::decay_t<T>>;

// True when T is a holder whose contained type is C.
template <typename T, typename C, typename = void>
struct is_module_holder_of : std::false_type {};
template <typename T, typename C>
struct is_module_holder_of<T, C, std::void_t<typename std::decay_t<T>::ContainedType>>
    : std::bool_constant<is_module_holder_v<T> && std::is_same_v<typename std::decay_t<T>::ContainedType, C>> {};
}  // namespace detail

template <typename Contained>
class ModuleHolder : detail::ModuleHolderIndicator {
 public:
  using ContainedType = Contained;

  // Default-constructs the module; a module without a default constructor
  // must be given arguments or `nullptr`.
  ModuleHolder() : impl_(default_construct()) {}
  ModuleHolder(std::nullptr_t) : impl_(nullptr) {}  // NOLINT: `Linear fc = nullptr;`

  // Constructs the module from its constructor's arguments: Linear(3, 4).
  template <
      typename Head, typename... Tail,
      typename = std::enable_if_t<!(detail::is_module_holder_of<Head, ContainedType>::value && sizeof...(Tail) == 0)>>
  explicit ModuleHolder(Head&& head, Tail&&... tail)
      : impl_(std::make_shared<Contained>(std::forward<Head>(head), std::forward<Tail>(tail)...)) {}

  ModuleHolder(std::shared_ptr<Contained> module) : impl_(std::move(module)) {}  // NOLINT

  explicit operator bool() const noexcept { return !is_empty(); }

  Contained* operator->() { return get(); }
  const Contained* operator->() const { return get(); }
  Contained& operator*() { return *get(); }
  const Contained& operator*() const { return *get(); }
  const std::shared_ptr<Contained>& ptr() const { return impl_; }
  Contained* get() {
    check_not_empty();
    return impl_.get();
  }
  const Contained* get() const {
    check_not_empty();
    return impl_.get();
  }

  // Calls the module's forward with the arguments as given.
  template <typename... Args>
  decltype(auto) operator()(Args&&... args) {
    return get()->forward(std::forward<Args>(args)...);
  }
  // Indexing for containers: seq[0], dict["key"].
  template <typename Arg>
  decltype(auto) operator[](Arg&& arg) {
    return (*get())[std::forward<Arg>(arg)];
  }

  bool is_empty() const noexcept { return impl_ == nullptr; }

 protected:
  std::shared_ptr<Contained> impl_;

 private:
  void check_not_empty() const {
    EMBER_CHECK(impl_ != nullptr,
                "Accessing empty ModuleHolder: the module was constructed with nullptr and "
                "never assigned");
  }
  static std::shared_ptr<Contained> default_construct() {
    static_assert(std::is_default_constructible_v<Contained>,
                  "You are trying to default construct a module which has no default constructor. Use = nullptr to "
                  "give it the empty state (e.g. `Linear linear = nullptr;` instead of `Linear linear;`).");
    return std::make_shared<Contained>();
  }
};

}  // namespace ember::nn

// Declares `Name` as the ModuleHolder of `ImplType`.
#define TORCH_MODULE_IMPL(Name, ImplType)                    \
  class Name : public ::ember::nn::ModuleHolder<ImplType> {  \
   public:                                                   \
    using ::ember::nn::ModuleHolder<ImplType>::ModuleHolder; \
    using ::ember::nn::ModuleHolder<ImplType>::get;          \
  }

// Declares `Name` as the ModuleHolder of `NameImpl`.
#define TORCH_MODULE(Name) TORCH_MODULE_IMPL(Name, Name##Impl)
#define EMBER_MODULE(Name) TORCH_MODULE(Name)
