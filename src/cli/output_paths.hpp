// Which files a command reads and which it writes, and the rule between them: no output may
// be one of the inputs (--config x.toml -o x.toml replaced the configuration by results) or
// another output (-o DIR/checkpoint.h5 next to --checkpoint-dir DIR).
#pragma once

#include <string>
#include <vector>

#include "sim_options.hpp"
#include "wormnet/parallel/communicator.hpp"

namespace wormnet::cli {

/// A file named by an option.
struct NamedPath {
  std::string option;
  std::string path;
};

/// Collective (root looks): InputError naming both options when two outputs, or an output and
/// an input, are the same file: the same file system object when both exist, the same
/// absolute, normalized path otherwise. A --checkpoint-dir may be the --restart directory
/// (a restart writes its checkpoints where it read one).
void refuse_overlaps(const Communicator& comm, const std::vector<NamedPath>& outputs,
                     const std::vector<NamedPath>& inputs);

/// What `run` / `sweep` write: the results file, the checkpoint directory and its file.
/// `checkpoint_dir`: checkpoint_directory()'s.
std::vector<NamedPath> simulation_outputs(const SimOptions& o, const std::string& checkpoint_dir);
/// What they read: the --config file, the --tables file, the --restart checkpoint.
std::vector<NamedPath> simulation_inputs(const SimOptions& o);

}  // namespace wormnet::cli
