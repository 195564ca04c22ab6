# Note [Native instruction set]
# Ember is built from source on the machine that runs it (README), so by
# default the library is compiled for the x86-64 micro-architecture level of
# the build machine's CPU: x86-64-v4 (AVX-512) or x86-64-v3 (AVX2 + FMA), read
# from /proc/cpuinfo. That widens every loop GCC vectorises — the elementwise
# loop engine, copies, reductions' inner loops — from SSE2's four floats to
# sixteen: relu over [64, 32, 28, 28] 191 -> 101 us, the M1 training step
# about 5 % faster (BENCHMARKS.md). Kernels written with intrinsics
# (*_avx512.cpp, *_avx2.cpp, flags set per file in CMakeLists.txt) are chosen
# at run time by the CPU capability (Note [CPU capability]) and serve baseline
# builds; EMBER_CPU_CAPABILITY forces their level, not this one.
# The level is named explicitly, not -march=native, so ccache's key records it.
# -ffp-contract=off: no a * b + c is fused into an FMA, so results do not
# depend on the build machine (and match the baseline build bit for bit).
# EMBER_NATIVE_ISA=OFF builds for baseline x86-64, for binaries that must run
# on other machines.
option(EMBER_NATIVE_ISA "Compile the library for the build machine's x86-64 level (v3/v4)" ON)

# Sets ${out} to TRUE when every CPU flag after it is in ${flags}.
function(_ember_cpu_has out flags)
  set(ok TRUE)
  foreach(f ${ARGN})
    if(NOT flags MATCHES " ${f} ")
      set(ok FALSE)
    endif()
  endforeach()
  set(${out} ${ok} PARENT_SCOPE)
endfunction()

# Sets ${out} to the compile options for the level, or empty.
function(ember_native_isa_options out)
  set(${out} "" PARENT_SCOPE)
  if(NOT EMBER_NATIVE_ISA OR NOT CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64" OR NOT EXISTS /proc/cpuinfo)
    return()
  endif()
  file(STRINGS /proc/cpuinfo flags REGEX "^flags" LIMIT_COUNT 1)
  set(flags "${flags} ")
  _ember_cpu_has(v3 "${flags}" avx avx2 bmi1 bmi2 f16c fma abm movbe xsave)
  _ember_cpu_has(v4 "${flags}" avx512f avx512bw avx512cd avx512dq avx512vl)
  set(level "")
  if(v3 AND v4)
    set(level x86-64-v4)
  elseif(v3)
    set(level x86-64-v3)
  endif()
  if(level)
    message(STATUS "Ember: compiling the library for ${level} (EMBER_NATIVE_ISA)")
    set(${out} "-march=${level};-ffp-contract=off" PARENT_SCOPE)
  endif()
endfunction()
