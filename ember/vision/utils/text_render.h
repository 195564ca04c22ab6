#pragma once
// Label text for the drawing utilities, rendered by FreeType as PIL's
// ImageFont.truetype does (Note [Label text]).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace torch::vision::utils::detail {

// The font used when a caller names none (fonts-dejavu-core's DejaVuSans).
inline constexpr const char* kDefaultFontPath = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf";

// An 8-bit coverage mask of a line of text; pixel (x, y) of the mask lands at
// (anchor_x + left + x, anchor_y + top + y), the anchor being the text's left
// edge on its ascender line (PIL's anchor "la").
struct TextMask {
  std::vector<uint8_t> coverage;  // height x width, row-major
  int64_t width = 0, height = 0;
  int64_t left = 0, top = 0;
};

// A TrueType/OpenType font opened by FreeType at `size` pixels per em (PIL's
// ImageFont.truetype(font, size)); owns its FreeType library and face.
class FontRenderer {
 public:
  // Raises, naming `op`, for a font FreeType cannot open or a size outside [1, 1000].
  FontRenderer(const std::string& font_path, int64_t size, const char* op);
  ~FontRenderer();
  FontRenderer(const FontRenderer&) = delete;
  FontRenderer& operator=(const FontRenderer&) = delete;
  // The mask of UTF-8 `text`; raises for bad UTF-8.
  TextMask render(const std::string& text) const;

 private:
  struct State;
  std::unique_ptr<State> state_;
  const char* op_;
};

}  // namespace torch::vision::utils::detail
