# Runs vision_detect on the fixture and compares what it prints with
# torchvision's (tiny_ssd.expected): the words, counts and labels exactly, the
# scores and boxes to 10 units of their last printed digit (float noise
# between the two libraries).
execute_process(COMMAND ${EXE} ${FIXTURE}/tiny_ssd.pth ${FIXTURE}/shapes.jpg ${OUT} 0.5 tiny_ssd
                OUTPUT_VARIABLE actual ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "vision_detect failed (${rc}): ${err}")
endif()
if(NOT EXISTS ${OUT})
  message(FATAL_ERROR "vision_detect wrote no ${OUT}")
endif()
file(READ ${FIXTURE}/tiny_ssd.expected expected)

function(split_numbers text skeleton_var numbers_var)
  string(REGEX MATCHALL "-?[0-9]+(\\.[0-9]+)?" nums "${text}")
  string(REGEX REPLACE "-?[0-9]+(\\.[0-9]+)?" "#" skel "${text}")
  set(${skeleton_var} "${skel}" PARENT_SCOPE)
  set(${numbers_var} "${nums}" PARENT_SCOPE)
endfunction()

split_numbers("${actual}" actual_skel actual_nums)
split_numbers("${expected}" expected_skel expected_nums)
if(NOT actual_skel STREQUAL expected_skel)
  message(FATAL_ERROR "vision_detect printed\n${actual}\nexpected\n${expected}")
endif()
foreach(a e IN ZIP_LISTS actual_nums expected_nums)
  # Counts and labels are exact.
  if(NOT a MATCHES "\\." OR NOT e MATCHES "\\.")
    if(NOT a STREQUAL e)
      message(FATAL_ERROR "vision_detect printed ${a} where torchvision gives ${e}:\n${actual}\nexpected\n${expected}")
    endif()
    continue()
  endif()
  # Both are printed with the same decimals: compare them as integers in units of the last digit.
  foreach(v a e)
    string(REPLACE "." "" ${v}_int "${${v}}")
    string(REGEX REPLACE "^(-?)0+([0-9])" "\\1\\2" ${v}_int "${${v}_int}")
  endforeach()
  math(EXPR diff "${a_int} - ${e_int}")
  if(diff GREATER 10 OR diff LESS -10)
    message(FATAL_ERROR "vision_detect printed ${a} where torchvision gives ${e}:\n${actual}\nexpected\n${expected}")
  endif()
endforeach()
message(STATUS "vision_detect matches torchvision:\n${actual}")
