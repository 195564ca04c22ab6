#include "ember/serialize/atomic_file.h"

#include <gtest/gtest.h>

#include "common/test_util.h"
#include "serialize_test_util.h"

namespace ember::serialize {
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

}  // namespace
}  // namespace ember::serialize
