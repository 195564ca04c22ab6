#include "ember/optim/optimizer.h"

#include <sstream>
#include <unordered_set>

#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"

namespace torch::optim {

std::unique_ptr<OptimizerParamState> OptimizerParamState::clone() const {
  EMBER_CHECK(false,
              "OptimizerParamState: clone() is not implemented; derive the state from "
              "OptimizerCloneableParamState<YourState>");
  return nullptr;
}

std::unique_ptr<OptimizerOptions> OptimizerOptions::clone() const {
  EMBER_CHECK(false,
              "OptimizerOptions: clone() is not implemented; derive the options from "
              "OptimizerCloneableOptions<YourOptions>");
  return nullptr;
}

double OptimizerOptions::get_lr() const {
  EMBER_CHECK(false, "OptimizerOptions: get_lr() is not implemented for these options");
  return 0;
}

void OptimizerOptions::set_lr(double) {
  EMBER_CHECK(false, "OptimizerOptions: set_lr() is not implemented for these options");
}

OptimizerParamGroup::OptimizerParamGroup(const OptimizerParamGroup& other)
    : params_(other.params_),
      options_(other.has_options() ? other.options_->clone() : nullptr),
      initial_lr_(other.initial_lr_) {}

OptimizerParamGroup& OptimizerParamGroup::operator=(const OptimizerParamGroup& other) {
  if (this != &other) {
    params_ = other.params_;
    options_ = other.has_options() ? other.options_->clone() : nullptr;
    initial_lr_ = other.initial_lr_;
  }
  return *this;
}

OptimizerOptions& OptimizerParamGroup::options() {
  EMBER_CHECK(has_options(), "OptimizerParamGroup: options() called on a group without options");
  return *options_;
}

const OptimizerOptions& OptimizerParamGroup::options() const {
  EMBER_CHECK(has_options(), "OptimizerParamGroup: options() called on a group without options");
  return *options_;
}

std::string param_key(const Tensor& p) {
  std::ostringstream os;
  os << static_cast<const void*>(p.unsafeGetTensorImpl());
  return os.str();
}

Optimizer::Optimizer(std::vector<OptimizerParamGroup> param_groups, std::unique_ptr<OptimizerOptions> defaults)
    : defaults_(std::move(defaults)) {
  EMBER_CHECK(defaults_ != nullptr, "Optimizer: defaults must not be null");
  for (const auto& group : param_groups) add_param_group(group);
}

Optimizer::Optimizer(std::vector<Tensor> parameters, std::unique_ptr<OptimizerOptions> defaults)
    : Optimizer(std::vector<OptimizerParamGroup>{OptimizerParamGroup(std::move(parameters))}, std::move(defaults)) {}

void Optimizer::add_param_group(const OptimizerParamGroup& param_group) {
  std::unordered_set<const TensorImpl*> seen;
  for (const auto& group : param_groups_)
    for (const auto& p : group.params()) seen.insert(p.unsafeGetTensorImpl());
  for (const auto& p : param_group.params()) {
    EMBER_CHECK(p.defined(), "Optimizer: can't optimize an undefined Tensor");
    EMBER_CHECK(p.is_leaf(), "Optimizer: can't optimize a non-leaf Tensor");
    EMBER_CHECK(seen.insert(p.unsafeGetTensorImpl()).second,
                "Optimizer: some parameters appear in more than one parameter group");
  }
  OptimizerParamGroup group(param_group.params(),
                            param_group.has_options() ? param_group.options().clone() : defaults_->clone());
  group.set_initial_lr(param_group.initial_lr());
  param_groups_.push_back(std::move(group));
}

void Optimizer::add_parameters(const std::vector<Tensor>& parameters) {
  if (param_groups_.empty()) {
    add_param_group(OptimizerParamGroup(parameters));
    return;
  }
  auto& params = param_groups_.front().params();
  params.insert(params.end(), parameters.begin(), parameters.end());
}

void Optimizer::zero_grad() {
  for (auto& group : param_groups_) {
    for (auto& p : group.params()) {
      Tensor& g = p.mutable_grad();
      if (g.defined()) {
        // As torch.optim: a gradient with history is cut from it; one without (possibly
        // a view, e.g. a bucket view) only stops requiring grad.
        if (g.grad_fn())
          g.detach_();
        else
          g.requires_grad_(false);
        g.zero_();
      }
    }
  }
}

const std::vector<Tensor>& Optimizer::parameters() const {
  EMBER_CHECK(!param_groups_.empty(), "Optimizer: parameters() called on an optimizer without param groups");
  return param_groups_.front().params();
}

std::vector<Tensor>& Optimizer::parameters() {
  EMBER_CHECK(!param_groups_.empty(), "Optimizer: parameters() called on an optimizer without param groups");
  return param_groups_.front().params();
}

size_t Optimizer::size() const noexcept {
  size_t n = 0;
  for (const auto& group : param_groups_) n += group.params().size();
  return n;
}

Tensor Optimizer::evaluate_closure(const LossClosure& closure) {
  if (!closure) return {};
  EnableGradGuard enable_grad;
  return closure();
}

}  // namespace torch::optim
