# Every dependency comes from a Debian package (scripts/install-deps.sh).
find_package(OpenMP REQUIRED)
find_package(PkgConfig REQUIRED)

# OpenBLAS, OpenMP variant: one thread pool shared with oneDNN and Ember.
set(EMBER_OPENBLAS_DIR /usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/openblas-openmp)
find_library(OPENBLAS_LIB NAMES openblas PATHS ${EMBER_OPENBLAS_DIR} NO_DEFAULT_PATH REQUIRED)
find_path(CBLAS_INCLUDE_DIR cblas.h PATHS /usr/include/${CMAKE_LIBRARY_ARCHITECTURE}/openblas-openmp NO_DEFAULT_PATH REQUIRED)
# LAPACKE (C interface to LAPACK) for ember::linalg. The LAPACK routines come
# from OpenBLAS: libopenblas (a direct dependency) exports them and is searched
# before liblapacke's own liblapack.so.3, which Debian points at OpenBLAS too.
find_library(LAPACKE_LIB NAMES lapacke REQUIRED)
find_path(LAPACKE_INCLUDE_DIR lapacke.h REQUIRED)
find_library(SLEEF_LIB NAMES sleef REQUIRED)
find_path(SLEEF_INCLUDE_DIR sleef.h REQUIRED)
find_package(dnnl CONFIG REQUIRED)
# zlib for gzipped IDX files, zlib's minizip for PyTorch's zip checkpoints (Note [Reading
# zip archives]: libzip pulled in libcrypto), nlohmann-json
# for safetensors headers (header-only).
find_package(ZLIB REQUIRED)
pkg_check_modules(MINIZIP REQUIRED IMPORTED_TARGET minizip)
find_package(nlohmann_json 3 REQUIRED)
# KissFFT (BSD): the float library for float32 transforms; float64 uses the
# header-only kissfft<double> template installed by the same package.
find_package(kissfft CONFIG REQUIRED COMPONENTS SHARED float)
# Boost.Math (header-only) for the special functions the C++ library lacks (polygamma).
find_package(Boost 1.74 CONFIG REQUIRED)

add_library(ember_deps INTERFACE)
target_include_directories(ember_deps INTERFACE ${CBLAS_INCLUDE_DIR} ${SLEEF_INCLUDE_DIR})
target_include_directories(ember_deps INTERFACE ${LAPACKE_INCLUDE_DIR})
target_link_libraries(ember_deps INTERFACE ${LAPACKE_LIB})
target_link_libraries(ember_deps INTERFACE ${OPENBLAS_LIB} ${SLEEF_LIB} DNNL::dnnl ZLIB::ZLIB PkgConfig::MINIZIP
                      nlohmann_json::nlohmann_json kissfft::kissfft-float Boost::headers)
# The loader must pick the OpenMP build of OpenBLAS even when the system's
# alternative points at the pthreads build: pin its directory in the rpath.
set(CMAKE_BUILD_RPATH ${EMBER_OPENBLAS_DIR})
set(CMAKE_INSTALL_RPATH ${EMBER_OPENBLAS_DIR})
