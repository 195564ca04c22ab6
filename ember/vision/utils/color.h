#pragma once
// A colour argument of the drawing utilities: a name PIL's ImageColor knows
// ("red", "#f0a", "#ff00aa") or an (r, g, b) tuple.
#include <array>
#include <optional>
#include <string>
#include <tuple>

namespace torch::vision::utils {

class Color {
 public:
  Color(std::string name) : name(std::move(name)) {}    // NOLINT: implicit
  Color(const char* name) : name(std::string(name)) {}  // NOLINT: implicit
  Color(std::tuple<int, int, int> rgb)                  // NOLINT: implicit
      : value{std::get<0>(rgb), std::get<1>(rgb), std::get<2>(rgb)} {}
  Color(int r, int g, int b) : value{r, g, b} {}
  // The (r, g, b) values; raises ember::Error for an unknown name.
  std::array<int, 3> rgb() const;

 private:
  std::optional<std::string> name;
  std::array<int, 3> value{};
};

}  // namespace torch::vision::utils
