# fbe_generate(TARGET <target> SCHEMAS <file>... [FINAL] [JSON] [PROTO]
#              [IMPORT_DIRS <dir>...] [OUTPUT_DIR <dir>])
#
# Runs fbec --cpp on every schema at build time and adds the generated
# headers to <target>: its sources (so they are generated before it
# compiles), its include path and the runtime fbe::fbe (fbe::json with JSON,
# which brings RapidJSON). A schema is compiled again when it, any other
# schema of the call or the compiler changes.
#
# Generated files are named after the package, as the original's (package
# proto -> proto.h, proto_models.h, proto_final_models.h with FINAL); CMake
# asks fbec for the list (`fbec --list-outputs`) when it configures, and
# configures again when a schema changes.
# Imported packages are looked up in the schema's folder and IMPORT_DIRS;
# list imported schemas in SCHEMAS too so their headers are generated.
#
# Which fbec runs, one rule (docs/cpp.md):
#   1. FBE_FBEC when set (-DFBE_FBEC=/path/to/fbec);
#   2. else the fbec that comes with the package: the source tree's compiler/
#      when fbe is used from source (add_subdirectory, FetchContent; run as
#      `python3 -m fbec`), <prefix>/bin/fbec of an installed package;
#   3. else the first fbec on PATH.
# FBE_COMPILER_DIR (set by the source tree's CMakeLists.txt) names the
# source tree's compiler/; FBE_FBEC_HINTS (set by find_package(fbe)) the
# installed package's bin folder.

include_guard(GLOBAL)
if(FBE_COMPILER_DIR)
  find_package(Python3 REQUIRED COMPONENTS Interpreter)
  # A cache entry, so fbe_generate() works from any directory scope.
  set(FBE_PYTHON_EXECUTABLE "${Python3_EXECUTABLE}" CACHE FILEPATH "Python 3 that runs fbec")
endif()

# _fbe_compiler(<command var> <depends var>): the command line that runs fbec
# and the files a generation rule depends on, by the rule above.
function(_fbe_compiler command_var depends_var)
  if(FBE_FBEC)
    set(command "${FBE_FBEC}")
    set(depends "${FBE_FBEC}")
  elseif(FBE_COMPILER_DIR AND EXISTS "${FBE_COMPILER_DIR}/fbec/__main__.py")
    set(command ${CMAKE_COMMAND} -E env "PYTHONPATH=${FBE_COMPILER_DIR}" "${FBE_PYTHON_EXECUTABLE}" -m fbec)
    file(GLOB_RECURSE depends CONFIGURE_DEPENDS "${FBE_COMPILER_DIR}/fbec/*.py")
  else()
    find_program(FBE_FBEC fbec HINTS ${FBE_FBEC_HINTS} DOC "the fbec that fbe_generate() runs")
    if(NOT FBE_FBEC)
      message(FATAL_ERROR "fbe_generate: no fbec found next to the package (${FBE_FBEC_HINTS}) or on PATH: "
              "install the compiler (`pip install .` in a checkout of fbe) "
              "or pass -DFBE_FBEC=/path/to/fbec")
    endif()
    set(command "${FBE_FBEC}")
    set(depends "${FBE_FBEC}")
  endif()
  get_property(told GLOBAL PROPERTY _FBE_COMPILER_TOLD)
  if(NOT told)
    set_property(GLOBAL PROPERTY _FBE_COMPILER_TOLD TRUE)
    list(JOIN command " " shown)
    message(STATUS "fbe_generate() runs: ${shown}")
  endif()
  set(${command_var} "${command}" PARENT_SCOPE)
  set(${depends_var} "${depends}" PARENT_SCOPE)
endfunction()

function(fbe_generate)
  cmake_parse_arguments(FBE "FINAL;JSON;PROTO" "TARGET;OUTPUT_DIR" "SCHEMAS;IMPORT_DIRS" ${ARGN})
  if(NOT FBE_TARGET OR NOT TARGET ${FBE_TARGET})
    message(FATAL_ERROR "fbe_generate: TARGET must name an existing target (got '${FBE_TARGET}')")
  endif()
  if(NOT FBE_SCHEMAS)
    message(FATAL_ERROR "fbe_generate: no SCHEMAS given")
  endif()
  if(FBE_JSON AND NOT TARGET fbe::json)
    message(FATAL_ERROR "fbe_generate: JSON needs fbe::json (the runtime with RapidJSON): "
            "find_package(fbe CONFIG REQUIRED COMPONENTS json), or install RapidJSON (rapidjson-dev) "
            "when fbe is a subdirectory")
  endif()
  _fbe_compiler(fbec compiler_sources)
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
      COMMAND ${fbec} ${options} --list-outputs "--input=${schema}" "--output=${FBE_OUTPUT_DIR}"
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
      COMMAND ${fbec} ${options} "--input=${schema}" "--output=${FBE_OUTPUT_DIR}"
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
  if(FBE_JSON)
    target_link_libraries(${FBE_TARGET} ${scope} fbe::json)
  elseif(TARGET fbe::fbe)
    target_link_libraries(${FBE_TARGET} ${scope} fbe::fbe)
  endif()
endfunction()
