// The CPU capability query (Note [CPU capability]): names, the refusal of an unknown
// EMBER_CPU_CAPABILITY, the environment's cap (checked by running this binary again with
// the variable set) and show_config's report of the level.
#include <gtest/gtest.h>

#include <unistd.h>
#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "common/test_util.h"
#include "ember/kernels/cpu/cpu_capability.h"

using ember::kernels::CpuCapability;
namespace k = ember::kernels;

TEST(CpuCapability, NamesRoundTrip) {
  for (CpuCapability c : {CpuCapability::Default, CpuCapability::AVX2, CpuCapability::AVX512})
    EXPECT_EQ(k::parse_cpu_capability(k::cpu_capability_name(c)), c);
  EXPECT_STREQ(k::cpu_capability_name(CpuCapability::AVX2), "avx2");
}

TEST(CpuCapability, UnknownNameRaisesNamingIt) {
  EXPECT_EMBER_ERROR(k::parse_cpu_capability("avx3"), "EMBER_CPU_CAPABILITY", "'avx3'", "avx512");
  EXPECT_EMBER_ERROR(k::parse_cpu_capability("AVX2"), "'AVX2'");
  EXPECT_EMBER_ERROR(k::parse_cpu_capability(""), "''");
}

TEST(CpuCapability, LevelIsTheEnvironmentsCapOnTheCpu) {
  const char* env = std::getenv("EMBER_CPU_CAPABILITY");
  CpuCapability want = k::cpu_capability_supported();
  if (env != nullptr && *env != '\0') want = std::min(want, k::parse_cpu_capability(env));
  EXPECT_EQ(k::cpu_capability(), want);
}

TEST(CpuCapability, TestSetterRefusesWhatTheCpuLacks) {
  k::set_cpu_capability_for_testing(CpuCapability::Default);
  EXPECT_EQ(k::cpu_capability(), CpuCapability::Default);
  k::set_cpu_capability_for_testing(std::nullopt);
  if (k::cpu_capability_supported() < CpuCapability::AVX512)
    EXPECT_EMBER_ERROR(k::set_cpu_capability_for_testing(CpuCapability::AVX512), "does not run avx512");
}

// The body the tests below run in a child process.
TEST(CpuCapability, ShowConfig) {
  const std::string s = ember::show_config();
  std::printf("%s", s.c_str());
  EXPECT_NE(s.find(std::string("CPU capability usage: ") + k::cpu_capability_name(k::cpu_capability())),
            std::string::npos)
      << s;
}

namespace {
// This binary's output when run again with EMBER_CPU_CAPABILITY=value on the ShowConfig test.
std::string run_child(const std::string& value) {
  std::array<char, 4096> self{};
  const ssize_t len = readlink("/proc/self/exe", self.data(), self.size() - 1);
  if (len <= 0) return "";
  const std::string cmd = "EMBER_CPU_CAPABILITY=" + value + " '" + std::string(self.data(), static_cast<size_t>(len)) +
                          "' --gtest_filter=CpuCapability.ShowConfig 2>&1";
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(cmd.c_str(), "r"), &pclose);
  std::string out;
  if (!pipe) return out;
  std::array<char, 512> buf{};
  while (const size_t n = std::fread(buf.data(), 1, buf.size(), pipe.get())) out.append(buf.data(), n);
  return out;
}
}  // namespace

TEST(CpuCapability, EnvironmentForcesTheLevel) {
  for (CpuCapability c : {CpuCapability::Default, CpuCapability::AVX2, CpuCapability::AVX512}) {
    const CpuCapability expect = std::min(c, k::cpu_capability_supported());
    const std::string out = run_child(k::cpu_capability_name(c));
    EXPECT_NE(out.find(std::string("CPU capability usage: ") + k::cpu_capability_name(expect) + " "), std::string::npos)
        << out;
  }
}

TEST(CpuCapability, EnvironmentRefusesAnUnknownLevel) {
  const std::string out = run_child("sse9");
  EXPECT_NE(out.find("unknown level 'sse9'"), std::string::npos) << out;
  EXPECT_NE(out.find("FAILED"), std::string::npos) << out;
}
