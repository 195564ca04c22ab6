// The main job: train the M1 convolutional network of the benchmark spec on
// Fashion-MNIST (Debian's dataset-fashion-mnist package) and report the test
// accuracy after every epoch. Written the way a LibTorch program is written:
// with `#include <torch/torch.h>` and Ember's compatibility headers it is
// unchanged LibTorch code; here it includes <ember/torch.h>.
//
//   fashion_mnist [--data DIR] [--epochs N] [--batch-size N] [--lr X]
//                 [--threads N] [--seed N] [--checkpoint FILE] [--progress]
#include <ember/torch.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

namespace {

struct Args {
  std::string data = "/usr/share/datasets/fashion-mnist";
  int64_t epochs = 3;
  int64_t batch_size = 64;
  double lr = 1e-3;
  int threads = 0;  // 0: leave the default (all cores)
  uint64_t seed = 1;
  std::string checkpoint = "fashion_mnist.safetensors";
  bool force_progress = false;
};

[[noreturn]] void usage(const char* argv0) {
  std::cerr << "usage: " << argv0
            << " [--data DIR] [--epochs N] [--batch-size N] [--lr X] [--threads N] [--seed N]"
               " [--checkpoint FILE] [--progress]\n";
  std::exit(2);
}

Args parse_args(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string flag = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) usage(argv[0]);
      return argv[++i];
    };
    try {
      if (flag == "--data")
        a.data = value();
      else if (flag == "--epochs")
        a.epochs = std::stoll(value());
      else if (flag == "--batch-size")
        a.batch_size = std::stoll(value());
      else if (flag == "--lr")
        a.lr = std::stod(value());
      else if (flag == "--threads")
        a.threads = std::stoi(value());
      else if (flag == "--seed")
        a.seed = std::stoull(value());
      else if (flag == "--checkpoint")
        a.checkpoint = value();
      else if (flag == "--progress")
        a.force_progress = true;
      else
        usage(argv[0]);
    } catch (const std::logic_error&) {  // stoll and friends on a non-number
      usage(argv[0]);
    }
  }
  if (a.epochs < 1 || a.batch_size < 1 || a.threads < 0) usage(argv[0]);
  return a;
}

// M1 of the benchmark spec: two conv/relu/pool stages and a two-layer head.
struct NetImpl : torch::nn::Module {
  NetImpl()
      : conv1(torch::nn::Conv2dOptions(1, 32, 3).padding(1)),
        conv2(torch::nn::Conv2dOptions(32, 64, 3).padding(1)),
        fc1(64 * 7 * 7, 128),
        dropout(0.25),
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

// Test accuracy over the whole test set, evaluated in batches of 1000.
double evaluate(Net& model, const torch::Tensor& images, const torch::Tensor& targets) {
  torch::NoGradGuard no_grad;
  model->eval();
  int64_t correct = 0;
  const int64_t n = images.size(0);
  for (int64_t start = 0; start < n; start += 1000) {
    const int64_t len = std::min<int64_t>(1000, n - start);
    auto x = (images.narrow(0, start, len) - kMean) / kStd;
    auto pred = model(x).argmax(1);
    correct += pred.eq(targets.narrow(0, start, len)).sum().item<int64_t>();
  }
  model->train();
  return static_cast<double>(correct) / static_cast<double>(n);
}

}  // namespace

int main(int argc, char** argv) try {
  const Args args = parse_args(argc, argv);
  if (args.threads > 0) torch::set_num_threads(args.threads);
  torch::manual_seed(args.seed);

  using torch::data::datasets::MNIST;
  auto train_set = MNIST(args.data, MNIST::Mode::kTrain)
                       .map(torch::data::transforms::Normalize<>(kMean, kStd))
                       .map(torch::data::transforms::Stack<>());
  const MNIST test_set(args.data, MNIST::Mode::kTest);
  const int64_t train_size = static_cast<int64_t>(train_set.size().value());
  const int64_t batches_per_epoch = (train_size + args.batch_size - 1) / args.batch_size;
  auto loader = torch::data::make_data_loader<torch::data::samplers::RandomSampler>(
      std::move(train_set), torch::data::DataLoaderOptions().batch_size(args.batch_size));

  Net model;
  torch::optim::Adam optimizer(model->parameters(), torch::optim::AdamOptions(args.lr));

  std::cout << "Fashion-MNIST: " << train_size << " training and " << test_set.size().value() << " test images from "
            << args.data << "; " << torch::get_num_threads() << " thread(s), batch " << args.batch_size << ", Adam lr "
            << args.lr << "\n";

  const auto start = std::chrono::steady_clock::now();
  auto seconds = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
  double accuracy = 0;
  double time_to_90 = -1;
  for (int64_t epoch = 1; epoch <= args.epochs; ++epoch) {
    torch::utils::ProgressBar bar(static_cast<size_t>(batches_per_epoch),
                                  {.description = "epoch " + std::to_string(epoch) + "/" + std::to_string(args.epochs),
                                   .force = args.force_progress});
    for (auto& batch : *loader) {
      optimizer.zero_grad();
      auto loss = torch::nn::functional::cross_entropy(model(batch.data), batch.target);
      loss.backward();
      optimizer.step();
      bar.update(1, loss.item<double>());
    }
    bar.finish();
    accuracy = evaluate(model, test_set.images(), test_set.targets());
    const double t = seconds();
    if (accuracy >= 0.90 && time_to_90 < 0) time_to_90 = t;
    std::printf("epoch %lld: test accuracy %.2f%% (%.1f s, %.1f steps/s)\n", static_cast<long long>(epoch),
                100 * accuracy, t, static_cast<double>(epoch * batches_per_epoch) / t);
    std::fflush(stdout);
  }

  torch::save(model, args.checkpoint);
  std::printf("saved the trained weights to %s\n", args.checkpoint.c_str());
  if (time_to_90 >= 0) std::printf("reached 90%% test accuracy after %.1f s\n", time_to_90);
  std::printf("final test accuracy: %.2f%%\n", 100 * accuracy);
  return 0;
} catch (const std::exception& e) {
  std::cerr << "fashion_mnist: " << e.what() << "\n";
  return 1;
}
