// Generator options shared by `wormnet tables` and `wormnet tables-study`: declared once,
// checked once (bad values are InputErrors naming the option).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "wormnet/tables/table_generator.hpp"

namespace wormnet::cli {

struct TableGeneratorArgs {
  tables::GeneratorOptions options;
  std::string candidates = "usable";
};

/// Declares --seed, --sync, the genetic algorithm's options and --turn-candidates.
void add_generator_options(CLI::App& app, TableGeneratorArgs& args);

/// Checks the values; throws InputError naming the first bad option.
void finish_generator_options(TableGeneratorArgs& args);

/// "bfs", "genetic" or "sssp" to the enum; InputError naming `option` otherwise.
tables::TableAlgorithm parse_table_algorithm(const std::string& name, const char* option);

}  // namespace wormnet::cli
