#pragma once
// One stream (stdout or stderr) of one worker, read from its pipe: every line
// goes to the console as "[<role><local_rank>]:<line>" (torchrun's TailLog
// header) in a single write, so lines of different ranks never interleave
// mid-line, and, with --tee, also unchanged into the rank's log file.
#include <string>

#include "unique_fd.h"

namespace ember_run {

class OutputSink {
 public:
  // console_fd is 1 or 2 (not owned); log_file may be empty.
  OutputSink(UniqueFd pipe_read, std::string prefix, int console_fd, UniqueFd log_file);

  int fd() const { return pipe_.get(); }
  bool is_open() const { return static_cast<bool>(pipe_); }
  // Reads what the pipe holds now; closes the sink at EOF.
  void on_readable();
  // Reads until EOF without blocking past what is buffered, prints a last
  // unterminated line, and closes.
  void finish();

 private:
  void emit_complete_lines();
  void echo(const std::string& line);

  UniqueFd pipe_;
  std::string prefix_;
  int console_fd_;
  UniqueFd log_file_;
  std::string pending_;
};

}  // namespace ember_run
