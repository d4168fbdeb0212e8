# The build version (project version + git revision) is stored in every output file. The
# revision is read at build time (cmake/WriteGitSha.cmake), so it follows commits made after
# configuring; this finds git for it.
find_package(Git QUIET)
if(NOT GIT_FOUND)
  set(GIT_EXECUTABLE "")
endif()
