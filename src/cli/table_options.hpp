// Generator options shared by `wormnet tables` and `wormnet tables-study`: declared once,
// checked once (bad values are InputErrors naming the option).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

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

/// A generator's name (its table: tables::kTableAlgorithmNames) to the enum; InputError naming
/// `option` and the names allowed otherwise.
tables::TableAlgorithm parse_table_algorithm(const std::string& name, const char* option);

/// Every generator's name, in its table's order (bfs, genetic, sssp).
std::vector<std::string> table_algorithm_names();

}  // namespace wormnet::cli
