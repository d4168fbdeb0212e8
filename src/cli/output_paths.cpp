#include "output_paths.hpp"

#include <filesystem>
#include <system_error>

#include "wormnet/core/error.hpp"
#include "wormnet/io/checkpoint_file.hpp"

namespace wormnet::cli {

namespace {

namespace fs = std::filesystem;

/// `p` absolute, with symbolic links of its existing part resolved when the system can
/// (a name too long for it, say, leaves the path as written).
fs::path normalized(const std::string& p) {
  std::error_code ec;
  fs::path abs = fs::absolute(p, ec);
  if (ec) abs = fs::path(p);
  const fs::path canonical = fs::weakly_canonical(abs, ec);
  return (ec ? abs : canonical).lexically_normal();
}

bool same_file(const std::string& a, const std::string& b) {
  std::error_code ea;
  std::error_code eb;
  if (fs::exists(a, ea) && fs::exists(b, eb)) {
    std::error_code ec;
    const bool same = fs::equivalent(a, b, ec);
    if (!ec) return same;
  }
  return normalized(a) == normalized(b);
}

/// Why `out` may not be written, or "".
std::string clash(const NamedPath& out, const std::vector<NamedPath>& outputs, std::size_t self,
                  const std::vector<NamedPath>& inputs) {
  for (const NamedPath& in : inputs) {
    if (in.path.empty()) continue;
    if (out.option == "--checkpoint-dir" && in.option == "--restart") continue;
    if (same_file(out.path, in.path)) {
      return "is also the " + in.option + " file '" + in.path +
             "': an output would replace an input; choose another name";
    }
  }
  for (std::size_t k = 0; k < self; ++k) {
    const NamedPath& other = outputs[k];
    if (other.path.empty() || other.option == out.option) continue;
    if (same_file(out.path, other.path)) {
      return "is also where " + other.option + " '" + other.path +
             "' writes: two outputs would overwrite each other; choose another name";
    }
  }
  return "";
}

}  // namespace

void refuse_overlaps(const Communicator& comm, const std::vector<NamedPath>& outputs,
                     const std::vector<NamedPath>& inputs) {
  std::string index;
  std::string problem;
  if (comm.is_root()) {
    for (std::size_t i = 0; i < outputs.size() && problem.empty(); ++i) {
      if (outputs[i].path.empty()) continue;
      problem = clash(outputs[i], outputs, i, inputs);
      if (!problem.empty()) index = std::to_string(i);
    }
  }
  if (comm.size() > 1) {
    comm.broadcast(problem, 0);
    comm.broadcast(index, 0);
  }
  if (problem.empty()) return;
  const NamedPath& out = outputs[std::stoul(index)];
  throw InputError(out.option, out.path, problem);
}

std::vector<NamedPath> simulation_outputs(const SimOptions& o, const std::string& checkpoint_dir) {
  return {{"--checkpoint-dir", checkpoint_dir},
          {"--checkpoint-dir", io::checkpoint_path(checkpoint_dir)},
          {"--output", o.output},
          {"--write-trace", o.workload.write_trace}};
}

std::vector<NamedPath> simulation_inputs(const SimOptions& o) {
  const std::string& restart = o.config.batch.restart;
  std::vector<NamedPath> in{{"--config", o.config_file},
                            {"--tables", o.config.network.tables},
                            {"--trace", o.config.workload.trace}};
  if (!restart.empty()) in.push_back({"--restart", io::checkpoint_path(restart)});
  return in;
}

}  // namespace wormnet::cli
