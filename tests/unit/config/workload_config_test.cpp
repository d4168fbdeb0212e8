// The workload's configuration: its three name tables (the kinds of --workload, the process
// mappings, the NPB classes) round-trip and list the names docs/workloads.md gives, and the
// rules on its values alone (validate_workload, parse_grid) against hand-worked limits.
#include "wormnet/config/workload_config.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "../../support/enum_table_check.hpp"
#include "../../support/input_refusal.hpp"
#include "wormnet/config/config_validation.hpp"
#include "wormnet/core/error.hpp"

namespace wormnet {
namespace {

/// How many values each enum has, by a switch over all of them: -Wswitch (an error here)
/// stops the build when an enum gains a value this file does not list.
constexpr int value_count(WorkloadKind v) {
  switch (v) {
    case WorkloadKind::kNone:
    case WorkloadKind::kAllreduceRd:
    case WorkloadKind::kAllreduceRing:
    case WorkloadKind::kAllToAll:
    case WorkloadKind::kHalo2d:
    case WorkloadKind::kHalo3d:
    case WorkloadKind::kSweep2d:
    case WorkloadKind::kNpbCg:
    case WorkloadKind::kNpbFt:
    case WorkloadKind::kNpbIs:
    case WorkloadKind::kNpbLu:
    case WorkloadKind::kNpbMg:
    case WorkloadKind::kTrace:
      return 13;
  }
  return 0;
}
constexpr int value_count(ProcessMapping v) {
  switch (v) {
    case ProcessMapping::kLinear:
    case ProcessMapping::kRandom:
    case ProcessMapping::kTopology:
      return 3;
  }
  return 0;
}
constexpr int value_count(NpbClass v) {
  switch (v) {
    case NpbClass::kS:
    case NpbClass::kW:
    case NpbClass::kA:
    case NpbClass::kB:
    case NpbClass::kC:
      return 5;
  }
  return 0;
}

/// E's table against `count` enumerators and the names `expected` (in the enum's order,
/// written out from docs/workloads.md, not read from the table): support/enum_table_check.hpp.
template <class E>
void check_table(int count, const std::vector<std::string>& expected) {
  ASSERT_EQ(value_count(E{}), count);
  test::check_enum_table<E>(count, expected);
  EXPECT_FALSE(enum_value<E>("x").has_value());
}

TEST(WorkloadConfigNames, EveryValueRoundTripsThroughItsOneName) {
  // In the order the refusal of an unknown --workload lists them: the motifs, the NPB
  // skeletons (each alphabetically), the trace.
  check_table<WorkloadKind>(
      13, {"", "allreduce-rd", "allreduce-ring", "alltoall", "halo2d", "halo3d", "sweep2d",
           "npb-cg", "npb-ft", "npb-is", "npb-lu", "npb-mg", "trace"});
  check_table<ProcessMapping>(3, {"linear", "random", "topology"});
  check_table<NpbClass>(5, {"S", "W", "A", "B", "C"});
}

TEST(WorkloadConfigNames, NamesAreMatchedExactly) {
  // The command line's spellings: lower case for the workloads and mappings, the NAS
  // benchmarks' capitals for the classes; no other case is read.
  EXPECT_FALSE(enum_value<WorkloadKind>("HALO2D").has_value());
  EXPECT_FALSE(enum_value<WorkloadKind>("none").has_value());
  EXPECT_FALSE(enum_value<ProcessMapping>("Linear").has_value());
  EXPECT_FALSE(enum_value<NpbClass>("c").has_value());
  EXPECT_FALSE(enum_value<NpbClass>("D").has_value());
  // "" is no workload: what the option's absence leaves.
  EXPECT_EQ(enum_value<WorkloadKind>(""), WorkloadKind::kNone);
  EXPECT_FALSE(enum_value<ProcessMapping>("").has_value());
}

TEST(WorkloadConfig, KindsSortIntoMotifsSkeletonsAndTheTrace) {
  int motifs = 0;
  int npb = 0;
  for (const EnumName<WorkloadKind>& row : enum_names(WorkloadKind{})) {
    WorkloadConfig w;
    w.kind = row.value;
    const std::string name = row.name;
    EXPECT_EQ(w.active(), !name.empty()) << name;
    EXPECT_EQ(w.is_trace(), name == "trace") << name;
    EXPECT_EQ(w.is_npb(), name.rfind("npb-", 0) == 0) << name;
    EXPECT_EQ(w.is_motif(), w.active() && !w.is_trace() && !w.is_npb()) << name;
    motifs += w.is_motif() ? 1 : 0;
    npb += w.is_npb() ? 1 : 0;
  }
  EXPECT_EQ(motifs, 6);  // halo2d, halo3d, allreduce-ring, allreduce-rd, alltoall, sweep2d
  EXPECT_EQ(npb, 5);     // LU, MG, CG, FT, IS
}

TEST(WorkloadConfig, GridDimensionsAreThoseOfTheStencilsAndTheSweep) {
  EXPECT_EQ(grid_dimensions(WorkloadKind::kHalo2d), 2);
  EXPECT_EQ(grid_dimensions(WorkloadKind::kSweep2d), 2);
  EXPECT_EQ(grid_dimensions(WorkloadKind::kHalo3d), 3);
  for (const WorkloadKind k : {WorkloadKind::kNone, WorkloadKind::kAllreduceRd,
                               WorkloadKind::kAllreduceRing, WorkloadKind::kAllToAll,
                               WorkloadKind::kNpbLu, WorkloadKind::kNpbMg, WorkloadKind::kTrace}) {
    EXPECT_EQ(grid_dimensions(k), 0) << enum_name(k);
  }
}

using test::refusal;

TEST(WorkloadConfig, ParsesAGridOfTheMotifsDimensions) {
  EXPECT_EQ(parse_grid("3x4", 2), (std::vector<int>{3, 4}));
  EXPECT_EQ(parse_grid("2x3x4", 3), (std::vector<int>{2, 3, 4}));
  EXPECT_EQ(parse_grid("9999999x1", 2), (std::vector<int>{9999999, 1}));  // 7 digits
  EXPECT_EQ(refusal([] { parse_grid("3x0", 2); }).option(), "--grid");
  EXPECT_EQ(refusal([] { parse_grid("3x4", 3); }).allowed(), "AxBxC: 3 dimensions");
  EXPECT_EQ(refusal([] { parse_grid("3xx4", 2); }).allowed(), "AxB with whole numbers >= 1");
  EXPECT_EQ(refusal([] { parse_grid("", 2); }).allowed(), "AxB with whole numbers >= 1");
  EXPECT_EQ(refusal([] { parse_grid("10000000x1", 2); }).value(), "10000000x1");  // 8 digits
  EXPECT_EQ(refusal([] { parse_grid("-3x4", 2); }).option(), "--grid");
}

/// A workload of `kind` with the defaults otherwise.
WorkloadConfig of(WorkloadKind kind) {
  WorkloadConfig w;
  w.kind = kind;
  return w;
}

/// The refusal of validate_workload(w) as "option 'value': allowed", "" when it passes.
std::string verdict(const WorkloadConfig& w) {
  try {
    validate_workload(w);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(WorkloadValidation, TheDefaultsOfEveryKindPass) {
  for (const EnumName<WorkloadKind>& row : enum_names(WorkloadKind{})) {
    EXPECT_EQ(verdict(of(row.value)), "") << row.name;
  }
}

TEST(WorkloadValidation, CountsHoldTheirRangesAtBothEnds) {
  WorkloadConfig w = of(WorkloadKind::kHalo2d);
  w.iterations = 0;
  EXPECT_EQ(verdict(w), "--iterations '0': 1..1000000");
  w.iterations = 1'000'000;
  EXPECT_EQ(verdict(w), "");
  w.iterations = 1'000'001;
  EXPECT_EQ(verdict(w), "--iterations '1000001': 1..1000000");
  w = of(WorkloadKind::kAllToAll);
  w.processes_per_node = 0;
  EXPECT_EQ(verdict(w), "--processes-per-node '0': 1..1024");
  w.processes_per_node = 1024;
  EXPECT_EQ(verdict(w), "");
  w.processes_per_node = 1025;
  EXPECT_EQ(verdict(w), "--processes-per-node '1025': 1..1024");
  w = of(WorkloadKind::kSweep2d);
  w.message_size = 0;
  EXPECT_EQ(verdict(w), "--message-size '0': 1..65535 flits");
  w.message_size = 65535;  // one packet's length in 16 bits
  EXPECT_EQ(verdict(w), "");
  w.message_size = 65536;
  EXPECT_EQ(verdict(w), "--message-size '65536': 1..65535 flits");
  w = of(WorkloadKind::kHalo3d);
  w.compute_cycles = 1'000'000'000;
  EXPECT_EQ(verdict(w), "");
  w.compute_cycles = 1'000'000'001;
  EXPECT_EQ(verdict(w), "--compute-cycles '1000000001': 0..1000000000 cycles per step");
  w = of(WorkloadKind::kTrace);
  w.local_latency = 0;
  EXPECT_EQ(verdict(w), "--local-latency '0': 1..1000000 cycles");
  w.local_latency = 1'000'000;
  EXPECT_EQ(verdict(w), "");
}

TEST(WorkloadValidation, TheSkeletonsRateAndScale) {
  WorkloadConfig w = of(WorkloadKind::kNpbLu);
  const std::string rate_rule = "operations per cycle, a number above 0 and at most 1e+09";
  w.compute_rate = 0;  // no computation
  EXPECT_EQ(verdict(w), "");
  w.compute_rate = 1e9;
  EXPECT_EQ(verdict(w), "");
  w.compute_rate = 1.5e9;
  EXPECT_EQ(verdict(w), "--compute-rate '1.5e+09': " + rate_rule);
  w.compute_rate = -2;
  EXPECT_EQ(verdict(w), "--compute-rate '-2': " + rate_rule);
  w.compute_rate = std::numeric_limits<double>::quiet_NaN();
  EXPECT_EQ(verdict(w), "--compute-rate 'nan': " + rate_rule);
  w.compute_rate = std::numeric_limits<double>::infinity();
  EXPECT_EQ(verdict(w), "--compute-rate 'inf': " + rate_rule);
  w.compute_rate = 1e-6;  // small but above 0: the factory bounds the steps it makes
  EXPECT_EQ(verdict(w), "");
  w = of(WorkloadKind::kNpbIs);
  w.npb_scale = 0;
  EXPECT_EQ(verdict(w), "--npb-scale '0': 1..1073741824");
  w.npb_scale = std::uint64_t{1} << 30;
  EXPECT_EQ(verdict(w), "");
  w.npb_scale = (std::uint64_t{1} << 30) + 1;
  EXPECT_EQ(verdict(w), "--npb-scale '1073741825': 1..1073741824");
}

TEST(WorkloadValidation, AKindChecksOnlyTheValuesItReads) {
  // Out-of-range values of the options a kind does not read pass (the command line refuses
  // them when given, by which workload reads them).
  WorkloadConfig w = of(WorkloadKind::kTrace);
  w.iterations = 0;
  w.processes_per_node = 0;
  w.message_size = 0;
  w.compute_rate = -1;
  w.npb_scale = 0;
  EXPECT_EQ(verdict(w), "");
  w = of(WorkloadKind::kNpbCg);
  w.message_size = 0;
  w.compute_cycles = 2'000'000'000;
  w.grid = "0x0";
  EXPECT_EQ(verdict(w), "");
  w = of(WorkloadKind::kHalo2d);
  w.compute_rate = -1;
  w.npb_scale = 0;
  EXPECT_EQ(verdict(w), "");
  // No workload: nothing is read.
  w = of(WorkloadKind::kNone);
  w.iterations = 0;
  w.local_latency = 0;
  EXPECT_EQ(verdict(w), "");
}

TEST(WorkloadValidation, AGridHasTheMotifsDimensions) {
  WorkloadConfig w = of(WorkloadKind::kHalo3d);
  w.grid = "4x4";
  EXPECT_EQ(verdict(w), "--grid '4x4': AxBxC: 3 dimensions");
  w.grid = "2x2x4";
  EXPECT_EQ(verdict(w), "");  // whether it holds every process needs the network
  w = of(WorkloadKind::kHalo2d);
  w.grid = "4xx4";
  EXPECT_EQ(verdict(w), "--grid '4xx4': AxB with whole numbers >= 1");
}

TEST(WorkloadValidation, SimConfigsValidationReadsTheWorkload) {
  SimConfig c;
  EXPECT_NO_THROW(validate_values(c));
  c.workload = of(WorkloadKind::kAllreduceRing);
  c.workload.iterations = 0;
  EXPECT_EQ(refusal([&] { validate_values(c); }).option(), "--iterations");
}

}  // namespace
}  // namespace wormnet
