include(CMakePackageConfigHelpers)

get_property(EMBER_DOMAIN_TARGETS GLOBAL PROPERTY EMBER_DOMAIN_TARGETS)
install(TARGETS ember ember_torch_compat ${EMBER_DOMAIN_TARGETS} EXPORT EmberTargets
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ember/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ember
  FILES_MATCHING PATTERN "*.h" PATTERN "*.def")
install(DIRECTORY compat/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/ember-compat FILES_MATCHING PATTERN "*.h")
if(NOT BUILD_SHARED_LIBS)
  # A static libember needs its private dependencies exported too.
  install(TARGETS ember_deps EXPORT EmberTargets)
endif()
install(EXPORT EmberTargets NAMESPACE Ember:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Ember)

configure_package_config_file(cmake/EmberConfig.cmake.in ${PROJECT_BINARY_DIR}/EmberConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Ember)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/EmberConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/EmberConfig.cmake ${PROJECT_BINARY_DIR}/EmberConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Ember)

# The .pc file locates the prefix relative to itself, so an install moved or
# made with `cmake --install --prefix` still works.
file(RELATIVE_PATH EMBER_PC_PREFIX_REL "/p/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/p")
configure_file(cmake/ember.pc.in ${PROJECT_BINARY_DIR}/ember.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/ember.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
