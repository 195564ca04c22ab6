// torchaudio.io.StreamReader on FFmpeg: chunks, formats, resampling, seek and
// buffer limits against torchaudio 0.13's StreamReader on the same files
// (tools/golden/gen_audio_io_stream.py).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/audio/io.h"
#include "ember/torch.h"

namespace {

using ember::Tensor;
using ember::audio::io::StreamReader;
using ember::testing::Golden;

std::string asset(const std::string& name) { return std::string(EMBER_GOLDEN_DIR) + "/audio/io/" + name; }

const Golden& golden() {
  static const Golden g("audio_io_stream.golden");
  return g;
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// Every chunk of every output stream, through stream() or process_all_packets().
std::vector<std::vector<Tensor>> drain(StreamReader& r, bool use_stream = true) {
  std::vector<std::vector<Tensor>> outs(r.num_out_streams());
  auto take = [&](const ember::audio::io::Chunks& chunks) {
    EXPECT_EQ(chunks.size(), outs.size());
    for (size_t k = 0; k < chunks.size(); ++k)
      if (chunks[k]) outs[k].push_back(*chunks[k]);
  };
  if (use_stream) {
    for (const auto& chunks : r.stream()) take(chunks);
  } else {
    r.process_all_packets();
    while (true) {
      auto chunks = r.pop_chunks();
      bool any = false;
      for (const auto& c : chunks) any = any || c.has_value();
      if (!any) break;
      take(chunks);
    }
  }
  return outs;
}

void expect_matches(const std::string& tag, const std::vector<std::vector<Tensor>>& outs, double atol) {
  for (size_t k = 0; k < outs.size(); ++k) {
    SCOPED_TRACE(tag + "." + std::to_string(k));
    Tensor sizes = golden()[tag + "." + std::to_string(k) + ".sizes"];
    Tensor want = golden()[tag + "." + std::to_string(k) + ".data"];
    ASSERT_EQ(static_cast<int64_t>(outs[k].size()), sizes.numel());
    for (size_t c = 0; c < outs[k].size(); ++c) EXPECT_EQ(outs[k][c].size(0), sizes[c].item<int64_t>());
    Tensor got = ember::cat(outs[k], 0);
    EXPECT_EQ(got.scalar_type(), want.scalar_type());
    if (atol == 0) {
      EXPECT_TENSOR_EQ(got, want);
    } else {
      EXPECT_TENSOR_CLOSE_TOL(got, want, 0, atol);
    }
  }
}

TEST(AudioIoStreamReader, SourceStreamInfo) {
  std::ifstream in(asset("stream_info.txt"));
  std::string line;
  int rows = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ls(line);
    std::string file, media, codec, format;
    int64_t bit_rate, num_frames, bps, rate, channels;
    ls >> file >> media >> codec >> format >> bit_rate >> num_frames >> bps >> rate >> channels;
    SCOPED_TRACE(file);
    StreamReader r(asset(file));
    EXPECT_EQ(r.num_src_streams(), 1);
    EXPECT_EQ(r.default_audio_stream(), 0);
    EXPECT_EQ(r.default_video_stream(), std::nullopt);
    auto i = r.get_src_stream_info(0);
    EXPECT_EQ(i.media_type, media);
    EXPECT_EQ(i.codec, codec);
    EXPECT_EQ(i.format, format);
    EXPECT_EQ(i.bit_rate, bit_rate);
    EXPECT_EQ(i.num_frames, num_frames);
    EXPECT_EQ(i.bits_per_sample, bps);
    EXPECT_EQ(i.sample_rate, rate);
    EXPECT_EQ(i.num_channels, channels);
    ++rows;
  }
  EXPECT_EQ(rows, 7);
}

TEST(AudioIoStreamReader, ChunksMatchTorchaudio) {
  {
    StreamReader r(asset("s16.wav"));
    r.add_basic_audio_stream(256);
    EXPECT_EQ(r.num_out_streams(), 1);
    EXPECT_EQ(r.get_out_stream_info(0).source_index, 0);
    EXPECT_EQ(r.get_out_stream_info(0).filter_description, "aformat=sample_fmts=fltp");
    expect_matches("wav_fltp_256", drain(r), 0);
  }
  {
    StreamReader r(asset("s16.wav"));
    r.add_basic_audio_stream(500, 3, std::nullopt, std::nullopt, std::nullopt, std::nullopt);
    expect_matches("wav_native_500", drain(r), 0);
  }
  {
    StreamReader r(asset("s24.flac"));
    r.add_basic_audio_stream(300, 3, std::nullopt, std::nullopt, std::nullopt, "s32");
    r.add_basic_audio_stream(-1, 3, std::nullopt, std::nullopt, std::nullopt, "dbl", 16000);
    EXPECT_EQ(r.get_out_stream_info(1).filter_description, "aresample=16000,aformat=sample_fmts=dbl");
    expect_matches("flac_two", drain(r), 0);
  }
  {
    StreamReader r(asset("a.mp3"));
    r.add_basic_audio_stream(1000, 3, std::nullopt, std::nullopt, std::nullopt, "fltp", 8000);
    expect_matches("mp3_8k", drain(r), 0);
  }
  {
    StreamReader r(asset("vorbis.ogg"));
    r.add_basic_audio_stream(400, 100, std::nullopt, std::nullopt, std::nullopt, "s16", 11025);
    expect_matches("ogg_s16_11k", drain(r), 0);
  }
}

TEST(AudioIoStreamReader, BufferLimitSeekAndBytes) {
  {
    StreamReader r(asset("s16.wav"));
    r.add_basic_audio_stream(100, 2);
    expect_matches("wav_drop", drain(r, false), 0);
  }
  {
    StreamReader r(asset("s16.wav"));
    r.add_basic_audio_stream(200);
    r.seek(0.05);
    expect_matches("wav_seek", drain(r), 0);
  }
  std::string bytes = read_bytes(asset("s16.flac"));
  {
    Tensor buf = ember::empty({static_cast<int64_t>(bytes.size())}, ember::kUInt8);
    std::memcpy(buf.data_ptr(), bytes.data(), bytes.size());
    StreamReader r(buf, std::nullopt, {}, 333);
    r.add_basic_audio_stream(512);
    expect_matches("flac_bytes", drain(r), 0);
  }
  {
    std::istringstream stream(bytes);
    StreamReader r(stream);
    r.add_basic_audio_stream(512);
    expect_matches("flac_bytes", drain(r), 0);
  }
}

TEST(AudioIoStreamReader, StepByStepAndRemove) {
  StreamReader r(asset("s16.wav"));
  r.add_basic_audio_stream(300, 20);
  r.add_basic_audio_stream(100, 20, 0, std::nullopt, std::nullopt, "s16");
  EXPECT_FALSE(r.is_buffer_ready());
  EXPECT_EQ(r.fill_buffer(), 0);
  EXPECT_TRUE(r.is_buffer_ready());
  auto chunks = r.pop_chunks();
  ASSERT_EQ(chunks.size(), 2u);
  ASSERT_TRUE(chunks[0].has_value() && chunks[1].has_value());
  EXPECT_EQ(chunks[0]->sizes(), (std::vector<int64_t>{300, 2}));
  EXPECT_EQ(chunks[1]->scalar_type(), ember::kShort);
  // Float output is the int16 samples over 32768.
  EXPECT_TENSOR_EQ(chunks[0]->narrow(0, 0, 100), chunks[1]->to(ember::kFloat) / 32768.0);
  r.remove_stream(1);
  EXPECT_EQ(r.num_out_streams(), 1);
  r.process_all_packets();
  EXPECT_EQ(r.process_packet(), 1);
}

TEST(AudioIoStreamReader, Errors) {
  EXPECT_EMBER_ERROR(StreamReader(asset("no_such.wav")), "StreamReader", "no_such.wav");
  EXPECT_EMBER_ERROR(StreamReader(asset("bad_noise.wav")), "StreamReader", "bad_noise.wav");
  EXPECT_EMBER_ERROR(StreamReader(asset("s16.wav"), "no_such_format"), "StreamReader", "no_such_format");
  EXPECT_EMBER_ERROR(StreamReader(ember::zeros({3, 3}, ember::kUInt8)), "StreamReader", "1-D uint8");
  EXPECT_EMBER_ERROR(StreamReader(ember::zeros({64}, ember::kUInt8)), "StreamReader", "byte buffer");
  StreamReader r(asset("s16.wav"));
  EXPECT_EMBER_ERROR(r.add_basic_audio_stream(0), "add_audio_stream", "frames_per_chunk", "0");
  EXPECT_EMBER_ERROR(r.add_basic_audio_stream(10, 0), "add_audio_stream", "buffer_chunk_size");
  EXPECT_EMBER_ERROR(r.add_basic_audio_stream(10, 3, 5), "add_audio_stream", "5", "out of range");
  EXPECT_EMBER_ERROR(r.add_basic_audio_stream(10, 3, std::nullopt, "no_such_decoder"), "add_audio_stream",
                     "no_such_decoder");
  EXPECT_EMBER_ERROR(r.add_basic_audio_stream(10, 3, std::nullopt, std::nullopt, std::nullopt, "s17"),
                     "add_audio_stream", "aformat=sample_fmts=s17");
  EXPECT_EMBER_ERROR(r.add_audio_stream(10, 3, std::nullopt, std::nullopt, std::nullopt, "no_such_filter=2"),
                     "add_audio_stream", "no_such_filter=2", "no such filter", "\"no_such_filter\"");
  EXPECT_EMBER_ERROR(r.stream(), "stream", "No output stream");
  EXPECT_EMBER_ERROR(r.get_src_stream_info(1), "get_src_stream_info", "1");
  EXPECT_EMBER_ERROR(r.get_out_stream_info(0), "get_out_stream_info", "0");
  EXPECT_EMBER_ERROR(r.seek(-1), "seek", "-1");
}

// Cut and truncated files decode what exists or raise; they never crash.
TEST(AudioIoStreamReader, HostileFiles) {
  for (const char* f : {"bad_truncated_s24.flac", "bad_truncated_vorbis.ogg", "bad_truncated_a.mp3",
                        "bad_truncated_a.opus", "bad_cut_s24.flac", "bad_datasize.wav", "bad_cut_header.wav"}) {
    SCOPED_TRACE(f);
    try {
      StreamReader r(asset(f));
      r.add_basic_audio_stream(128);
      for (const auto& chunks : r.stream()) ASSERT_EQ(chunks.size(), 1u);
    } catch (const ember::Error& e) {
      EXPECT_NE(std::string(e.what()).find("Stream"), std::string::npos) << e.what();
    }
  }
}

}  // namespace

namespace {

// Note [FFmpeg fallback]: a container libsndfile does not read goes through
// StreamReader, with torchaudio's results.
TEST(AudioIoFallback, LoadAndInfoMatchTorchaudio) {
  auto m = ember::audio::info(asset("aac.m4a"));
  Tensor want = golden()["fallback.info"];
  EXPECT_EQ(m.sample_rate, want[0].item<int64_t>());
  EXPECT_EQ(m.num_frames, want[1].item<int64_t>());
  EXPECT_EQ(m.num_channels, want[2].item<int64_t>());
  EXPECT_EQ(m.bits_per_sample, want[3].item<int64_t>());
  EXPECT_EQ(m.encoding, "AAC");
  auto [wave, rate] = ember::audio::load(asset("aac.m4a"));
  EXPECT_EQ(rate, 16000);
  EXPECT_TENSOR_CLOSE_TOL(wave, golden()["fallback.load"], 0, 1e-6);
  EXPECT_TENSOR_CLOSE_TOL(std::get<0>(ember::audio::load(asset("aac.m4a"), 100, 500, true, false)),
                          golden()["fallback.slice"], 0, 1e-6);
  // Bytes and streams fall back when `format` names the container.
  std::string bytes = read_bytes(asset("aac.m4a"));
  Tensor buf = ember::empty({static_cast<int64_t>(bytes.size())}, ember::kUInt8);
  std::memcpy(buf.data_ptr(), bytes.data(), bytes.size());
  EXPECT_TENSOR_CLOSE_TOL(std::get<0>(ember::audio::load(buf, 0, -1, true, true, "mp4")), golden()["fallback.load"], 0,
                          1e-6);
  std::istringstream stream(bytes);
  EXPECT_EQ(ember::audio::info(stream, "mp4").encoding, "AAC");
  // A damaged file libsndfile knows is not handed to FFmpeg's guessing.
  EXPECT_EMBER_ERROR(ember::audio::load(asset("bad_noise.wav")), "load", "failed to open");
}

}  // namespace

namespace {

TEST(AudioIoStreamReader, VideoMatchesTorchaudio) {
  StreamReader r(asset("video.mp4"));
  EXPECT_EQ(r.default_video_stream(), 0);
  EXPECT_EQ(r.default_audio_stream(), std::nullopt);
  auto i = r.get_src_stream_info(0);
  Tensor want = golden()["video.info"];
  EXPECT_EQ(i.media_type, "video");
  EXPECT_EQ(i.codec, "mpeg4");
  EXPECT_EQ(i.format, "yuv420p");
  EXPECT_EQ(i.width, want[0].item<int64_t>());
  EXPECT_EQ(i.height, want[1].item<int64_t>());
  EXPECT_EQ(i.frame_rate, want[2].item<int64_t>());
  EXPECT_EQ(i.num_frames, want[3].item<int64_t>());
  r.add_basic_video_stream(4);
  r.add_basic_video_stream(3, 3, std::nullopt, std::nullopt, std::nullopt, std::nullopt, "gray", std::nullopt, 24, 16);
  EXPECT_EQ(r.get_out_stream_info(1).filter_description, "scale=width=24:height=16,format=pix_fmts=gray");
  expect_matches("video", drain(r), 0);
  EXPECT_EMBER_ERROR(r.add_basic_video_stream(1, 3, std::nullopt, std::nullopt, std::nullopt, "cuda:0"),
                     "add_video_stream", "hw_accel");
  EXPECT_EMBER_ERROR(r.add_basic_video_stream(1, 3, std::nullopt, std::nullopt, std::nullopt, std::nullopt, "yuv422p"),
                     "add_video_stream", "yuv422p");
  EXPECT_EMBER_ERROR(StreamReader(asset("s16.wav")).add_basic_video_stream(1), "add_video_stream",
                     "There is no video stream");
}

}  // namespace
