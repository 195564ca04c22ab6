#include "ember/vision/utils/save_image.h"

#include <algorithm>
#include <cctype>

#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/ops/all_ops.h"
#include "ember/vision/io/jpeg.h"
#include "ember/vision/io/png.h"
#include "ember/vision/utils/make_grid.h"

namespace torch::vision::utils {

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::string pick_format(const std::string& fp, const std::optional<std::string>& format) {
  if (format) return lower(*format);
  const auto dot = fp.rfind('.');
  EMBER_CHECK(dot != std::string::npos && fp.find('/', dot) == std::string::npos,
              "save_image: unknown file extension in '", fp, "'; pass format (\"png\" or \"jpeg\")");
  return lower(fp.substr(dot + 1));
}

void write_grid(const Tensor& grid, const std::string& fp, const std::optional<std::string>& format) {
  const std::string kind = pick_format(fp, format);
  EMBER_CHECK(kind == "png" || kind == "jpeg" || kind == "jpg", "save_image: format '", kind,
              "' is not supported (png, jpeg)");
  // torchvision: grid.mul(255).add_(0.5).clamp_(0, 255).to(torch.uint8) (truncation after +0.5).
  NoGradGuard no_grad;
  const Tensor pixels = grid.detach().to(kFloat32).mul(255).add(0.5).clamp(0, 255).to(kUInt8).contiguous();
  if (kind == "png")
    io::write_png(pixels, fp);
  else
    io::write_jpeg(pixels, fp);
}

}  // namespace

void save_image(const Tensor& tensor, const std::string& fp, const std::optional<std::string>& format, int64_t nrow,
                int64_t padding, bool normalize, std::optional<std::tuple<double, double>> value_range, bool scale_each,
                double pad_value) {
  write_grid(make_grid(tensor, nrow, padding, normalize, value_range, scale_each, pad_value), fp, format);
}

void save_image(const std::vector<Tensor>& tensors, const std::string& fp, const std::optional<std::string>& format,
                int64_t nrow, int64_t padding, bool normalize, std::optional<std::tuple<double, double>> value_range,
                bool scale_each, double pad_value) {
  write_grid(make_grid(tensors, nrow, padding, normalize, value_range, scale_each, pad_value), fp, format);
}

}  // namespace torch::vision::utils
