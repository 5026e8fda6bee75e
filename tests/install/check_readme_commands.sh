#!/usr/bin/env bash
# README's two Quick start commands install the same packages, and .ci/run runs README's test command
# (taken from README, not a copy that could drift).
# Usage: check_readme_commands.sh SOURCE_DIR
set -u
src=$1
mapfile -t lines < <(grep '^apt-get update && apt-get install' "$src/README.md")
[ ${#lines[@]} -ge 2 ] || { echo "README.md: expected two Quick start commands starting with apt-get, found ${#lines[@]}"; exit 1; }
pk() { echo "$1" | grep -o 'apt-get install[^&|;]*' | tr ' ' '\n' | grep -v -e '^-' -e '^apt-get$' -e '^install$' -e '^$' | sort -u | tr '\n' ' '; }
a=$(pk "${lines[0]}"); b=$(pk "${lines[1]}")
[ "$a" = "$b" ] || { echo "README's two commands install different packages:"; echo " open: $a"; echo " test: $b"; exit 1; }
case "${lines[0]}" in *"./build/app/bubblescope"*) ;; *) echo "the first command does not open BubbleScope"; exit 1 ;; esac
case "${lines[1]}" in *"ctest --test-dir build"*) ;; *) echo "the second command does not run the tests"; exit 1 ;; esac
grep -q "grep -A3 'Install, build and run all tests' README.md" "$src/.ci/run" && grep -q 'eval "$cmd"' "$src/.ci/run" \
  || { echo ".ci/run does not run README's test command"; exit 1; }
[ "$(grep -A3 'Install, build and run all tests' "$src/README.md" | grep -m1 '^apt-get update')" = "${lines[1]}" ] \
  || { echo "the line under 'Install, build and run all tests' is not the test command"; exit 1; }
echo "README commands agree ($(echo $a | wc -w) packages); .ci/run runs the test command"
