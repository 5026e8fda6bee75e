#!/usr/bin/env bash
# Builds the .deb and .tar.gz with CPack, unpacks the .deb with dpkg-deb -x into a temp root, checks
# the file list and Depends, and validates the desktop entry, AppStream metainfo and MIME XML.
set -euo pipefail
build=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$build"
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
         usr/share/icons/hicolor/scalable/apps/com.bubblescope.BubbleScope.svg \
         usr/share/icons/hicolor/256x256/apps/com.bubblescope.BubbleScope.png; do
  if [ -f "$work/root/$f" ]; then echo "ok   $f"; else echo "FAIL missing $f"; fail=1; fi
done
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
for lib in libqt6widgets6 libqt6charts6 libqt6core6 libsimdjson14 libfmt9; do
  if echo "$depends" | grep -q "$lib"; then echo "ok   depends on $lib"; else echo "FAIL Depends lacks $lib"; fail=1; fi
done
desktop-file-validate "$work/root/usr/share/applications/com.bubblescope.BubbleScope.desktop" && echo "ok   desktop-file-validate" || fail=1
appstreamcli validate --no-net --pedantic "$work/root/usr/share/metainfo/com.bubblescope.BubbleScope.metainfo.xml" && echo "ok   appstreamcli validate" || fail=1
xmllint --noout "$work/root/usr/share/mime/packages/bubblescope-mime.xml" && echo "ok   xmllint" || fail=1
if tar tzf "$tgz" | grep -q "bin/bubblescope$"; then echo "ok   tarball holds bin/bubblescope"; else echo "FAIL tarball"; fail=1; fi
"$work/root/usr/bin/bubblescope" --version | grep -q "bubblescope" && echo "ok   installed binary runs" || fail=1
if [ $fail -eq 0 ]; then echo "1 passed, 0 failed"; else echo "0 passed, 1 failed"; fi
exit $fail
