#!/usr/bin/env bash
# Does README's apt-get line install, on a fresh Debian 12 machine, every package the configured build
# loaded? It does not rely on what this machine happens to have installed: for each package
# configuration CMake loaded (every <Package>_DIR in CMakeCache.txt) it finds the Debian package that owns
# it (dpkg -S) and checks that package is in the dependency closure of README's list, following Depends
# and Pre-Depends only (the README installs with --no-install-recommends).
# Usage: check_install_closure.sh README.md BUILD_DIR     exit 0 ok, 1 packages missing, 2 cannot check
set -u
readme=$1; build=$2
[ -f "$build/CMakeCache.txt" ] || { echo "no $build/CMakeCache.txt: configure the build first"; exit 2; }
command -v dpkg >/dev/null && command -v apt-cache >/dev/null || { echo "dpkg/apt-cache not found: not a Debian system"; exit 2; }
line=$(grep -m1 -o 'apt-get install[^&|;]*' "$readme")
[ -n "$line" ] || { echo "no 'apt-get install' line in $readme"; exit 2; }
listed=$(echo "$line" | tr ' ' '\n' | grep -v -e '^-' -e '^apt-get$' -e '^install$' -e '^$' | sort -u)
closure=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
          --no-replaces --no-enhances $listed 2>/dev/null | grep -E '^[a-z0-9]' | sed 's/:.*//' | sort -u)
[ -n "$closure" ] || { echo "apt-cache knows none of: $listed (run apt-get update)"; exit 2; }
builddir=$(cd "$build" && pwd)
missing=""; used=0
while IFS='=' read -r key dir; do
  name=${key%%_DIR:*}
  case "$dir" in ""|*NOTFOUND*|"$builddir"*) continue ;; esac
  # The configuration file CMake loaded from that folder (NameConfig.cmake or name-config.cmake); include
  # folders and other cache paths that merely end in _DIR are not package configurations.
  lower=$(echo "$name" | tr 'A-Z' 'a-z')
  cfg=""
  for c in "$dir/${name}Config.cmake" "$dir/${lower}-config.cmake" "$dir/${name}-config.cmake"; do
    [ -f "$c" ] && { cfg=$c; break; }
  done
  [ -n "$cfg" ] || continue
  real=$(readlink -f "$cfg")
  owners=$(dpkg -S "$real" 2>/dev/null | head -1 | sed 's/: .*//' | tr -d ' ' | tr ',' '\n' | sed 's/:.*//')
  # merged /usr: dpkg may have recorded the path without the /usr prefix
  [ -n "$owners" ] || owners=$(dpkg -S "${real#/usr}" 2>/dev/null | head -1 | sed 's/: .*//' | tr -d ' ' | tr ',' '\n' | sed 's/:.*//')
  [ -n "$owners" ] || { echo "note: $cfg belongs to no Debian package"; continue; }
  used=$((used + 1))
  ok=0
  for o in $owners; do echo "$closure" | grep -qx "$o" && ok=1; done
  [ $ok = 1 ] || missing="$missing\n  $(echo $owners | tr ' ' '|') (for $name: $cfg)"
done < <(grep -E '^[A-Za-z0-9_]+_DIR:(PATH|FILEPATH|STRING)=/' "$build/CMakeCache.txt" | sort -u)
if [ -n "$missing" ]; then
  printf "README's apt-get line (--no-install-recommends) does not install these packages the build uses:$missing\n"
  echo "Add them to both apt-get lines of $readme."
  exit 1
fi
echo "install closure ok: the $used package configurations the build loaded come from packages README's line installs"
