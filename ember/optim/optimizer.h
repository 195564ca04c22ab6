#pragma once
// torch::optim's base classes with LibTorch 1.13's shape: options and
// per-parameter state are polymorphic values, parameters live in param
// groups that each own a copy of the options, and step() may take a closure.
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ember/core/arg.h"
#include "ember/core/tensor.h"

namespace torch::serialize {
class OutputArchive;
class InputArchive;
}  // namespace torch::serialize

namespace torch::optim {

// EMBER_OPTIM_ARG(T, name) declares `name_` with LibTorch's TORCH_ARG accessors:
// `name()` reads, `name(v)` sets and returns *this so setters chain
// (SGDOptions(0.1).momentum(0.9).nesterov(true)).
#define EMBER_OPTIM_ARG(T, name) TORCH_ARG(T, name)

// Note [Optimizer state as named values]
// Options and per-parameter state describe themselves to a StateVisitor as
// named scalars and tensors (one `visit` serves both directions: a saver reads
// the references, a loader assigns through them). Serialization is built on
// this, so optimizers need no archive code of their own. An undefined tensor
// means "absent", as a missing key in PyTorch's state_dict.
class StateVisitor {
 public:
  virtual ~StateVisitor() = default;
  virtual void tensor(std::string_view name, Tensor& value) = 0;
  virtual void tensors(std::string_view name, std::deque<Tensor>& values) = 0;
  virtual void integer(std::string_view name, int64_t& value) = 0;
  virtual void real(std::string_view name, double& value) = 0;
  virtual void flag(std::string_view name, bool& value) = 0;
  virtual void text(std::string_view name, std::string& value) = 0;
};

class OptimizerParamState {
 public:
  virtual ~OptimizerParamState() = default;
  virtual std::unique_ptr<OptimizerParamState> clone() const;
  virtual void visit(StateVisitor& visitor) {}
};

class OptimizerOptions;
// Whether two options (or two parameter states) of one optimizer hold the same values, field by
// field as their visit() lists them; tensors compare with equal(), undefined equals undefined.
// LibTorch's operator== on every options and state struct.
bool same_state(const OptimizerOptions& a, const OptimizerOptions& b);
bool same_state(const OptimizerParamState& a, const OptimizerParamState& b);

template <typename Derived>
class OptimizerCloneableParamState : public OptimizerParamState {
 public:
  std::unique_ptr<OptimizerParamState> clone() const override;
  friend bool operator==(const Derived& a, const Derived& b) { return same_state(a, b); }
};
// Not inline, so the built-in optimizers' copies live in the library (Note [One
// instantiation per built-in optimizer]).
template <typename Derived>
std::unique_ptr<OptimizerParamState> OptimizerCloneableParamState<Derived>::clone() const {
  return std::make_unique<Derived>(static_cast<const Derived&>(*this));
}

class OptimizerOptions {
 public:
  virtual ~OptimizerOptions() = default;
  virtual std::unique_ptr<OptimizerOptions> clone() const;
  virtual double get_lr() const;
  virtual void set_lr(double lr);
  virtual void visit(StateVisitor& visitor) {}
};

template <typename Derived>
class OptimizerCloneableOptions : public OptimizerOptions {
 public:
  std::unique_ptr<OptimizerOptions> clone() const override;
  friend bool operator==(const Derived& a, const Derived& b) { return same_state(a, b); }
};
// Not inline, so the built-in optimizers' copies live in the library (Note [One
// instantiation per built-in optimizer]).
template <typename Derived>
std::unique_ptr<OptimizerOptions> OptimizerCloneableOptions<Derived>::clone() const {
  return std::make_unique<Derived>(static_cast<const Derived&>(*this));
}

// Parameters plus their own copy of the options (null until the optimizer
// fills in its defaults).
class OptimizerParamGroup {
 public:
  OptimizerParamGroup(const OptimizerParamGroup& other);
  OptimizerParamGroup(OptimizerParamGroup&&) noexcept = default;
  OptimizerParamGroup& operator=(const OptimizerParamGroup& other);
  OptimizerParamGroup& operator=(OptimizerParamGroup&&) noexcept = default;
  OptimizerParamGroup(std::vector<Tensor> params) : params_(std::move(params)) {}  // NOLINT: implicit as LibTorch
  OptimizerParamGroup(std::vector<Tensor> params, std::unique_ptr<OptimizerOptions> options)
      : params_(std::move(params)), options_(std::move(options)) {}

  bool has_options() const { return options_ != nullptr; }
  OptimizerOptions& options();
  const OptimizerOptions& options() const;
  void set_options(std::unique_ptr<OptimizerOptions> options) { options_ = std::move(options); }
  std::vector<Tensor>& params() { return params_; }
  const std::vector<Tensor>& params() const { return params_; }

  // Ember extension: the learning rate the first LR scheduler attached to this
  // group started from (PyTorch's group['initial_lr']); later schedulers take
  // their base_lrs from it, so chained schedulers compose as in PyTorch.
  std::optional<double> initial_lr() const { return initial_lr_; }
  void set_initial_lr(std::optional<double> lr) { initial_lr_ = lr; }

 private:
  std::vector<Tensor> params_;
  std::unique_ptr<OptimizerOptions> options_;
  std::optional<double> initial_lr_;
};

// The key of a parameter's entry in Optimizer::state(): its TensorImpl's
// address printed as LibTorch does (c10::guts::to_string(p.unsafeGetTensorImpl())).
std::string param_key(const Tensor& p);

class Optimizer {
 public:
  using LossClosure = std::function<Tensor()>;
  using StateMap = std::unordered_map<std::string, std::unique_ptr<OptimizerParamState>>;

  Optimizer(const Optimizer&) = delete;
  Optimizer& operator=(const Optimizer&) = delete;
  Optimizer(Optimizer&&) = default;
  explicit Optimizer(std::vector<OptimizerParamGroup> param_groups, std::unique_ptr<OptimizerOptions> defaults);
  explicit Optimizer(std::vector<Tensor> parameters, std::unique_ptr<OptimizerOptions> defaults);
  virtual ~Optimizer() = default;

  // Runs one update; the closure (if any) re-evaluates the loss with grad mode
  // on and its result is returned (undefined without a closure).
  virtual Tensor step(LossClosure closure = nullptr) = 0;

  void add_param_group(const OptimizerParamGroup& param_group);
  // Appends to the first group (LibTorch's deprecated spelling).
  void add_parameters(const std::vector<Tensor>& parameters);
  // LibTorch 1.13: fills existing gradients with zeros (does not reset them).
  void zero_grad();

  const std::vector<Tensor>& parameters() const;  // the first group's
  std::vector<Tensor>& parameters();
  size_t size() const noexcept;  // parameters in all groups
  OptimizerOptions& defaults() noexcept { return *defaults_; }
  const OptimizerOptions& defaults() const noexcept { return *defaults_; }
  std::vector<OptimizerParamGroup>& param_groups() noexcept { return param_groups_; }
  const std::vector<OptimizerParamGroup>& param_groups() const noexcept { return param_groups_; }
  StateMap& state() noexcept { return state_; }
  const StateMap& state() const noexcept { return state_; }

  // A fresh, empty per-parameter state of this optimizer's kind (null for an
  // optimizer without per-parameter state); loaders fill it through visit().
  virtual std::unique_ptr<OptimizerParamState> make_param_state() const { return nullptr; }
  // Whether every tensor in a parameter's state has that parameter's shape (the
  // moment buffers of SGD, Adam, ...; not LBFGS's flat history). load() checks it.
  virtual bool state_tensors_shaped_like_params() const { return true; }

  // Serialization of options and state (Note [Optimizer state as named values]).
  // Implemented by the serialization module (ember/serialize); until it lands
  // these throw (optimizer_serialize.cpp).
  virtual void save(serialize::OutputArchive& archive) const;
  virtual void load(serialize::InputArchive& archive);

 protected:
  // The state of `p`, created by `init` on first use.
  template <typename State, typename Init>
  State& state_for(const Tensor& p, Init&& init) {
    auto& slot = state_[param_key(p)];
    if (!slot) {
      auto fresh = std::make_unique<State>();
      init(*fresh);
      slot = std::move(fresh);
    }
    return static_cast<State&>(*slot);
  }
  // Evaluates the closure with grad mode on (steps run under NoGradGuard).
  static Tensor evaluate_closure(const LossClosure& closure);

  std::vector<OptimizerParamGroup> param_groups_;
  StateMap state_;
  std::unique_ptr<OptimizerOptions> defaults_;
};

}  // namespace torch::optim

// Note [One instantiation per built-in optimizer]
// As Note [One instantiation per built-in module] (nn/cloneable.h): each
// built-in optimizer's header declares its options' and state's cloneable base
// with this macro, an explicit instantiation declaration everywhere but in
// optim/cloneable_instances.cpp, which defines it as the definition.
#ifndef EMBER_OPTIM_CLONEABLE_INSTANCE
#define EMBER_OPTIM_CLONEABLE_INSTANCE(Base, Type) extern template class ::ember::optim::Base<Type>
#endif
