#!/usr/bin/env bash
# Installs the PyPI packages given as arguments (import name=pip name, or one name
# for both) that the current python3 cannot import yet.
set -euo pipefail
missing=()
for spec in "$@"; do
  mod=${spec%%=*}; pkg=${spec#*=}
  python3 -c "import $mod" 2>/dev/null || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing PyPI packages: ${missing[*]}"
python3 -m pip install -q "${missing[@]}"
