// ember-run: Ember's torchrun. Parses torchrun's options, then hands the job
// to the elastic agent; see docs/launcher.md.
#include <csignal>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "elastic_agent.h"
#include "launch_options.h"
#include "signal_watch.h"
#include "unique_fd.h"
#include "usage_error.h"
#include "worker_process.h"

namespace {

void print_error(const std::string& msg) {
  std::string line = msg + "\n";
  ember_run::write_all(2, line.data(), line.size());
}

}  // namespace

int main(int argc, char** argv) {
  using namespace ember_run;
  // A closed console must not kill the launcher and orphan the workers.
  std::signal(SIGPIPE, SIG_IGN);
  try {
    ParsedCommandLine parsed = parse_command_line(std::vector<std::string>(argv + 1, argv + argc));
    if (parsed.show_help) {
      std::string text = usage_text();
      write_all(1, text.data(), text.size());
      return 0;
    }
    const LaunchOptions& o = parsed.options;
    auto program_path = resolve_program(o.program);
    if (!program_path) throw UsageError("cannot execute '" + o.program + "': not found or not executable");
    if (o.nproc_per_node > 1 && !std::getenv("OMP_NUM_THREADS"))
      print_error("ember-run: setting OMP_NUM_THREADS=1 for each worker (torchrun's default) so that " +
                  std::to_string(o.nproc_per_node) + " workers do not oversubscribe the machine; set it to tune");
    SignalWatch signals;
    return run_elastic_agent(o, *program_path, signals);
  } catch (const UsageError& e) {
    print_error(std::string("ember-run: error: ") + e.what());
    return 2;
  } catch (const std::exception& e) {
    print_error(e.what());
    return 1;
  }
}
