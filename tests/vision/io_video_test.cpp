// read_video / read_video_timestamps / VideoReader / write_video against torchvision 0.14 (its
// PyAV backend for read_video, its video_reader backend for VideoReader) on videos written by
// tools/golden/gen_vision_io_video.py.
#include <gtest/gtest.h>

#include <cstdio>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/vision/io/file.h"
#include "ember/vision/io/video.h"
#include "ember/vision/io/video_reader.h"

namespace torch::vision::io {
namespace {

std::string asset(const std::string& name) { return std::string(EMBER_GOLDEN_DIR) + "/vision/io/" + name; }

const ::torch::testing::Golden& video_golden() {
  static const ::torch::testing::Golden g("vision_io_video.golden");
  return g;
}

Tensor as_f64(const std::vector<double>& v) {
  Tensor t = empty({static_cast<int64_t>(v.size())}, kDouble);
  for (size_t i = 0; i < v.size(); ++i) t.data_ptr<double>()[i] = v[i];
  return t;
}

void expect_read_video(const std::string& name, const std::tuple<Tensor, Tensor, std::map<std::string, double>>& r,
                       bool tchw = false) {
  SCOPED_TRACE(name);
  const auto& g = video_golden();
  const auto& [video, audio, info] = r;
  Tensor thwc = tchw ? video.permute({0, 2, 3, 1}) : video;
  if (g.has(name + ".video")) EXPECT_TENSOR_EQ(video, g[name + ".video"]);
  EXPECT_TENSOR_EQ(tensor(std::vector<int64_t>(video.sizes().begin(), video.sizes().end())), g[name + ".video_shape"]);
  EXPECT_TENSOR_EQ(thwc.to(kInt64).flatten(1).sum(1), g[name + ".video_frame_sums"]);
  EXPECT_TENSOR_EQ(tensor(std::vector<int64_t>(audio.sizes().begin(), audio.sizes().end())), g[name + ".audio_shape"]);
  EXPECT_TENSOR_CLOSE_TOL(audio.to(kDouble).sum(), g[name + ".audio_sum"], 1e-9, 1e-9);
  EXPECT_TENSOR_EQ(audio.slice(1, 0, 16), g[name + ".audio_head"]);
  EXPECT_TENSOR_EQ(audio.slice(1, std::max<int64_t>(audio.size(1) - 16, 0), audio.size(1)), g[name + ".audio_tail"]);
  const Tensor expected_info = g[name + ".info"];
  const double video_fps = expected_info[0].item<double>(), audio_fps = expected_info[1].item<double>();
  EXPECT_EQ(info.count("video_fps"), video_fps >= 0 ? 1u : 0u);
  EXPECT_EQ(info.count("audio_fps"), audio_fps >= 0 ? 1u : 0u);
  if (video_fps >= 0) EXPECT_DOUBLE_EQ(info.at("video_fps"), video_fps);
  if (audio_fps >= 0) EXPECT_DOUBLE_EQ(info.at("audio_fps"), audio_fps);
}

TEST(ReadVideo, MatchesTorchvisionPyAvBackend) {
  const std::string av = asset("av.mp4"), h264 = asset("h264.mp4");
  expect_read_video("av.all_pts", read_video(av));
  expect_read_video("av.all_sec", read_video(av, 0, std::nullopt, "sec"));
  expect_read_video("av.sec_0.5_1.5", read_video(av, 0.5, 1.5, "sec"));
  expect_read_video("av.sec_0.3_1.0", read_video(av, 0.3, 1.0, "sec"));
  expect_read_video("av.sec_1.9_end", read_video(av, 1.9, std::nullopt, "sec"));
  expect_read_video("av.pts_2048_8192", read_video(av, 2048, 8192));
  expect_read_video("av.pts_3000_9000_tchw", read_video(av, 3000, 9000, "pts", "tchw"), /*tchw=*/true);
  expect_read_video("h264.all_sec", read_video(h264, 0, std::nullopt, "sec"));
  expect_read_video("h264.sec_0.25_0.55", read_video(h264, 0.25, 0.55, "sec"));
}

TEST(ReadVideo, Timestamps) {
  for (const char* name : {"av", "h264"}) {
    SCOPED_TRACE(name);
    const std::string path = asset(std::string(name) + ".mp4");
    const auto [pts, fps] = read_video_timestamps(path);
    EXPECT_TENSOR_EQ(as_f64(pts), video_golden()[std::string(name) + ".timestamps_pts"]);
    ASSERT_TRUE(fps.has_value());
    EXPECT_DOUBLE_EQ(*fps, video_golden()[std::string(name) + ".timestamps_fps"][0].item<double>());
    const auto [sec, fps2] = read_video_timestamps(path, "sec");
    EXPECT_TENSOR_CLOSE_TOL(as_f64(sec), video_golden()[std::string(name) + ".timestamps_sec"], 0, 1e-12);
  }
}

TEST(ReadVideo, BadInputRaises) {
  EXPECT_EMBER_ERROR(read_video(asset("no_such.mp4")), "read_video", "File not found");
  EXPECT_EMBER_ERROR(read_video(asset("bad_truncated.mp4")), "read_video");
  EXPECT_EMBER_ERROR(read_video(asset("bad_garbage.mp4")), "read_video");
  EXPECT_EMBER_ERROR(read_video(asset("av.mp4"), 0, std::nullopt, "pts", "NCHW"), "read_video", "output_format",
                     "NCHW");
  EXPECT_EMBER_ERROR(read_video(asset("av.mp4"), 2.0, 1.0, "sec"), "read_video", "end_pts");
  EXPECT_EMBER_ERROR(read_video(asset("av.mp4"), 0, std::nullopt, "ms"), "read_video", "pts_unit");
  EXPECT_EMBER_ERROR(read_video_timestamps(asset("bad_garbage.mp4")), "read_video_timestamps");
}

TEST(VideoReader, VideoFramesPtsAndMetadata) {
  const auto& g = video_golden();
  VideoReader reader(asset("av.mp4"), "video");
  std::vector<Tensor> frames;
  std::vector<double> pts;
  for (const VideoFrame& f : reader) {
    frames.push_back(f.data);
    pts.push_back(f.pts);
  }
  EXPECT_TENSOR_EQ(stack(frames), g["reader.av.video.data"]);
  EXPECT_TENSOR_EQ(as_f64(pts), g["reader.av.video.pts"]);
  EXPECT_EQ(reader.next().data.numel(), 0);
  const auto meta = reader.get_metadata();
  const Tensor mv = g["reader.av.meta.video"], ma = g["reader.av.meta.audio"];
  ASSERT_EQ(meta.at("video").at("duration").size(), 1u);
  EXPECT_NEAR(meta.at("video").at("duration")[0], mv[0].item<double>(), 1e-9);
  EXPECT_DOUBLE_EQ(meta.at("video").at("fps")[0], mv[1].item<double>());
  ASSERT_EQ(meta.at("audio").at("duration").size(), 1u);
  EXPECT_NEAR(meta.at("audio").at("duration")[0], ma[0].item<double>(), 1e-9);
  EXPECT_DOUBLE_EQ(meta.at("audio").at("framerate")[0], ma[1].item<double>());
  EXPECT_TRUE(meta.at("subtitles").at("duration").empty());
}

TEST(VideoReader, PreciseAndKeyframeSeek) {
  const auto& g = video_golden();
  for (auto [t, kf, key] : {std::tuple<double, bool, const char*>{1.1, false, "1.1_0"},
                            {1.0, false, "1.0_0"},
                            {1.1, true, "1.1_1"},
                            {0.0, false, "0.0_0"},
                            {0.5, false, "0.5_0"}}) {
    SCOPED_TRACE(key);
    VideoReader reader(asset("av.mp4"));
    const VideoFrame f = reader.seek(t, kf).next();
    const std::string prefix = std::string("reader.av.seek_") + key;
    EXPECT_DOUBLE_EQ(f.pts, g[prefix + ".pts"][0].item<double>());
    EXPECT_TENSOR_EQ(f.data, g[prefix + ".data"]);
    const VideoFrame second = reader.next();
    EXPECT_DOUBLE_EQ(second["pts"].item<double>(), g[prefix + ".next_pts"][0].item<double>());
    EXPECT_TRUE(second["data"].is_same(second.data));
  }
  // Seeking an exhausted reader restarts it (torchvision's crashes).
  VideoReader reader(asset("av.mp4"));
  while (reader.next().data.numel() > 0) {
  }
  EXPECT_DOUBLE_EQ(reader.seek(1.0).next().pts, 1.0);
}

TEST(VideoReader, AudioStream) {
  const auto& g = video_golden();
  VideoReader reader(asset("av.mp4"), "audio");
  std::vector<VideoFrame> frames(reader.begin(), reader.end());
  ASSERT_FALSE(frames.empty());
  EXPECT_TENSOR_EQ(frames.front().data, g["reader.av.audio.first"]);
  EXPECT_TENSOR_EQ(frames.back().data, g["reader.av.audio.last"]);
  std::vector<double> pts;
  for (const auto& f : frames) pts.push_back(f.pts);
  EXPECT_TENSOR_EQ(as_f64(pts), g["reader.av.audio.pts"]);
  // set_current_stream switches back to the video, from its start.
  EXPECT_TRUE(reader.set_current_stream("video:0"));
  EXPECT_EQ(reader.next().data.size(0), 3);
  EXPECT_FALSE(reader.set_current_stream("video:3"));
  EXPECT_FALSE(reader.set_current_stream("subtitle"));
}

TEST(VideoReader, H264WithBFramesMatchesReadVideo) {
  // torchvision's own VideoReader crashes on this file; its read_video is the reference.
  const auto& g = video_golden();
  VideoReader reader(asset("h264.mp4"));
  std::vector<Tensor> frames;
  std::vector<double> pts;
  for (const VideoFrame& f : reader) {
    frames.push_back(f.data);
    pts.push_back(f.pts);
  }
  EXPECT_TENSOR_EQ(stack(frames), g["h264.all_sec.video"].permute({0, 3, 1, 2}));
  EXPECT_TENSOR_CLOSE_TOL(as_f64(pts), g["h264.timestamps_sec"], 0, 1e-12);
}

TEST(VideoReader, BadInputRaises) {
  EXPECT_EMBER_ERROR(VideoReader(asset("no_such.mp4")), "VideoReader", "File not found");
  EXPECT_EMBER_ERROR(VideoReader(asset("bad_garbage.mp4")), "VideoReader");
  EXPECT_EMBER_ERROR(VideoReader(asset("h264.mp4"), "audio"), "VideoReader", "audio");
  EXPECT_EMBER_ERROR(VideoReader(asset("av.mp4"), "subtitles"), "VideoReader", "subtitles");
  EXPECT_EMBER_ERROR(VideoReader(asset("av.mp4"), "video", 0, "cuda"), "VideoReader", "cuda");
  VideoReader reader(asset("av.mp4"));
  EXPECT_EMBER_ERROR(reader.seek(std::numeric_limits<double>::infinity()), "seek");
}

TEST(WriteVideo, Mpeg4BytesEqualTorchvision) {
  const auto& g = video_golden();
  const std::string path = ::testing::TempDir() + "ember_write_video.mp4";
  write_video(path, g["write.clip"], 8.0, "mpeg4");
  EXPECT_TENSOR_EQ(read_file(path), g["write.mpeg4_bytes"]);
  auto [video, audio, info] = read_video(path, 0, std::nullopt, "sec");
  EXPECT_TENSOR_EQ(video, g["write.mpeg4_decoded"]);
  EXPECT_DOUBLE_EQ(info.at("video_fps"), 8.0);
  std::remove(path.c_str());
}

TEST(WriteVideo, X264BytesEqualTorchvision) {
  const auto& g = video_golden();
  const std::string path = ::testing::TempDir() + "ember_write_video_x264_tv.mp4";
  write_video(path, g["write.clip"], 8, "libx264", std::map<std::string, std::string>{{"threads", "1"}});
  EXPECT_TENSOR_EQ(read_file(path), g["write.x264_bytes"]);
  std::remove(path.c_str());
}

TEST(WriteVideo, X264WithAudioRoundTrips) {
  const Tensor clip = video_golden()["write.clip"];
  const std::string path = ::testing::TempDir() + "ember_write_video_x264.mp4";
  const int64_t n = 6 * 1000;  // 6 frames at 8 fps = 0.75 s of 8 kHz audio
  const Tensor t = arange(0, n).to(kFloat) / 8000.0;
  const Tensor audio = stack({(t * 2 * 3.14159265 * 440).sin() * 0.5, (t * 2 * 3.14159265 * 300).cos() * 0.5});
  write_video(path, clip, 8, "libx264", std::map<std::string, std::string>{{"crf", "0"}}, audio, 8000.0, "aac");
  auto [video, decoded_audio, info] = read_video(path, 0, std::nullopt, "sec");
  ASSERT_EQ(video.sizes(), clip.sizes());
  // crf 0 is lossless in YUV; the RGB <-> YUV 4:2:0 round trip is not.
  EXPECT_LT((video.to(kFloat) - clip.to(kFloat)).abs().mean().item<float>(), 12.0f);
  EXPECT_DOUBLE_EQ(info.at("video_fps"), 8.0);
  EXPECT_DOUBLE_EQ(info.at("audio_fps"), 8000.0);
  EXPECT_EQ(decoded_audio.size(0), 2);
  EXPECT_GT(decoded_audio.size(1), n / 2);
  std::remove(path.c_str());
}

TEST(WriteVideo, BadInputRaises) {
  const Tensor clip = video_golden()["write.clip"];
  const std::string path = ::testing::TempDir() + "ember_write_video_bad.mp4";
  EXPECT_EMBER_ERROR(write_video(path, clip[0], 8.0, "mpeg4"), "write_video", "[T, H, W, 3]");
  EXPECT_EMBER_ERROR(write_video(path, clip, 8.0, "no-such-codec"), "write_video", "no-such-codec");
  EXPECT_EMBER_ERROR(write_video(path, clip, 8.0, "aac"), "write_video", "aac");
  EXPECT_EMBER_ERROR(write_video(path, clip, 0.0, "mpeg4"), "write_video", "fps");
  EXPECT_EMBER_ERROR(write_video(path, clip, 8.0, "mpeg4", std::map<std::string, std::string>{{"nonsense", "1"}}),
                     "write_video", "nonsense");
  EXPECT_EMBER_ERROR(write_video(path + ".nosuchformat", clip, 8.0, "mpeg4"), "write_video");
  std::remove(path.c_str());
}

}  // namespace
}  // namespace torch::vision::io
