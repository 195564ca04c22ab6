#include "ember/optim/optimizer.h"

#include <sstream>
#include <type_traits>
#include <typeinfo>
#include <unordered_set>
#include <variant>

#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/core/warning.h"
#include "ember/ops/elementwise/binary.h"

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

// LibTorch's pre-param-group interface: kept, and deprecated with LibTorch's warning.
void Optimizer::add_parameters(const std::vector<Tensor>& parameters) {
  ::torch::detail::warn(
      __FILE__, __LINE__,
      "Optimizer::add_parameters() is deprecated in LibTorch and will be removed: use add_param_group()");
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
  ::torch::detail::warn(__FILE__, __LINE__,
                        "Optimizer::parameters() is deprecated in LibTorch and will be removed: use param_groups()");
  EMBER_CHECK(!param_groups_.empty(), "Optimizer: parameters() called on an optimizer without param groups");
  return param_groups_.front().params();
}

std::vector<Tensor>& Optimizer::parameters() {
  ::torch::detail::warn(__FILE__, __LINE__,
                        "Optimizer::parameters() is deprecated in LibTorch and will be removed: use param_groups()");
  EMBER_CHECK(!param_groups_.empty(), "Optimizer: parameters() called on an optimizer without param groups");
  return param_groups_.front().params();
}

size_t Optimizer::size() const noexcept {
  ::torch::detail::warn(
      __FILE__, __LINE__,
      "Optimizer::size() is deprecated in LibTorch and will be removed: count the param_groups()' params");
  size_t n = 0;
  for (const auto& group : param_groups_) n += group.params().size();
  return n;
}

Tensor Optimizer::evaluate_closure(const LossClosure& closure) {
  if (!closure) return {};
  EnableGradGuard enable_grad;
  return closure();
}

namespace {
// The fields visit() lists, in order, with their values copied out.
class FieldList final : public StateVisitor {
 public:
  using Value = std::variant<Tensor, std::deque<Tensor>, int64_t, double, bool, std::string>;
  void tensor(std::string_view name, Tensor& v) override { add(name, v); }
  void tensors(std::string_view name, std::deque<Tensor>& v) override { add(name, v); }
  void integer(std::string_view name, int64_t& v) override { add(name, v); }
  void real(std::string_view name, double& v) override { add(name, v); }
  void flag(std::string_view name, bool& v) override { add(name, v); }
  void text(std::string_view name, std::string& v) override { add(name, v); }
  std::vector<std::pair<std::string, Value>> fields;

 private:
  void add(std::string_view name, const Value& v) { fields.emplace_back(std::string(name), v); }
};

bool same_tensor(const Tensor& a, const Tensor& b) {
  if (a.defined() != b.defined()) return false;
  return !a.defined() || (a.sizes() == b.sizes() && a.dtype() == b.dtype() && equal(a, b));
}
bool same_value(const FieldList::Value& a, const FieldList::Value& b) {
  if (a.index() != b.index()) return false;
  if (const auto* t = std::get_if<Tensor>(&a)) return same_tensor(*t, std::get<Tensor>(b));
  if (const auto* d = std::get_if<std::deque<Tensor>>(&a)) {
    const auto& e = std::get<std::deque<Tensor>>(b);
    if (d->size() != e.size()) return false;
    for (size_t i = 0; i < d->size(); ++i)
      if (!same_tensor((*d)[i], e[i])) return false;
    return true;
  }
  return std::visit(
      [&](const auto& x) {
        using X = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<X, Tensor> || std::is_same_v<X, std::deque<Tensor>>)
          return false;  // handled above
        else
          return x == std::get<X>(b);
      },
      a);
}
template <typename State>
bool same_fields(const State& a, const State& b) {
  if (typeid(a) != typeid(b)) return false;
  FieldList fa, fb;
  a.clone()->visit(fa);  // visit() may assign through its references: let it see copies
  b.clone()->visit(fb);
  if (fa.fields.size() != fb.fields.size()) return false;
  for (size_t i = 0; i < fa.fields.size(); ++i)
    if (fa.fields[i].first != fb.fields[i].first || !same_value(fa.fields[i].second, fb.fields[i].second)) return false;
  return true;
}
}  // namespace

bool same_state(const OptimizerOptions& a, const OptimizerOptions& b) { return same_fields(a, b); }
bool same_state(const OptimizerParamState& a, const OptimizerParamState& b) { return same_fields(a, b); }

}  // namespace torch::optim
