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

namespace torch::nn {

namespace detail {
// Base of every ModuleHolder, so templates can tell holders from modules. It
// owns the module type-erased (Note [Type-erased module holder]).
class ModuleHolderIndicator {
 protected:
  std::shared_ptr<void> owner_;
};

template <typename T>
inline constexpr bool is_module_holder_v = std::is_base_of_v<ModuleHolderIndicator, std::decay_t<T>>;

// True when T is a holder whose contained type is C.
template <typename T, typename C, typename = void>
struct is_module_holder_of : std::false_type {};
template <typename T, typename C>
struct is_module_holder_of<T, C, std::void_t<typename std::decay_t<T>::ContainedType>>
    : std::bool_constant<is_module_holder_v<T> && std::is_same_v<typename std::decay_t<T>::ContainedType, C>> {};
}  // namespace detail

// Note [Type-erased module holder]
// LibTorch's holder keeps a std::shared_ptr<Contained>. Declaring that member
// instantiates the whole shared_ptr class template for the module type, and
// every TORCH_MODULE instantiates its holder: with ~126 built-in modules that
// was a fifth of a hello-world's compile (clang -ftime-trace). Here the
// ownership is one std::shared_ptr<void> in the non-template base and the
// holder keeps the typed raw pointer beside it; shared_ptr<Contained> is only
// instantiated where a constructor or ptr() is used. ptr() returns the typed
// pointer by value (an aliasing shared_ptr sharing the same ownership), which
// every spelling of LibTorch's `const std::shared_ptr<Contained>& ptr()` that
// reads it accepts.
template <typename Contained>
class ModuleHolder : detail::ModuleHolderIndicator {
 public:
  using ContainedType = Contained;

  // Default-constructs the module; a module without a default constructor
  // must be given arguments or `nullptr`.
  ModuleHolder() { reset(default_construct()); }
  ModuleHolder(std::nullptr_t) {}  // NOLINT: `Linear fc = nullptr;`

  // Constructs the module from its constructor's arguments: Linear(3, 4).
  template <
      typename Head, typename... Tail,
      typename = std::enable_if_t<!(detail::is_module_holder_of<Head, ContainedType>::value && sizeof...(Tail) == 0)>>
  explicit ModuleHolder(Head&& head, Tail&&... tail) {
    reset(std::make_shared<Contained>(std::forward<Head>(head), std::forward<Tail>(tail)...));
  }

  ModuleHolder(std::shared_ptr<Contained> module) { reset(std::move(module)); }  // NOLINT

  // A moved-from holder is empty, as LibTorch's (its shared_ptr is null).
  ModuleHolder(const ModuleHolder&) = default;
  ModuleHolder& operator=(const ModuleHolder&) = default;
  ModuleHolder(ModuleHolder&& other) noexcept
      : detail::ModuleHolderIndicator(std::move(other)), raw_(std::exchange(other.raw_, nullptr)) {}
  ModuleHolder& operator=(ModuleHolder&& other) noexcept {
    owner_ = std::move(other.owner_);
    raw_ = std::exchange(other.raw_, nullptr);
    return *this;
  }

  explicit operator bool() const noexcept { return !is_empty(); }

  Contained* operator->() { return get(); }
  const Contained* operator->() const { return get(); }
  Contained& operator*() { return *get(); }
  const Contained& operator*() const { return *get(); }
  std::shared_ptr<Contained> ptr() const { return std::shared_ptr<Contained>(owner_, raw_); }
  Contained* get() {
    check_not_empty();
    return raw_;
  }
  const Contained* get() const {
    check_not_empty();
    return raw_;
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

  bool is_empty() const noexcept { return raw_ == nullptr; }

 private:
  void reset(std::shared_ptr<Contained> module) {
    raw_ = module.get();
    owner_ = std::move(module);
  }
  void check_not_empty() const {
    EMBER_CHECK(raw_ != nullptr,
                "Accessing empty ModuleHolder: the module was constructed with nullptr and "
                "never assigned");
  }
  static std::shared_ptr<Contained> default_construct() {
    static_assert(std::is_default_constructible_v<Contained>,
                  "You are trying to default construct a module which has no default constructor. Use = nullptr to "
                  "give it the empty state (e.g. `Linear linear = nullptr;` instead of `Linear linear;`).");
    return std::make_shared<Contained>();
  }

  Contained* raw_ = nullptr;  // owned by owner_
};

}  // namespace torch::nn

// Declares `Name` as the ModuleHolder of `ImplType`.
#define TORCH_MODULE_IMPL(Name, ImplType)                    \
  class Name : public ::ember::nn::ModuleHolder<ImplType> {  \
   public:                                                   \
    using ::ember::nn::ModuleHolder<ImplType>::ModuleHolder; \
    using ::ember::nn::ModuleHolder<ImplType>::get;          \
    using Impl = ImplType;                                   \
  }

// Declares `Name` as the ModuleHolder of `NameImpl`.
#define TORCH_MODULE(Name) TORCH_MODULE_IMPL(Name, Name##Impl)
#define EMBER_MODULE(Name) TORCH_MODULE(Name)
