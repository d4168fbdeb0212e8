// Text inputs read in bounded pieces (text_input.hpp): lines as written (hand-made files),
// a line over the limit refused after at most one chunk past the limit (counted through the
// stop check, which runs before every read), a stop request honoured before the next read,
// and anything but a regular file refused at once (a FIFO without a writer too: open()
// once blocked there for good).
#include "wormnet/core/text_input.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "wormnet/core/error.hpp"

namespace wormnet {
namespace {

namespace fs = std::filesystem;

/// A fresh directory for one test, removed afterwards.
class TextInputTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "wormnet-text-input-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string file(const std::string& name, const std::string& text) const {
    const std::string p = (fs::path(dir_) / name).string();
    std::ofstream(p, std::ios::binary) << text;
    return p;
  }
  std::string dir_;
};

std::vector<std::string> all_lines(TextInput& in) {
  std::vector<std::string> out;
  std::string line;
  while (in.next(line)) {
    out.push_back(line);
    EXPECT_EQ(in.line_number(), out.size());
  }
  return out;
}

TEST_F(TextInputTest, LinesAsWritten) {
  TextInput a(file("a", "one\n\ntwo\r\nthree"), "--x", 100);
  EXPECT_EQ(all_lines(a), (std::vector<std::string>{"one", "", "two\r", "three"}));
  std::string line = "stale";
  EXPECT_FALSE(a.next(line));  // and stays at the end
  EXPECT_FALSE(a.next(line));
  TextInput b(file("b", "x\n"), "--x", 100);
  EXPECT_EQ(all_lines(b), (std::vector<std::string>{"x"}));
  TextInput c(file("c", ""), "--x", 100);
  EXPECT_TRUE(all_lines(c).empty());
}

TEST_F(TextInputTest, LinesAcrossChunkBoundaries) {
  // Lines of 1000 bytes, so that chunk boundaries (64 KiB) fall inside lines.
  std::string text;
  std::vector<std::string> expected;
  for (int i = 0; i < 300; ++i) {
    expected.push_back(std::string(999, static_cast<char>('a' + i % 26)) + std::to_string(i % 10));
    text += expected.back() + "\n";
  }
  TextInput in(file("big", text), "--x", 1000);
  EXPECT_EQ(all_lines(in), expected);
}

TEST_F(TextInputTest, LineAtTheLimitIsKeptOneMoreIsRefused) {
  TextInput ok(file("ok", std::string(10, 'y') + "\n"), "--x", 10);
  EXPECT_EQ(all_lines(ok), (std::vector<std::string>{std::string(10, 'y')}));
  TextInput over(file("over", "short\n" + std::string(11, 'y')), "--x", 10);
  std::string line;
  ASSERT_TRUE(over.next(line));
  try {
    over.next(line);
    FAIL() << "an 11-character line passed a limit of 10";
  } catch (const InputError& e) {
    EXPECT_EQ(e.option(), "--x");
    EXPECT_EQ(e.allowed(), "line 2: longer than 10 characters");
  }
}

TEST_F(TextInputTest, LongLineRefusedAfterAtMostOneChunkPastTheLimit) {
  // 40 chunks without a newline, limit 2.5 chunks: refused at the third read (the stop check
  // runs once per read), never after reading the line whole as std::getline did.
  const std::size_t chunk = TextInput::kChunkBytes;
  int reads = 0;
  TextInput in(file("long", std::string(40 * chunk, 'z')), "--x", chunk * 5 / 2, [&] {
    ++reads;
    return false;
  });
  std::string line;
  EXPECT_THROW(in.next(line), InputError);
  EXPECT_EQ(reads, 3);
}

TEST_F(TextInputTest, StopCheckedBeforeEveryRead) {
  const std::size_t chunk = TextInput::kChunkBytes;
  std::string text;
  while (text.size() < 10 * chunk) text += "a line of a long file\n";
  int reads = 0;
  TextInput in(file("stop", text), "--x", 100, [&] { return ++reads > 2; });
  std::string line;
  std::uint64_t lines = 0;
  EXPECT_THROW(
      {
        while (in.next(line)) ++lines;
      },
      Interrupted);
  // Two chunks read, then the stop: the lines wholly inside them, no more.
  EXPECT_EQ(reads, 3);
  EXPECT_EQ(lines, 2 * chunk / 22);
}

TEST_F(TextInputTest, OnlyRegularFilesAreRead) {
  const std::string fifo = (fs::path(dir_) / "fifo").string();
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  const auto start = std::chrono::steady_clock::now();
  const std::vector<std::pair<std::string, std::string>> cases = {
      {fifo, "a regular file (this is a FIFO)"},
      {"/dev/zero", "a regular file (this is a character device)"},
      {dir_, "a regular file (this is a directory)"},
      {dir_ + "/missing", "a readable regular file (No such file or directory)"},
  };
  for (const auto& [path, why] : cases) {
    try {
      TextInput in(path, "--trace", 100);
      ADD_FAILURE() << path << " was opened";
    } catch (const InputError& e) {
      EXPECT_EQ(e.option(), "--trace");
      EXPECT_EQ(e.value(), path);
      EXPECT_EQ(e.allowed(), why);
    }
    EXPECT_THROW(read_text_file(path, "--config", 100), InputError) << path;
  }
  // The FIFO has no writer: a blocking open() would still be waiting.
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST_F(TextInputTest, WholeFileUpToOneByteOverItsLimit) {
  EXPECT_EQ(read_text_file(file("s", "abc"), "--config", 3), "abc");
  EXPECT_EQ(read_text_file(file("t", "abcdef"), "--config", 3), "abcd");  // the caller refuses
  EXPECT_EQ(read_text_file(file("e", ""), "--config", 3), "");
  const std::string big(3 * TextInput::kChunkBytes, 'q');
  EXPECT_EQ(read_text_file(file("b", big), "--config", big.size()), big);
  int reads = 0;
  EXPECT_THROW(read_text_file(file("i", big), "--config", big.size(), [&] { return ++reads > 1; }),
               Interrupted);
}

}  // namespace
}  // namespace wormnet
