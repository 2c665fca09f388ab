#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Print the path of a kernel tree good enough for Kconfig work, extracting the Kconfig-relevant
# part of Debian's linux-source-<version> into the git-ignored .cache/ on first use (5-8 s).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)

case "${1:-}" in
-h | --help)
	cat <<USAGE
usage: $0 [VERSION]
Print the path of the cached, Kconfig-only kernel tree of Debian's linux-source-VERSION
(default 6.1; 6.12 is the other packaged one), extracting it first if needed from
/usr/src/linux-source-VERSION.tar.xz into .cache/linux-source-VERSION.
TS_KSRC_TARBALL and TS_KSRC_CACHE override the two paths.
Only Makefile, scripts/, every Kconfig*, arch/*/Makefile*, arch/*/configs/ and kernel/configs/
are extracted: enough for defconfig, merge_config.sh, olddefconfig and the kconfig objects,
not enough to build a kernel.
Exit 0 with the path on stdout, 3 when the tarball is missing.
USAGE
	exit 0
	;;
esac
ver=${1:-6.1}
case "$ver" in
*[!0-9.]* | '') echo "ksrc: '$ver' is not a version like 6.1 or 6.12" >&2; exit 3 ;;
esac
name=linux-source-$ver
tarball=${TS_KSRC_TARBALL:-/usr/src/$name.tar.xz}
cache=${TS_KSRC_CACHE:-$top/.cache/$name}

if [ -f "$cache/.tickscope-extracted" ]; then
	echo "$cache"
	exit 0
fi
if [ ! -r "$tarball" ]; then
	echo "ksrc: $tarball not found: install the Debian package $name" >&2
	exit 3
fi
mkdir -p "$(dirname "$cache")"
tmp=$(mktemp -d "$cache.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
xz -T0 -dc "$tarball" | tar -x -C "$tmp" --wildcards \
	"$name/Makefile" "$name/scripts/*" '*/Kconfig*' \
	"$name/arch/*/Makefile*" "$name/arch/*/configs/*" \
	"$name/kernel/configs/*"
touch "$tmp/$name/.tickscope-extracted"
# Another process may have won the race: keep its copy.
mv -T "$tmp/$name" "$cache" 2>/dev/null || true
[ -f "$cache/.tickscope-extracted" ] || { echo "ksrc: extraction into $cache failed" >&2; exit 3; }
echo "$cache"
