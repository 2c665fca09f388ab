#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Build static libperf.a and libapi.a for one architecture from a kernel source tree (Debian's
# linux-source-6.1 by default, extracted once into the git-ignored .cache/), for tickscope record.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
tarball=${TS_LIBPERF_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
cache=${TS_LIBPERF_CACHE:-$top/.cache}

usage() {
	cat <<USAGE
usage: $0 [--ksrc DIR] [--arch host|arm64] --out DIR
Build libperf.a and libapi.a (with their headers) into DIR/lib and DIR/include.
--ksrc DIR   a kernel source tree with tools/lib/perf (default: the tools/ part of
             $tarball, Debian package linux-source-6.1, extracted once into
             $cache/libperf-src-6.1, about 30 s and 3 MB)
--arch arm64 cross-build with aarch64-linux-gnu- (Debian package gcc-aarch64-linux-gnu)
Exit 0 when DIR/lib/libperf.a is up to date, 3 when no kernel source is found.
USAGE
}

ksrc="" arch=host out=""
while [ $# -gt 0 ]; do
	case "$1" in
	-h | --help) usage; exit 0 ;;
	--ksrc) ksrc=$2; shift 2 ;;
	--arch) arch=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	*) usage >&2; exit 2 ;;
	esac
done
[ -n "$out" ] || { usage >&2; exit 2; }

extract() {
	dest=$cache/libperf-src-6.1
	if [ -f "$dest/.tickscope-extracted" ]; then
		echo "$dest"
		return
	fi
	if [ ! -r "$tarball" ]; then
		echo "libperf: $tarball not found: install the Debian package linux-source-6.1," \
			"or pass LIBPERF_KSRC=<kernel tree>" >&2
		exit 3
	fi
	mkdir -p "$cache"
	tmp=$(mktemp -d "$dest.tmp.XXXXXX")
	# Only what tools/lib/perf's own Makefile reaches.
	xz -T0 -dc "$tarball" | tar -x -C "$tmp" --wildcards \
		'linux-source-6.1/tools/lib/perf/*' 'linux-source-6.1/tools/lib/api/*' \
		'linux-source-6.1/tools/lib/zalloc.c' 'linux-source-6.1/tools/lib/str_error_r.c' \
		'linux-source-6.1/tools/lib/ctype.c' 'linux-source-6.1/tools/lib/string.c' \
		'linux-source-6.1/tools/include/*' 'linux-source-6.1/tools/arch/x86/include/*' \
		'linux-source-6.1/tools/arch/arm64/include/*' 'linux-source-6.1/tools/build/*' \
		'linux-source-6.1/tools/scripts/*'
	touch "$tmp/linux-source-6.1/.tickscope-extracted"
	mv -T "$tmp/linux-source-6.1" "$dest" 2>/dev/null || true
	rm -rf "$tmp"
	[ -f "$dest/.tickscope-extracted" ] || { echo "libperf: extraction into $dest failed" >&2; exit 3; }
	echo "$dest"
}

[ -n "$ksrc" ] || ksrc=$(extract)
if [ ! -f "$ksrc/tools/lib/perf/Makefile" ]; then
	echo "libperf: $ksrc/tools/lib/perf/Makefile not found: not a kernel source tree" >&2
	exit 3
fi

case "$arch" in
host)
	cross=""
	case $(uname -m) in
	x86_64 | i?86) srcarch=x86 ;;
	aarch64) srcarch=arm64 ;;
	arm*) srcarch=arm ;;
	*) srcarch=$(uname -m) ;;
	esac
	;;
arm64) cross="ARCH=arm64 CROSS_COMPILE=aarch64-linux-gnu-" srcarch=arm64 ;;
*) echo "libperf: unknown --arch $arch (host or arm64)" >&2; exit 2 ;;
esac

# Called from tickscope's make: libperf's own make must not share its jobserver.
unset MAKEFLAGS MFLAGS MAKELEVEL
mkdir -p "$out/obj" "$out/lib" "$out/include"
out=$(cd "$out" && pwd)
# libperf's Makefile rebuilds only what changed; its `install` fails at the docs, so copy.
# shellcheck disable=SC2086
make -s -C "$ksrc/tools/lib/perf" O="$out/obj" $cross >&2
cp -p "$out/obj/libperf.a" "$out/lib/"
cp -p "$out/obj/libapi.a" "$out/lib/" 2>/dev/null || cp -p "$out/obj/api/libapi.a" "$out/lib/"
rm -rf "$out/include/perf" "$out/include/internal"
cp -rp "$ksrc/tools/lib/perf/include/perf" "$ksrc/tools/lib/perf/include/internal" "$out/include/"
# The internal headers need the tree's tools/include (one file reads struct perf_mmap).
ln -sfn "$(cd "$ksrc/tools" && pwd)" "$out/tools"
ln -sfn "tools/arch/$srcarch/include" "$out/arch-include"
echo "$out"
