# ember::distributed (torch.distributed): collectives on Gloo over TCP, and on
# MPI (Debian's Open MPI) when it is installed: the "mpi" backend is optional.
find_package(Gloo CONFIG REQUIRED)
find_package(Threads REQUIRED)
find_package(MPI COMPONENTS C QUIET)
ember_domain_library(distributed PRIVATE_DEPS gloo Threads::Threads)
# ember/distributed/mpi/ is the backend; mpi_unavailable.cpp stands in for it without MPI.
file(GLOB _ember_mpi_srcs CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/ember/distributed/mpi/*.cpp)
if(TARGET ember_distributed)
  if(MPI_C_FOUND)
    target_link_libraries(ember_distributed PRIVATE MPI::MPI_C)
    set_source_files_properties(${PROJECT_SOURCE_DIR}/ember/distributed/mpi_unavailable.cpp
                                PROPERTIES HEADER_FILE_ONLY TRUE)
    message(STATUS "ember::distributed: the mpi backend uses MPI ${MPI_C_VERSION} (${MPI_C_LIBRARIES})")
  else()
    set_source_files_properties(${_ember_mpi_srcs} PROPERTIES HEADER_FILE_ONLY TRUE)
    message(STATUS "ember::distributed: MPI not found; building without the mpi backend (install libopenmpi-dev)")
  endif()
endif()
# The launcher, bin/ember-run (torchrun's options), installed with the library.
if(EXISTS ${PROJECT_SOURCE_DIR}/tools/ember_run/CMakeLists.txt)
  add_subdirectory(${PROJECT_SOURCE_DIR}/tools/ember_run ${PROJECT_BINARY_DIR}/tools/ember_run)
endif()
