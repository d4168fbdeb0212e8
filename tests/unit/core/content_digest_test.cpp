// SHA-256 of input files: the test vectors of FIPS 180-2 (appendix B), the same digest when
// the bytes come in pieces or from a file longer than one read, and the files that are not
// read (missing, a directory, a FIFO: refused at once, never blocking).
#include "wormnet/core/content_digest.hpp"
#include "wormnet/core/error.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

namespace wormnet {
namespace {

std::span<const std::byte> bytes_of(std::string_view s) {
  return std::as_bytes(std::span<const char>(s.data(), s.size()));
}

/// A fresh directory under the system's temporary directory, removed at the end.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "wormnet-digest-XXXXXX");
    path = ::mkdtemp(pattern.data());
  }
  ~TempDir() { std::filesystem::remove_all(path); }
};

void write_file(const std::filesystem::path& p, std::string_view data) {
  std::FILE* f = std::fopen(p.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(std::fwrite(data.data(), 1, data.size(), f), data.size());
  std::fclose(f);
}

TEST(ContentDigest, Fips180Vectors) {
  EXPECT_EQ(sha256_hex(bytes_of("abc")),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex(bytes_of("")),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex(bytes_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  // One million 'a', given in uneven pieces.
  const std::string a(1'000'000, 'a');
  Sha256 h;
  for (std::size_t at = 0, piece = 1; at < a.size(); at += piece, piece = piece * 3 + 1) {
    h.update(bytes_of(std::string_view(a).substr(at, piece)));
  }
  EXPECT_EQ(h.finish(), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(ContentDigest, FileLongerThanOneReadIsHashedWhole) {
  TempDir d;
  // 3 MiB + 5 bytes: three whole reads of 1 MiB and a short one; one byte changed at the end
  // changes the digest.
  std::string data(3 * (1 << 20) + 5, '\0');
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<char>((i * 131) >> 3);
  write_file(d.path / "f", data);
  std::string problem;
  const auto got = digest_file(d.path / "f", problem);
  ASSERT_TRUE(got) << problem;
  EXPECT_EQ(got->bytes, data.size());
  EXPECT_EQ(got->sha256, sha256_hex(bytes_of(data)));
  data.back() ^= 1;
  write_file(d.path / "f", data);
  const auto changed = digest_file(d.path / "f", problem);
  ASSERT_TRUE(changed);
  EXPECT_NE(changed->sha256, got->sha256);
  EXPECT_EQ(changed->bytes, got->bytes);

  write_file(d.path / "empty", "");
  const auto empty = digest_file(d.path / "empty", problem);
  ASSERT_TRUE(empty);
  EXPECT_EQ(*empty, (ContentDigest{0, sha256_hex({})}));
}

TEST(ContentDigest, AStopCheckEndsTheDigestBetweenReads) {
  // A 4 GiB file (sparse: no disk) once took seconds to digest deaf to SIGTERM. The stop
  // check is asked before every 1 MiB read: here it says stop at the third.
  TempDir d;
  const auto big = d.path / "big";
  { std::ofstream f(big, std::ios::binary); }
  std::filesystem::resize_file(big, std::uintmax_t{4} << 30);
  int asked = 0;
  std::string problem;
  EXPECT_THROW(static_cast<void>(digest_file(big, problem, [&] { return ++asked == 3; })),
               Interrupted);
  EXPECT_EQ(asked, 3);
}

TEST(ContentDigest, WhatIsNotARegularFileIsNotRead) {
  TempDir d;
  std::string problem;
  EXPECT_FALSE(digest_file(d.path / "missing", problem));
  EXPECT_NE(problem.find("cannot be read"), std::string::npos) << problem;
  EXPECT_FALSE(digest_file(d.path, problem));
  EXPECT_EQ(problem, "is not a regular file (this is a directory)");
  // A FIFO without a writer: opening it for reading would block until one came.
  const auto fifo = d.path / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_FALSE(digest_file(fifo, problem));
  EXPECT_EQ(problem, "is not a regular file (this is a FIFO)");
}

}  // namespace
}  // namespace wormnet
