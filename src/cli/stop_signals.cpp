#include "stop_signals.hpp"

#include <csignal>

namespace wormnet::cli {

namespace {

volatile std::sig_atomic_t g_stop_requested = 0;  // set by the signal handler only

extern "C" void on_stop_signal(int /*signal*/) {
  g_stop_requested = 1;
}

}  // namespace

void install_stop_signals() {
  // SIGINT too: Ctrl-C on an interactive run stops it as cleanly as the batch system's
  // SIGTERM does (a second Ctrl-C while the checkpoint is written is ignored alike).
  std::signal(SIGTERM, on_stop_signal);
  std::signal(SIGINT, on_stop_signal);
  std::signal(SIGUSR1, on_stop_signal);
}

bool stop_signalled() {
  return g_stop_requested != 0;
}

bool stop_requested(const Communicator& comm) {
  return comm.any(g_stop_requested != 0);
}

}  // namespace wormnet::cli
