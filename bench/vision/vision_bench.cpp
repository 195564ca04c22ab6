// ember::vision's speed items, timed in one process: writes its inputs to a
// directory (argv[1]) so bench_torchvision.py times torchvision on the same
// bytes, then prints "<case> <milliseconds>" lines (the median of the runs).
//   vision_bench <dir> <threads>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ember/core/parallel.h"
#include "ember/ops/all_ops.h"
#include "ember/vision/io/file.h"
#include "ember/vision/io/jpeg.h"
#include "ember/vision/ops/boxes.h"
#include "ember/vision/ops/roi_align.h"
#include "ember/vision/transforms/functional.h"

#ifdef EMBER_BENCH_HAVE_TURBOJPEG
#include <turbojpeg.h>
#endif

namespace {

using namespace torch;
namespace io = torch::vision::io;
namespace F = torch::vision::transforms::functional;

double median_ms(const std::function<void()>& fn, int reps) {
  fn();  // warm-up
  std::vector<double> t;
  for (int i = 0; i < reps; ++i) {
    const auto a = std::chrono::steady_clock::now();
    fn();
    t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - a).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

void write_raw(const std::string& path, const Tensor& t) {
  const Tensor c = t.contiguous();
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) {
    std::perror(path.c_str());
    std::exit(1);
  }
  std::fwrite(c.data_ptr(), c.element_size(), static_cast<size_t>(c.numel()), f);
  std::fclose(f);
}

// A photo-like 1920x1080 frame: smooth gradients, edges and some noise.
Tensor test_frame() {
  const Tensor y = arange(1080, kFloat).view({1, 1080, 1}), x = arange(1920, kFloat).view({1, 1, 1920});
  const Tensor c = arange(3, kFloat).view({3, 1, 1});
  Tensor img = 128 + 60 * sin(x / 97.0 + c) * cos(y / 61.0 - c) + 40 * ((x + y).remainder(400.0) > 200.0).to(kFloat);
  img = img + 12 * randn({3, 1080, 1920});
  return img.clamp(0, 255).round().to(kByte);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: vision_bench <dir> <threads>\n");
    return 2;
  }
  const std::string dir = argv[1];
  const int threads = std::atoi(argv[2]);
  torch::set_num_threads(threads);
  manual_seed(0);

  // ---- JPEG decode ----
  const Tensor frame = test_frame();
  const Tensor jpeg = io::encode_jpeg(frame, 90);
  io::write_file(dir + "/frame.jpg", jpeg);
  auto ember_decode = [&] { io::decode_jpeg(jpeg); };
#ifdef EMBER_BENCH_HAVE_TURBOJPEG
  {
    // Alternate the two decoders run by run, so the machine's drift hits both alike.
    tjhandle h = tjInitDecompress();
    std::vector<unsigned char> out(1920 * 1080 * 3);
    const auto* src = jpeg.data_ptr<uint8_t>();
    const auto n = static_cast<unsigned long>(jpeg.numel());
    auto tj_decode = [&] {
      if (tjDecompress2(h, src, n, out.data(), 1920, 0, 1080, TJPF_RGB, 0) != 0) std::abort();
    };
    // tjDecompress2 into a fresh buffer per call, as a decoder returning a new tensor must.
    auto tj_decode_alloc = [&] {
      std::unique_ptr<unsigned char[]> fresh(new unsigned char[1920 * 1080 * 3]);
      if (tjDecompress2(h, src, n, fresh.get(), 1920, 0, 1080, TJPF_RGB, 0) != 0) std::abort();
    };
    std::vector<double> te, tt, ta;
    for (int i = 0; i < 21; ++i) {
      te.push_back(median_ms(ember_decode, 1));
      tt.push_back(median_ms(tj_decode, 1));
      ta.push_back(median_ms(tj_decode_alloc, 1));
    }
    std::sort(te.begin(), te.end());
    std::sort(tt.begin(), tt.end());
    std::sort(ta.begin(), ta.end());
    std::printf("jpeg_decode_1080p.tjDecompress2_fresh_buffer %.4f\n", ta[ta.size() / 2]);
    std::printf("jpeg_decode_1080p %.4f\n", te[te.size() / 2]);
    std::printf("jpeg_decode_1080p.tjDecompress2 %.4f\n", tt[tt.size() / 2]);
    tjDestroy(h);
  }
#else
  std::printf("jpeg_decode_1080p %.4f\n", median_ms(ember_decode, 15));
#endif

  // ---- resize, bilinear + antialias ----
  std::printf(
      "resize_1080p_u8_to_224 %.4f\n",
      median_ms([&] { F::resize(frame, {224}, vision::transforms::InterpolationMode::BILINEAR, std::nullopt, true); },
                15));
  const Tensor batch = rand({64, 3, 256, 256});
  write_raw(dir + "/batch.f32", batch);
  std::printf(
      "resize_batch64_f32_256_to_224 %.4f\n",
      median_ms([&] { F::resize(batch, {224}, vision::transforms::InterpolationMode::BILINEAR, std::nullopt, true); },
                7));

  // ---- nms, roi_align ----
  const Tensor xy = rand({10000, 2}) * 900, wh = rand({10000, 2}) * 100 + 1;
  const Tensor boxes = cat({xy, xy + wh}, 1);
  const Tensor scores = rand({10000});
  write_raw(dir + "/nms_boxes.f32", boxes);
  write_raw(dir + "/nms_scores.f32", scores);
  std::printf("nms_10000 %.4f\n", median_ms([&] { vision::ops::nms(boxes, scores, 0.5); }, 15));
  const Tensor feat = rand({2, 256, 50, 50});
  const Tensor rxy = rand({1000, 2}) * 40, rwh = rand({1000, 2}) * 20 + 1;
  const Tensor rois = cat({randint(0, 2, {1000, 1}).to(kFloat), rxy, rxy + rwh}, 1);
  write_raw(dir + "/roi_feat.f32", feat);
  write_raw(dir + "/roi_boxes.f32", rois);
  std::printf("roi_align_1000 %.4f\n", median_ms([&] { vision::ops::roi_align(feat, rois, {7, 7}, 1.0, 2, true); }, 9));
  return 0;
}
