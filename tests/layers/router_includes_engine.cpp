// Compiled by the test layers.wrong_way_include (tests/CMakeLists.txt) in the include trees of
// two layers: the router's, where the engine's header must not be found (the router is below
// the engine in src/README.md's map), and the engine's, where it compiles (the control).
#include "wormnet/engine/rank_model.hpp"
