#include "worker_group.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>

#include <cerrno>
#include <system_error>

#include "signal_watch.h"
#include "std_streams.h"
#include "worker_env.h"

namespace ember_run {
namespace {

using Clock = std::chrono::steady_clock;

UniqueFd open_log(const std::string& path) {
  UniqueFd fd(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644));
  if (!fd) throw std::system_error(errno, std::generic_category(), "ember-run: cannot create " + path);
  return fd;
}

bool file_exists(const std::string& path) {
  struct stat st;
  return !path.empty() && ::stat(path.c_str(), &st) == 0;
}

}  // namespace

WorkerGroup::WorkerGroup(const LaunchOptions& o, const std::string& program_path, const RendezvousResult& rdzv,
                         int restart_count, const std::string& attempt_dir, const sigset_t& worker_mask) {
  const std::vector<Std> redirects = to_map(o.redirects, o.nproc_per_node);
  const std::vector<Std> tees = to_map(o.tee, o.nproc_per_node);
  workers_.reserve(static_cast<size_t>(o.nproc_per_node));
  for (int lr = 0; lr < o.nproc_per_node; ++lr) {
    const std::string rank_dir = attempt_dir.empty() ? "" : attempt_dir + "/" + std::to_string(lr);
    const std::string prefix = "[" + o.role + std::to_string(lr) + "]:";
    // Tee is a redirect that is also echoed (torchrun: redirect | tee, then tail the file).
    const Std tee = tees[static_cast<size_t>(lr)];
    const Std logged = redirects[static_cast<size_t>(lr)] | tee;
    UniqueFd child_fds[2];
    for (int stream = 0; stream < 2; ++stream) {
      const Std flag = stream == 0 ? Std::OUT : Std::ERR;
      const std::string log_path = rank_dir + (stream == 0 ? "/stdout.log" : "/stderr.log");
      if (has(logged, flag) && !has(tee, flag)) {
        child_fds[stream] = open_log(log_path);  // redirect only: the worker writes the file itself
        continue;
      }
      Pipe pipe = make_pipe();
      UniqueFd log = has(tee, flag) ? open_log(log_path) : UniqueFd();
      sinks_.push_back(
          std::make_unique<OutputSink>(std::move(pipe.read_end), prefix, stream == 0 ? 1 : 2, std::move(log)));
      child_fds[stream] = std::move(pipe.write_end);
    }
    WorkerIdentity id;
    id.local_rank = lr;
    id.restart_count = restart_count;
    if (!rank_dir.empty()) id.error_file = rank_dir + "/error.json";
    SpawnSpec spec;
    spec.path = program_path;
    spec.argv.push_back(o.program);
    for (const auto& arg : o.program_args) spec.argv.push_back(substitute_local_rank(arg, lr));
    spec.env = worker_environment(o, rdzv, id);
    spec.stdout_fd = child_fds[0].get();
    spec.stderr_fd = child_fds[1].get();
    spec.signal_mask = &worker_mask;
    workers_.push_back(Worker{lr, rdzv.rank_offset + lr, id.error_file.value_or(""), WorkerProcess::spawn(spec)});
    // child_fds close here: the worker holds the only write ends, so EOF means it is gone.
  }
}

WorkerGroup::~WorkerGroup() = default;  // ~WorkerProcess kills and reaps what is left

void WorkerGroup::observe_exits() {
  for (auto& w : workers_) {
    if (w.process.exited() || !w.process.poll_exit()) continue;
    if (stopped_ || w.process.exitcode() == 0) continue;
    WorkerFailure f;
    f.local_rank = w.local_rank;
    f.global_rank = w.global_rank;
    f.pid = w.process.pid();
    f.exitcode = w.process.exitcode();
    f.time = w.process.exit_time();
    f.error_file = file_exists(w.error_file) ? w.error_file : "<N/A>";
    failures_.push_back(f);
  }
}

std::optional<int> WorkerGroup::wait_events(std::chrono::milliseconds timeout, int signal_fd) {
  std::vector<pollfd> fds;
  std::vector<OutputSink*> polled;
  if (signal_fd >= 0) fds.push_back({signal_fd, POLLIN, 0});
  for (auto& sink : sinks_) {
    if (!sink->is_open()) continue;
    fds.push_back({sink->fd(), POLLIN, 0});
    polled.push_back(sink.get());
  }
  int n = ::poll(fds.data(), fds.size(), static_cast<int>(std::max<long long>(0, timeout.count())));
  if (n < 0 && errno != EINTR) throw std::system_error(errno, std::generic_category(), "ember-run: poll");
  std::optional<int> termination;
  if (n > 0) {
    size_t first_sink = signal_fd >= 0 ? 1 : 0;
    if (signal_fd >= 0 && (fds[0].revents & POLLIN)) {
      for (int sig : drain_signals(signal_fd))
        if (is_termination_signal(sig) && !termination) termination = sig;
    }
    for (size_t i = 0; i < polled.size(); ++i)
      if (fds[first_sink + i].revents) polled[i]->on_readable();
  }
  observe_exits();
  return termination;
}

bool WorkerGroup::all_exited() const {
  for (const auto& w : workers_)
    if (!w.process.exited()) return false;
  return true;
}

GroupState WorkerGroup::state() {
  observe_exits();
  if (!failures_.empty()) return GroupState::FAILED;
  return all_exited() ? GroupState::SUCCEEDED : GroupState::HEALTHY;
}

std::optional<int> WorkerGroup::stop(int sig, std::chrono::duration<double> grace, int signal_fd) {
  observe_exits();
  stopped_ = true;  // exits caused by stopping are not failures (torchrun records them before close)
  for (auto& w : workers_)
    if (!w.process.exited()) w.process.signal_group(sig);
  auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(grace);
  std::optional<int> interrupted;
  while (!all_exited() && Clock::now() < deadline) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    interrupted = wait_events(std::min(left, std::chrono::milliseconds(50)), signal_fd);
    if (interrupted) break;  // asked (again) to stop: no more grace
  }
  for (auto& w : workers_) {
    if (!w.process.exited()) w.process.signal_group(SIGKILL);
    w.process.reap();
  }
  drain_output(std::chrono::milliseconds(500));
  return interrupted;
}

void WorkerGroup::drain_output(std::chrono::milliseconds limit) {
  // Workers are gone, so their pipes reach EOF at once unless something they
  // started still holds them; never wait on such a straggler for long.
  auto deadline = Clock::now() + limit;
  while (Clock::now() < deadline) {
    bool any_open = false;
    for (auto& sink : sinks_) any_open = any_open || sink->is_open();
    if (!any_open) break;
    wait_events(std::chrono::milliseconds(20), -1);
  }
  for (auto& sink : sinks_) sink->finish();
}

}  // namespace ember_run
