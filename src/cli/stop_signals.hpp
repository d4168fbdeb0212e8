// The stop signals of `run` and `sweep`: SIGTERM (a batch system's), SIGINT (Ctrl-C) and
// SIGUSR1 only set a flag, read at control checks (the run checkpoints and stops, exit code
// 5) and while inputs are read (the run ends during its setup, exit code 5).
#pragma once

#include "wormnet/parallel/communicator.hpp"

namespace wormnet::cli {

/// Installs the handlers. Done by `main` for `run` and `sweep` before anything is read.
void install_stop_signals();
/// Whether a stop signal reached this process (local: the stop check of input readers,
/// text_input.hpp; ranks then agree through stop_requested()).
bool stop_signalled();
/// Whether a stop signal reached any rank (collective).
bool stop_requested(const Communicator& comm);

}  // namespace wormnet::cli
