#include "wormnet/core/number_text.hpp"

#include <cstdio>

namespace wormnet {

std::string number_text(double v) {
  char buf[32];  // "%g" writes at most 13 characters ("-1.23457e+308")
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

}  // namespace wormnet
