// What a user sees when a file path is wrong: one InputError line naming the option, the
// path and the reason; never an HDF5 trace on stderr, never a crash. Run as a one-rank
// MPI singleton (no mpiexec needed).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "../../../support/shared_temp_file.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/h5/h5_file.hpp"

namespace wormnet::io {
namespace {

namespace fs = std::filesystem;

/// Everything written to file descriptor 2 while it lives (C stdio included, which is
/// where HDF5 would print its error stack).
class StderrCapture {
 public:
  StderrCapture() : file_(std::tmpfile()) {
    std::fflush(stderr);
    saved_ = dup(2);
    dup2(fileno(file_), 2);
  }
  ~StderrCapture() {
    restore();
    std::fclose(file_);
  }
  StderrCapture(const StderrCapture&) = delete;
  StderrCapture& operator=(const StderrCapture&) = delete;
  std::string text() {
    restore();
    std::rewind(file_);
    std::string out;
    for (int c = std::fgetc(file_); c != EOF; c = std::fgetc(file_))
      out.push_back(static_cast<char>(c));
    return out;
  }

 private:
  void restore() {
    if (saved_ < 0) return;
    std::fflush(stderr);
    dup2(saved_, 2);
    close(saved_);
    saved_ = -1;
  }
  std::FILE* file_;
  int saved_ = -1;
};

/// The InputError `f` throws (failing the test when it throws nothing or something else),
/// checking that nothing reached stderr meanwhile.
InputError input_error_of(const std::function<void()>& f) {
  StderrCapture capture;
  try {
    f();
  } catch (const InputError& e) {
    EXPECT_EQ(capture.text(), "") << "stderr must stay silent";
    return e;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "expected InputError, got: " << e.what();
    return InputError("", "", "");
  }
  ADD_FAILURE() << "expected InputError, nothing thrown";
  return InputError("", "", "");
}

/// A scratch directory for one test, removed afterwards.
class H5FileErrors : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "wormnet-io-errors-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir_ = pattern;
  }
  void TearDown() override {
    std::error_code ec;
    fs::permissions(dir_, fs::perms::owner_all, ec);
    fs::remove_all(dir_, ec);
  }
  [[nodiscard]] std::string in_dir(const std::string& name) const { return (dir_ / name).string(); }

  /// A valid HDF5 file with some content, written through the h5 layer.
  std::string valid_file() {
    const std::string path = in_dir("valid.h5");
    H5File file = H5File::create(comm_, path, "-o");
    file.root().set_attribute("status", "complete");
    std::vector<double> data(4096);
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = static_cast<double>(i);
    file.root().write_dataset<double>("data", data);
    file.close();
    return path;
  }

  Communicator comm_ = Communicator::world();
  fs::path dir_;
};

TEST_F(H5FileErrors, CreateInAMissingDirectory) {
  const std::string path = in_dir("no/such/dir/out.h5");
  const InputError e =
      input_error_of([&] { static_cast<void>(H5File::create(comm_, path, "-o")); });
  EXPECT_EQ(e.option(), "-o");
  EXPECT_EQ(e.value(), path);
  EXPECT_EQ(e.allowed(),
            "cannot create file (directory '" + in_dir("no/such/dir") + "' does not exist)");
  EXPECT_FALSE(fs::exists(path));
}

TEST_F(H5FileErrors, CreateUnderARegularFile) {
  std::ofstream(in_dir("plain")) << "x";
  const InputError e = input_error_of(
      [&] { static_cast<void>(H5File::create(comm_, in_dir("plain/out.h5"), "--output")); });
  EXPECT_EQ(e.option(), "--output");
  EXPECT_EQ(e.allowed(), "cannot create file ('" + in_dir("plain") + "' is not a directory)");
}

TEST_F(H5FileErrors, CreateOverADirectory) {
  fs::create_directory(in_dir("sub"));
  const InputError e =
      input_error_of([&] { static_cast<void>(H5File::create(comm_, in_dir("sub"), "-o")); });
  EXPECT_EQ(e.allowed(), "cannot create file (the path is a directory)");
}

TEST_F(H5FileErrors, CreateInAReadOnlyDirectory) {
  if (geteuid() == 0) GTEST_SKIP() << "root may write anywhere; permissions cannot be tested";
  fs::create_directory(in_dir("ro"));
  fs::permissions(in_dir("ro"), fs::perms::owner_read | fs::perms::owner_exec);
  const InputError e =
      input_error_of([&] { static_cast<void>(H5File::create(comm_, in_dir("ro/out.h5"), "-o")); });
  EXPECT_EQ(e.allowed(), "cannot create file (directory '" + in_dir("ro") + "' is not writable)");
}

TEST_F(H5FileErrors, CreateWhereTheFileSystemRefuses) {
  // /proc is a directory that passes the permission checks for root but accepts no new
  // file: the failure comes from MPI-IO itself and is still one clean line.
  const InputError e =
      input_error_of([&] { static_cast<void>(H5File::create(comm_, "/proc/wormnet.h5", "-o")); });
  EXPECT_EQ(e.allowed().rfind("cannot create file", 0), 0U) << e.allowed();
  EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
}

TEST_F(H5FileErrors, OpenAMissingFileOrADirectory) {
  const InputError missing = input_error_of(
      [&] { static_cast<void>(H5File::open_read_only(comm_, in_dir("none.h5"), "--table")); });
  EXPECT_EQ(std::string(missing.what()),
            "--table '" + in_dir("none.h5") + "': file does not exist");
  const InputError dir = input_error_of(
      [&] { static_cast<void>(H5File::open_read_only(comm_, dir_.string(), "--table")); });
  EXPECT_EQ(dir.allowed(), "is a directory, not an HDF5 file");
}

TEST_F(H5FileErrors, OpenGarbage) {
  std::ofstream(in_dir("garbage.h5")) << "[network]\ntopology = 'torus'\n"
                                      << std::string(3000, '\x7f');
  for (const bool rw : {false, true}) {
    const InputError e = input_error_of([&] {
      const std::string p = in_dir("garbage.h5");
      static_cast<void>(rw ? H5File::open_read_write(comm_, p, "--restart")
                           : H5File::open_read_only(comm_, p, "--restart"));
    });
    EXPECT_EQ(e.allowed(), "not an HDF5 file");
  }
}

TEST_F(H5FileErrors, OpenAnEmptyFile) {
  std::ofstream{in_dir("empty.h5")};
  const InputError e = input_error_of(
      [&] { static_cast<void>(H5File::open_read_only(comm_, in_dir("empty.h5"), "-i")); });
  EXPECT_EQ(e.allowed(), "not an HDF5 file");
}

TEST_F(H5FileErrors, OpenATruncatedFile) {
  const std::string good = valid_file();
  const auto size = fs::file_size(good);
  ASSERT_GT(size, 32768U);  // the 4096 doubles are in there
  for (const std::uintmax_t keep : {size / 2, size - 1, std::uintmax_t{1024}}) {
    const std::string cut = in_dir("cut.h5");
    fs::copy_file(good, cut, fs::copy_options::overwrite_existing);
    fs::resize_file(cut, keep);
    const InputError e =
        input_error_of([&] { static_cast<void>(H5File::open_read_only(comm_, cut, "-i")); });
    EXPECT_EQ(e.allowed().rfind("HDF5 file is truncated", 0), 0U)
        << "kept " << keep << " of " << size << " bytes: " << e.allowed();
  }
  // The untouched file still opens.
  H5File ok = H5File::open_read_only(comm_, good, "-i");
  EXPECT_EQ(ok.root().open_dataset("data").size(), 4096U);
}

TEST_F(H5FileErrors, OverwritingAnExistingFileTruncatesIt) {
  const std::string path = valid_file();
  H5File file = H5File::create(comm_, path, "-o");
  EXPECT_FALSE(file.root().exists("data"));
  EXPECT_FALSE(file.root().has_attribute("status"));
}

}  // namespace
}  // namespace wormnet::io
