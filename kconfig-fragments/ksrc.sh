#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Print the path of a kernel tree good enough for Kconfig work, extracting the Kconfig-relevant
# part of Debian's linux-source-6.1 into the git-ignored .cache/ on first use (about 5-7 s).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
tarball=${TS_KSRC_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
cache=${TS_KSRC_CACHE:-$top/.cache/linux-source-6.1}

case "${1:-}" in
-h | --help)
	cat <<USAGE
usage: $0 [-h|--help]
Print the path of the cached, Kconfig-only kernel tree, extracting it first if needed from
$tarball (Debian package linux-source-6.1) into $cache.
Only Makefile, scripts/, every Kconfig*, arch/*/Makefile*, arch/*/configs/ and kernel/configs/
are extracted: enough for defconfig, merge_config.sh, olddefconfig and the kconfig objects.
Exit 0 with the path on stdout, 3 when the tarball is missing.
USAGE
	exit 0
	;;
esac

if [ -f "$cache/.tickscope-extracted" ]; then
	echo "$cache"
	exit 0
fi
if [ ! -r "$tarball" ]; then
	echo "ksrc: $tarball not found: install the Debian package linux-source-6.1" >&2
	exit 3
fi
mkdir -p "$(dirname "$cache")"
tmp=$(mktemp -d "$cache.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
xz -T0 -dc "$tarball" | tar -x -C "$tmp" --wildcards \
	'linux-source-6.1/Makefile' 'linux-source-6.1/scripts/*' '*/Kconfig*' \
	'linux-source-6.1/arch/*/Makefile*' 'linux-source-6.1/arch/*/configs/*' \
	'linux-source-6.1/kernel/configs/*'
touch "$tmp/linux-source-6.1/.tickscope-extracted"
# Another process may have won the race: keep its copy.
mv -T "$tmp/linux-source-6.1" "$cache" 2>/dev/null || true
[ -f "$cache/.tickscope-extracted" ] || { echo "ksrc: extraction into $cache failed" >&2; exit 3; }
echo "$cache"
