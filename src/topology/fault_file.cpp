#include "wormnet/topology/fault_file.hpp"

#include <algorithm>
#include <charconv>
#include <limits>
#include <unordered_map>
#include <vector>

#include "wormnet/core/error.hpp"
#include "wormnet/topology/torus.hpp"

namespace wormnet {

namespace {

/// The text shortened for a message (printable characters only).
std::string shown(std::string_view s) {
  std::string out;
  for (const char c : s.substr(0, 60)) out += (c >= 32 && c < 127) ? c : '?';
  return s.size() > 60 ? out + "..." : out;
}

/// 'text', shortened (built by appends: GCC 12 warns falsely on "'" + std::string).
std::string quoted(std::string_view s) {
  std::string out(1, '\'');
  out.append(shown(s));
  out.push_back('\'');
  return out;
}

/// A cursor over one line.
class LineReader {
 public:
  explicit LineReader(std::string_view line) : s_(line) {}
  void skip_blanks() {
    while (at_ < s_.size() && (s_[at_] == ' ' || s_[at_] == '\t')) ++at_;
  }
  [[nodiscard]] bool done() {
    skip_blanks();
    return at_ >= s_.size();
  }
  /// The next word (up to a blank or '('), or "" at the end.
  std::string_view word() {
    skip_blanks();
    const std::size_t begin = at_;
    while (at_ < s_.size() && s_[at_] != ' ' && s_[at_] != '\t' && s_[at_] != '(') ++at_;
    return s_.substr(begin, at_ - begin);
  }
  [[nodiscard]] char peek() {
    skip_blanks();
    return at_ < s_.size() ? s_[at_] : '\0';
  }
  /// "(a,b,...)": the integers, or false (with `problem` set) when it is not such a list.
  bool coordinates(Coord& c, std::string& problem) {
    skip_blanks();
    const std::size_t begin = at_;
    if (at_ >= s_.size() || s_[at_] != '(') {
      problem = "expected coordinates such as (1,2), found " + quoted(s_.substr(begin));
      return false;
    }
    ++at_;
    c = Coord{};
    while (true) {
      skip_blanks();
      std::int64_t v = 0;
      const char* first = s_.data() + at_;
      const char* last = s_.data() + s_.size();
      // from_chars reads no '+': a leading '+' is allowed and skipped by hand.
      if (first < last && *first == '+') ++first;
      const auto [end, ec] = std::from_chars(first, last, v);
      if (ec != std::errc() || v < std::numeric_limits<std::int32_t>::min() ||
          v > std::numeric_limits<std::int32_t>::max()) {
        problem = quoted(s_.substr(begin)) + " is not a list of integer coordinates";
        return false;
      }
      if (c.n == 6) {
        problem = quoted(s_.substr(begin)) + " has more than 6 coordinates";
        return false;
      }
      c[c.n++] = static_cast<std::int32_t>(v);
      at_ = static_cast<std::size_t>(end - s_.data());
      skip_blanks();
      if (at_ < s_.size() && s_[at_] == ',') {
        ++at_;
        continue;
      }
      if (at_ < s_.size() && s_[at_] == ')') {
        ++at_;
        return true;
      }
      problem = quoted(s_.substr(begin)) + " is not a list of integer coordinates";
      return false;
    }
  }
  [[nodiscard]] std::string_view rest() const { return s_.substr(at_); }

 private:
  std::string_view s_;
  std::size_t at_ = 0;
};

std::string coord_text(const Coord& c) {
  std::string s = "(";
  for (int i = 0; i < c.n; ++i) s += (i ? "," : "") + std::to_string(c[i]);
  return s + ")";
}

/// Where the nodes of a topology lie, for a message about coordinates outside it.
std::string node_ranges(const Topology& topo) {
  if (const auto* t = dynamic_cast<const Torus*>(&topo)) {
    std::string s;
    for (int d = 0; d < t->num_dims(); ++d) {
      s += (d ? ", " : "") + std::string(Topology::dim_name(d)) + " in 0.." +
           std::to_string(t->size(d) - 1);
    }
    return s;
  }
  // The honeycombs: the box the coordinates span (not every point of it is a node).
  const int n = topo.coords(NodeId(0)).n;
  std::vector<int> lo(static_cast<std::size_t>(n), std::numeric_limits<int>::max());
  std::vector<int> hi(static_cast<std::size_t>(n), std::numeric_limits<int>::min());
  for (std::uint32_t v = 0; v < topo.num_nodes(); ++v) {
    const Coord c = topo.coords(NodeId(v));
    for (int i = 0; i < n; ++i) {
      lo[static_cast<std::size_t>(i)] = std::min(lo[static_cast<std::size_t>(i)], c[i]);
      hi[static_cast<std::size_t>(i)] = std::max(hi[static_cast<std::size_t>(i)], c[i]);
    }
  }
  static constexpr const char* kXyz[] = {"x", "y", "z"};
  std::string s;
  for (int i = 0; i < n; ++i) {
    s += (i ? ", " : "") + std::string(i < 3 ? kXyz[i] : Topology::dim_name(i)) + " in " +
         std::to_string(lo[static_cast<std::size_t>(i)]) + ".." +
         std::to_string(hi[static_cast<std::size_t>(i)]);
  }
  return s + ", not every point a node";
}

}  // namespace

void read_fault_list(const Topology& topo, std::string_view text, const std::string& option,
                     const std::string& path, FaultSet& faults) {
  const int dims = topo.coords(NodeId(0)).n;
  std::uint64_t number = 0;
  const auto bad = [&](const std::string& why) {
    return InputError(option, path,
                      "line " + std::to_string(number) + ": " + why + " (docs/faults.md)");
  };
  // Line of each fault listed, for a duplicate's message: nodes by id, links by + channel.
  std::unordered_map<std::uint32_t, std::uint64_t> node_line;
  std::unordered_map<std::uint32_t, std::uint64_t> link_line;
  std::string ranges;  // computed once, when first needed
  const auto node_of = [&](const Coord& c) {
    if (c.n != dims) {
      throw bad(coord_text(c) + " has " + std::to_string(c.n) + " coordinate" +
                (c.n == 1 ? "" : "s") + "; the nodes of " + topo.spec() + " have " +
                std::to_string(dims));
    }
    const NodeId n = topo.node_at(c);
    if (!n.valid()) {
      if (ranges.empty()) ranges = node_ranges(topo);
      throw bad(coord_text(c) + " is not a node of " + topo.spec() + " (" + ranges + ")");
    }
    return n;
  };

  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    std::string_view line = text.substr(at, end - at);
    at = end + 1;
    ++number;
    if (line.size() > kMaxFaultLine) {
      throw bad("a line longer than " + std::to_string(kMaxFaultLine) + " characters");
    }
    if (line.find('\0') != std::string_view::npos) throw bad("not text (a NUL byte)");
    if (const std::size_t hash = line.find('#'); hash != std::string_view::npos) {
      line = line.substr(0, hash);
    }
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    LineReader r(line);
    if (r.done()) continue;
    const std::string_view keyword = r.word();
    std::string problem;
    Coord a;
    if (keyword == "node") {
      if (!r.coordinates(a, problem)) throw bad(problem);
      if (!r.done()) throw bad("unexpected " + quoted(r.rest()) + " after the node");
      const NodeId n = node_of(a);
      if (const auto seen = node_line.find(n.value()); seen != node_line.end()) {
        throw bad("node " + topo.node_label(n) + " is listed twice (first on line " +
                  std::to_string(seen->second) + ")");
      }
      // A link of this node listed before it: the node's failure covers it.
      for (int p = 0; p < topo.num_ports(); ++p) {
        const auto port = static_cast<PortId>(p);
        if (!topo.has_port(n, port)) continue;
        const ChannelId link = FaultSet::link_of(topo, topo.channel(n, port));
        if (const auto seen = link_line.find(link.value()); seen != link_line.end()) {
          throw bad("node " + topo.node_label(n) + " fails its link " + topo.channel_label(link) +
                    ", listed already on line " + std::to_string(seen->second) +
                    " (list the link or the node, not both)");
        }
      }
      node_line.emplace(n.value(), number);
      faults.fail_node(n);
      continue;
    }
    if (keyword != "link") {
      throw bad(quoted(keyword) + ": expected 'link A B', 'link A DIR' or 'node A'");
    }
    if (!r.coordinates(a, problem)) throw bad(problem);
    const NodeId from = node_of(a);
    ChannelId channel = ChannelId::invalid();
    if (r.peek() == '(') {
      Coord b;
      if (!r.coordinates(b, problem)) throw bad(problem);
      const NodeId to = node_of(b);
      int joins = 0;
      for (int p = 0; p < topo.num_ports(); ++p) {
        if (topo.neighbor(from, static_cast<PortId>(p)) == to) {
          ++joins;
          channel = topo.channel(from, static_cast<PortId>(p));
        }
      }
      if (joins == 0) {
        throw bad(topo.node_label(from) + " and " + topo.node_label(to) +
                  " are not neighbours on " + topo.spec() + " (no link joins them)");
      }
      if (joins > 1) {
        throw bad(topo.node_label(from) + " and " + topo.node_label(to) + " are joined by " +
                  std::to_string(joins) + " links: name one by its direction, 'link " +
                  topo.node_label(from) + " X+'");
      }
    } else {
      const std::string_view dir = r.word();
      int port = -1;
      for (int p = 0; p < topo.num_ports(); ++p) {
        if (Topology::port_label(static_cast<PortId>(p)) == dir) port = p;
      }
      if (dir.empty()) throw bad("'link " + coord_text(a) + "' needs a second node or a direction");
      if (port < 0) {
        std::string names;
        for (int p = 0; p < topo.num_ports(); ++p) {
          names += (p ? ", " : "") + Topology::port_label(static_cast<PortId>(p));
        }
        throw bad(quoted(dir) + " is neither coordinates nor a direction of " + topo.spec() + " (" +
                  names + ")");
      }
      if (!topo.has_port(from, static_cast<PortId>(port))) {
        throw bad(topo.node_label(from) + " has no link in direction " + std::string(dir) + " on " +
                  topo.spec());
      }
      channel = topo.channel(from, static_cast<PortId>(port));
    }
    if (!r.done()) throw bad("unexpected " + quoted(r.rest()) + " after the link");
    const ChannelId link = FaultSet::link_of(topo, channel);
    if (const auto seen = link_line.find(link.value()); seen != link_line.end()) {
      throw bad("the link " + topo.channel_label(link) + " is listed twice (first on line " +
                std::to_string(seen->second) + ")");
    }
    for (const NodeId end_node : {topo.channel_source(link), topo.channel_dest(link)}) {
      if (const auto seen = node_line.find(end_node.value()); seen != node_line.end()) {
        throw bad("the link " + topo.channel_label(link) + " has failed already with node " +
                  topo.node_label(end_node) + " (line " + std::to_string(seen->second) +
                  "; list the link or the node, not both)");
      }
    }
    link_line.emplace(link.value(), number);
    faults.fail_link(link);
  }
}

}  // namespace wormnet
