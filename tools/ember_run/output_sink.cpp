#include "output_sink.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

namespace ember_run {

OutputSink::OutputSink(UniqueFd pipe_read, std::string prefix, int console_fd, UniqueFd log_file)
    : pipe_(std::move(pipe_read)), prefix_(std::move(prefix)), console_fd_(console_fd), log_file_(std::move(log_file)) {
  ::fcntl(pipe_.get(), F_SETFL, ::fcntl(pipe_.get(), F_GETFL) | O_NONBLOCK);
}

void OutputSink::on_readable() {
  char chunk[65536];
  while (pipe_) {
    ssize_t n = ::read(pipe_.get(), chunk, sizeof(chunk));
    if (n > 0) {
      if (log_file_ && !write_all(log_file_.get(), chunk, static_cast<size_t>(n))) log_file_.reset();
      pending_.append(chunk, static_cast<size_t>(n));
      emit_complete_lines();
      if (n < static_cast<ssize_t>(sizeof(chunk))) return;
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
    finish();  // EOF or a read error: the worker's side is gone
  }
}

void OutputSink::finish() {
  if (pipe_) {
    char chunk[65536];
    ssize_t n;
    while ((n = ::read(pipe_.get(), chunk, sizeof(chunk))) > 0 || (n < 0 && errno == EINTR)) {
      if (n <= 0) continue;
      if (log_file_ && !write_all(log_file_.get(), chunk, static_cast<size_t>(n))) log_file_.reset();
      pending_.append(chunk, static_cast<size_t>(n));
      emit_complete_lines();
    }
    pipe_.reset();
  }
  if (!pending_.empty()) echo(pending_);
  pending_.clear();
  log_file_.reset();
}

void OutputSink::emit_complete_lines() {
  size_t start = 0;
  for (size_t nl; (nl = pending_.find('\n', start)) != std::string::npos; start = nl + 1)
    echo(pending_.substr(start, nl - start));
  pending_.erase(0, start);
  // A worker that never ends its line must not grow the launcher without bound.
  constexpr size_t kMaxPendingLine = 1 << 20;
  if (pending_.size() > kMaxPendingLine) {
    echo(pending_);
    pending_.clear();
  }
}

void OutputSink::echo(const std::string& line) {
  if (console_fd_ < 0) return;
  std::string out = prefix_ + line + "\n";
  if (!write_all(console_fd_, out.data(), out.size())) console_fd_ = -1;  // console gone: keep the job running
}

}  // namespace ember_run
