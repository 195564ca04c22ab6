// Note [Label text]: torchvision draws box labels with PIL, which lays a line out
// with FreeType (hinted glyphs, FT_LOAD_DEFAULT), pastes each glyph's 8-bit
// coverage into one mask keeping the larger value where glyphs overlap, and
// blends the ink through that mask. Pen positions are 26.6 fixed point, rounded
// up to whole pixels (PIL's PIXEL()); the anchor is the left edge on the ascender
// line (PIL's default "la"). Text without kerned pairs comes out as PIL's pixels.
// PIL shapes with libraqm/HarfBuzz where it is installed (Debian's is), kerning
// from the font's GPOS table; Ember applies FreeType's own kerning (the 'kern'
// table), as PIL's Layout.BASIC does, so after a kerned pair a glyph may sit a
// pixel apart from torchvision's (tests/vision/utils_draw_test.cpp bounds it).
#include "ember/vision/utils/text_render.h"

#include <ft2build.h>
#include FT_FREETYPE_H

#include <algorithm>
#include <limits>

#include "ember/core/error.h"

namespace torch::vision::utils::detail {

namespace {

struct LibraryDeleter {
  void operator()(FT_Library library) const { FT_Done_FreeType(library); }
};
struct FaceDeleter {
  void operator()(FT_Face face) const { FT_Done_Face(face); }
};

int64_t pixel_ceil(FT_Pos v) { return (static_cast<int64_t>(v) + 63) >> 6; }

// The code points of UTF-8 text; raises on a malformed sequence.
std::vector<char32_t> decode_utf8(const std::string& s, const char* op) {
  std::vector<char32_t> out;
  for (size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    const int extra = b < 0x80 ? 0 : (b >> 5) == 0x6 ? 1 : (b >> 4) == 0xE ? 2 : (b >> 3) == 0x1E ? 3 : -1;
    EMBER_CHECK(extra >= 0 && i + static_cast<size_t>(extra) < s.size(), op, ": label text is not valid UTF-8 (byte ",
                i, ")");
    char32_t c = extra == 0 ? b : b & (0x3F >> extra);
    for (int k = 1; k <= extra; ++k) {
      const auto cont = static_cast<unsigned char>(s[i + k]);
      EMBER_CHECK((cont >> 6) == 0x2, op, ": label text is not valid UTF-8 (byte ", i + k, ")");
      c = (c << 6) | (cont & 0x3F);
    }
    out.push_back(c);
    i += static_cast<size_t>(extra) + 1;
  }
  return out;
}

struct Glyph {
  int64_t x, y, width, height;
  std::vector<uint8_t> pixels;
};

// The glyph slot's bitmap as 8-bit coverage rows (gray as is, 1-bit strikes as 0/255).
std::vector<uint8_t> coverage_of(const FT_Bitmap& bm, const char* op) {
  EMBER_CHECK(bm.pixel_mode == FT_PIXEL_MODE_GRAY || bm.pixel_mode == FT_PIXEL_MODE_MONO, op,
              ": FreeType produced an unsupported glyph bitmap (pixel mode ", static_cast<int>(bm.pixel_mode), ")");
  std::vector<uint8_t> out(static_cast<size_t>(bm.width) * bm.rows);
  for (unsigned y = 0; y < bm.rows; ++y) {
    const unsigned char* row = bm.buffer + static_cast<std::ptrdiff_t>(y) * bm.pitch;
    for (unsigned x = 0; x < bm.width; ++x)
      out[static_cast<size_t>(y) * bm.width + x] =
          bm.pixel_mode == FT_PIXEL_MODE_GRAY ? row[x] : ((row[x >> 3] >> (7 - (x & 7))) & 1 ? 255 : 0);
  }
  return out;
}

}  // namespace

struct FontRenderer::State {
  std::unique_ptr<FT_LibraryRec_, LibraryDeleter> library;
  std::unique_ptr<FT_FaceRec_, FaceDeleter> face;
};

FontRenderer::FontRenderer(const std::string& font_path, int64_t size, const char* op)
    : state_(std::make_unique<State>()), op_(op) {
  EMBER_CHECK(size >= 1 && size <= 1000, op, ": font_size must be in [1, 1000], got ", size);
  FT_Library library = nullptr;
  EMBER_CHECK(FT_Init_FreeType(&library) == 0, op, ": FreeType failed to initialise");
  state_->library.reset(library);
  FT_Face face = nullptr;
  EMBER_CHECK(FT_New_Face(library, font_path.c_str(), 0, &face) == 0, op, ": cannot open font '", font_path,
              "' (FreeType reads TrueType/OpenType files)");
  state_->face.reset(face);
  EMBER_CHECK(FT_Set_Pixel_Sizes(face, 0, static_cast<FT_UInt>(size)) == 0, op, ": font '", font_path, "' has no size ",
              size);
}

FontRenderer::~FontRenderer() = default;

TextMask FontRenderer::render(const std::string& text) const {
  FT_Face face = state_->face.get();
  const int64_t ascender = pixel_ceil(face->size->metrics.ascender);
  std::vector<Glyph> glyphs;
  FT_Pos pen = 0;
  FT_UInt previous = 0;
  for (char32_t c : decode_utf8(text, op_)) {
    const FT_UInt index = FT_Get_Char_Index(face, c);
    if (previous != 0 && index != 0 && FT_HAS_KERNING(face)) {
      FT_Vector kern{0, 0};
      if (FT_Get_Kerning(face, previous, index, FT_KERNING_DEFAULT, &kern) == 0) pen += kern.x;
    }
    EMBER_CHECK(
        FT_Load_Glyph(face, index, FT_LOAD_DEFAULT) == 0 && FT_Render_Glyph(face->glyph, FT_RENDER_MODE_NORMAL) == 0,
        op_, ": FreeType cannot render code point ", static_cast<uint32_t>(c));
    const FT_GlyphSlot slot = face->glyph;
    glyphs.push_back({pixel_ceil(pen) + slot->bitmap_left, ascender - slot->bitmap_top,
                      static_cast<int64_t>(slot->bitmap.width), static_cast<int64_t>(slot->bitmap.rows),
                      coverage_of(slot->bitmap, op_)});
    pen += slot->advance.x;
    previous = index;
  }
  TextMask mask;
  int64_t x0 = std::numeric_limits<int64_t>::max(), y0 = x0, x1 = std::numeric_limits<int64_t>::min(), y1 = x1;
  for (const Glyph& g : glyphs) {
    if (g.width == 0 || g.height == 0) continue;
    x0 = std::min(x0, g.x), y0 = std::min(y0, g.y);
    x1 = std::max(x1, g.x + g.width), y1 = std::max(y1, g.y + g.height);
  }
  if (x0 >= x1 || y0 >= y1) return mask;
  // A long label at a large size could ask for more than any image holds.
  EMBER_CHECK((x1 - x0) <= (int64_t{1} << 20) && (x1 - x0) * (y1 - y0) <= (int64_t{1} << 28), op_, ": label text of ",
              x1 - x0, "x", y1 - y0, " pixels is too large");
  mask.left = x0, mask.top = y0, mask.width = x1 - x0, mask.height = y1 - y0;
  mask.coverage.assign(static_cast<size_t>(mask.width * mask.height), 0);
  for (const Glyph& g : glyphs)
    for (int64_t y = 0; y < g.height; ++y)
      for (int64_t x = 0; x < g.width; ++x) {
        uint8_t& dst = mask.coverage[static_cast<size_t>((g.y - y0 + y) * mask.width + (g.x - x0 + x))];
        dst = std::max(dst, g.pixels[static_cast<size_t>(y * g.width + x)]);
      }
  return mask;
}

}  // namespace torch::vision::utils::detail
