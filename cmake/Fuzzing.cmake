# Fuzz targets (tests/fuzz): -DWORMNET_FUZZ=ON with clang, which has libFuzzer (the `fuzz`
# preset). Everything is then compiled with the coverage instrumentation libFuzzer needs
# (-fsanitize=fuzzer-no-link) besides ASan + UBSan; only the fuzz targets link libFuzzer.
# When the compiler cannot build a libFuzzer program, the fuzz tests are registered as
# skipped (see tests/fuzz/CMakeLists.txt) and nothing else changes.
option(WORMNET_FUZZ "Build the libFuzzer targets of tests/fuzz (clang)" OFF)
set(WORMNET_HAVE_LIBFUZZER OFF)
if(WORMNET_FUZZ)
  include(CheckCXXSourceCompiles)
  set(CMAKE_REQUIRED_FLAGS "-fsanitize=fuzzer")
  check_cxx_source_compiles(
    "#include <cstddef>\n#include <cstdint>\nextern \"C\" int LLVMFuzzerTestOneInput(const std::uint8_t*, std::size_t) { return 0; }"
    WORMNET_LIBFUZZER_WORKS)
  unset(CMAKE_REQUIRED_FLAGS)
  if(WORMNET_LIBFUZZER_WORKS)
    set(WORMNET_HAVE_LIBFUZZER ON)
    target_compile_options(wormnet_sanitizers INTERFACE -fsanitize=fuzzer-no-link)
  else()
    message(STATUS "WORMNET_FUZZ: ${CMAKE_CXX_COMPILER_ID} cannot link a libFuzzer program "
                   "(-fsanitize=fuzzer): the fuzz tests will be skipped; use clang")
  endif()
endif()
