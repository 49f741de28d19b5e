# cmake -DRUNG=<rung binary> -DOUT=<rung.1> -P cmake/man.cmake
# The man page, generated from the option tables by the binary just built
# (`rung help --man`), so that it cannot drift from `rung CMD --help`.
execute_process(COMMAND "${RUNG}" help --man OUTPUT_FILE "${OUT}.tmp" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  file(REMOVE "${OUT}.tmp")
  message(FATAL_ERROR "rung help --man failed (${rc})")
endif()
file(RENAME "${OUT}.tmp" "${OUT}")
