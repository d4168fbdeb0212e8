# Every dependency comes from a Debian package through find_package: no downloads at build time.
find_package(MPI REQUIRED COMPONENTS CXX)

set(HDF5_PREFER_PARALLEL ON)
find_package(HDF5 REQUIRED COMPONENTS C)
if(NOT HDF5_IS_PARALLEL)
  message(FATAL_ERROR "wormnet needs a parallel HDF5 build (Debian: libhdf5-openmpi-dev)")
endif()

find_package(CLI11 CONFIG REQUIRED)

# SHA-256 of input files (core/content_digest.hpp). Debian: libssl-dev, which the parallel
# HDF5 package depends on already.
find_package(OpenSSL REQUIRED COMPONENTS Crypto)

find_package(PkgConfig QUIET)
find_library(METIS_LIBRARY metis)
find_path(METIS_INCLUDE_DIR metis.h)
if(METIS_LIBRARY AND METIS_INCLUDE_DIR)
  set(WORMNET_HAVE_METIS ON)
  add_library(wormnet_metis INTERFACE)
  target_include_directories(wormnet_metis INTERFACE ${METIS_INCLUDE_DIR})
  target_link_libraries(wormnet_metis INTERFACE ${METIS_LIBRARY})
else()
  set(WORMNET_HAVE_METIS OFF)
endif()
