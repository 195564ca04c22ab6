// The MPI backend's entry points when CMake found no MPI library
// (cmake/domains/distributed.cmake builds this file instead of mpi/).
#include "ember/core/error.h"
#include "ember/distributed/distributed_c10d.h"
#include "ember/distributed/process_group_mpi.h"

namespace torch::distributed {

bool is_mpi_available() { return false; }

std::shared_ptr<ProcessGroupMPI> ProcessGroupMPI::createProcessGroupMPI(std::vector<int64_t>) {
  EMBER_ERROR(
      "createProcessGroupMPI: the mpi backend is not available; Ember's distributed library was built "
      "without MPI (install libopenmpi-dev and reconfigure)");
}

}  // namespace torch::distributed
