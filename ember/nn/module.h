#pragma once
// nn::Module: the base of every layer and model, as torch::nn::Module.
// A module owns named parameters, buffers and child modules (each in an
// OrderedDict, so iteration follows registration order), a training flag,
// and the recursive operations over that tree: parameters(), train(), to(),
// zero_grad(), apply(), pretty printing.
#include <functional>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <type_traits>
#include <vector>

#include "ember/core/device.h"
#include "ember/core/dtype.h"
#include "ember/core/ordered_dict.h"
#include "ember/core/tensor.h"
#include "ember/nn/pimpl.h"

namespace torch::serialize {
class OutputArchive;
class InputArchive;
}  // namespace torch::serialize

namespace torch::nn {

class AnyValue;
namespace detail {
template <typename ModuleType>
struct AnyModuleHolder;
}  // namespace detail

class Module : public std::enable_shared_from_this<Module> {
 public:
  using ModuleApplyFunction = std::function<void(Module&)>;
  using ConstModuleApplyFunction = std::function<void(const Module&)>;
  using NamedModuleApplyFunction = std::function<void(const std::string&, Module&)>;
  using ConstNamedModuleApplyFunction = std::function<void(const std::string&, const Module&)>;
  using ModulePointerApplyFunction = std::function<void(const std::shared_ptr<Module>&)>;
  using NamedModulePointerApplyFunction = std::function<void(const std::string&, const std::shared_ptr<Module>&)>;

  // `name` overrides the name printed by pretty_print (default: the demangled class name).
  explicit Module(std::string name);
  Module();
  Module(const Module&) = default;
  Module& operator=(const Module&) = default;
  Module(Module&&) noexcept = default;
  Module& operator=(Module&&) noexcept = default;
  virtual ~Module() = default;

  // The demangled dynamic type name, e.g. "Net" or "ember::nn::LinearImpl", unless given.
  const std::string& name() const noexcept;

  // A deep copy. Modules derive from Cloneable<Derived> to support it; the base raises.
  virtual std::shared_ptr<Module> clone(const std::optional<Device>& device = std::nullopt) const;

  // Calls `function` on this module and then on every descendant (pre-order).
  void apply(const ModuleApplyFunction& function);
  void apply(const ConstModuleApplyFunction& function) const;
  void apply(const NamedModuleApplyFunction& function, const std::string& name_prefix = std::string());
  void apply(const ConstNamedModuleApplyFunction& function, const std::string& name_prefix = std::string()) const;
  void apply(const ModulePointerApplyFunction& function) const;
  void apply(const NamedModulePointerApplyFunction& function, const std::string& name_prefix = std::string()) const;

  std::vector<Tensor> parameters(bool recurse = true) const;
  // Names are dotted paths as in a PyTorch state_dict: "layer1.0.conv1.weight".
  OrderedDict<std::string, Tensor> named_parameters(bool recurse = true) const;
  std::vector<Tensor> buffers(bool recurse = true) const;
  OrderedDict<std::string, Tensor> named_buffers(bool recurse = true) const;
  // This module (when include_self) and all descendants, pre-order.
  std::vector<std::shared_ptr<Module>> modules(bool include_self = true) const;
  OrderedDict<std::string, std::shared_ptr<Module>> named_modules(const std::string& name_prefix = std::string(),
                                                                  bool include_self = true) const;
  std::vector<std::shared_ptr<Module>> children() const;
  OrderedDict<std::string, std::shared_ptr<Module>> named_children() const;

  // Sets the training flag of this module and all descendants.
  virtual void train(bool on = true);
  void eval() { train(false); }
  virtual bool is_training() const noexcept { return is_training_; }

  // Converts parameters and buffers in place: every handle to a parameter
  // (e.g. a `weight` member) sees the new data, and leaves stay leaves.
  virtual void to(Device device, ScalarType dtype, bool non_blocking = false);
  virtual void to(ScalarType dtype, bool non_blocking = false);
  virtual void to(Device device, bool non_blocking = false);

  // LibTorch 1.13 semantics: existing gradients are zero-filled (detached),
  // or reset to undefined when set_to_none.
  virtual void zero_grad(bool set_to_none = false);

  // This module as ModuleType (an Impl class or a holder's contained type), or null.
  template <typename ModuleType>
  typename ModuleType::ContainedType* as() noexcept {
    return as<typename ModuleType::ContainedType>();
  }
  template <typename ModuleType>
  const typename ModuleType::ContainedType* as() const noexcept {
    return as<typename ModuleType::ContainedType>();
  }
  template <typename ModuleType, typename = std::enable_if_t<!detail::is_module_holder_v<ModuleType>>>
  ModuleType* as() noexcept {
    return dynamic_cast<ModuleType*>(this);
  }
  template <typename ModuleType, typename = std::enable_if_t<!detail::is_module_holder_v<ModuleType>>>
  const ModuleType* as() const noexcept {
    return dynamic_cast<const ModuleType*>(this);
  }

  // PyTorch's state_dict: every parameter and buffer under its dotted name,
  // module by module in registration order (own parameters, own buffers, then
  // each child), as torch.nn.Module.state_dict() orders them. The tensors are
  // the module's own (detached handles to the same storage).
  OrderedDict<std::string, Tensor> state_dict() const;
  struct LoadStateDictResult {
    std::vector<std::string> missing_keys;
    std::vector<std::string> unexpected_keys;
  };
  // Copies each entry into the parameter or buffer of that name, without
  // recording autograd. strict: missing or unexpected keys raise, naming every
  // one; a shape mismatch raises in either mode (PyTorch's rules). Returns the
  // missing and unexpected keys (empty when strict succeeds).
  LoadStateDictResult load_state_dict(const OrderedDict<std::string, Tensor>& state_dict, bool strict = true);
  // The list ember::serialize::load_pytorch_state_dict and load_safetensors return.
  LoadStateDictResult load_state_dict(const std::vector<std::pair<std::string, Tensor>>& state_dict,
                                      bool strict = true);

  // Serialization into the archives of ember/serialize (module_serialize.cpp):
  // tensors under their state_dict names. load() copies into the existing
  // parameters and buffers, whose shapes must match.
  virtual void save(serialize::OutputArchive& archive) const;
  virtual void load(serialize::InputArchive& archive);

  // One line describing this module (no children): "torch::nn::Linear(in_features=3, ...)".
  virtual void pretty_print(std::ostream& stream) const;
  // False for modules that cannot be saved (Functional holds an arbitrary callable).
  virtual bool is_serializable() const { return true; }

  // Registers `tensor` as parameter `name` (made a leaf requiring grad when
  // requires_grad); returns the stored handle. An undefined tensor is allowed
  // (an absent optional parameter, e.g. a bias) and is skipped by parameters().
  Tensor& register_parameter(std::string name, Tensor tensor, bool requires_grad = true);
  // Buffers are state that is not trained (running statistics); they follow to().
  Tensor& register_buffer(std::string name, Tensor tensor);

  template <typename ModuleType>
  std::shared_ptr<ModuleType> register_module(std::string name, std::shared_ptr<ModuleType> module) {
    EMBER_CHECK(module != nullptr, "register_module: submodule '", name, "' is null");
    check_child_name(name, "register_module");
    children_.insert(std::move(name), std::shared_ptr<Module>(module));
    return module;
  }
  template <typename ModuleType>
  std::shared_ptr<ModuleType> register_module(std::string name, ModuleHolder<ModuleType> module_holder) {
    return register_module(std::move(name), module_holder.ptr());
  }
  // Replaces an existing child; the caller should also reassign its member holder.
  template <typename ModuleType>
  std::shared_ptr<ModuleType> replace_module(const std::string& name, std::shared_ptr<ModuleType> module) {
    auto* slot = children_.find(name);
    EMBER_CHECK(slot != nullptr, "replace_module: Submodule '", name, "' is not defined");
    *slot = module;
    return module;
  }
  template <typename ModuleType>
  std::shared_ptr<ModuleType> replace_module(const std::string& name, ModuleHolder<ModuleType> module_holder) {
    return replace_module(name, module_holder.ptr());
  }
  void unregister_module(const std::string& name);

 protected:
  // Overridden by FORWARD_HAS_DEFAULT_ARGS (modules/container/any.h) so that
  // AnyModule / Sequential can call a forward() with trailing default arguments.
  virtual bool _forward_has_default_args() { return false; }
  virtual unsigned int _forward_num_required_args();
  virtual std::vector<AnyValue> _forward_populate_default_args(std::vector<AnyValue>&& arguments);

  OrderedDict<std::string, Tensor> parameters_{"Parameter"};

 private:
  template <typename Derived>
  friend class Cloneable;
  template <typename ModuleType>
  friend struct detail::AnyModuleHolder;
  friend std::ostream& operator<<(std::ostream& stream, const Module& module);

  // Cloneable's hook: makes *this a deep copy of `other` (same dynamic type).
  virtual void clone_(Module& other, const std::optional<Device>& device);
  void pretty_print_recursive(std::ostream& stream, const std::string& indentation) const;
  // Calls function(qualified_name, child) for every descendant, pre-order.
  void apply_to_submodules(const NamedModulePointerApplyFunction& function,
                           const std::string& name_prefix = std::string()) const;
  std::shared_ptr<Module> shared_from_this_checked() const;
  static void check_child_name(const std::string& name, const char* op);
  template <typename Convert>
  void to_impl(const Convert& convert);

  OrderedDict<std::string, Tensor> buffers_{"Buffer"};
  OrderedDict<std::string, std::shared_ptr<Module>> children_{"Submodule"};
  mutable std::optional<std::string> name_;
  bool is_training_ = true;
};

// Prints the module and its children as LibTorch does:
//   Net(
//     (fc): torch::nn::Linear(in_features=3, out_features=4, bias=true)
//   )
std::ostream& operator<<(std::ostream& stream, const Module& module);

template <typename ModuleType>
std::ostream& operator<<(std::ostream& stream, const ModuleHolder<ModuleType>& module) {
  return stream << *module;
}

namespace detail {
// Replaces the data of `self` in place with `data` (storage, dtype,
// geometry), keeping its autograd identity (requires_grad, leaf-ness), so
// every handle sharing `self` sees the change — LibTorch's Variable::set_data.
void set_data(const Tensor& self, const Tensor& data);
}  // namespace detail

}  // namespace torch::nn
