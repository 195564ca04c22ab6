# ember::distributed (torch.distributed): collectives on Gloo over TCP.
find_package(Gloo CONFIG REQUIRED)
find_package(Threads REQUIRED)
ember_domain_library(distributed PRIVATE_DEPS gloo Threads::Threads)
# The launcher, bin/ember-run (torchrun's options), installed with the library.
if(EXISTS ${PROJECT_SOURCE_DIR}/tools/ember_run/CMakeLists.txt)
  add_subdirectory(${PROJECT_SOURCE_DIR}/tools/ember_run ${PROJECT_BINARY_DIR}/tools/ember_run)
endif()
