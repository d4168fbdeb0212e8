#include "wormnet/workload/trace_file.hpp"

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

#include "wormnet/core/error.hpp"

namespace wormnet {

namespace {

/// A whole unsigned decimal number in [0, max], or false.
bool parse_number(std::string_view s, std::uint64_t max, std::uint64_t& out) {
  if (s.empty()) return false;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size() && out <= max;
}

/// The latest `after` a trace may give (cycles): the simulator's cycle limit, 2^62.
constexpr std::uint64_t kMaxAfter = std::uint64_t{1} << 62;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

/// The line shortened for an error message (printable characters only).
std::string shown(std::string_view s) {
  std::string out;
  for (const char c : s.substr(0, 60)) out += (c >= 32 && c < 127) ? c : '?';
  return s.size() > 60 ? out + "..." : out;
}

}  // namespace

MessageGraph read_trace(const std::string& path, std::uint32_t nodes, const std::string& option,
                        const StopCheck& stop, const TraceLimits& limits) {
  TextInput in(path, option, limits.max_line, stop);
  MessageGraph g;
  std::string line;
  bool header = false;
  const auto bad_at = [&](std::uint64_t number, const std::string& why) {
    return InputError(option, path,
                      "line " + std::to_string(number) + ": " + why + " (docs/workloads.md)");
  };
  const auto bad = [&](const std::string& why) { return bad_at(in.line_number(), why); };
  // The largest iteration label and its first line: checked against the message count at
  // the end, when the count is known.
  std::uint64_t top_label = 0;
  std::uint64_t top_label_line = 0;
  std::uint64_t dependencies = 0;
  std::vector<std::uint32_t> deps;
  // Seven columns, or eight with computation (kTraceHeaderCompute).
  std::size_t columns = 7;
  while (in.next(line)) {
    const std::string_view l = trim(line);
    if (l.empty() || l.front() == '#') continue;
    if (!header) {
      if (l != kTraceHeader && l != kTraceHeaderCompute) {
        throw bad("the header must be '" + std::string(kTraceHeader) + "' or '" +
                  kTraceHeaderCompute + "', not '" + shown(l) + "'");
      }
      header = true;
      columns = l == kTraceHeader ? 7 : 8;
      continue;
    }
    std::vector<std::string_view> fields;
    std::size_t pos = 0;
    while (true) {
      const std::size_t comma = l.find(',', pos);
      fields.push_back(trim(l.substr(pos, comma == std::string_view::npos ? comma : comma - pos)));
      if (comma == std::string_view::npos) break;
      pos = comma + 1;
    }
    if (fields.size() != columns) {
      throw bad(std::to_string(columns) + " comma-separated fields expected, found " +
                std::to_string(fields.size()) + " in '" + shown(l) + "'");
    }
    std::uint64_t compute = 0;
    if (columns == 8 && !parse_number(fields[7], MessageGraph::kMaxCompute, compute)) {
      throw bad("compute '" + shown(fields[7]) + "' is not a whole number of cycles in 0.." +
                std::to_string(MessageGraph::kMaxCompute));
    }
    static constexpr const char* kNames[] = {"id", "source", "destination", "flits", "after"};
    const std::uint64_t limits_of[] = {limits.max_messages - 1ULL, nodes - 1ULL, nodes - 1ULL,
                                       MessageGraph::kMaxFlits, kMaxAfter};
    std::uint64_t v[6];
    for (int k = 0; k < 5; ++k) {
      if (!parse_number(fields[static_cast<std::size_t>(k)], limits_of[k], v[k])) {
        throw bad(std::string(kNames[k]) + " '" + shown(fields[static_cast<std::size_t>(k)]) +
                  "' is not a whole number in 0.." + std::to_string(limits_of[k]));
      }
    }
    // A label is a row of the completion report: below the number of messages, so that the
    // report is never larger than the trace (a label of 4e9 once sized it after the run).
    if (!parse_number(fields[5], ~std::uint64_t{0}, v[5]) || v[5] >= limits.max_messages) {
      throw bad("iteration '" + shown(fields[5]) +
                "' is not a label below the number of messages (whole numbers 0.." +
                std::to_string(limits.max_messages - 1) + " in a trace of at most " +
                std::to_string(limits.max_messages) + " messages)");
    }
    if (v[0] != g.size()) {
      throw bad("id " + std::to_string(v[0]) +
                " out of order: ids are 0, 1, 2, ... in file "
                "order (expected " +
                std::to_string(g.size()) + ")");
    }
    // 0 flits: a step marker, within a node only (check_message), in the eight-column form.
    if (v[3] == 0 && columns == 7) throw bad("flits must be at least 1");
    if (g.size() == 0 || v[5] > top_label) {
      top_label = v[5];
      top_label_line = in.line_number();
    }
    deps.clear();
    std::string_view d = fields[6];
    while (!d.empty()) {
      const std::size_t space = d.find(' ');
      const std::string_view tok = d.substr(0, space);
      std::uint64_t dep = 0;
      if (!tok.empty()) {
        if (!parse_number(tok, ~std::uint64_t{0}, dep)) {
          throw bad("dependency '" + shown(tok) + "' is not a message id");
        }
        if (dep >= v[0]) {
          throw bad("message " + std::to_string(v[0]) + " depends on " + std::to_string(dep) +
                    ", which is not an earlier message");
        }
        deps.push_back(static_cast<std::uint32_t>(dep));
      }
      if (space == std::string_view::npos) break;
      d.remove_prefix(space + 1);
    }
    dependencies += deps.size();
    if (dependencies > limits.max_dependencies) {
      throw bad("more than " + std::to_string(limits.max_dependencies) +
                " dependencies in all: at most that many in a trace");
    }
    g.add(static_cast<std::uint32_t>(v[1]), static_cast<std::uint32_t>(v[2]),
          static_cast<std::uint32_t>(v[3]), static_cast<std::uint32_t>(v[5]), v[4], deps,
          static_cast<std::uint32_t>(compute));
    const std::string problem = g.check_message(g.size() - 1, nodes, columns == 8);
    if (!problem.empty()) throw bad(problem);
  }
  if (!header)
    throw InputError(option, path,
                     "a trace starting with the header '" + std::string(kTraceHeader) + "' or '" +
                         kTraceHeaderCompute + "' (docs/workloads.md)");
  if (g.size() == 0) throw InputError(option, path, "a trace with at least one message");
  if (top_label >= g.size()) {
    throw bad_at(top_label_line, "iteration " + std::to_string(top_label) +
                                     " is not below the number of messages (" +
                                     std::to_string(g.size()) + "): labels are 0.." +
                                     std::to_string(g.size() - 1));
  }
  return g;
}

void write_trace(const MessageGraph& graph, const std::string& path) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw OutputError(path, std::strerror(errno));
  const MessageGraph::Kinds kinds = graph.kinds();
  const bool eight = kinds.compute > 0 || kinds.local > 0 || kinds.markers > 0;
  out << "# wormnet workload trace (docs/workloads.md)\n"
      << (eight ? kTraceHeaderCompute : kTraceHeader) << "\n";
  const auto& ms = graph.messages();
  for (std::uint32_t id = 0; id < graph.size() && out; ++id) {
    const WorkloadMessage& m = ms[id];
    out << id << ',' << m.source << ',' << m.dest << ',' << m.flits << ',' << m.after << ','
        << m.iteration << ',';
    bool first = true;
    for (const std::uint32_t d : graph.deps_of(id)) {
      out << (first ? "" : " ") << d;
      first = false;
    }
    if (eight) out << ',' << m.compute;
    out << '\n';
  }
  out.close();
  if (!out) throw OutputError(path, "the file could not be written completely");
}

}  // namespace wormnet
