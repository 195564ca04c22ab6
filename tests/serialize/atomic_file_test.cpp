#include "ember/serialize/atomic_file.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "common/test_util.h"
#include "serialize_test_util.h"

namespace torch::serialize {
namespace {

using ember::testing::ScratchDir;

TEST(AtomicFileTest, CommitReplacesTheTarget) {
  ScratchDir dir;
  const std::string p = dir.file("a.bin");
  write_file_atomic(p, "old contents");
  write_file_atomic(p, "new");
  EXPECT_EQ(read_file(p), "new");
  EXPECT_EQ(dir.num_entries(), 1u);  // no temporary file left behind
}

TEST(AtomicFileTest, WithoutCommitTheOldFileStaysAndTheTempIsRemoved) {
  ScratchDir dir;
  const std::string p = dir.file("a.bin");
  write_file_atomic(p, "old contents");
  {
    AtomicFile f(p);
    f.write("partial");
    EXPECT_EQ(dir.num_entries(), 2u);  // the temporary file sits next to the target
    EXPECT_EQ(f.temp_path().rfind(p + ".tmp.", 0), 0u);
  }  // destroyed without commit, e.g. because an exception unwound
  EXPECT_EQ(read_file(p), "old contents");
  EXPECT_EQ(dir.num_entries(), 1u);
}

TEST(AtomicFileTest, ExceptionDuringWritingKeepsTheOldFile) {
  ScratchDir dir;
  const std::string p = dir.file("a.bin");
  write_file_atomic(p, "old contents");
  try {
    AtomicFile f(p);
    f.write("half of it");
    throw std::runtime_error("serializer failed");
  } catch (const std::runtime_error&) {
  }
  EXPECT_EQ(read_file(p), "old contents");
  EXPECT_EQ(dir.num_entries(), 1u);
}

TEST(AtomicFileTest, RenameFailureKeepsTargetAndRemovesTemp) {
  ScratchDir dir;
  // The target is a non-empty directory: rename(2) onto it fails.
  const std::string target = dir.file("sub");
  std::filesystem::create_directories(target + "/x");
  AtomicFile f(target);
  f.write("data");
  EXPECT_EMBER_ERROR(f.commit(), "AtomicFile", "rename", target);
  EXPECT_TRUE(std::filesystem::is_directory(target));
  EXPECT_EQ(dir.num_entries(), 1u);
}

TEST(AtomicFileTest, MissingDirectoryIsAnError) {
  ScratchDir dir;
  const std::string p = dir.file("no/such/dir/a.bin");
  EXPECT_EMBER_ERROR(AtomicFile f(p), "AtomicFile", "no/such/dir/a.bin");
  EXPECT_EMBER_ERROR(read_file(p), "cannot open", "a.bin");
}

TEST(AtomicFileTest, WriteAfterCommitIsAnError) {
  ScratchDir dir;
  AtomicFile f(dir.file("a.bin"));
  f.write("x");
  f.commit();
  EXPECT_EMBER_ERROR(f.write("y"), "AtomicFile", "after commit");
  EXPECT_EQ(read_file(dir.file("a.bin")), "x");
}

TEST(AtomicFileTest, TemporariesOfDeadWritersAreRemovedByTheNextSave) {
  ScratchDir dir;
  const std::string p = dir.file("ck.pt");
  write_file_atomic(p, "v0");
  // A temporary of a writer that no longer exists: a child that has exited and
  // been reaped, so its pid is free. And one of this live process, and one not
  // in the pid form: neither may be removed.
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  ::waitpid(child, nullptr, 0);
  const std::string dead = p + ".tmp." + std::to_string(child) + ".AbC123";
  const std::string live = p + ".tmp." + std::to_string(::getpid()) + ".XyZ789";
  const std::string other = p + ".tmp.QwErTy";
  for (const std::string& f : {dead, live, other}) std::ofstream(f) << "partial";
  write_file_atomic(p, "v1");
  EXPECT_FALSE(std::filesystem::exists(dead));
  EXPECT_TRUE(std::filesystem::exists(live));
  EXPECT_TRUE(std::filesystem::exists(other));
  EXPECT_EQ(read_file(p), "v1");
}

TEST(AtomicFileTest, KilledSaveLoopsNeverTearTheFileNorPileUpTemporaries) {
  // 200 times: a child saves in a loop and is killed with SIGKILL at a random
  // moment. The target must always hold one whole version, and the temporaries
  // that killed writers leave must not accumulate (each save removes the dead ones).
  ScratchDir dir;
  const std::string p = dir.file("ck.pt");
  const size_t size = 64 << 10;
  write_file_atomic(p, std::string(size, 'a'));
  size_t max_temporaries = 0, rounds_with_temporary = 0;
  for (int round = 0; round < 200; ++round) {
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      for (char c = 'b';; c = c == 'z' ? 'b' : char(c + 1)) write_file_atomic(p, std::string(size, c));
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200 + (round * 7919) % 3000));
    ::kill(child, SIGKILL);
    ::waitpid(child, nullptr, 0);
    // LLVM's OpenMP runtime (the clang builds) registers each process in
    // /dev/shm/__KMP_REGISTERED_LIB_<pid>_0 and removes the file at exit, which a
    // SIGKILL prevents: remove the killed child's, or every run leaves ~100 behind.
    std::error_code ec;
    std::filesystem::remove("/dev/shm/__KMP_REGISTERED_LIB_" + std::to_string(child) + "_0", ec);
    const std::string got = read_file(p);
    ASSERT_EQ(got.size(), size) << "round " << round;
    ASSERT_EQ(got.find_first_not_of(got[0]), std::string::npos) << "round " << round << ": a torn file";
    max_temporaries = std::max(max_temporaries, dir.num_entries() - 1);
    rounds_with_temporary += dir.num_entries() > 1;
  }
  // The kills did land mid-save (a writer spends most of its time between mkstemp and rename).
  EXPECT_GT(rounds_with_temporary, 20u);
  // At most the one temporary of the writer just killed survives a round.
  EXPECT_LE(max_temporaries, 1u);
  write_file_atomic(p, "done");
  EXPECT_EQ(dir.num_entries(), 1u);
}

}  // namespace
}  // namespace torch::serialize
