#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The arm64 static libraries a static aarch64 tickscope links (libtraceevent, libzstd,
# liblzma): Debian's arm64 -dev packages, downloaded once with apt-get download and unpacked
# into .cache/.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
root=${TS_ARM64_LIBS:-$top/.cache/arm64-libs}
pkgs="libtraceevent-dev libzstd-dev liblzma-dev"

case "${1:-}" in
-h | --help)
	cat <<USAGE
usage: $0
Print the folder holding Debian's arm64 $pkgs, unpacked (dpkg -x) into
$root on first use. Needs the arm64 dpkg architecture: added here
(dpkg --add-architecture arm64; apt-get update) when root, as boards/qemu/fetch.sh does.
Exit 3 when the packages cannot be had.
USAGE
	exit 0
	;;
esac

# the stamp names the packages unpacked: a list that grew unpacks them again
if [ "$(cat "$root/.tickscope-extracted" 2>/dev/null)" = "$pkgs" ]; then
	touch "$root/.tickscope-extracted"
	echo "$root"
	exit 0
fi
die() {
	echo "arm64-libs: $*" >&2
	exit 3
}
if ! dpkg --print-foreign-architectures | grep -qx arm64; then
	[ "$(id -u)" = 0 ] || die "run 'dpkg --add-architecture arm64 && apt-get update' as root"
	dpkg --add-architecture arm64
	apt-get update -qq || die "apt-get update failed"
fi
if ! apt-cache show libzstd-dev:arm64 >/dev/null 2>&1; then
	[ "$(id -u)" = 0 ] || die "no arm64 package lists: run 'apt-get update' as root"
	apt-get update -qq || die "apt-get update failed"
fi
tmp=$(mktemp -d "$root.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
for p in $pkgs; do
	(cd "$tmp" && apt-get download -qq "$p:arm64" >/dev/null 2>&1) ||
		die "apt-get download $p:arm64 failed"
done
mkdir -p "$tmp/root"
for d in "$tmp"/*.deb; do
	dpkg -x "$d" "$tmp/root"
done
echo "$pkgs" >"$tmp/root/.tickscope-extracted"
rm -rf "$root"
mv "$tmp/root" "$root"
echo "$root"
