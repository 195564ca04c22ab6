// The stores, in one process: HashStore, FileStore, PrefixStore, and TCPStore
// with its server on a thread, including hostile peers on the wire.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <thread>

#include "common/test_util.h"
#include "ember/distributed/store/file_store.h"
#include "ember/distributed/store/hash_store.h"
#include "ember/distributed/store/prefix_store.h"
#include "ember/distributed/store/store_frame.h"
#include "ember/distributed/store/tcp_store.h"
#include "multiprocess.h"

namespace dist = ember::distributed;
using namespace std::chrono_literals;

namespace {

std::vector<uint8_t> bytes(const std::string& s) { return {s.begin(), s.end()}; }
std::string text(const std::vector<uint8_t>& v) { return {v.begin(), v.end()}; }

// The contract every store keeps, as torch.distributed documents it.
void exercise(dist::Store& s) {
  s.set("first_key", "first_value");
  EXPECT_EQ(text(s.get("first_key")), "first_value");
  EXPECT_EQ(s.add("counter", 1), 1);
  EXPECT_EQ(s.add("counter", 6), 7);
  EXPECT_EQ(text(s.get("counter")), "7");
  EXPECT_EQ(s.add("counter", -10), -3);
  // compare_set: a match swaps, a mismatch returns the current value.
  EXPECT_EQ(text(s.compare_set("cas", "", "a")), "a");
  EXPECT_EQ(text(s.compare_set("cas", "a", "b")), "b");
  EXPECT_EQ(text(s.compare_set("cas", "zzz", "c")), "b");
  EXPECT_EQ(text(s.compare_set("missing", "x", "y")), "x");
  EXPECT_FALSE(s.check({"missing"}));
  EXPECT_TRUE(s.check({"first_key", "counter"}));
  EXPECT_FALSE(s.check({"first_key", "nope"}));
  int64_t keys = s.num_keys();
  EXPECT_TRUE(s.delete_key("cas"));
  EXPECT_FALSE(s.delete_key("cas"));
  EXPECT_EQ(s.num_keys(), keys - 1);
  s.wait({"first_key"});
  EXPECT_EMBER_ERROR(s.wait({"never"}, 50ms), "wait", "timed out", "never");
  s.set("text", "not a number");
  EXPECT_EMBER_ERROR(s.add("text", 1), "add", "not an integer");
  s.set("binary", std::vector<uint8_t>{0, 255, 0, 7});
  EXPECT_EQ(s.get("binary"), (std::vector<uint8_t>{0, 255, 0, 7}));
  s.set("empty", std::vector<uint8_t>{});
  EXPECT_TRUE(s.get("empty").empty());
  // A waiter wakes when another thread sets its key.
  auto late = s.clone();
  std::thread setter([&] {
    std::this_thread::sleep_for(20ms);
    s.set("late", "here");
  });
  EXPECT_NO_THROW(late->wait({"late"}, 5000ms));
  setter.join();
  EXPECT_EQ(text(late->get("late")), "here");
  s.set_timeout(100ms);
  EXPECT_EMBER_ERROR(s.get("never"), "timed out", "never");
}

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / (name + std::to_string(::getpid()))).string();
}

}  // namespace

TEST(Store, HashStore) {
  auto s = std::make_shared<dist::HashStore>();
  exercise(*s);
}

TEST(Store, PrefixStoreKeepsKeysApart) {
  auto base = std::make_shared<dist::HashStore>();
  dist::PrefixStore a("a", base), b("b", base);
  a.set("k", "1");
  b.set("k", "2");
  EXPECT_EQ(text(a.get("k")), "1");
  EXPECT_EQ(text(b.get("k")), "2");
  EXPECT_EQ(text(base->get("a/k")), "1");
  auto s = std::make_shared<dist::PrefixStore>("p", base);
  exercise(*s);
  EXPECT_EMBER_ERROR(dist::PrefixStore("x", nullptr), "PrefixStore", "null");
}

TEST(Store, FileStore) {
  std::string path = temp_path("ember_filestore_");
  std::remove(path.c_str());
  {
    auto s = std::make_shared<dist::FileStore>(path, 2);
    exercise(*s);
    // A second handle on the same file (another process would do the same) sees the keys.
    dist::FileStore other(path, 2);
    EXPECT_EQ(text(other.get("first_key")), "first_value");
    EXPECT_TRUE(std::filesystem::exists(path));
  }
  // The last of world_size handles removes the file.
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(Store, FileStoreRejectsACorruptFile) {
  std::string path = temp_path("ember_filestore_bad_");
  {
    FILE* f = std::fopen(path.c_str(), "wb");
    const unsigned char junk[] = {'S', 0xff, 0xff, 0xff, 0x7f, 'k'};  // a key length far past the end
    std::fwrite(junk, 1, sizeof junk, f);
    std::fclose(f);
  }
  EXPECT_EMBER_ERROR(dist::FileStore(path, -1), "FileStore", "corrupt");
  std::remove(path.c_str());
}

TEST(Store, TCPStoreMasterAndClients) {
  dist::TCPStore master("127.0.0.1", 0, std::nullopt, true, 5000ms);
  ASSERT_GT(master.port(), 0);
  auto client = std::make_shared<dist::TCPStore>("127.0.0.1", master.port(), std::nullopt, false, 5000ms);
  client->set("from_client", "x");
  EXPECT_EQ(text(master.get("from_client")), "x");
  exercise(*client);
  EXPECT_EQ(text(master.get("first_key")), "first_value");
}

TEST(Store, TCPStoreWaitsForWorkers) {
  int port = ember_dist_test::free_port();
  std::thread worker([&] {
    std::this_thread::sleep_for(30ms);
    dist::TCPStore w("127.0.0.1", port, 2, false, 5000ms);
    w.set("worker", "1");
  });
  dist::TCPStore master("127.0.0.1", port, 2, true, 5000ms);
  master.wait({"worker"});
  worker.join();
  EXPECT_EMBER_ERROR(dist::TCPStore("127.0.0.1", 0, 3, true, 200ms), "TCPStore", "timed out", "3 workers",
                     "1 connected");
}

TEST(Store, TCPStoreBadInput) {
  dist::TCPStore master("127.0.0.1", 0, std::nullopt, true, 2000ms);
  EXPECT_EMBER_ERROR(dist::TCPStore("127.0.0.1", master.port(), std::nullopt, true, 1000ms), "TCPStore", "port",
                     "in use");
  int closed = ember_dist_test::free_port();
  EXPECT_EMBER_ERROR(dist::TCPStore("127.0.0.1", closed, std::nullopt, false, 200ms), "TCPStore", "could not connect",
                     std::to_string(closed));
  EXPECT_EMBER_ERROR(dist::TCPStore("127.0.0.1", 70000), "TCPStore", "70000", "out of range");
  EXPECT_EMBER_ERROR(dist::TCPStore("no-such-host.invalid", 1234, std::nullopt, false, 200ms), "TCPStore",
                     "no-such-host.invalid");
}

// A peer that sends garbage loses its own connection; the server and other clients carry on.
TEST(Store, TCPStoreSurvivesGarbage) {
  dist::TCPStore master("127.0.0.1", 0, std::nullopt, true, 2000ms);
  master.set("k", "v");
  auto send_raw = [&](const std::vector<uint8_t>& b) {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(static_cast<uint16_t>(master.port()));
    ASSERT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
    ASSERT_EQ(::send(fd, b.data(), b.size(), MSG_NOSIGNAL), static_cast<ssize_t>(b.size()));
    char c;
    EXPECT_LE(::recv(fd, &c, 1, 0), 0);  // the server hangs up on it
    ::close(fd);
  };
  send_raw({5, 0, 0, 0, 99, 1, 2, 3, 4});                     // unknown opcode
  send_raw({255, 255, 255, 255});                             // a 4 GiB frame
  send_raw({9, 0, 0, 0, 1, 200, 0, 0, 0, 'k', 0, 0, 0});      // a key longer than its frame
  send_raw({9, 0, 0, 0, 8, 255, 255, 255, 255, 0, 0, 0, 0});  // a WAIT with 4 billion keys
  EXPECT_EQ(text(master.get("k")), "v");
  dist::TCPStore client("127.0.0.1", master.port(), std::nullopt, false, 2000ms);
  EXPECT_EQ(text(client.get("k")), "v");
}

TEST(StoreFrame, RoundTripAndRejects) {
  namespace sd = dist::store_detail;
  sd::StoreRequest req{sd::StoreOp::COMPARE_SET, {"key"}, bytes("old"), bytes("new"), 0};
  std::vector<uint8_t> frame;
  sd::encode_request(req, frame);
  size_t used = 0;
  // Every strict prefix is incomplete, never an error or a read past the end.
  for (size_t n = 0; n < frame.size(); ++n) EXPECT_FALSE(sd::decode_request(frame.data(), n, &used).has_value());
  auto got = sd::decode_request(frame.data(), frame.size(), &used);
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(used, frame.size());
  EXPECT_EQ(got->keys.at(0), "key");
  EXPECT_EQ(text(got->value), "old");
  EXPECT_EQ(text(got->desired), "new");
  auto bad = frame;
  bad[4] = 42;
  EXPECT_EMBER_ERROR(sd::decode_request(bad.data(), bad.size(), &used), "unknown opcode 42");
  bad = frame;
  bad[0] += 1;  // the payload claims one more byte than it holds...
  bad.push_back(0);
  EXPECT_EMBER_ERROR(sd::decode_request(bad.data(), bad.size(), &used), "trailing");
  std::vector<uint8_t> huge{0, 0, 0, 0x50};
  EXPECT_EMBER_ERROR(sd::decode_request(huge.data(), huge.size(), &used), "exceeds the limit");
}
