// libFuzzer target: the routing-table loader (what `--routing table --tables FILE` reads). The
// input bytes become a file that is loaded as the table of a 4x4 torus (the seed corpus's
// topology): either a table that passed its check comes back (complete, minimal, Angara
// rules, deadlock-free, as load_table_file promises) or InputError naming --tables (exit code
// 2, one line). H5Error, a broken invariant or a crash would reach the user as an internal
// error or worse.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "wormnet/core/error.hpp"
#include "wormnet/parallel/communicator.hpp"
#include "wormnet/tables/table_file.hpp"
#include "wormnet/tables/table_limits.hpp"
#include "wormnet/topology/topology_factory.hpp"

namespace {

const std::string& file_name() {
  static const std::string path = [] {
    char pattern[] = "/tmp/wormnet-fuzz-tables-XXXXXX";
    const char* made = mkdtemp(pattern);
    if (made == nullptr) std::abort();
    return std::string(made) + "/table.h5";
  }();
  return path;
}

const wormnet::Torus& torus() {
  static const std::unique_ptr<wormnet::Topology> topo = wormnet::make_topology("torus:4x4");
  return wormnet::tables::require_table_topology(*topo, "--topology");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string& path = file_name();
  {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (f == nullptr) std::abort();
    if (size > 0 && std::fwrite(data, 1, size, f) != size) std::abort();
    std::fclose(f);
  }
  const wormnet::Communicator comm = wormnet::Communicator::self();
  try {
    const wormnet::tables::LoadedTable t =
        wormnet::tables::load_table_file(path, "--tables", torus(), comm);
    const wormnet::tables::TableVerdict& v = t.report.verdict;
    if (t.table == nullptr || !v.complete || !v.minimal || !v.angara_rules || !v.deadlock_free) {
      std::abort();  // a table that fails its check must not come back
    }
  } catch (const wormnet::InputError& e) {
    if (std::string(e.what()).rfind("--tables", 0) != 0) std::abort();
  }
  return 0;
}
