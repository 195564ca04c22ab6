// Peak memory of the readers on the worst inputs we can construct: allocation
// must follow the bytes actually present, never what a header claims. Each
// case runs in a forked child, which reports how far its peak RSS rose above
// its RSS at the fork (Linux starts a child's peak at its current RSS).
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include "common/test_util.h"
#include "ember/data/datasets/mnist.h"
#include "ember/serialize/pickle_reader.h"
#include "ember/serialize/pt_reader.h"
#include "ember/serialize/safetensors.h"
#include "serialize_test_util.h"

namespace torch::serialize {
namespace {

using namespace std::string_view_literals;
using ember::testing::nested_dicts_sharing_one_key;
using ember::testing::ScratchDir;

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAsan = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAsan = true;
#else
constexpr bool kAsan = false;
#endif
#else
constexpr bool kAsan = false;
#endif

// Megabytes of slack on top of each case's own bound: the allocator's caches,
// and under AddressSanitizer its redzones and the quarantine of freed blocks.
constexpr int64_t kSlackMb = kAsan ? 320 : 24;

int64_t current_rss_kb() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (f == nullptr) return 0;
  long pages = 0, resident = 0;
  const int got = std::fscanf(f, "%ld %ld", &pages, &resident);
  std::fclose(f);
  return got == 2 ? resident * (sysconf(_SC_PAGESIZE) / 1024) : 0;
}

// Runs `load` in a child; returns how many MiB its peak RSS grew, or -1 when it
// threw something other than ember::Error (or crashed).
int64_t peak_growth_mb(const std::function<void()>& load) {
  int fds[2];
  if (::pipe(fds) != 0) return -1;
  const pid_t child = ::fork();
  if (child == 0) {
    ::close(fds[0]);
    const int64_t start = current_rss_kb();
    int64_t growth = -1;
    try {
      load();
      growth = 0;
    } catch (const Error&) {
      growth = 0;
    } catch (...) {
    }
    if (growth == 0) {
      rusage u{};
      ::getrusage(RUSAGE_SELF, &u);
      growth = std::max<int64_t>(0, (u.ru_maxrss - start) / 1024);
    }
    [[maybe_unused]] const ssize_t w = ::write(fds[1], &growth, sizeof growth);
    ::_exit(0);
  }
  ::close(fds[1]);
  int64_t growth = -1;
  if (::read(fds[0], &growth, sizeof growth) != sizeof growth) growth = -1;
  ::close(fds[0]);
  ::waitpid(child, nullptr, 0);
  return growth;
}

std::string u64le(uint64_t v) { return std::string(reinterpret_cast<const char*>(&v), 8); }

std::string safetensors_with_header(const std::string& header, const std::string& data) {
  return u64le(header.size()) + header + data;
}

TEST(LoaderMemory, SafetensorsHeaderClaimingATerabyte) {
  const std::string f = safetensors_with_header(
      R"({"w":{"dtype":"F32","shape":[274877906944],"data_offsets":[0,1099511627776]}})", std::string(64, '\0'));
  const int64_t mb = peak_growth_mb([&] { load_safetensors_from_buffer(f, "tb.safetensors"); });
  EXPECT_GE(mb, 0);
  EXPECT_LE(mb, kSlackMb);
}

TEST(LoaderMemory, SafetensorsWithManyEntriesGrowsWithTheHeader) {
  // 100,000 one-element tensors: a 7 MB header.
  std::string header = "{";
  std::string data;
  for (int i = 0; i < 100000; ++i) {
    if (i > 0) header += ',';
    header += "\"t" + std::to_string(i) + "\":{\"dtype\":\"F32\",\"shape\":[1],\"data_offsets\":[" +
              std::to_string(4 * i) + "," + std::to_string(4 * i + 4) + "]}";
  }
  header += "}";
  data.assign(4 * 100000, '\0');
  const std::string f = safetensors_with_header(header, data);
  const int64_t input_mb = static_cast<int64_t>(f.size() >> 20) + 1;
  const int64_t mb = peak_growth_mb([&] {
    const SafetensorsContents c = load_safetensors_from_buffer(f, "many.safetensors");
    if (c.tensors.size() != 100000) throw std::runtime_error("wrong count");
  });
  EXPECT_GE(mb, 0);
  // The parsed JSON and 100,000 tensors (each a TensorImpl and a storage) cost a
  // few hundred bytes per entry: about 60 bytes of header each.
  EXPECT_LE(mb, 40 * input_mb + kSlackMb) << "input " << f.size() << " bytes";
}

TEST(LoaderMemory, PickleNameBombStopsAtItsBudget) {
  // 1 MiB of pickle whose dotted names would total 1.8 GiB; the budget is 64
  // bytes of names per pickle byte (Note in pickle_reader.cpp), so 64 MiB.
  const std::string bomb = nested_dicts_sharing_one_key(std::string(size_t{1} << 20, 'k'), 60);
  const int64_t mb = peak_growth_mb([&] { flatten_tensors(unpickle(bomb, nullptr, "names.pkl"), "names.pkl"); });
  EXPECT_GE(mb, 0);
  EXPECT_LE(mb, 2 * 64 + kSlackMb);
}

TEST(LoaderMemory, ZipMemberClaimingFourGigabytes) {
  // sequential.pt with one tensor member's sizes in the central directory
  // raised to 0xF0000000 bytes: refused before anything of that size exists.
  std::string b;
  {
    std::ifstream in(ember::testing::pt_file("sequential.pt"), std::ios::binary);
    b.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  size_t at = b.find("PK\x01\x02"sv);
  bool patched = false;
  for (; at != std::string::npos; at = b.find("PK\x01\x02"sv, at + 4)) {
    uint16_t name_len = 0;
    std::memcpy(&name_len, b.data() + at + 28, 2);
    if (b.compare(at + 46, name_len, "archive/data/0") != 0 &&
        b.substr(at + 46, name_len).find("/data/0") == std::string::npos)
      continue;
    const uint32_t huge = 0xF0000000u;
    std::memcpy(b.data() + at + 24, &huge, 4);  // uncompressed size
    patched = true;
    break;
  }
  ASSERT_TRUE(patched);
  const int64_t mb = peak_growth_mb([&] { load_pytorch_state_dict_from_buffer(b, "huge.pt"); });
  EXPECT_GE(mb, 0);
  EXPECT_LE(mb, kSlackMb);
}

TEST(LoaderMemory, TruncatedMnistFileReservesOnlyWhatArrived) {
  // A valid training-images header (60000 x 28 x 28: 47 MB of data) followed by 1 KiB.
  ScratchDir dir;
  const std::string path = dir.file("train-images-idx3-ubyte");
  {
    std::ofstream out(path, std::ios::binary);
    for (uint32_t v : {2051u, 60000u, 28u, 28u}) {
      const char be[4] = {char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
      out.write(be, 4);
    }
    out << std::string(1024, '\x7f');
  }
  const int64_t mb = peak_growth_mb([&] {
    EXPECT_EMBER_ERROR(data::datasets::detail::read_idx_ubyte(path, 2051, {60000, 28, 28}), "MNIST", "truncated");
  });
  EXPECT_GE(mb, 0);
  EXPECT_LE(mb, 2 + kSlackMb);  // the first 1 MiB chunk, not 47 MB
}

}  // namespace
}  // namespace torch::serialize
