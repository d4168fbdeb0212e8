#include "table_options.hpp"

#include <cmath>
#include <cstdio>

#include "wormnet/core/error.hpp"
#include "wormnet/core/number_text.hpp"

namespace wormnet::cli {

void add_generator_options(CLI::App& app, TableGeneratorArgs& args) {
  tables::GeneratorOptions& o = args.options;
  tables::GeneticOptions& g = o.genetic;
  app.add_option("--seed", o.seed, "random seed (genetic algorithm)")->capture_default_str();
  app.add_option("--sync", o.sync_sources,
                 "sources each rank routes between weight exchanges (several ranks; 0: 1 up to "
                 "127 nodes, then nodes/64)")
      ->capture_default_str();
  app.add_option("--turn-candidates", args.candidates,
                 "CDG augmentation candidates: usable (FS/LS turns) or all (paper's literal text)")
      ->capture_default_str();
  app.add_option("--population", g.population, "genetic: chromosomes per generation")
      ->capture_default_str()
      ->group("Genetic algorithm");
  app.add_option("--children", g.children, "genetic: children per generation (even)")
      ->capture_default_str()
      ->group("Genetic algorithm");
  app.add_option("--mutation", g.mutation, "genetic: probability that a child's gene changes")
      ->capture_default_str()
      ->group("Genetic algorithm");
  app.add_option("--patience", g.patience,
                 "genetic: stop after this many generations without enough gain")
      ->capture_default_str()
      ->group("Genetic algorithm");
  app.add_option("--min-gain", g.min_gain,
                 "genetic: relative drop of the best sigma(4,R) that counts as a gain")
      ->capture_default_str()
      ->group("Genetic algorithm");
  app.add_option("--good-enough", g.good_enough,
                 "genetic: stop when the best sigma(4,R) falls below this fraction of the first "
                 "generation's")
      ->capture_default_str()
      ->group("Genetic algorithm");
  app.add_option("--max-generations", g.max_generations, "genetic: hard limit")
      ->capture_default_str()
      ->group("Genetic algorithm");
}

void finish_generator_options(TableGeneratorArgs& args) {
  tables::GeneratorOptions& o = args.options;
  const tables::GeneticOptions& g = o.genetic;
  if (o.sync_sources < 0) {
    throw InputError("--sync", std::to_string(o.sync_sources),
                     "must be >= 1 source, or 0 for automatic");
  }
  if (g.population < 2) {
    throw InputError("--population", std::to_string(g.population), "must be >= 2");
  }
  if (g.children < 2 || g.children % 2 != 0) {
    throw InputError("--children", std::to_string(g.children), "must be an even number >= 2");
  }
  if (!(g.mutation >= 0.0 && g.mutation < 1.0)) {
    throw InputError("--mutation", number_text(g.mutation), "must be in [0, 1)");
  }
  if (g.patience < 1) throw InputError("--patience", std::to_string(g.patience), "must be >= 1");
  if (!(g.min_gain >= 0.0 && g.min_gain < 1.0)) {
    throw InputError("--min-gain", number_text(g.min_gain), "must be in [0, 1)");
  }
  if (!(g.good_enough >= 0.0 && g.good_enough < 1.0)) {
    throw InputError("--good-enough", number_text(g.good_enough), "must be in [0, 1)");
  }
  if (g.max_generations < 0) {
    throw InputError("--max-generations", std::to_string(g.max_generations), "must be >= 0");
  }
  if (args.candidates == "usable") {
    o.candidates = tables::CdgAugmentation::Candidates::kUsable;
  } else if (args.candidates == "all") {
    o.candidates = tables::CdgAugmentation::Candidates::kAll;
  } else {
    throw InputError("--turn-candidates", args.candidates, "allowed: usable, all");
  }
}

tables::TableAlgorithm parse_table_algorithm(const std::string& name, const char* option) {
  if (const auto a = enum_value<tables::TableAlgorithm>(name)) return *a;
  std::string names;
  for (const std::string& n : table_algorithm_names()) names += (names.empty() ? "" : ", ") + n;
  throw InputError(option, name, "allowed: " + names);
}

std::vector<std::string> table_algorithm_names() {
  std::vector<std::string> names;
  for (const EnumName<tables::TableAlgorithm>& row : enum_names(tables::TableAlgorithm{})) {
    names.emplace_back(row.name);
  }
  return names;
}

}  // namespace wormnet::cli
