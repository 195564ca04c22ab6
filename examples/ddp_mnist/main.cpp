// The main job, data-parallel: trains examples/fashion_mnist's M1 network
// with DistributedDataParallel, each rank on its DistributedRandomSampler
// slice, at the same global batch as the one-process job. Start it with the
// launcher (it reads RANK/WORLD_SIZE/MASTER_ADDR/MASTER_PORT):
//
//   ember-run --nproc-per-node 2 build/examples/ddp_fashion_mnist [--epochs N]
//       [--batch-size GLOBAL] [--lr X] [--threads N] [--seed N] [--limit N]
//
// Without the launcher it runs as a world of one.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

#include "ddp_train.h"

namespace {

struct Args {
  std::string data = "/usr/share/datasets/fashion-mnist";
  int64_t epochs = 3;
  int64_t batch_size = 64;  // global: split across the ranks
  double lr = 1e-3;
  int threads = 0;
  uint64_t seed = 1;
  int64_t limit = 0;  // 0: the whole training set
};

[[noreturn]] void usage(const char* argv0) {
  std::cerr << "usage: " << argv0
            << " [--data DIR] [--epochs N] [--batch-size GLOBAL] [--lr X] [--threads N] [--seed N] [--limit N]\n";
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
      else if (flag == "--limit")
        a.limit = std::stoll(value());
      else
        usage(argv[0]);
    } catch (const std::logic_error&) {
      usage(argv[0]);
    }
  }
  if (a.epochs < 1 || a.batch_size < 1 || a.threads < 0 || a.limit < 0) usage(argv[0]);
  return a;
}

}  // namespace

int main(int argc, char** argv) try {
  namespace dist = torch::distributed;
  const Args args = parse_args(argc, argv);
  if (args.threads > 0) torch::set_num_threads(args.threads);
  if (std::getenv("WORLD_SIZE") == nullptr) {
    std::string file = "/tmp/ddp_fashion_mnist." + std::to_string(::getpid());
    dist::init_process_group("gloo", "file://" + file, dist::default_pg_timeout, 1, 0);
  } else {
    dist::init_process_group("gloo");
  }
  const int64_t rank = dist::get_rank(), world = dist::get_world_size();
  if (args.batch_size % world != 0) {
    if (rank == 0) std::cerr << "ddp_fashion_mnist: --batch-size must be a multiple of the world size\n";
    return 2;
  }
  const int64_t local_batch = args.batch_size / world;
  torch::manual_seed(args.seed);

  using torch::data::datasets::MNIST;
  const MNIST train_set(args.data, MNIST::Mode::kTrain), test_set(args.data, MNIST::Mode::kTest);
  torch::Tensor images = ddp_mnist::normalize(train_set.images()), targets = train_set.targets();
  if (args.limit > 0 && args.limit < images.size(0)) {
    images = images.narrow(0, 0, args.limit);
    targets = targets.narrow(0, 0, args.limit);
  }
  const torch::Tensor test_images = ddp_mnist::normalize(test_set.images());
  const auto n = static_cast<size_t>(images.size(0));
  torch::data::samplers::DistributedRandomSampler sampler(n, static_cast<size_t>(world), static_cast<size_t>(rank));

  ddp_mnist::Net model;
  torch::nn::parallel::DistributedDataParallel ddp(model);
  torch::optim::Adam optimizer(ddp->parameters(), torch::optim::AdamOptions(args.lr));
  if (rank == 0)
    std::printf("Fashion-MNIST data-parallel: %zu training images, %lld rank(s), global batch %lld (%lld per rank)\n",
                n, static_cast<long long>(world), static_cast<long long>(args.batch_size),
                static_cast<long long>(local_batch));

  double accuracy = 0, train_seconds = 0;
  for (int64_t epoch = 1; epoch <= args.epochs; ++epoch) {
    const auto start = std::chrono::steady_clock::now();
    double loss =
        ddp_mnist::train_epoch(ddp, optimizer, images, targets, sampler, static_cast<size_t>(epoch), local_batch);
    dist::barrier();
    const double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    train_seconds += t;
    if (rank == 0) {
      accuracy = ddp_mnist::evaluate(model, test_images, test_set.targets());
      std::printf("epoch %lld: loss %.4f, test accuracy %.2f%% (%.1f s, %.0f samples/s)\n",
                  static_cast<long long>(epoch), loss, 100 * accuracy, t, static_cast<double>(n) / t);
      std::fflush(stdout);
    }
    dist::barrier();
  }
  if (rank == 0) {
    std::printf("final test accuracy: %.2f%%\n", 100 * accuracy);
    std::printf("throughput: %.0f samples/s over %lld epoch(s)\n",
                static_cast<double>(n) * static_cast<double>(args.epochs) / train_seconds,
                static_cast<long long>(args.epochs));
  }
  dist::destroy_process_group();
  return 0;
} catch (const std::exception& e) {
  std::cerr << "ddp_fashion_mnist: " << e.what() << "\n";
  return 1;
}
