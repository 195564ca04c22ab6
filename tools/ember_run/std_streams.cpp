#include "std_streams.h"

#include <string>

#include "usage_error.h"

namespace ember_run {
namespace {

std::optional<Std> parse_value(std::string_view v) {
  if (v.size() != 1 || v[0] < '0' || v[0] > '3') return std::nullopt;
  return static_cast<Std>(v[0] - '0');
}

std::optional<int> parse_rank(std::string_view v) {
  if (v.empty() || v.size() > 6) return std::nullopt;
  int rank = 0;
  for (char c : v) {
    if (c < '0' || c > '9') return std::nullopt;
    rank = rank * 10 + (c - '0');
  }
  return rank;
}

}  // namespace

StdSpec parse_std_spec(std::string_view text, std::string_view option) {
  auto bad = [&] {
    return UsageError(std::string(option) + ": '" + std::string(text) +
                      "' is neither a value in 0..3 nor a map like 0:3,1:1 (local_rank:value)");
  };
  StdSpec spec;
  if (auto v = parse_value(text)) {
    spec.all_ranks = *v;
    return spec;
  }
  if (text.empty()) throw bad();
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t comma = text.find(',', pos);
    std::string_view item = text.substr(pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos);
    size_t colon = item.find(':');
    if (colon == std::string_view::npos) throw bad();
    auto rank = parse_rank(item.substr(0, colon));
    auto value = parse_value(item.substr(colon + 1));
    if (!rank || !value) throw bad();
    spec.per_rank[*rank] = *value;
    if (comma == std::string_view::npos) break;
    pos = comma + 1;
  }
  return spec;
}

std::vector<Std> to_map(const StdSpec& spec, int local_world_size) {
  std::vector<Std> out(static_cast<size_t>(local_world_size), spec.all_ranks.value_or(Std::NONE));
  if (!spec.all_ranks) {
    for (const auto& [rank, value] : spec.per_rank)
      if (rank < local_world_size) out[static_cast<size_t>(rank)] = value;
  }
  return out;
}

}  // namespace ember_run
