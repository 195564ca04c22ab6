#pragma once
// torchrun's Std flags for --redirects/--tee: "3" applies to every local rank,
// "0:3,1:1" names some local ranks (the others get NONE).
#include <map>
#include <optional>
#include <string_view>
#include <vector>

namespace ember_run {

enum class Std : unsigned { NONE = 0, OUT = 1, ERR = 2, ALL = 3 };

inline Std operator|(Std a, Std b) { return static_cast<Std>(static_cast<unsigned>(a) | static_cast<unsigned>(b)); }
inline bool has(Std set, Std flag) { return (static_cast<unsigned>(set) & static_cast<unsigned>(flag)) != 0; }

struct StdSpec {
  std::optional<Std> all_ranks;  // set for the single-value form
  std::map<int, Std> per_rank;   // the mapping form
};

// `option` names the flag in the error message ("--tee").
StdSpec parse_std_spec(std::string_view text, std::string_view option);

// One entry per local rank, as torchrun's to_map.
std::vector<Std> to_map(const StdSpec& spec, int local_world_size);

}  // namespace ember_run
