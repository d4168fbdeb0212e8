// libFuzzer target: the --config TOML reader of `wormnet run`, through to the validated
// options. Any input is either accepted or refused with InputError / a CLI11 parse error
// (the one-line errors of exit code 2); an accepted configuration survives the round trip
// through its effective configuration (to_toml, what results files and checkpoints store and
// --restart reads back) unchanged.
#include <CLI/CLI.hpp>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "batch_options.hpp"
#include "config_file.hpp"
#include "option_rules.hpp"
#include "sim_options.hpp"
#include "wormnet/core/error.hpp"

namespace {

/// Parses `text` as `wormnet run --config FILE` would; the effective configuration, or
/// false when the input is refused.
bool parse(const std::string& text, std::string& effective) {
  wormnet::cli::SimOptions sim;
  wormnet::cli::BatchOptionText batch;
  CLI::App app{"fuzz"};
  CLI::App* run = app.add_subcommand("run", "");
  wormnet::cli::add_sim_options(*run, sim, true);
  wormnet::cli::add_batch_options(*run, sim.config.batch, batch);
  wormnet::cli::apply_option_rules(*run);
  try {
    std::vector<std::string> args = wormnet::cli::config_to_args(text, "fuzz.toml", *run, {});
    args.insert(args.begin(), "run");
    app.parse(std::vector<std::string>(args.rbegin(), args.rend()));
    sim.given = wormnet::cli::given_options(*run);
    wormnet::cli::finish_sim_options(sim);
    wormnet::cli::finish_batch_options(batch, sim.given, sim.config.batch);
  } catch (const wormnet::InputError& e) {
    if (std::string(e.what()).rfind("--", 0) != 0) std::abort();  // names an option
    return false;
  } catch (const CLI::ParseError&) {
    return false;
  }
  effective = wormnet::cli::to_toml(sim);
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::string first;
  if (!parse(text, first)) return 0;
  std::string second;
  if (!parse(first, second) || second != first) {
    std::fprintf(stderr, "round trip differs:\n--- input\n%s\n--- effective\n%s\n--- again\n%s\n",
                 text.c_str(), first.c_str(), second.c_str());
    std::abort();
  }
  return 0;
}
