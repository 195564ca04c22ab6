#include "ember/distributed/pipeline/sync/checkpoint.h"

namespace torch::distributed::pipeline::sync {
namespace {
// Per thread, as torch's thread-local checkpointing state: a recomputation
// runs on the backward thread that needs its activations.
thread_local bool t_recomputing = false;
}  // namespace

bool is_recomputing() { return t_recomputing; }

namespace detail {
RecomputingGuard::RecomputingGuard(bool recomputing) : previous_(t_recomputing) { t_recomputing = recomputing; }
RecomputingGuard::~RecomputingGuard() { t_recomputing = previous_; }
}  // namespace detail

}  // namespace torch::distributed::pipeline::sync
