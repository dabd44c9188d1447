#!/usr/bin/env bash
# Makes the project's virtual environment and installs requirement groups into it:
#
#   tools/venv.sh PYTHON VENV [GROUP...]      GROUP names tools/requirements/GROUP.txt
#
# PYTHON is any Python 3.10 or newer, Debian's /usr/bin/python3 included: every
# package goes into VENV, never into PYTHON itself (PEP 668 forbids that on
# Debian, and a tool installed into one interpreter is no use to another).
# VENV is made again when PYTHON is another interpreter than the one it was made
# from; a group is installed again when its requirement file changes.
set -euo pipefail
python=$1 venv=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)

if ! command -v "$python" >/dev/null 2>&1; then
  echo "error: PYTHON=$python: no such interpreter" >&2; exit 1
fi
if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 10))'; then
  echo "error: PYTHON=$python is Python $("$python" -V 2>&1); the project needs Python 3.10 or newer" >&2; exit 1
fi

for group in "$@"; do
  [ -f "$here/requirements/$group.txt" ] || { echo "error: no requirement file $here/requirements/$group.txt" >&2; exit 1; }
done

# An interpreter is its base installation and its version: a venv made from
# PYTHON, or from a venv of PYTHON's installation, has the same identity.
identity() { "$1" -c 'import sys; print(sys.base_prefix, *sys.version_info[:3])'; }
want=$(identity "$python")
if [ -e "$venv" ] && [ "$(identity "$venv/bin/python" 2>/dev/null || true)" != "$want" ]; then
  echo "venv: $venv was not made from $python; making it again"
  rm -rf "$venv"
fi

if [ ! -x "$venv/bin/python" ]; then
  echo "venv: making $venv from $python ($("$python" -V 2>&1))"
  mkdir -p "$(dirname "$venv")"
  if ! err=$("$python" -m venv "$venv" 2>&1); then
    rm -rf "$venv"
    # Debian ships venv's pip bootstrap (ensurepip) in a package of its own.
    if [ "$("$python" -c 'import sys; print(sys.base_prefix)')" = /usr ] && command -v dpkg-query >/dev/null; then
      version=$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
      "$here/need-apt.sh" python3-venv "python$version-venv"
      "$python" -m venv "$venv"
    else
      echo "$err" >&2
      echo "error: $python cannot make a virtual environment (python -m venv failed)" >&2; exit 1
    fi
  fi
fi

for group in "$@"; do
  requirements=$here/requirements/$group.txt
  stamp=$venv/.fbe-requirements-$group.txt
  # The stamp is a copy of the requirement file that was installed.
  if [ -f "$stamp" ] && cmp -s "$requirements" "$stamp"; then continue; fi
  echo "venv: installing the $group packages into $venv: $(grep -v '^#' "$requirements" | tr '\n' ' ')"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$requirements"
  cp "$requirements" "$stamp"
done
