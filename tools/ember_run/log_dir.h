#pragma once
// torchrun's log layout: <log_dir>/<run_id>_<random>/attempt_<restart>/<local_rank>/
// {stdout.log, stderr.log, error.json}. Made only when something is logged
// (--log-dir, --redirects or --tee); without --log-dir the base is a fresh
// temporary directory, as torchrun's.
#include <string>

namespace ember_run {

class RunLogDir {
 public:
  // Throws std::system_error when the directories cannot be made.
  RunLogDir(const std::string& base_or_empty, const std::string& run_id);
  const std::string& path() const { return run_dir_; }
  // Creates attempt_<restart>/<local_rank>/ for every local rank; returns attempt_<restart>.
  std::string make_attempt(int restart_count, int local_world_size) const;

 private:
  std::string run_dir_;
};

}  // namespace ember_run
