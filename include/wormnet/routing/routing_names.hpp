// Every routing's name, spelled once: the registry's entries (routing_registry.cpp) and the
// routings' name() both read these, so the name a routing reports is its entry's.
#pragma once

namespace wormnet::routing_name {

inline constexpr const char* kStojmenovic = "stojmenovic";
inline constexpr const char* kXyFirst = "xy-first";
inline constexpr const char* kDoubleXy = "double-xy";
inline constexpr const char* kDoubleXyTurn = "double-xy-turn";
inline constexpr const char* kStojmenovicDateline = "stojmenovic-dateline";
inline constexpr const char* kDoubleXyDateline = "double-xy-dateline";
inline constexpr const char* kMinimalAdaptive = "minimal-adaptive";
inline constexpr const char* kXy = "xy";
inline constexpr const char* kWestFirst = "west-first";
inline constexpr const char* kDor = "dor";
inline constexpr const char* kDorDateline = "dor-dateline";
inline constexpr const char* kDorDatelineDest = "dor-dateline-dest";
inline constexpr const char* kDorRingClass = "dor-ring-class";
inline constexpr const char* kDorBooksim = "dor-booksim";
inline constexpr const char* kDorBalanced = "dor-balanced";
inline constexpr const char* kAngara = "angara";
inline constexpr const char* kTable = "table";
inline constexpr const char* kDuato = "duato";

}  // namespace wormnet::routing_name
