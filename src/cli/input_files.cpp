#include "input_files.hpp"

#include <cstdio>
#include <sstream>

#include "toml_string.hpp"
#include "wormnet/core/error.hpp"

namespace wormnet::cli {

namespace {

/// The first hex digits of a digest shown in messages: enough to tell two files apart by eye.
constexpr std::size_t kShownDigits = 16;

std::string shown(const ContentDigest& d) {
  return std::to_string(d.bytes) + " bytes, SHA-256 " + d.sha256.substr(0, kShownDigits) + "...";
}

/// The digest `recorded` (inputs_toml()'s text) holds for `key`; nullopt when it holds none.
std::optional<ContentDigest> recorded_digest(const std::string& recorded, const std::string& key) {
  const std::string start = key + " = { bytes = ";
  std::istringstream in(recorded);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(start, 0) != 0) continue;
    ContentDigest d;
    std::size_t at = start.size();
    std::size_t digits = 0;
    while (at < line.size() && line[at] >= '0' && line[at] <= '9' && digits < 20) {
      d.bytes = d.bytes * 10 + static_cast<std::uint64_t>(line[at++] - '0');
      ++digits;
    }
    const std::string middle = ", sha256 = \"";
    if (digits == 0 || line.compare(at, middle.size(), middle) != 0) return std::nullopt;
    at += middle.size();
    if (line.size() < at + 65 || line[at + 64] != '"') return std::nullopt;
    d.sha256 = line.substr(at, 64);
    return d;
  }
  return std::nullopt;
}

}  // namespace

std::vector<InputFile> input_files(const SimOptions& o) {
  std::vector<InputFile> files;
  const NetworkConfig& n = o.config.network;
  const auto add = [&](const char* option, const char* key, const std::string& path) {
    InputFile f;
    f.option = option;
    f.key = key;
    f.path = path;
    files.push_back(std::move(f));
  };
  if (n.routing == "table" && !n.tables.empty()) add("--tables", "tables", n.tables);
  if (o.config.workload.is_trace() && !o.config.workload.trace.empty()) {
    add("--trace", "trace", o.config.workload.trace);
  }
  if (!n.faults.file.empty()) add("--faults", "faults", n.faults.file);
  return files;
}

void stamp_inputs(const Communicator& comm, std::vector<InputFile>& files) {
  if (!comm.is_root()) return;
  for (InputFile& f : files) f.stamp = io::stamp_of(f.path);
}

void digest_inputs(const Communicator& comm, std::vector<InputFile>& files, const StopCheck& stop) {
  // Root reads; every rank gets "<bytes> <sha256>" per file ("-" for none) and the index and
  // reason of a file that changed while it was read, or "stop" when a stop signal ended the
  // reading (every rank then ends its setup alike).
  std::string wire;
  std::string changed;
  if (comm.is_root()) {
    try {
      for (std::size_t i = 0; i < files.size() && changed.empty(); ++i) {
        InputFile& f = files[i];
        // Stamped before reading: a write while it is read leaves another stamp; so does one
        // since stamp_inputs() stamped it before its loader read it.
        const io::FileStamp before = io::stamp_of(f.path);
        std::string problem;
        f.digest = digest_file(f.path, problem, stop);
        if (f.stamp != io::FileStamp{} && f.stamp != before) {
          changed = "loaded " + std::to_string(i);  // since its loader read it
          break;
        }
        if (f.digest && io::stamp_of(f.path) != before) {
          changed = std::to_string(i);
          break;
        }
        f.stamp = before;
        wire += f.digest ? std::to_string(f.digest->bytes) + " " + f.digest->sha256 + "\n" : "-\n";
      }
    } catch (const Interrupted&) {
      changed = "stop";
    }
  }
  if (comm.size() > 1) {
    comm.broadcast(changed, 0);
    comm.broadcast(wire, 0);
  }
  if (changed == "stop") throw Interrupted("reading the input files was interrupted by a signal");
  if (changed.rfind("loaded ", 0) == 0) {
    const InputFile& f = files[std::stoul(changed.substr(7))];
    throw InputError(f.option, f.path,
                     "the file was written or replaced while the run read it: what was loaded "
                     "may not be what was recorded; run again");
  }
  if (!changed.empty()) {
    const InputFile& f = files[std::stoul(changed)];
    throw InputError(f.option, f.path,
                     "the file changed while it was read (written or replaced meanwhile): run "
                     "again once it is complete");
  }
  if (comm.is_root()) return;
  std::istringstream in(wire);
  for (InputFile& f : files) {
    std::string first;
    in >> first;
    f.digest.reset();
    if (first == "-") continue;
    ContentDigest d;
    d.bytes = std::stoull(first);
    in >> d.sha256;
    f.digest = d;
  }
}

std::string inputs_toml(const std::vector<InputFile>& files) {
  std::string s;
  for (const InputFile& f : files) {
    if (!f.digest) continue;
    s += f.key + " = { bytes = " + std::to_string(f.digest->bytes) + ", sha256 = \"" +
         f.digest->sha256 + "\", path = " + toml_string(f.path) + " }\n";
  }
  return s;
}

void refuse_changed_inputs(const std::string& recorded, const std::vector<InputFile>& files,
                           const std::string& restart_dir) {
  for (const InputFile& f : files) {
    if (!f.digest) continue;  // missing or not a file: its loader says so
    const std::optional<ContentDigest> then = recorded_digest(recorded, f.key);
    if (!then) {
      throw InputError(f.option, f.path,
                       "the checkpoint in '" + restart_dir +
                           "' records no contents of this file, so a restart cannot check "
                           "that it holds what the run began with");
    }
    if (*then != *f.digest) {
      throw InputError(f.option, f.path,
                       "its contents changed since the checkpoint in '" + restart_dir +
                           "' was written (then " + shown(*then) + "; now " + shown(*f.digest) +
                           "): restore the file the run began with, or run anew without "
                           "--restart");
    }
  }
}

void refuse_inputs_changed_since_digest(const Communicator& comm,
                                        const std::vector<InputFile>& files) {
  std::string index;
  std::string why;
  if (comm.is_root()) {
    for (std::size_t i = 0; i < files.size() && why.empty(); ++i) {
      const InputFile& f = files[i];
      if (!f.digest) {
        why =
            "is not a regular file: a run records what its input files hold, so that a "
            "restart can check them; copy it to a file";
      } else if (io::stamp_of(f.path) != f.stamp) {
        // Written, replaced or only touched: the contents decide. The same bytes before and
        // after the load are the bytes loaded.
        std::string problem;
        if (digest_file(f.path, problem) != f.digest) {
          why =
              "the file was written or replaced while the run read it: what was loaded may "
              "not be what was recorded; run again";
        }
      }
      if (!why.empty()) index = std::to_string(i);
    }
  }
  if (comm.size() > 1) {
    comm.broadcast(index, 0);
    comm.broadcast(why, 0);
  }
  if (why.empty()) return;
  const InputFile& f = files[std::stoul(index)];
  throw InputError(f.option, f.path, why);
}

}  // namespace wormnet::cli
