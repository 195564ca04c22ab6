#pragma once
// golden/torchrun_reference.txt, written by gen_torchrun_reference.py from
// Debian's torchrun: "## <section>" headers, each followed by its lines.
#include <map>
#include <string>
#include <vector>

namespace ember_run_test {

// Throws std::runtime_error when the file or the section is missing.
const std::vector<std::string>& reference_section(const std::string& name);

// The same normalisation the generator applies: rank-ordered console lines of
// the workers ("[role<N>]:..."), and the failure summary with times, hosts and
// pids replaced by placeholders.
std::vector<std::string> worker_lines_by_rank(const std::string& text);
std::vector<std::string> normalized_summary(const std::string& err);

}  // namespace ember_run_test
