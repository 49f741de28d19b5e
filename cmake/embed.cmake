# The example tasks embedded in the binary for `rung demo` (app/demo_data.h):
# examples/sgemm/** and examples/softmax/** (rung.ini, reference.cu, ladder/,
# ladder.txt, recorded.jsonl when present) become a generated C table in the
# build dir, compiled into the static library rung_demo_data.
# The file list is globbed with CONFIGURE_DEPENDS (a new or removed file
# re-runs CMake); the table is regenerated when any listed file changes.

set(RUNG_EMBED_TASKS sgemm softmax)
set(RUNG_EMBED_FILES "")
foreach(task ${RUNG_EMBED_TASKS})
  file(GLOB _files CONFIGURE_DEPENDS
    ${CMAKE_SOURCE_DIR}/examples/${task}/rung.ini
    ${CMAKE_SOURCE_DIR}/examples/${task}/reference.cu
    ${CMAKE_SOURCE_DIR}/examples/${task}/ladder.txt
    ${CMAKE_SOURCE_DIR}/examples/${task}/recorded.jsonl
    ${CMAKE_SOURCE_DIR}/examples/${task}/ladder/*)
  list(SORT _files)
  list(APPEND RUNG_EMBED_FILES ${_files})
endforeach()
# the Triton step of the softmax ladder (05-triton): present once triton_softmax.py's
# output is committed (bench/h200_triton.sh); without it the demo leaves the step out
file(GLOB _files CONFIGURE_DEPENDS
  ${CMAKE_SOURCE_DIR}/examples/softmax-triton/softmax.ptx
  ${CMAKE_SOURCE_DIR}/examples/softmax-triton/softmax.json)
list(APPEND RUNG_EMBED_FILES ${_files})
list(APPEND RUNG_EMBED_FILES ${CMAKE_SOURCE_DIR}/examples/README.md)

set(RUNG_EMBED_LIST ${CMAKE_BINARY_DIR}/rung_demo_files.txt)
set(RUNG_EMBED_OUT ${CMAKE_BINARY_DIR}/rung_demo_data.c)
string(REPLACE ";" "\n" _list "${RUNG_EMBED_FILES}")
file(CONFIGURE OUTPUT ${RUNG_EMBED_LIST} CONTENT "${_list}\n")

add_custom_command(OUTPUT ${RUNG_EMBED_OUT}
  COMMAND ${CMAKE_COMMAND} -DROOT=${CMAKE_SOURCE_DIR}/examples -DLIST=${RUNG_EMBED_LIST}
          -DOUT=${RUNG_EMBED_OUT} -P ${CMAKE_SOURCE_DIR}/cmake/embed_gen.cmake
  DEPENDS ${RUNG_EMBED_FILES} ${RUNG_EMBED_LIST} ${CMAKE_SOURCE_DIR}/cmake/embed_gen.cmake
  COMMENT "Embedding the demo examples"
  VERBATIM)
add_library(rung_demo_data STATIC ${RUNG_EMBED_OUT})
target_include_directories(rung_demo_data PRIVATE ${CMAKE_SOURCE_DIR})
