# Code generation for every target of the project (the library, the tools and the tests alike).

# Results must not depend on the instruction set a build targets: C++ lets GCC fuse a * b + c
# into one rounding (-ffp-contract=fast is its default except for ISO C), wherever the
# target has FMA instructions, so a tuned build could differ from a portable one in the last
# bit of a statistic. Off, every operation rounds as written, on every processor.
add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-ffp-contract=off>)

# A build for the processor it runs on (AVX, BMI and the rest): faster per rank, with the same
# results (-ffp-contract=off above; the figure is in docs/scaling-history.md). The binary may not start on an older processor: build it on (or for)
# the compute nodes.
option(WORMNET_NATIVE "Tune the code for this machine's processor (-march=native)" OFF)
if(WORMNET_NATIVE)
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-march=native>)
endif()

# Cache hints (core/prefetch.hpp, asked for by the engine's prefetch plan,
# engine/prefetch_plan.hpp): ON for speed on ranks too large for the caches. OFF builds every
# hint out (the sanitizer preset: a sanitized build measures no speed). Results are the same
# either way (the test engine.hints_identical compares two such builds).
option(WORMNET_PREFETCH_HINTS "Cache hints in the engine's walk (no effect on any result)" ON)
if(WORMNET_PREFETCH_HINTS)
  add_compile_definitions(WORMNET_PREFETCH_HINTS=1)
else()
  add_compile_definitions(WORMNET_PREFETCH_HINTS=0)
endif()
