#include "ember/distributed/mpi/mpi_runtime.h"

#include <algorithm>
#include <array>
#include <climits>
#include <cstdlib>
#include <string>
#include <utility>

#include "ember/core/error.h"
#include "ember/distributed/gloo/reduce_fn.h"

namespace torch::distributed::mpi_detail {
namespace {

constexpr std::array<ReduceOp, 8> kOps = {ReduceOp::SUM, ReduceOp::AVG,  ReduceOp::PRODUCT, ReduceOp::MIN,
                                          ReduceOp::MAX, ReduceOp::BAND, ReduceOp::BOR,     ReduceOp::BXOR};

// One committed datatype per ScalarType (so a user op can tell which dtype it
// reduces) and one user op per ReduceOp, made once after MPI_Init and never
// changed: the element-wise functions are the Gloo group's, so both backends
// give the same values.
struct Types {
  std::array<MPI_Datatype, kNumScalarTypes> types{};
  std::array<MPI_Op, kOps.size()> ops{};
};

Types& types() {
  static Types t;
  return t;
}

ScalarType dtype_of(MPI_Datatype dt) {
  const auto& t = types().types;
  for (int i = 0; i < kNumScalarTypes; ++i)
    if (t[static_cast<size_t>(i)] == dt) return static_cast<ScalarType>(i);
  return ScalarType::Undefined;
}

// MPI's user-op contract: inout = in (op) inout, len elements of *dt.
template <ReduceOp R>
void user_reduce(void* in, void* inout, int* len, MPI_Datatype* dt) {
  ScalarType dtype = dtype_of(*dt);
  if (dtype == ScalarType::Undefined) return;  // cannot happen: only our types reach here
  auto fn = gloo_detail::reduce_function(dtype, R == ReduceOp::AVG ? ReduceOp::SUM : R, "all_reduce");
  fn(inout, in, inout, static_cast<size_t>(*len));
}

template <size_t... I>
void create_ops(std::index_sequence<I...>) {
  auto& ops = types().ops;
  ((void)MPI_Op_create(&user_reduce<kOps[I]>, /*commute=*/1, &ops[I]), ...);
}

void finalize_at_exit() {
  std::lock_guard<std::mutex> lock(mpi_mutex());
  int done = 0;
  MPI_Finalized(&done);
  if (!done) MPI_Finalize();
}

}  // namespace

std::mutex& mpi_mutex() {
  static std::mutex mu;
  return mu;
}

void init_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    std::lock_guard<std::mutex> lock(mpi_mutex());
    int initialized = 0, provided = 0;
    MPI_Initialized(&initialized);
    if (initialized) {
      MPI_Query_thread(&provided);
    } else {
      check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided), "init_process_group",
            "MPI_Init_thread");
      std::atexit(finalize_at_exit);
    }
    EMBER_CHECK(provided >= MPI_THREAD_SERIALIZED,
                "init_process_group: Used MPI implementation doesn't have the minimum level of threading support: ",
                MPI_THREAD_SERIALIZED, " (MPI_THREAD_SERIALIZED). This is required by the mpi backend");
    auto& t = types();
    for (int i = 0; i < kNumScalarTypes; ++i) {
      auto dtype = static_cast<ScalarType>(i);
      int bytes = static_cast<int>(gloo_detail::wire_element_size(dtype));
      check(MPI_Type_contiguous(bytes, MPI_BYTE, &t.types[static_cast<size_t>(i)]), "init_process_group",
            "MPI_Type_contiguous");
      check(MPI_Type_commit(&t.types[static_cast<size_t>(i)]), "init_process_group", "MPI_Type_commit");
    }
    create_ops(std::make_index_sequence<kOps.size()>());
  });
}

bool finalized() {
  int done = 0;
  MPI_Finalized(&done);
  return done != 0;
}

std::string error_string(int rc) {
  char text[MPI_MAX_ERROR_STRING] = {};
  int len = 0;
  if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS) return "MPI error " + std::to_string(rc);
  return std::string(text, static_cast<size_t>(std::clamp(len, 0, MPI_MAX_ERROR_STRING)));
}

void check(int rc, const char* op, const char* call) {
  if (rc != MPI_SUCCESS) EMBER_ERROR(op, ": MPI error in ", call, ": ", error_string(rc));
}

MPI_Datatype reduce_type(ScalarType dtype) { return types().types[static_cast<size_t>(dtype)]; }

MPI_Op reduce_op(ReduceOp op) {
  for (size_t i = 0; i < kOps.size(); ++i)
    if (kOps[i] == op) return types().ops[i];
  return MPI_OP_NULL;
}

int to_count(size_t n, const char* op) {
  EMBER_CHECK(n <= static_cast<size_t>(INT_MAX), op, ": the mpi backend moves at most ", INT_MAX,
              " elements per call, got ", n);
  return static_cast<int>(n);
}

}  // namespace torch::distributed::mpi_detail
