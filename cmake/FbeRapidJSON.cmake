# fbe_link_rapidjson(<target>): adds RapidJSON, the JSON
# library of the generated <package>_json.h, to an INTERFACE target. RapidJSON
# comes from its own CMake package (RapidJSONConfig.cmake: Debian's
# rapidjson-dev, vcpkg, Conan), which the caller has found: its imported
# target when the package defines one, else its include directories.
include_guard(GLOBAL)

function(fbe_link_rapidjson target)
  set(libraries)
  if(TARGET RapidJSON::RapidJSON)
    set(libraries RapidJSON::RapidJSON)
  elseif(TARGET rapidjson)
    set(libraries rapidjson)
  elseif(RapidJSON_INCLUDE_DIRS OR RAPIDJSON_INCLUDE_DIRS)
    set(includes ${RapidJSON_INCLUDE_DIRS} ${RAPIDJSON_INCLUDE_DIRS})
  else()
    message(FATAL_ERROR "fbe: the RapidJSON package names neither a target nor include directories")
  endif()
  if(libraries)
    target_link_libraries(${target} INTERFACE ${libraries})
  else()
    target_include_directories(${target} SYSTEM INTERFACE ${includes})
  endif()
endfunction()
