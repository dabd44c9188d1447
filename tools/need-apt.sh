#!/usr/bin/env bash
# Installs the Debian packages given as arguments that are not installed yet.
# Used by every make fragment so `make test` / `make bench` set themselves up.
set -euo pipefail
missing=()
for pkg in "$@"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing Debian packages: ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null; then SUDO=sudo; else
    echo "error: missing Debian packages ${missing[*]}; install them as root: apt-get install ${missing[*]}" >&2; exit 1
  fi
fi
stamp=/var/lib/apt/periodic/fbe-apt-updated
if [ ! -f "$stamp" ] || [ -n "$(find "$stamp" -mmin +600 2>/dev/null)" ]; then
  ${SUDO:-} apt-get update -qq && ${SUDO:-} mkdir -p "$(dirname "$stamp")" && ${SUDO:-} touch "$stamp"
fi
DEBIAN_FRONTEND=noninteractive ${SUDO:-} apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
