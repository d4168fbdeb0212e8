// libFuzzer target: the checkpoint loader (what `wormnet run --restart DIR` reads). The input
// bytes become DIR/checkpoint.h5 in a temporary directory; reading the progress record and the
// model for the routers of a 4x4 torus (4 ports, 2 VCs, 4-flit buffers: the seed corpus's
// shape) either succeeds or throws InputError (exit code 2, one line). H5Error, a broken
// invariant or a crash would reach the user as an internal error or worse.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <string>
#include <vector>

#include "wormnet/core/error.hpp"
#include "wormnet/io/checkpoint_file.hpp"
#include "wormnet/parallel/communicator.hpp"

namespace {

const std::string& directory() {
  static const std::string dir = [] {
    char pattern[] = "/tmp/wormnet-fuzz-checkpoint-XXXXXX";
    const char* made = mkdtemp(pattern);
    if (made == nullptr) std::abort();
    return std::string(made);
  }();
  return dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string dir = directory();
  const std::string path = wormnet::io::checkpoint_path(dir);
  {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (f == nullptr) std::abort();
    if (size > 0 && std::fwrite(data, 1, size, f) != size) std::abort();
    std::fclose(f);
  }
  const wormnet::Communicator comm = wormnet::Communicator::self();
  try {
    const wormnet::io::RunProgress p =
        wormnet::io::read_checkpoint_progress(comm, dir, "--restart");
    static_cast<void>(p);
    std::vector<std::uint32_t> routers(16);
    std::iota(routers.begin(), routers.end(), 0U);
    const wormnet::ModelSnapshot m =
        wormnet::io::read_checkpoint_model(comm, dir, "--restart", routers, 16, 4, 2, 4);
    static_cast<void>(m);
  } catch (const wormnet::InputError& e) {
    if (std::string(e.what()).rfind("--restart", 0) != 0) std::abort();
  }
  return 0;
}
