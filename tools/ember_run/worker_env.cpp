#include "worker_env.h"

#include <cctype>
#include <cstdlib>
#include <map>

extern char** environ;

namespace ember_run {

std::vector<std::string> worker_environment(const LaunchOptions& o, const RendezvousResult& rdzv,
                                            const WorkerIdentity& w) {
  std::map<std::string, std::string> env;
  for (char** e = environ; e && *e; ++e) {
    std::string entry = *e;
    size_t eq = entry.find('=');
    if (eq != std::string::npos) env[entry.substr(0, eq)] = entry.substr(eq + 1);
  }
  int global_rank = rdzv.rank_offset + w.local_rank;
  // One role per job, so the role rank and size are the global ones.
  env["LOCAL_RANK"] = std::to_string(w.local_rank);
  env["RANK"] = std::to_string(global_rank);
  env["GROUP_RANK"] = std::to_string(rdzv.group_rank);
  env["ROLE_RANK"] = std::to_string(global_rank);
  env["ROLE_NAME"] = o.role;
  env["LOCAL_WORLD_SIZE"] = std::to_string(o.nproc_per_node);
  env["WORLD_SIZE"] = std::to_string(rdzv.world_size);
  env["GROUP_WORLD_SIZE"] = std::to_string(rdzv.group_world_size);
  env["ROLE_WORLD_SIZE"] = std::to_string(rdzv.world_size);
  env["MASTER_ADDR"] = rdzv.master_addr;
  env["MASTER_PORT"] = std::to_string(rdzv.master_port);
  env["TORCHELASTIC_RESTART_COUNT"] = std::to_string(w.restart_count);
  env["TORCHELASTIC_MAX_RESTARTS"] = std::to_string(o.max_restarts);
  env["TORCHELASTIC_RUN_ID"] = o.run_id;
  // torchrun's agent keeps a TCPStore on MASTER_PORT for its workers to join;
  // ember-run holds no store, so rank 0's process group hosts its own.
  env["TORCHELASTIC_USE_AGENT_STORE"] = "False";
  env.try_emplace("NCCL_ASYNC_ERROR_HANDLING", "1");
  // torchrun's default against oversubscription (run.py, config_from_args).
  if (o.nproc_per_node > 1) env.try_emplace("OMP_NUM_THREADS", "1");
  if (w.error_file)
    env["TORCHELASTIC_ERROR_FILE"] = *w.error_file;
  else
    env.erase("TORCHELASTIC_ERROR_FILE");
  std::vector<std::string> out;
  out.reserve(env.size());
  for (const auto& [key, value] : env) out.push_back(key + "=" + value);
  return out;
}

std::string substitute_local_rank(const std::string& arg, int local_rank) {
  const std::string rank = std::to_string(local_rank);
  std::string out;
  for (size_t i = 0; i < arg.size();) {
    if (arg[i] != '$') {
      out += arg[i++];
      continue;
    }
    if (arg.compare(i, 2, "$$") == 0) {
      out += '$';
      i += 2;
    } else if (arg.compare(i, 13, "${local_rank}") == 0) {
      out += rank;
      i += 13;
    } else if (arg.compare(i, 11, "$local_rank") == 0 &&
               (i + 11 == arg.size() ||
                !(std::isalnum(static_cast<unsigned char>(arg[i + 11])) || arg[i + 11] == '_'))) {
      out += rank;
      i += 11;
    } else {
      out += arg[i++];
    }
  }
  return out;
}

}  // namespace ember_run
