// StreamReader's libavfilter graphs against torchaudio 0.13's StreamReader on
// the same files and descriptions (tools/golden/gen_audio_stream_filter.py).
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/audio/io/stream_reader.h"
#include "ember/torch.h"

namespace {

using ember::Tensor;
using ember::audio::io::StreamReader;
using ember::testing::Golden;

std::string asset(const std::string& name) { return std::string(EMBER_GOLDEN_DIR) + "/audio/io/" + name; }

const Golden& golden() {
  static const Golden g("audio_stream_filter.golden");
  return g;
}

void expect_matches(const std::string& tag, StreamReader& r, double atol) {
  std::vector<std::vector<Tensor>> outs(r.num_out_streams());
  for (const auto& chunks : r.stream()) {
    ASSERT_EQ(chunks.size(), outs.size());
    for (size_t k = 0; k < chunks.size(); ++k)
      if (chunks[k]) outs[k].push_back(*chunks[k]);
  }
  for (size_t k = 0; k < outs.size(); ++k) {
    SCOPED_TRACE(tag + "." + std::to_string(k));
    Tensor sizes = golden()[tag + "." + std::to_string(k) + ".sizes"];
    Tensor want = golden()[tag + "." + std::to_string(k) + ".data"];
    ASSERT_EQ(static_cast<int64_t>(outs[k].size()), sizes.numel());
    for (size_t c = 0; c < outs[k].size(); ++c) EXPECT_EQ(outs[k][c].size(0), sizes[c].item<int64_t>());
    Tensor got = ember::cat(outs[k], 0);
    ASSERT_EQ(got.scalar_type(), want.scalar_type());
    ASSERT_EQ(got.sizes(), want.sizes());
    if (atol == 0) {
      EXPECT_TENSOR_EQ(got, want);
    } else {
      EXPECT_TENSOR_CLOSE_TOL(got.to(ember::kDouble), want.to(ember::kDouble), 0, atol);
    }
  }
}

struct AudioCase {
  const char* tag;
  const char* file;
  int64_t frames_per_chunk;
  const char* desc;
};

TEST(AudioStreamReaderFilter, AudioGraphsMatchTorchaudio) {
  const AudioCase cases[] = {
      {"resample_fltp", "s16.wav", 256, "aresample=4000,aformat=sample_fmts=fltp"},
      {"atempo", "s16.wav", 300, "atempo=1.5"},
      {"lowpass", "s16.wav", 200, "lowpass=f=1000"},
      {"pan_mono", "s16.wav", 500, "pan=mono|c0=0.5*c0+0.5*c1"},
      {"volume_s16", "vorbis.ogg", 400, "volume=0.5,aformat=sample_fmts=s16"},
      {"mp3_chain", "a.mp3", 1000, "highpass=f=200,aresample=11025,aformat=sample_fmts=dbl"},
      {"flac_s32", "s24.flac", 333, "areverse"},
  };
  for (const auto& c : cases) {
    StreamReader r(asset(c.file));
    r.add_audio_stream(c.frames_per_chunk, 20, std::nullopt, std::nullopt, std::nullopt, std::string(c.desc));
    EXPECT_EQ(r.get_out_stream_info(0).filter_description, c.desc);
    // The same FFmpeg on both sides: bit for bit.
    expect_matches(c.tag, r, 0);
  }
}

TEST(AudioStreamReaderFilter, TwoGraphsOnOneSourceAndBasicStreams) {
  StreamReader r(asset("s16.wav"));
  r.add_audio_stream(128, 3, std::nullopt, std::nullopt, std::nullopt, std::string("aformat=sample_fmts=s16"));
  r.add_audio_stream(-1, 3, std::nullopt, std::nullopt, std::nullopt, std::string("aresample=16000,volume=2.0"));
  expect_matches("two", r, 0);

  StreamReader b(asset("a.mp3"));
  b.add_basic_audio_stream(700, 3, std::nullopt, std::nullopt, std::nullopt, std::string("s16"), 8000);
  EXPECT_EQ(b.get_out_stream_info(0).filter_description, "aresample=8000,aformat=sample_fmts=s16");
  expect_matches("basic_mp3", b, 0);
}

TEST(AudioStreamReaderFilter, VideoGraphsMatchTorchaudio) {
  {
    StreamReader r(asset("video.mp4"));
    r.add_video_stream(4, 20, std::nullopt, std::nullopt, std::nullopt, std::nullopt,
                       std::string("hflip,format=pix_fmts=rgb24"));
    expect_matches("hflip", r, 0);
  }
  {
    StreamReader r(asset("video.mp4"));
    r.add_video_stream(2, 20, std::nullopt, std::nullopt, std::nullopt, std::nullopt,
                       std::string("fps=5,scale=width=16:height=12,format=pix_fmts=gray"));
    expect_matches("fps_gray", r, 0);
  }
  for (const auto& [tag, fpc, desc] :
       {std::tuple<const char*, int64_t, const char*>{"yuv444p", 3, "format=pix_fmts=yuv444p"},
        {"nv12", 5, "vflip,format=pix_fmts=nv12"}}) {
    StreamReader r(asset("video.mp4"));
    r.add_video_stream(fpc, 20, std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::string(desc));
    expect_matches(tag, r, 0);
  }
  {
    StreamReader r(asset("video.mp4"));
    r.add_basic_video_stream(4, 3, std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::string("yuv420p"));
    expect_matches("basic_yuv420p", r, 0);
  }
  {
    StreamReader r(asset("video.mp4"));
    r.add_basic_video_stream(3, 3, std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::string("bgr24"), 4.0,
                             20, 10);
    expect_matches("basic_video", r, 0);
  }
}

TEST(AudioStreamReaderFilter, SeekRestartsTheGraph) {
  // A stateful filter after a seek: the same samples as a fresh reader seeking first.
  auto read = [](bool warm) {
    StreamReader r(asset("s16.wav"));
    r.add_audio_stream(100, 50, std::nullopt, std::nullopt, std::nullopt, std::string("lowpass=f=500"));
    if (warm) {
      r.process_packet();
      (void)r.pop_chunks();
    }
    r.seek(0.05);
    std::vector<Tensor> parts;
    for (const auto& chunks : r.stream()) parts.push_back(*chunks[0]);
    return ember::cat(parts, 0);
  };
  EXPECT_TENSOR_EQ(read(true), read(false));
}

TEST(AudioStreamReaderFilter, BadGraphsRaiseNamingTheFilter) {
  StreamReader r(asset("s16.wav"));
  auto add = [&](const std::string& desc) {
    r.add_audio_stream(10, 3, std::nullopt, std::nullopt, std::nullopt, desc);
  };
  EXPECT_EMBER_ERROR(add("no_such_filter"), "add_audio_stream", "no_such_filter", "no such filter",
                     "\"no_such_filter\"");
  EXPECT_EMBER_ERROR(add("volume=abc"), "add_audio_stream", "volume=abc");
  EXPECT_EMBER_ERROR(add("aresample=8000,"), "add_audio_stream", "aresample=8000,");
  EXPECT_EMBER_ERROR(add("hflip"), "add_audio_stream", "hflip");  // a video filter on audio
  EXPECT_EQ(r.num_out_streams(), 0);
  StreamReader v(asset("video.mp4"));
  EXPECT_EMBER_ERROR(
      v.add_video_stream(1, 3, std::nullopt, std::nullopt, std::nullopt, std::nullopt, std::string("scale=w=foo")),
      "add_video_stream", "scale=w=foo");
  EXPECT_EMBER_ERROR(v.add_video_stream(1, 3, std::nullopt, std::nullopt, std::nullopt, std::nullopt,
                                        std::string("format=pix_fmts=yuv422p")),
                     "add_video_stream", "yuv422p");
  EXPECT_EQ(v.num_out_streams(), 0);
}

}  // namespace
