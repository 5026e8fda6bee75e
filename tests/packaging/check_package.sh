#!/usr/bin/env bash
# Builds the .deb and .tar.gz with CPack, unpacks the .deb with dpkg-deb -x into a temp root, checks
# the file list and Depends, and validates the desktop entry, AppStream metainfo and MIME XML, the manual
# (man -l without warnings, lexgrog finds its NAME line) and the bash completion.
set -euo pipefail
build=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$build"
cmake --build . --target bubblescope-manpage > "$work/manpage.log" 2>&1 || { cat "$work/manpage.log"; exit 1; }
cpack -G "DEB;TGZ" -B "$work/pkg" > "$work/cpack.log" 2>&1 || { cat "$work/cpack.log"; exit 1; }
deb=$(ls "$work"/pkg/*.deb)
tgz=$(ls "$work"/pkg/*.tar.gz)
dpkg-deb -x "$deb" "$work/root"
fail=0
for f in usr/bin/bubblescope \
         usr/share/applications/com.bubblescope.BubbleScope.desktop \
         usr/share/metainfo/com.bubblescope.BubbleScope.metainfo.xml \
         usr/share/mime/packages/bubblescope-mime.xml \
         usr/share/doc/bubblescope/collection-problems.md \
         usr/share/doc/bubblescope/anomaly_discovery.schema.json \
         usr/share/man/man1/bubblescope.1.gz \
         usr/share/bash-completion/completions/bubblescope \
         usr/share/bubblescope/slurm/bubblescope-cluster.sbatch \
         usr/share/bubblescope/kubernetes/bubblescope-cluster-job.yaml \
         usr/share/icons/hicolor/scalable/apps/com.bubblescope.BubbleScope.svg \
         usr/share/icons/hicolor/256x256/apps/com.bubblescope.BubbleScope.png; do
  if [ -f "$work/root/$f" ]; then echo "ok   $f"; else echo "FAIL missing $f"; fail=1; fi
done
sbatch=$work/root/usr/share/bubblescope/slurm/bubblescope-cluster.sbatch
sbatch_help=$(bash "$sbatch" --help 2>&1) || true
if [ -x "$sbatch" ] && case $sbatch_help in *"PARENT OUTDIR"*) true ;; *) false ;; esac; then
  echo "ok   the Slurm script is executable and prints its usage"
else
  echo "FAIL the Slurm script: not executable, or --help does not work"; fail=1
fi
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
for lib in libqt6widgets6 libqt6charts6 libqt6core6 libsimdjson14 libfmt9; do
  if echo "$depends" | grep -q "$lib"; then echo "ok   depends on $lib"; else echo "FAIL Depends lacks $lib"; fail=1; fi
done
desktop-file-validate "$work/root/usr/share/applications/com.bubblescope.BubbleScope.desktop" && echo "ok   desktop-file-validate" || fail=1
appstreamcli validate --no-net --pedantic "$work/root/usr/share/metainfo/com.bubblescope.BubbleScope.metainfo.xml" && echo "ok   appstreamcli validate" || fail=1
xmllint --noout "$work/root/usr/share/mime/packages/bubblescope-mime.xml" && echo "ok   xmllint" || fail=1
man=$work/root/usr/share/man/man1/bubblescope.1.gz
if [ -f "$man" ]; then
  warnings=$(MANWIDTH=80 man --warnings -l "$man" 2>&1 >/dev/null)
  if [ -z "$warnings" ]; then echo "ok   man -l renders the manual without warnings"; else echo "FAIL man -l: $warnings"; fail=1; fi
  if MANWIDTH=80 man -l "$man" 2>/dev/null | grep -q "EXIT STATUS"; then echo "ok   man -l shows EXIT STATUS"; else echo "FAIL man -l output"; fail=1; fi
  name=$(lexgrog "$man" 2>&1) || true
  case "$name" in *'"bubblescope - '*) echo "ok   lexgrog: $name" ;; *) echo "FAIL lexgrog: $name"; fail=1 ;; esac
  # gzip -9n: no file name or time stamp in the header (byte 3 flags, bytes 4-7 mtime all zero)
  if [ "$(head -c 8 "$man" | od -An -tx1 | tr -d ' \n')" = "1f8b080000000000" ]; then echo "ok   manual compressed with gzip -n"; else echo "FAIL manual gzip header"; fail=1; fi
fi
comp=$work/root/usr/share/bash-completion/completions/bubblescope
got=$(bash -c 'source "$1" && complete -p bubblescope >/dev/null && COMP_WORDS=(bubblescope analyze --format "") && COMP_CWORD=3 && _bubblescope && echo "${COMPREPLY[*]}"' _ "$comp" 2>&1) || true
if [ "$got" = "text json" ]; then echo "ok   completion registered; --format completes to: $got"; else echo "FAIL completion: '$got'"; fail=1; fi
if tar tzf "$tgz" | grep -q "bin/bubblescope$"; then echo "ok   tarball holds bin/bubblescope"; else echo "FAIL tarball"; fail=1; fi
"$work/root/usr/bin/bubblescope" --version | grep -q "bubblescope" && echo "ok   installed binary runs" || fail=1
if [ $fail -eq 0 ]; then echo "1 passed, 0 failed"; else echo "0 passed, 1 failed"; fi
exit $fail
