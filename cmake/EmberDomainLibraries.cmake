# The domain libraries (../shared/DOMAIN_API.md; docs/architecture.md, "Domain
# libraries"): each folder ember/<domain>/ is the library libember_<domain>,
# target Ember::<domain>, linked on the core and on its own Debian dependencies
# only, which cmake/domains/<domain>.cmake finds and names. A program that uses
# only the core links only libember.

# ember_domain_library(<domain> [PRIVATE_DEPS targets...] [PUBLIC_DEPS targets...])
function(ember_domain_library domain)
  cmake_parse_arguments(ARG "" "" "PRIVATE_DEPS;PUBLIC_DEPS" ${ARGN})
  file(GLOB_RECURSE _srcs CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/ember/${domain}/*.cpp)
  if(NOT _srcs)
    return()
  endif()
  set(_t ember_${domain})
  add_library(${_t} ${_srcs})
  add_library(Ember::${domain} ALIAS ${_t})
  set_target_properties(${_t} PROPERTIES EXPORT_NAME ${domain} VERSION ${PROJECT_VERSION} SOVERSION 0)
  target_link_libraries(${_t} PUBLIC ember ${ARG_PUBLIC_DEPS} PRIVATE ${ARG_PRIVATE_DEPS})
  target_compile_options(${_t} PRIVATE -Wall -Wextra -Wno-unused-parameter -fvisibility-inlines-hidden ${EMBER_ISA_OPTIONS})
  if(BUILD_SHARED_LIBS AND CMAKE_SYSTEM_NAME STREQUAL "Linux")
    target_link_options(${_t} PRIVATE -Wl,-Bsymbolic-functions)
  endif()
  set_property(GLOBAL APPEND PROPERTY EMBER_DOMAIN_TARGETS ${_t})
endfunction()

foreach(_domain ${EMBER_DOMAIN_LIBRARIES})
  include(${PROJECT_SOURCE_DIR}/cmake/domains/${_domain}.cmake)
endforeach()
