# Run at every build (cmake -P), not only at configure time: writes OUT, a source file that
# defines wormnet::build_git_sha(), with the checkout's revision ("-dirty" when tracked files
# differ from it). OUT is replaced only when that text changes, so a commit is seen without
# re-configuring and an unchanged checkout rebuilds nothing. Inputs: SOURCE_DIR, OUT and
# GIT_EXECUTABLE (empty when git is missing: the revision is "unknown").
set(sha "unknown")
if(GIT_EXECUTABLE AND EXISTS "${SOURCE_DIR}/.git")
  execute_process(COMMAND "${GIT_EXECUTABLE}" rev-parse --short=12 HEAD
                  WORKING_DIRECTORY "${SOURCE_DIR}"
                  OUTPUT_VARIABLE head OUTPUT_STRIP_TRAILING_WHITESPACE
                  ERROR_QUIET RESULT_VARIABLE rc)
  if(rc EQUAL 0)
    set(sha "${head}")
    execute_process(COMMAND "${GIT_EXECUTABLE}" diff --quiet HEAD --
                    WORKING_DIRECTORY "${SOURCE_DIR}" OUTPUT_QUIET ERROR_QUIET
                    RESULT_VARIABLE dirty)
    if(dirty EQUAL 1)
      string(APPEND sha "-dirty")
    endif()
  endif()
endif()
file(WRITE "${OUT}.tmp"
     "// Generated at build time by cmake/WriteGitSha.cmake: do not edit.\n"
     "#include \"build_version.hpp\"\n\n"
     "const char* wormnet::build_git_sha() { return \"${sha}\"; }\n")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.tmp")
