#pragma once
// The pieces of ddp_fashion_mnist that its test reuses: the main job's M1
// network (examples/fashion_mnist/main.cpp's model, copied) and one epoch of
// data-parallel training over this rank's DistributedRandomSampler slice.
#include <ember/data.h>
#include <ember/distributed.h>
#include <ember/torch.h>

#include <cstdint>

namespace ddp_mnist {

// M1 of the benchmark spec: two conv/relu/pool stages and a two-layer head.
struct NetImpl : torch::nn::Module {
  explicit NetImpl(double dropout_p = 0.25)
      : conv1(torch::nn::Conv2dOptions(1, 32, 3).padding(1)),
        conv2(torch::nn::Conv2dOptions(32, 64, 3).padding(1)),
        fc1(64 * 7 * 7, 128),
        dropout(dropout_p),
        fc2(128, 10) {
    register_module("conv1", conv1);
    register_module("conv2", conv2);
    register_module("fc1", fc1);
    register_module("dropout", dropout);
    register_module("fc2", fc2);
  }

  torch::Tensor forward(torch::Tensor x) {
    x = torch::max_pool2d(torch::relu(conv1(x)), 2);
    x = torch::max_pool2d(torch::relu(conv2(x)), 2);
    x = torch::relu(fc1(x.flatten(1)));
    return fc2(dropout(x));
  }

  torch::nn::Conv2d conv1, conv2;
  torch::nn::Linear fc1;
  torch::nn::Dropout dropout;
  torch::nn::Linear fc2;
};
TORCH_MODULE(Net);

constexpr double kMean = 0.2860, kStd = 0.3530;  // Fashion-MNIST training-set statistics

inline torch::Tensor normalize(const torch::Tensor& images) { return (images - kMean) / kStd; }

// The samples `indices` names, as one batch.
inline std::pair<torch::Tensor, torch::Tensor> gather(const torch::Tensor& images, const torch::Tensor& targets,
                                                      const std::vector<size_t>& indices) {
  std::vector<int64_t> idx(indices.begin(), indices.end());
  torch::Tensor i = torch::tensor(idx, torch::kLong);
  return {images.index_select(0, i), targets.index_select(0, i)};
}

// One epoch: every rank takes local_batch samples of its slice per step, so
// a step's global batch is local_batch * world_size. Returns the mean loss.
inline double train_epoch(torch::nn::parallel::DistributedDataParallel& ddp, torch::optim::Optimizer& optimizer,
                          const torch::Tensor& images, const torch::Tensor& targets,
                          torch::data::samplers::DistributedRandomSampler& sampler, size_t epoch, int64_t local_batch) {
  sampler.set_epoch(epoch);
  sampler.reset();
  double total = 0;
  int64_t steps = 0;
  while (auto indices = sampler.next(static_cast<size_t>(local_batch))) {
    auto [x, y] = gather(images, targets, *indices);
    optimizer.zero_grad();
    auto loss = torch::nn::functional::cross_entropy(ddp->forward(x), y);
    loss.backward();
    optimizer.step();
    total += loss.item<double>();
    ++steps;
  }
  return steps ? total / static_cast<double>(steps) : 0.0;
}

// Accuracy over images (normalized), in batches of 1000.
inline double evaluate(Net& model, const torch::Tensor& images, const torch::Tensor& targets) {
  torch::NoGradGuard no_grad;
  model->eval();
  int64_t correct = 0;
  const int64_t n = images.size(0);
  for (int64_t start = 0; start < n; start += 1000) {
    const int64_t len = std::min<int64_t>(1000, n - start);
    auto pred = model(images.narrow(0, start, len)).argmax(1);
    correct += pred.eq(targets.narrow(0, start, len)).sum().item<int64_t>();
  }
  model->train();
  return n ? static_cast<double>(correct) / static_cast<double>(n) : 0.0;
}

}  // namespace ddp_mnist
