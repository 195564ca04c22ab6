#pragma once
// The process-wide side of the MPI backend: MPI is initialized once (as
// c10d's initMPIOnce, with MPI_THREAD_SERIALIZED) and finalized at exit, and
// every MPI call of the process holds one lock (Note [One MPI lock]).
// The C API only: Open MPI's mpi.h otherwise pulls in its deprecated C++ bindings.
#ifndef OMPI_SKIP_MPICXX
#define OMPI_SKIP_MPICXX 1
#endif
#ifndef MPICH_SKIP_MPICXX
#define MPICH_SKIP_MPICXX 1
#endif
#include <mpi.h>

#include <mutex>
#include <string>

#include "ember/core/dtype.h"
#include "ember/distributed/types.h"

namespace torch::distributed::mpi_detail {

// Note [One MPI lock]
// MPI_THREAD_SERIALIZED lets any thread call MPI, one at a time. Every MPI
// call of the process (each group's worker, send/recv posting and waiting,
// communicator creation) takes this lock, as c10d's pgGlobalMutex_.
std::mutex& mpi_mutex();

// MPI_Init_thread on the first call; raises when the library cannot give
// MPI_THREAD_SERIALIZED.
void init_once();
// Whether MPI_Finalize has run (a group outliving it must not call MPI).
bool finalized();

// MPI's text for an error code.
std::string error_string(int rc);
// Raises an ember::Error naming op and the MPI call unless rc is MPI_SUCCESS.
void check(int rc, const char* op, const char* call);

// The datatype reductions see for dtype: one wire element (a complex
// number's real part), reduced by reduce_op as the Gloo group reduces.
MPI_Datatype reduce_type(ScalarType dtype);
// The MPI_Op of a ReduceOp (AVG: the SUM, divided afterwards by the caller).
MPI_Op reduce_op(ReduceOp op);

// A byte or element count as MPI's int, raising when it does not fit.
int to_count(size_t n, const char* op);

}  // namespace torch::distributed::mpi_detail
