// Bad command lines fail before any worker starts, with status 2 and a
// message naming the option and the value.
#include <gtest/gtest.h>

#include "launcher_process.h"

namespace ember_run_test {
namespace {

struct BadCase {
  std::vector<std::string> args;
  std::string fragment;
};

TEST(LauncherOptions, BadValuesAreNamed) {
  const std::string w = worker("print_env.sh");
  const std::vector<BadCase> cases = {
      {{"--nproc-per-node", "0", w}, "--nproc-per-node: invalid value '0'"},
      {{"--nproc-per-node", "two", w}, "--nproc-per-node: invalid value 'two'"},
      {{"--nproc-per-node", "gpu", w}, "no GPU"},
      {{"--redirects", "5", w}, "--redirects: '5'"},
      {{"--tee", "0:9", w}, "--tee: '0:9'"},
      {{"--tee", "0:1,x", w}, "--tee: '0:1,x'"},
      {{"--nnodes", "1:2", w}, "--nnodes: invalid value '1:2'"},
      {{"--nnodes", "0", w}, "--nnodes: invalid value '0'"},
      {{"--nnodes", "2", "--node-rank", "2", w}, "--node-rank: invalid value '2'"},
      {{"--max-restarts", "-1", w}, "--max-restarts: invalid value '-1'"},
      {{"--monitor-interval", "0", w}, "--monitor-interval: invalid value '0'"},
      {{"--rdzv-endpoint", "nohost", w}, "--rdzv-endpoint: invalid value 'nohost'"},
      {{"--rdzv-endpoint", "host:70000", w}, "port must be in 1..65535"},
      {{"--master-port", "0", w}, "--master-port: invalid value '0'"},
      {{"--rdzv-backend", "etcd", w}, "--rdzv-backend: invalid value 'etcd'"},
      {{"--rdzv-backend", "c10d", "--nnodes", "2", w}, "c10d rendezvous is single-node"},
      {{"--rdzv-backend", "c10d", "--rdzv-endpoint", "localhost:x", w}, "--rdzv-endpoint: invalid value"},
      {{"--rdzv-conf", "timeout", w}, "--rdzv-conf"},
      {{"--standalone", "--nnodes", "2", w}, "--standalone runs a single node"},
      {{"--bogus", w}, "unrecognized option '--bogus'"},
      {{"--run-id", "a b", w}, "--rdzv-id: invalid value 'a b'"},
      {{"--rdzv-id", "x/y", w}, "--rdzv-id: invalid value 'x/y'"},
      {{"--nnodes", "100000", w}, "at most 65536 nodes"},
      {{"--standalone=1", w}, "--standalone takes no value"},
      {{"--nproc-per-node"}, "--nproc-per-node expects a value"},
      {{"--nproc-per-node", "2"}, "the program to launch is missing"},
      {{"/nonexistent/program"}, "cannot execute '/nonexistent/program'"},
      {{"no-such-program-on-path"}, "cannot execute 'no-such-program-on-path'"},
  };
  for (const auto& c : cases) {
    auto r = run_launcher(c.args);
    EXPECT_EQ(r.exit_code, 2) << c.fragment << "\n" << r.err;
    EXPECT_NE(r.err.find(c.fragment), std::string::npos) << "expected '" << c.fragment << "' in: " << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
}

TEST(LauncherOptions, HelpListsTorchrunsOptions) {
  auto r = run_launcher({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  for (const char* opt : {"--nproc-per-node", "--nnodes", "--node-rank", "--rdzv-endpoint", "--max-restarts",
                          "--monitor-interval", "--redirects", "--tee", "--log-dir", "--standalone", "--rdzv-id"})
    EXPECT_NE(r.out.find(opt), std::string::npos) << opt;
}

}  // namespace
}  // namespace ember_run_test
