# fbe_generate(TARGET <target> SCHEMAS <file>... [FINAL] [JSON] [PROTO]
#              [IMPORT_DIRS <dir>...] [OUTPUT_DIR <dir>])
#
# Runs fbec (`python3 -m fbec --cpp`) on every schema at build time and adds
# the generated headers to <target>: its sources (so they are generated
# before it compiles), its include path and the runtime fbe::fbe. A schema is
# compiled again when it, any other schema of the call or the compiler
# changes.
#
# Generated files are named after the package, as the original's (package
# proto -> proto.h, proto_models.h, proto_final_models.h with FINAL); CMake
# asks fbec for the list (`fbec --list-outputs`) when it configures, and
# configures again when a schema changes.
# Imported packages are looked up in the schema's folder and IMPORT_DIRS;
# list imported schemas in SCHEMAS too so their headers are generated.
#
# FBE_COMPILER_DIR names the folder holding the fbec package (set by the
# project or by find_package(fbe)).

include_guard(GLOBAL)
find_package(Python3 REQUIRED COMPONENTS Interpreter)
# A cache entry, so fbe_generate() works from any directory scope.
set(FBE_PYTHON_EXECUTABLE "${Python3_EXECUTABLE}" CACHE FILEPATH "Python 3 that runs fbec")

function(fbe_generate)
  cmake_parse_arguments(FBE "FINAL;JSON;PROTO" "TARGET;OUTPUT_DIR" "SCHEMAS;IMPORT_DIRS" ${ARGN})
  if(NOT FBE_TARGET OR NOT TARGET ${FBE_TARGET})
    message(FATAL_ERROR "fbe_generate: TARGET must name an existing target (got '${FBE_TARGET}')")
  endif()
  if(NOT FBE_SCHEMAS)
    message(FATAL_ERROR "fbe_generate: no SCHEMAS given")
  endif()
  if(NOT FBE_COMPILER_DIR OR NOT EXISTS "${FBE_COMPILER_DIR}/fbec/__main__.py")
    message(FATAL_ERROR "fbe_generate: FBE_COMPILER_DIR ('${FBE_COMPILER_DIR}') does not hold the fbec package")
  endif()
  if(NOT FBE_OUTPUT_DIR)
    set(FBE_OUTPUT_DIR "${CMAKE_CURRENT_BINARY_DIR}/fbe_generated/${FBE_TARGET}")
  endif()
  file(MAKE_DIRECTORY "${FBE_OUTPUT_DIR}")

  set(options --cpp -q)
  if(FBE_FINAL)
    list(APPEND options --final)
  endif()
  if(FBE_JSON)
    list(APPEND options --json)
  endif()
  if(FBE_PROTO)
    list(APPEND options --proto)
  endif()
  foreach(dir IN LISTS FBE_IMPORT_DIRS)
    get_filename_component(dir "${dir}" ABSOLUTE)
    list(APPEND options "--import=${dir}")
  endforeach()

  file(GLOB_RECURSE compiler_sources CONFIGURE_DEPENDS "${FBE_COMPILER_DIR}/fbec/*.py")
  set(schemas)
  foreach(schema IN LISTS FBE_SCHEMAS)
    get_filename_component(schema "${schema}" ABSOLUTE)
    list(APPEND schemas "${schema}")
  endforeach()

  set(all_outputs)
  foreach(schema IN LISTS schemas)
    # The compiler itself names the files it writes (`--list-outputs` writes
    # nothing); run when CMake configures, again whenever the schema changes.
    execute_process(
      COMMAND ${CMAKE_COMMAND} -E env "PYTHONPATH=${FBE_COMPILER_DIR}"
              "${FBE_PYTHON_EXECUTABLE}" -m fbec ${options} --list-outputs "--input=${schema}" "--output=${FBE_OUTPUT_DIR}"
      OUTPUT_VARIABLE outputs
      ERROR_VARIABLE errors
      RESULT_VARIABLE status
      OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT status EQUAL 0)
      message(FATAL_ERROR "fbe_generate: fbec cannot compile ${schema}:\n${errors}")
    endif()
    string(REPLACE "\n" ";" outputs "${outputs}")
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${schema}")
    get_filename_component(schema_file "${schema}" NAME)
    add_custom_command(
      OUTPUT ${outputs}
      COMMAND ${CMAKE_COMMAND} -E env "PYTHONPATH=${FBE_COMPILER_DIR}"
              "${FBE_PYTHON_EXECUTABLE}" -m fbec ${options} "--input=${schema}" "--output=${FBE_OUTPUT_DIR}"
      # fbec leaves unchanged files untouched; touch them so the rule is satisfied.
      COMMAND ${CMAKE_COMMAND} -E touch_nocreate ${outputs}
      DEPENDS ${schemas} ${compiler_sources}
      COMMENT "fbec: generating C++ from ${schema_file}"
      VERBATIM)
    list(APPEND all_outputs ${outputs})
  endforeach()

  get_target_property(type ${FBE_TARGET} TYPE)
  if(type STREQUAL "INTERFACE_LIBRARY")
    set(scope INTERFACE)
  else()
    set(scope PUBLIC)
  endif()
  target_sources(${FBE_TARGET} PRIVATE ${all_outputs})
  target_include_directories(${FBE_TARGET} ${scope} "${FBE_OUTPUT_DIR}")
  if(TARGET fbe::fbe)
    target_link_libraries(${FBE_TARGET} ${scope} fbe::fbe)
  endif()
endfunction()
