#include "ember/core/parallel.h"

#include <omp.h>

#include <algorithm>
#include <exception>
#include <mutex>

#include "ember/core/error.h"

extern "C" void openblas_set_num_threads(int);

namespace torch {

void set_num_threads(int n) {
  EMBER_CHECK(n > 0, "set_num_threads: expected a positive number of threads, got ", n);
  omp_set_num_threads(n);
  openblas_set_num_threads(n);
}

int get_num_threads() { return omp_in_parallel() ? 1 : omp_get_max_threads(); }
int get_thread_num() { return omp_get_thread_num(); }
bool in_parallel_region() { return omp_in_parallel(); }

void parallel_for_impl(int64_t begin, int64_t end, int64_t grain, const std::function<void(int64_t, int64_t)>& f) {
  int64_t n = end - begin;
  int64_t max_chunks = (n + grain - 1) / std::max<int64_t>(grain, 1);
  int nthreads = static_cast<int>(std::min<int64_t>(omp_get_max_threads(), max_chunks));
  std::exception_ptr err;
  std::mutex err_mu;
#pragma omp parallel num_threads(nthreads)
  {
    int tid = omp_get_thread_num();
    int nt = omp_get_num_threads();
    int64_t chunk = (n + nt - 1) / nt;
    int64_t b = begin + tid * chunk;
    int64_t e = std::min(end, b + chunk);
    if (b < e) {
      try {
        f(b, e);
      } catch (...) {
        std::lock_guard<std::mutex> g(err_mu);
        if (!err) err = std::current_exception();
      }
    }
  }
  if (err) std::rethrow_exception(err);
}

}  // namespace torch
