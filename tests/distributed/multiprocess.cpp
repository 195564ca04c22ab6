#include "multiprocess.h"

#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <thread>

extern char** environ;

namespace ember_dist_test {

int free_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = 0;
  ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t len = sizeof a;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  int port = ntohs(a.sin_port);
  ::close(fd);
  return port;
}

bool in_worker() { return std::getenv("EMBER_DIST_WORKER") != nullptr; }
int worker_rank() { return std::atoi(std::getenv("RANK")); }
int worker_world_size() { return std::atoi(std::getenv("WORLD_SIZE")); }

std::vector<RankExit> run_ranks(const std::string& worker, const Launch& launch) {
  std::string self(4096, '\0');
  ssize_t n = ::readlink("/proc/self/exe", self.data(), self.size() - 1);
  self.resize(n > 0 ? static_cast<size_t>(n) : 0);
  int port = free_port();
  std::vector<pid_t> pids;
  for (int r = 0; r < launch.world_size; ++r) {
    // Everything exec needs is built before fork: the child only calls execve.
    std::map<std::string, std::string> env;
    for (char** e = environ; *e; ++e) {
      std::string kv = *e;
      auto eq = kv.find('=');
      if (eq != std::string::npos) env[kv.substr(0, eq)] = kv.substr(eq + 1);
    }
    env["EMBER_DIST_WORKER"] = "1";
    env["RANK"] = std::to_string(r);
    env["WORLD_SIZE"] = std::to_string(launch.world_size);
    env["MASTER_ADDR"] = "127.0.0.1";
    env["MASTER_PORT"] = std::to_string(port);
    env["OMP_NUM_THREADS"] = "1";
    for (const auto& [k, v] : launch.env) env[k] = v;
    if (auto it = launch.rank_env.find(r); it != launch.rank_env.end())
      for (const auto& [k, v] : it->second) env[k] = v;
    std::vector<std::string> env_strings, arg_strings{self, "--gtest_filter=DistWorker." + worker, "--gtest_brief=1"};
    for (const auto& [k, v] : env) env_strings.push_back(k + "=" + v);
    std::vector<char*> envp, argv;
    for (auto& s : env_strings) envp.push_back(s.data());
    envp.push_back(nullptr);
    for (auto& s : arg_strings) argv.push_back(s.data());
    argv.push_back(nullptr);
    pid_t pid = ::fork();
    if (pid == 0) {
      ::execve(self.c_str(), argv.data(), envp.data());
      ::_exit(127);
    }
    pids.push_back(pid);
  }
  std::vector<RankExit> exits(pids.size());
  std::vector<bool> done(pids.size(), false);
  auto deadline = std::chrono::steady_clock::now() + launch.limit;
  size_t left = pids.size();
  while (left > 0) {
    for (size_t i = 0; i < pids.size(); ++i) {
      if (done[i]) continue;
      int status = 0;
      if (::waitpid(pids[i], &status, WNOHANG) == pids[i]) {
        done[i] = true;
        --left;
        if (WIFEXITED(status)) {
          exits[i].exited = true;
          exits[i].code = WEXITSTATUS(status);
        } else if (WIFSIGNALED(status)) {
          exits[i].signal = WTERMSIG(status);
        }
      }
    }
    if (left == 0) break;
    if (std::chrono::steady_clock::now() > deadline) {
      for (size_t i = 0; i < pids.size(); ++i) {
        if (done[i]) continue;
        ::kill(pids[i], SIGKILL);
        ::waitpid(pids[i], nullptr, 0);
        exits[i].timed_out = true;
      }
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return exits;
}

void expect_all_passed(const std::vector<RankExit>& exits) {
  for (size_t r = 0; r < exits.size(); ++r) {
    EXPECT_FALSE(exits[r].timed_out) << "rank " << r << " hung and was killed";
    EXPECT_TRUE(exits[r].exited && exits[r].code == 0)
        << "rank " << r << " exited with code " << exits[r].code << " (signal " << exits[r].signal << ")";
  }
}

}  // namespace ember_dist_test
