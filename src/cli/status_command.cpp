// `wormnet status FILE`: what a run left at the output FILE, as one word on stdout, for job
// scripts that decide from the files rather than from a launcher's exit code (mpiexec
// returns 1 when its ranks end with 5). The partial file FILE.partial is the newer one when
// it exists (a run being written, killed, or failed); else FILE. Words: complete, deadlock,
// incomplete (a workload the drain limit ended unfinished), interrupted, failed, running
// (being written, or killed), missing (neither file exists).
// Exit 0 with a word; 2 when the file is not a wormnet output.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

#include "commands.hpp"
#include "wormnet/core/error.hpp"
#include "wormnet/h5/h5_error.hpp"
#include "wormnet/h5/h5_file.hpp"
#include "wormnet/h5/output_file.hpp"
#include "wormnet/h5/run_status.hpp"
#include "wormnet/parallel/communicator.hpp"

namespace wormnet::cli {

namespace {

int run_status_command(const std::string& file) {
  const Communicator comm = Communicator::world();
  const std::string partial = file + io::kPartialSuffix;
  std::error_code ec;
  const std::string path = std::filesystem::exists(partial, ec) ? partial : file;
  if (!std::filesystem::exists(path, ec)) {
    if (comm.is_root()) std::printf("missing\n");
    return 0;
  }
  io::H5File f = io::H5File::open_read_only(comm, path, "status");
  std::string word;
  try {
    word = enum_name(io::run_status(f));
  } catch (const io::H5Error&) {
    throw InputError("status", path, "not a wormnet output (no valid 'status' attribute)");
  }
  f.close();
  if (comm.is_root()) std::printf("%s\n", word.c_str());
  return 0;
}

}  // namespace

Command add_status_command(CLI::App& root) {
  auto file = std::make_shared<std::string>();
  CLI::App* app = root.add_subcommand(
      "status",
      "Print what a run left at an output file: complete, deadlock, incomplete (a workload "
      "left unfinished by the drain limit), interrupted, failed, running (being written, or "
      "killed) or missing");
  app->add_option("file", *file, "results or table file (its .partial sibling is read first)")
      ->required();
  return {app, [file] { return run_status_command(*file); }};
}

}  // namespace wormnet::cli
