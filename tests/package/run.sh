#!/usr/bin/env bash
# The three ways a CMake user consumes fbe (docs/cpp.md), each from a scratch
# folder: tests/package/consumer is configured, built and run
#
#   subdirectory  add_subdirectory(<fbe>): fbec from the source tree, no fbe tests
#   fetch         FetchContent_Declare(fbe SOURCE_DIR <fbe>) + FetchContent_MakeAvailable
#   installed     cmake --install of fbe into a prefix, find_package(fbe COMPONENTS json):
#                 fbec next to the package (<prefix>/bin/fbec, as `pip install --prefix`
#                 puts it), then the same package without it and fbec only on PATH
#
#   tests/package/run.sh SCRATCH_DIR [PYTHON]
# Goes on after a failing way; closes with `package: N passed, N failed, 0 skipped`.
set -uo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
scratch=$1
python=${2:-python3}
consumer=$repo/tests/package/consumer
jobs=${JOBS:-2}
rm -rf "$scratch" && mkdir -p "$scratch"
scratch=$(cd "$scratch" && pwd)
passed=0 failed=0

# run NAME COMMAND...: one step, its output in $scratch/NAME.log (shown when it fails)
run() {
  local name=$1; shift
  if "$@" >"$scratch/$name.log" 2>&1; then return 0; fi
  echo "package: $name failed: $*"; tail -30 "$scratch/$name.log"; return 1
}

# consume WAY BUILD_DIR [CMAKE ARGS...]: configure, build and run the consumer
consume() {
  local way=$1 build=$2; shift 2
  run "$way-configure" cmake -S "$consumer" -B "$build" -DFBE_HOW="${way%%-*}" -DFBE_SOURCE="$repo" "$@" \
    && run "$way-build" cmake --build "$build" -j"$jobs" \
    && run "$way-run" "$build/consumer" \
    && grep -h "fbe_generate() runs: " "$scratch/$way-configure.log" | sed "s|^-- |package: $way: |"
}

check() {  # check NAME COMMAND...: count one way
  local name=$1; shift
  if "$@"; then passed=$((passed + 1)); echo "package: $name ok"; else failed=$((failed + 1)); fi
}

# A stand-in for a pip-installed fbec: runs this tree's compiler.
make_fbec() {
  mkdir -p "$1"
  printf '#!/bin/sh\nPYTHONPATH=%s exec %s -m fbec "$@"\n' "$repo/compiler" "$(command -v "$python")" >"$1/fbec"
  chmod +x "$1/fbec"
}

installed() {
  local prefix=$scratch/prefix
  run install-configure cmake -S "$repo" -B "$scratch/fbe-build" -DFBE_BUILD_TESTS=OFF -DFBE_BUILD_EXAMPLES=OFF \
    && run install cmake --install "$scratch/fbe-build" --prefix "$prefix" || return 1
  if [ -e "$prefix/share/fbe" ]; then echo "package: the install holds a copy of the compiler ($prefix/share/fbe)"; return 1; fi
  make_fbec "$prefix/bin"
  consume installed-next "$scratch/installed-next" -DCMAKE_PREFIX_PATH="$prefix" || return 1
  grep -q "fbe_generate() runs: $prefix/bin/fbec$" "$scratch/installed-next-configure.log" \
    || { echo "package: fbe_generate() did not run the fbec next to the package"; return 1; }
  rm "$prefix/bin/fbec"
  make_fbec "$scratch/path-bin"
  PATH="$scratch/path-bin:$PATH" consume installed-path "$scratch/installed-path" -DCMAKE_PREFIX_PATH="$prefix" || return 1
  grep -q "fbe_generate() runs: $scratch/path-bin/fbec$" "$scratch/installed-path-configure.log" \
    || { echo "package: fbe_generate() did not run the fbec on PATH"; return 1; }
}

check subdirectory consume subdirectory "$scratch/subdirectory"
check fetch consume fetch "$scratch/fetch"
check installed installed
echo "package: $passed passed, $failed failed, 0 skipped"
[ "$failed" -eq 0 ]
