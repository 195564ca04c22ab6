// all_reduce of 1 MiB and 64 MiB float32 across N local processes on loopback
// (issue 34's speed target), the same sizes and iteration counts as
// bench/bench_distributed_allreduce.py runs on LibTorch's Gloo process group.
// Usage: bench_distributed_allreduce [world_size=2]. Prints the median time per call.
// Under mpirun (mpirun -np 2 bench_distributed_allreduce) it times the mpi backend instead.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "ember/distributed.h"
#include "ember/ops/factory/factory.h"

namespace dist = ember::distributed;

static void rank_main(const char* backend) {
  dist::init_process_group(backend);
  for (int64_t bytes : {int64_t(1) << 20, int64_t(64) << 20}) {
    auto t = ember::ones({bytes / 4});
    int iters = bytes > (1 << 20) ? 10 : 100;
    if (const char* n = std::getenv("EMBER_BENCH_ITERS")) iters = std::max(1, std::atoi(n));
    for (int i = 0; i < 3; ++i) dist::all_reduce(t);
    std::vector<double> us;
    for (int i = 0; i < iters; ++i) {
      auto s = std::chrono::steady_clock::now();
      dist::all_reduce(t);
      us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - s).count());
    }
    std::sort(us.begin(), us.end());
    if (dist::get_rank() == 0)
      std::printf("ember %s all_reduce %3lld MiB x %lld ranks: median %.0f us\n", backend, (long long)(bytes >> 20),
                  (long long)dist::get_world_size(), us[us.size() / 2]);
  }
  dist::destroy_process_group();
}

int main(int argc, char** argv) {
  if (std::getenv("OMPI_COMM_WORLD_SIZE")) {
    rank_main("mpi");
    return 0;
  }
  if (std::getenv("RANK")) {
    rank_main("gloo");
    return 0;
  }
  int world = argc > 1 ? std::atoi(argv[1]) : 2;
  std::string port = std::to_string(20000 + getpid() % 20000);
  std::vector<pid_t> pids;
  for (int r = 0; r < world; ++r) {
    pid_t pid = fork();
    if (pid == 0) {
      setenv("RANK", std::to_string(r).c_str(), 1);
      setenv("WORLD_SIZE", std::to_string(world).c_str(), 1);
      setenv("MASTER_ADDR", "127.0.0.1", 1);
      setenv("MASTER_PORT", port.c_str(), 1);
      execv("/proc/self/exe", argv);
      _exit(127);
    }
    pids.push_back(pid);
  }
  int rc = 0;
  for (pid_t p : pids) {
    int status = 0;
    waitpid(p, &status, 0);
    rc |= !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  return rc;
}
