#include "ember/nn/module.h"

#include <typeinfo>

#include "ember/autograd/autograd_meta.h"
#include "ember/autograd/custom_function.h"
#include "ember/autograd/grad_mode.h"
#include "ember/core/warning.h"
#include "ember/nn/modules/container/any_value.h"

namespace torch::nn {

namespace {
std::string join_name(const std::string& prefix, const std::string& name) {
  return prefix.empty() ? name : prefix + "." + name;
}
}  // namespace

Module::Module(std::string name) : name_(std::move(name)) {}
Module::Module() = default;

const std::string& Module::name() const noexcept {
  // Computed lazily: the dynamic type is not yet final inside constructors.
  // Ember's own modules answer with LibTorch's spelling, "torch::nn::LinearImpl", as their
  // namespace is `torch` (Note [One namespace, two spellings]).
  if (!name_.has_value()) name_ = autograd::demangle_type_name(typeid(*this).name());
  return *name_;
}

std::shared_ptr<Module> Module::clone(const std::optional<Device>&) const {
  EMBER_ERROR("clone: clone() has not been implemented for ", name(), ". Subclass torch::nn::Cloneable<", name(),
              "> instead of torch::nn::Module to inherit the ability to clone.");
}

void Module::clone_(Module&, const std::optional<Device>&) {
  EMBER_ERROR("clone: clone_() has not been implemented for ", name(), ". Subclass torch::nn::Cloneable<", name(),
              "> instead of torch::nn::Module to inherit the ability to clone.");
}

unsigned int Module::_forward_num_required_args() {
  EMBER_ERROR(
      "_forward_num_required_args: only modules declared with FORWARD_HAS_DEFAULT_ARGS have default "
      "forward() arguments (",
      name(), " does not)");
}

std::vector<AnyValue> Module::_forward_populate_default_args(std::vector<AnyValue>&&) {
  EMBER_ERROR(
      "_forward_populate_default_args: only modules declared with FORWARD_HAS_DEFAULT_ARGS have default "
      "forward() arguments (",
      name(), " does not)");
}

// ---- traversal ----------------------------------------------------------------

void Module::apply(const ModuleApplyFunction& function) {
  function(*this);
  apply_to_submodules([&](const std::string&, const std::shared_ptr<Module>& m) { function(*m); });
}

void Module::apply(const ConstModuleApplyFunction& function) const {
  function(*this);
  apply_to_submodules([&](const std::string&, const std::shared_ptr<Module>& m) { function(*m); });
}

void Module::apply(const NamedModuleApplyFunction& function, const std::string& name_prefix) {
  function(name_prefix, *this);
  apply_to_submodules([&](const std::string& name, const std::shared_ptr<Module>& m) { function(name, *m); },
                      name_prefix);
}

void Module::apply(const ConstNamedModuleApplyFunction& function, const std::string& name_prefix) const {
  function(name_prefix, *this);
  apply_to_submodules([&](const std::string& name, const std::shared_ptr<Module>& m) { function(name, *m); },
                      name_prefix);
}

void Module::apply(const ModulePointerApplyFunction& function) const {
  function(shared_from_this_checked());
  apply_to_submodules([&](const std::string&, const std::shared_ptr<Module>& m) { function(m); });
}

void Module::apply(const NamedModulePointerApplyFunction& function, const std::string& name_prefix) const {
  function(name_prefix, shared_from_this_checked());
  apply_to_submodules(function, name_prefix);
}

void Module::apply_to_submodules(const NamedModulePointerApplyFunction& function,
                                 const std::string& name_prefix) const {
  for (const auto& child : children_) {
    const std::string qualified = join_name(name_prefix, child.key());
    function(qualified, child.value());
    child.value()->apply_to_submodules(function, qualified);
  }
}

std::shared_ptr<Module> Module::shared_from_this_checked() const {
  std::shared_ptr<const Module> ptr = weak_from_this().lock();
  EMBER_CHECK(
      ptr != nullptr,
      "It looks like you attempted to retrieve your top-level module as a shared_ptr, but it "
      "is not stored in a shared_ptr. Use std::make_shared<",
      name(),
      "> instead of creating your module on "
      "the stack, or alternatively do not try to access your top-level module at all by passing /*include_self=*/false "
      "to modules() or named_modules()");
  return std::const_pointer_cast<Module>(ptr);
}

std::vector<Tensor> Module::parameters(bool recurse) const { return named_parameters(recurse).values(); }

OrderedDict<std::string, Tensor> Module::named_parameters(bool recurse) const {
  OrderedDict<std::string, Tensor> result;
  auto collect = [&](const std::string& prefix, const Module& m) {
    for (const auto& p : m.parameters_)
      if (p.value().defined()) result.insert(join_name(prefix, p.key()), p.value());
  };
  if (recurse)
    apply(ConstNamedModuleApplyFunction(collect));
  else
    collect("", *this);
  return result;
}

std::vector<Tensor> Module::buffers(bool recurse) const { return named_buffers(recurse).values(); }

OrderedDict<std::string, Tensor> Module::named_buffers(bool recurse) const {
  OrderedDict<std::string, Tensor> result;
  auto collect = [&](const std::string& prefix, const Module& m) {
    for (const auto& b : m.buffers_)
      if (b.value().defined()) result.insert(join_name(prefix, b.key()), b.value());
  };
  if (recurse)
    apply(ConstNamedModuleApplyFunction(collect));
  else
    collect("", *this);
  return result;
}

std::vector<std::shared_ptr<Module>> Module::modules(bool include_self) const {
  std::vector<std::shared_ptr<Module>> result;
  if (include_self) result.push_back(shared_from_this_checked());
  apply_to_submodules([&](const std::string&, const std::shared_ptr<Module>& m) { result.push_back(m); });
  return result;
}

OrderedDict<std::string, std::shared_ptr<Module>> Module::named_modules(const std::string& name_prefix,
                                                                        bool include_self) const {
  OrderedDict<std::string, std::shared_ptr<Module>> result;
  if (include_self) result.insert(name_prefix, shared_from_this_checked());
  apply_to_submodules([&](const std::string& name, const std::shared_ptr<Module>& m) { result.insert(name, m); },
                      name_prefix);
  return result;
}

std::vector<std::shared_ptr<Module>> Module::children() const { return children_.values(); }

OrderedDict<std::string, std::shared_ptr<Module>> Module::named_children() const { return children_; }

// ---- state ----------------------------------------------------------------------

void Module::train(bool on) {
  for (auto& child : children_) child.value()->train(on);
  is_training_ = on;
}

// Converts this module's own parameters and buffers (the callers recurse
// through the children's virtual to(), so overrides are honoured).
template <typename Convert>
void Module::to_impl(const Convert& convert) {
  NoGradGuard no_grad;
  for (auto& p : parameters_)
    if (p.value().defined()) detail::set_data(p.value(), convert(p.value()));
  for (auto& b : buffers_)
    if (b.value().defined()) detail::set_data(b.value(), convert(b.value()));
}

void Module::to(Device device, ScalarType dtype, bool non_blocking) {
  for (auto& child : children_) child.value()->to(device, dtype, non_blocking);
  // Only floating-point tensors change dtype, as in LibTorch's Module::to.
  to_impl([&](const Tensor& t) { return t.is_floating_point() ? t.to(device, dtype, non_blocking) : t.to(device); });
}

void Module::to(ScalarType dtype, bool non_blocking) {
  for (auto& child : children_) child.value()->to(dtype, non_blocking);
  to_impl([&](const Tensor& t) { return t.is_floating_point() ? t.to(dtype, non_blocking) : t; });
}

void Module::to(Device device, bool non_blocking) {
  for (auto& child : children_) child.value()->to(device, non_blocking);
  to_impl([&](const Tensor& t) { return t.to(device, non_blocking); });
}

void Module::zero_grad(bool set_to_none) {
  for (auto& child : children_) child.value()->zero_grad(set_to_none);
  for (auto& p : parameters_) {
    if (!p.value().defined()) continue;
    Tensor& grad = p.value().mutable_grad();
    if (!grad.defined()) continue;
    if (set_to_none) {
      grad.reset();
    } else {
      grad = grad.detach();
      grad.zero_();
    }
  }
}

// ---- registration -----------------------------------------------------------------

void Module::check_child_name(const std::string& name, const char* op) {
  EMBER_CHECK(!name.empty(), op, ": Submodule name must not be empty");
  EMBER_CHECK(name.find('.') == std::string::npos, op, ": Submodule name must not contain a dot (got '", name, "')");
}

Tensor& Module::register_parameter(std::string name, Tensor tensor, bool requires_grad) {
  EMBER_CHECK(!name.empty(), "register_parameter: Parameter name must not be empty");
  EMBER_CHECK(name.find('.') == std::string::npos, "register_parameter: Parameter name must not contain a dot (got '",
              name, "')");
  if (tensor.defined())
    tensor.requires_grad_(requires_grad);
  else if (requires_grad)
    ::torch::detail::warn(
        __FILE__, __LINE__,
        "register_parameter: An undefined tensor cannot require grad. Ignoring the `requires_grad=true` "
        "function parameter.");
  return parameters_.insert(std::move(name), std::move(tensor));
}

Tensor& Module::register_buffer(std::string name, Tensor tensor) {
  EMBER_CHECK(!name.empty(), "register_buffer: Buffer name must not be empty");
  EMBER_CHECK(name.find('.') == std::string::npos, "register_buffer: Buffer name must not contain a dot (got '", name,
              "')");
  return buffers_.insert(std::move(name), std::move(tensor));
}

void Module::unregister_module(const std::string& name) {
  EMBER_CHECK(children_.contains(name), "unregister_module: No Module with name `", name, "` is registered");
  children_.erase(name);
}

// ---- printing -----------------------------------------------------------------------

void Module::pretty_print(std::ostream& stream) const { stream << name(); }

void Module::pretty_print_recursive(std::ostream& stream, const std::string& indentation) const {
  pretty_print(stream);
  if (children_.is_empty()) return;
  stream << "(\n";
  const std::string next_indentation = indentation + "  ";
  for (const auto& child : children_) {
    stream << next_indentation << "(" << child.key() << "): ";
    child.value()->pretty_print_recursive(stream, next_indentation);
    stream << '\n';
  }
  stream << indentation << ")";
}

std::ostream& operator<<(std::ostream& stream, const Module& module) {
  module.pretty_print_recursive(stream, "");
  return stream;
}

namespace detail {
void set_data(const Tensor& self, const Tensor& data) {
  EMBER_CHECK(self.defined() && data.defined(), "set_data: both tensors must be defined");
  if (self.is_same(data)) return;
  TensorImpl* dst = self.unsafeGetTensorImpl();
  TensorImpl* src = data.unsafeGetTensorImpl();
  dst->set_storage(src->storage());
  dst->set_dtype(src->dtype());
  dst->set_geometry(src->sizes(), src->strides(), src->storage_offset());
  // The leaf's AccumulateGrad recorded the old metadata; a new one is made on demand.
  if (auto* meta = autograd::get_meta(self)) meta->grad_accumulator.reset();
}
}  // namespace detail

}  // namespace torch::nn
