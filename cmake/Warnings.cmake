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
