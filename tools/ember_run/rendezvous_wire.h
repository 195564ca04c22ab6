#pragma once
// The pieces both sides of the multi-node rendezvous use: deadlines that
// still watch for Ctrl-C, one bounded text line per message, and the sockets.
// Internal to the launcher (namespace ember_run::rdzv).
#include <chrono>
#include <stdexcept>
#include <string>

#include "launch_options.h"
#include "unique_fd.h"

namespace ember_run::rdzv {

using Clock = std::chrono::steady_clock;

// A rendezvous message is one short text line; anything longer is not ours.
constexpr size_t kMaxLine = 512;
constexpr const char* kHello = "ember-run-rdzv-1";

std::runtime_error rdzv_error(const std::string& what);
std::string seconds_text(double s);
std::string endpoint_text(const Endpoint& ep);
Clock::time_point deadline_after(double seconds);
// Milliseconds to the deadline, at most 200, so waits stay responsive.
int ms_until(Clock::time_point deadline);

// Throws RendezvousInterrupted on SIGINT/SIGTERM; other signals are dropped
// (no workers exist while a rendezvous runs).
void poll_signals(int signal_fd, short revents);
// Waits until `fd` has `events` or the deadline passes, watching signals.
bool wait_for(int fd, short events, int signal_fd, Clock::time_point deadline);

struct LineReader {
  std::string buffer;
  // Reads what is there; returns true once a full line is buffered. Throws
  // std::runtime_error on an over-long line; `eof` is set when the peer closed.
  bool read_some(int fd, bool& eof);
  std::string line() const { return buffer.substr(0, buffer.find('\n')); }
};

// An empty UniqueFd when nothing accepts; throws when the host cannot be resolved.
UniqueFd connect_once(const Endpoint& ep);
void send_line(int fd, const std::string& line);
// Every interface, SO_REUSEADDR; throws naming the port when it is in use.
UniqueFd listen_on(int port);

}  // namespace ember_run::rdzv
