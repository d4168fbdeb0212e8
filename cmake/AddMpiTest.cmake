# wormnet_add_mpi_test(NAME <name> TARGET <target> RANKS <n>... [ARGS <arg>...]
#                      [FIXTURES_SETUP <fixture>] [TIMEOUT <seconds>])
#
# Registers one ctest test per rank count N, named <name>_np<N>, that runs
#   ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} N --oversubscribe ${MPIEXEC_PREFLAGS}
#       $<TARGET_FILE:target> ${MPIEXEC_POSTFLAGS} <args>
# with PROCESSORS N (so ctest -j does not overload the machine) and the environment that
# lets OpenMPI run as root (containers, CI). --oversubscribe lets 4 ranks share 2 cores.
# In ARGS, the text @NP@ is replaced by N (e.g. an output file per rank count).
# FIXTURES_SETUP <f> makes test <name>_np<N> the setup of fixture <f>_np<N>, so that a check
# of its output can require it.
function(wormnet_add_mpi_test)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "NAME;TARGET;FIXTURES_SETUP;TIMEOUT" "RANKS;ARGS")
  if(NOT arg_NAME OR NOT arg_TARGET OR NOT arg_RANKS)
    message(FATAL_ERROR "wormnet_add_mpi_test: NAME, TARGET and RANKS are required")
  endif()
  if(NOT arg_TIMEOUT)
    set(arg_TIMEOUT 300)
  endif()
  foreach(n IN LISTS arg_RANKS)
    set(args "")
    foreach(a IN LISTS arg_ARGS)
      string(REPLACE "@NP@" "${n}" a "${a}")
      list(APPEND args "${a}")
    endforeach()
    set(test_name ${arg_NAME}_np${n})
    add_test(NAME ${test_name}
             COMMAND ${MPIEXEC_EXECUTABLE} ${MPIEXEC_NUMPROC_FLAG} ${n} --oversubscribe
                     ${MPIEXEC_PREFLAGS} $<TARGET_FILE:${arg_TARGET}> ${MPIEXEC_POSTFLAGS}
                     ${args})
    set_tests_properties(${test_name} PROPERTIES
      PROCESSORS ${n}
      TIMEOUT ${arg_TIMEOUT}
      LABELS mpi
      ENVIRONMENT "${WORMNET_MPI_TEST_ENV}")
    if(arg_FIXTURES_SETUP)
      set_tests_properties(${test_name} PROPERTIES FIXTURES_SETUP ${arg_FIXTURES_SETUP}_np${n})
    endif()
  endforeach()
endfunction()
