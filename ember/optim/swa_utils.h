#pragma once
// Stochastic weight averaging, as torch.optim.swa_utils (PyTorch 1.13):
// AveragedModel (SWA's running mean, or EMA through an avg_fn), update_bn
// (recompute BatchNorm running statistics for the averaged weights), SWALR.
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "ember/core/tensor.h"
#include "ember/nn/module.h"
#include "ember/nn/modules/batchnorm.h"
#include "ember/nn/pimpl.h"
#include "ember/ops/shape/shape_ops.h"
#include "ember/optim/schedulers/lr_scheduler.h"

namespace torch::optim::swa_utils {

// avg_fn(averaged_param, model_param, num_averaged) -> new averaged value;
// num_averaged is the 0-dim int64 count of models averaged so far (>= 1 here).
using AvgFn = std::function<Tensor(const Tensor&, const Tensor&, const Tensor&)>;

// The SWA running mean: averaged + (current - averaged) / (n + 1).
Tensor swa_avg_fn(const Tensor& averaged, const Tensor& current, const Tensor& num_averaged);
// An exponential moving average: decay * averaged + (1 - decay) * current
// (PyTorch 2.x's get_ema_avg_fn; in 1.13 one passes this as avg_fn by hand).
AvgFn get_ema_avg_fn(double decay = 0.999);

namespace detail {
// The copy-then-average step shared by every AveragedModel<M>: zips the
// averaged module's parameters (and buffers, with use_buffers) with the
// model's, in registration order.
void update_averaged(nn::Module& averaged, const nn::Module& model, Tensor& n_averaged, const AvgFn& avg_fn,
                     bool use_buffers);
template <typename M>
nn::Module& as_module(M& m) {
  if constexpr (nn::detail::is_module_holder_v<std::decay_t<M>>)
    return *m.ptr();
  else
    return m;
}
}  // namespace detail

// AveragedModel<nn::Sequential> swa(model); swa.update_parameters(model); swa(x).
// `module` is a deep copy (clone()) of the model, so M must be Cloneable; the
// state_dict names are PyTorch's: "module.<name>" and "n_averaged".
template <typename M>
class AveragedModel : public nn::Module {
 public:
  explicit AveragedModel(const M& model, AvgFn avg_fn = nullptr, bool use_buffers = false)
      : module(clone_of(model)), avg_fn_(avg_fn ? std::move(avg_fn) : AvgFn(swa_avg_fn)), use_buffers_(use_buffers) {
    register_module("module", module);
    n_averaged = register_buffer("n_averaged", zeros({}, kLong));
  }

  // The first call copies the model; later calls average into the copy.
  void update_parameters(const M& model) {
    detail::update_averaged(detail::as_module(module), detail::as_module(const_cast<M&>(model)), n_averaged, avg_fn_,
                            use_buffers_);
  }

  template <typename... Args>
  decltype(auto) forward(Args&&... args) {
    if constexpr (nn::detail::is_module_holder_v<M>)
      return module->forward(std::forward<Args>(args)...);
    else
      return module.forward(std::forward<Args>(args)...);
  }
  template <typename... Args>
  decltype(auto) operator()(Args&&... args) {
    return forward(std::forward<Args>(args)...);
  }

  void pretty_print(std::ostream& stream) const override { stream << "torch::optim::swa_utils::AveragedModel"; }
  bool use_buffers() const { return use_buffers_; }

  M module;
  Tensor n_averaged;

 private:
  static M clone_of(const M& model) {
    if constexpr (nn::detail::is_module_holder_v<M>) {
      using Impl = typename M::ContainedType;
      auto copy = std::dynamic_pointer_cast<Impl>(model->clone());
      EMBER_CHECK(copy != nullptr, "AveragedModel: clone() of the model did not return a ", model->name());
      return M(copy);
    } else {
      static_assert(nn::detail::is_module_holder_v<M>, "AveragedModel<M>: M must be a module holder (TORCH_MODULE)");
    }
  }
  AvgFn avg_fn_;
  bool use_buffers_;
};

namespace detail {
// Zeroes the running statistics of every BatchNorm in `model`, switches it to
// training with momentum = nullopt (cumulative average) and returns what to
// restore; an empty result means the model has no BatchNorm.
struct BatchNormState {
  std::vector<std::pair<nn::detail::BatchNormTag*, std::optional<double>>> momenta;
  bool was_training = false;
};
BatchNormState prepare_update_bn(nn::Module& model);
void finish_update_bn(nn::Module& model, const BatchNormState& state);

// The input tensor of one loader batch: a Tensor, an Example (its data), a
// vector of Examples (stacked data, what an unstacked loader yields) or a
// pair/tuple/vector of tensors (its first element, as PyTorch's input[0]).
template <typename Batch>
Tensor batch_input(const Batch& batch) {
  using B = std::decay_t<Batch>;
  if constexpr (std::is_same_v<B, Tensor>) {
    return batch;
  } else if constexpr (requires { batch.data; }) {
    return batch.data;
  } else if constexpr (requires { batch[0].data; }) {
    std::vector<Tensor> data;
    for (const auto& example : batch) data.push_back(example.data);
    return stack(data);
  } else if constexpr (requires { std::get<0>(batch); }) {
    return std::get<0>(batch);
  } else {
    return batch.at(0);
  }
}
}  // namespace detail

// One pass over `loader` in training mode with cumulative BatchNorm statistics,
// so the running mean/var are those of the data under the current weights
// (PyTorch's update_bn). `loader` is anything range-for can walk (a data
// loader, a vector of tensors); `model` a holder, a Module or an AveragedModel.
template <typename Loader, typename Model>
void update_bn(Loader&& loader, Model& model) {
  nn::Module& root = detail::as_module(model);
  auto state = detail::prepare_update_bn(root);
  if (state.momenta.empty()) return;
  for (const auto& batch : loader) {
    Tensor input = detail::batch_input(batch);
    if constexpr (requires { model(input); })
      model(input);
    else
      model.forward(input);
  }
  detail::finish_update_bn(root, state);
}

// SWALR: anneals each group's lr from its current value to swa_lr over
// anneal_epochs epochs ("cos" or "linear"), then holds swa_lr.
class SWALR : public LRScheduler {
 public:
  SWALR(Optimizer& optimizer, double swa_lr, int64_t anneal_epochs = 10, const std::string& anneal_strategy = "cos");
  SWALR(Optimizer& optimizer, std::vector<double> swa_lrs, int64_t anneal_epochs = 10,
        const std::string& anneal_strategy = "cos");
  const std::vector<double>& swa_lrs() const { return swa_lrs_; }

 protected:
  std::vector<double> get_lrs() override;

 private:
  double anneal(double t) const;
  std::vector<double> swa_lrs_;
  int64_t anneal_epochs_;
  bool cosine_;
};

}  // namespace torch::optim::swa_utils
