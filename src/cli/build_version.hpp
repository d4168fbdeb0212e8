// What built this binary: stored in every output file and compared on --restart.
#pragma once

#include <string>

namespace wormnet {

/// The git revision of the sources at build time (12 hex digits, "-dirty" when tracked files
/// differed from it; "unknown" outside a git checkout). Defined in a file generated at every
/// build, so it is never older than the last commit.
const char* build_git_sha();

/// "<project version> (<revision>)", as printed by --version.
inline std::string build_version() {
  return std::string(WORMNET_VERSION) + " (" + build_git_sha() + ")";
}

}  // namespace wormnet
