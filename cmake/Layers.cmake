# One static library per layer of src/ (src/README.md), and the include trees that hold the
# map of the layers.
#
# wormnet_add_layer(<layer> <uses>...) makes wormnet_<layer> from src/<layer>/*.cpp, linked to
# the libraries of the layers it uses. Its sources see an include tree of their own,
# ${WORMNET_LAYER_VIEWS}/<layer>/wormnet/, with a link to include/wormnet/<x>/ for the layer
# itself and for every layer it uses, directly or through them (the headers of a layer it uses
# include theirs). A header of any other layer is then not found: an include that runs the
# wrong way fails to compile. Every public header of the layer is also compiled on its own in
# that tree (target wormnet_<layer>_headers, part of the build), which holds the headers that
# no source of their layer includes, and keeps each header self-contained.
#
# Sources still glob by directory, so that a new file named after its class needs no list edit.

set(WORMNET_LAYER_VIEWS ${PROJECT_BINARY_DIR}/layer_views)

# The layers `layer` may include: itself and the closure of its uses. The layers are declared
# bottom up, so the closures of its uses are known.
function(wormnet_layer_closure layer out)
  set(closure ${layer})
  foreach(use IN LISTS ARGN)
    list(APPEND closure ${WORMNET_CLOSURE_${use}})
  endforeach()
  list(REMOVE_DUPLICATES closure)
  set(${out} ${closure} PARENT_SCOPE)
endfunction()

function(wormnet_add_layer layer)
  set(uses ${ARGN})
  foreach(use IN LISTS uses)
    if(NOT TARGET wormnet_${use})
      message(FATAL_ERROR "layer ${layer} uses ${use}, which is not declared below it")
    endif()
  endforeach()
  wormnet_layer_closure(${layer} closure ${uses})
  set(WORMNET_CLOSURE_${layer} ${closure} CACHE INTERNAL "layers ${layer} may include")

  # The include tree: links made at configure time (rebuilt whole, so that a use removed from
  # the map disappears from the tree).
  set(view ${WORMNET_LAYER_VIEWS}/${layer})
  file(REMOVE_RECURSE ${view})
  file(MAKE_DIRECTORY ${view}/wormnet)
  foreach(x IN LISTS closure)
    file(CREATE_LINK ${PROJECT_SOURCE_DIR}/include/wormnet/${x} ${view}/wormnet/${x} SYMBOLIC)
  endforeach()

  file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/${layer}/*.cpp)
  add_library(wormnet_${layer} STATIC ${sources})
  target_include_directories(wormnet_${layer} PRIVATE ${view})
  target_compile_features(wormnet_${layer} PUBLIC cxx_std_20)
  target_link_libraries(wormnet_${layer} PRIVATE wormnet_warnings PUBLIC wormnet_sanitizers)
  foreach(use IN LISTS uses)
    target_link_libraries(wormnet_${layer} PUBLIC wormnet_${use})
  endforeach()

  # Each public header compiled alone, in the layer's tree.
  file(GLOB_RECURSE headers CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/include/wormnet/${layer}/*.hpp)
  set(checks "")
  foreach(h IN LISTS headers)
    file(RELATIVE_PATH rel ${PROJECT_SOURCE_DIR}/include ${h})
    string(MAKE_C_IDENTIFIER ${rel} id)
    set(check ${PROJECT_BINARY_DIR}/header_checks/${layer}/${id}.cpp)
    set(text "#include \"${rel}\"\n")
    # Written only when it changes, so that a configure does not rebuild every check.
    if(EXISTS ${check})
      file(READ ${check} old)
    else()
      set(old "")
    endif()
    if(NOT old STREQUAL text)
      file(WRITE ${check} ${text})
    endif()
    list(APPEND checks ${check})
  endforeach()
  if(checks)
    add_library(wormnet_${layer}_headers OBJECT ${checks})
    target_include_directories(wormnet_${layer}_headers PRIVATE ${view})
    # Part of the default build: a wrong-way include in a header fails it.
    target_link_libraries(wormnet_${layer}_headers PRIVATE wormnet_${layer} wormnet_warnings)
  endif()
endfunction()
