# Warnings live in an INTERFACE target that every wormnet target links privately.
add_library(wormnet_warnings INTERFACE)
target_compile_options(wormnet_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
    -Wold-style-cast -Wcast-align -Woverloaded-virtual
    -Wformat=2 -Wimplicit-fallthrough>)
option(WORMNET_WERROR "Treat warnings as errors" OFF)
if(WORMNET_WERROR)
  target_compile_options(wormnet_warnings INTERFACE -Werror)
endif()

# Sanitizers for the asan preset: AddressSanitizer + UndefinedBehaviorSanitizer.
option(WORMNET_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
add_library(wormnet_sanitizers INTERFACE)
if(WORMNET_SANITIZE)
  target_compile_options(wormnet_sanitizers INTERFACE
    -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  target_link_options(wormnet_sanitizers INTERFACE -fsanitize=address,undefined)
endif()

# The environment of tests whose processes start MPI: OpenMPI may run as root (containers,
# CI), and under the sanitizers LeakSanitizer needs its OpenMPI suppressions and the slow
# unwinder to match them (tests/lsan.supp). The asan preset's environment still sets
# fast_unwind_on_malloc=0 for every test: the io tests (one-rank MPI, discovered by
# gtest_discover_tests) cannot be given a multi-variable ENVIRONMENT, so the unit tests pay
# for it too.
set(WORMNET_MPI_TEST_ENV "OMPI_ALLOW_RUN_AS_ROOT=1;OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1")
if(WORMNET_SANITIZE)
  list(APPEND WORMNET_MPI_TEST_ENV
       "LSAN_OPTIONS=suppressions=${PROJECT_SOURCE_DIR}/tests/lsan.supp:fast_unwind_on_malloc=0:print_suppressions=0")
endif()
