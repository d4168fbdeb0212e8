// A number as the messages show it.
#pragma once

#include <string>

namespace wormnet {

/// `v` printed with "%g" (six significant digits, an exponent for very large or small values:
/// 1e-06, 2e+09, inf, nan): how an error message or a summary names a real number.
std::string number_text(double v);

}  // namespace wormnet
