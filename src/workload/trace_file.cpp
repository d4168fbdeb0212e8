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

MessageGraph read_trace(const std::string& path, std::uint32_t nodes, const std::string& option) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw InputError(option, path,
                     "a readable trace file (" + std::string(std::strerror(errno)) + ")");
  MessageGraph g;
  std::string line;
  std::uint64_t number = 0;
  bool header = false;
  const auto bad = [&](const std::string& why) {
    return InputError(option, path,
                      "line " + std::to_string(number) + ": " + why + " (docs/workloads.md)");
  };
  std::vector<std::uint32_t> deps;
  while (std::getline(in, line)) {
    ++number;
    if (line.size() > 1'000'000) throw bad("a line longer than 1000000 characters");
    const std::string_view l = trim(line);
    if (l.empty() || l.front() == '#') continue;
    if (!header) {
      if (l != kTraceHeader) {
        throw bad("the header must be '" + std::string(kTraceHeader) + "', not '" + shown(l) + "'");
      }
      header = true;
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
    if (fields.size() != 7) {
      throw bad("7 comma-separated fields expected, found " + std::to_string(fields.size()) +
                " in '" + shown(l) + "'");
    }
    static constexpr const char* kNames[] = {"id",    "source", "destination",
                                             "flits", "after",  "iteration"};
    const std::uint64_t limits[] = {0xFFFFFFFEULL,           nodes - 1ULL,           nodes - 1ULL,
                                    MessageGraph::kMaxFlits, std::uint64_t{1} << 62, 0xFFFFFFFEULL};
    std::uint64_t v[6];
    for (int k = 0; k < 6; ++k) {
      if (!parse_number(fields[static_cast<std::size_t>(k)], limits[k], v[k])) {
        throw bad(std::string(kNames[k]) + " '" + shown(fields[static_cast<std::size_t>(k)]) +
                  "' is not a whole number in 0.." + std::to_string(limits[k]));
      }
    }
    if (v[0] != g.size()) {
      throw bad("id " + std::to_string(v[0]) +
                " out of order: ids are 0, 1, 2, ... in file "
                "order (expected " +
                std::to_string(g.size()) + ")");
    }
    if (v[3] == 0) throw bad("flits must be at least 1");
    deps.clear();
    std::string_view d = fields[6];
    while (!d.empty()) {
      const std::size_t space = d.find(' ');
      const std::string_view tok = d.substr(0, space);
      std::uint64_t dep = 0;
      if (!tok.empty()) {
        if (!parse_number(tok, 0xFFFFFFFEULL, dep)) {
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
    g.add(static_cast<std::uint32_t>(v[1]), static_cast<std::uint32_t>(v[2]),
          static_cast<std::uint32_t>(v[3]), static_cast<std::uint32_t>(v[5]), v[4], deps);
    const std::string problem = g.check_message(g.size() - 1, nodes);
    if (!problem.empty()) throw bad(problem);
  }
  if (!header)
    throw InputError(
        option, path,
        "a trace starting with the header '" + std::string(kTraceHeader) + "' (docs/workloads.md)");
  if (g.size() == 0) throw InputError(option, path, "a trace with at least one message");
  return g;
}

void write_trace(const MessageGraph& graph, const std::string& path) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw OutputError(path, std::strerror(errno));
  out << "# wormnet workload trace (docs/workloads.md)\n" << kTraceHeader << "\n";
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
    out << '\n';
  }
  out.close();
  if (!out) throw OutputError(path, "the file could not be written completely");
}

}  // namespace wormnet
