#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Download and unpack the Debian packages an emulated board needs (kernels, busybox-static,
# linux-perf, stress-ng and the shared libraries they load) into the git-ignored cache.
# A package already in the cache is never downloaded again.
set -eu
TS_PROG=fetch
. "$(dirname "$0")/../lib/common.sh"

usage() {
	cat <<'USAGE'
Usage: boards/qemu/fetch.sh --arch arm64|amd64 [--flavour NAME[=META]]... [--print-root]

Downloads (apt-get download, cached under .cache/boards/debs/<arch>/) and unpacks the guest's
packages:
  the kernel image for each flavour (NAME generic: linux-image-<arch>, rt:
  linux-image-rt-<arch>, or the META package given, resolved to the concrete ABI package),
  each into its own .cache/boards/kernels/<arch>/<package>/; busybox-static, linux-perf,
  stress-ng, and every package that provides a shared library they need (ELF NEEDED entries,
  followed recursively; a soname is mapped to its package through the host's installed twin,
  `dpkg -S`), into .cache/boards/sysroot/<arch>/.
For arm64 the host needs `dpkg --add-architecture arm64 && apt-get update` (done here if
missing). Prints a download summary; --print-root prints the sysroot path on stdout.
Writes kernels/<arch>/<META>.package (the kernel package META resolved to) and
<sysroot>/.libs-closure (the libraries).
USAGE
}

arch=""
flavours=""
print_root=0
while [ $# -gt 0 ]; do
	case "$1" in
	--arch) arch=$2; shift 2 ;;
	--flavour) flavours="$flavours $2"; shift 2 ;;
	--print-root) print_root=1; shift ;;
	--help | -h) usage; exit 0 ;;
	*) usage >&2; die "unknown argument '$1'" ;;
	esac
done
case "$arch" in
arm64 | amd64) ;;
*) die "--arch must be arm64 or amd64" ;;
esac
[ -n "$flavours" ] || flavours="generic"

debs=$TS_CACHE/debs/$arch
root=$TS_CACHE/sysroot/$arch
kernels=$TS_CACHE/kernels/$arch
mkdir -p "$debs" "$root/.extracted"
host_arch=$(dpkg --print-architecture)

# One fetch of an architecture's cache at a time: two boards or experiments sharing the cache
# would download into the same .partial folder and rename the same .new files.
command -v flock >/dev/null || die "no flock (util-linux): cannot lock $TS_CACHE"
lock=$TS_CACHE/.fetch-$arch.lock
exec 9>>"$lock"
if ! flock -n 9; then
	msg "waiting for another fetch of the $arch cache ($lock)"
	flock 9 || die "cannot lock $lock"
fi

ensure_arch() {
	[ "$arch" = "$host_arch" ] && return 0
	if ! dpkg --print-foreign-architectures | grep -qx "$arch"; then
		[ "$(id -u)" = 0 ] || die "run 'dpkg --add-architecture $arch && apt-get update' as root"
		msg "adding dpkg architecture $arch and updating the package lists"
		dpkg --add-architecture "$arch"
		apt-get update -qq || die "apt-get update failed"
	fi
	if ! apt-cache show "busybox-static:$arch" >/dev/null 2>&1; then
		[ "$(id -u)" = 0 ] || die "no $arch package lists: run 'apt-get update' as root"
		apt-get update -qq || die "apt-get update failed"
	fi
}

# The concrete package behind a kernel meta package, e.g. linux-image-6.1.0-57-arm64.
kernel_pkg() {
	_meta=$1
	apt-cache depends "$_meta:$arch" 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-image-[0-9][^:]*\).*/\1/p' | head -n1
}

# fetch_pkg NAME [ROOT]: download NAME:arch unless cached, then unpack it once into ROOT (the
# sysroot by default).
fetch_pkg() {
	_p=$1 _into=${2:-$root}
	set -- "$debs/${_p}_"*".deb"
	if [ ! -f "$1" ]; then
		_tmp=$debs/.partial
		rm -rf "$_tmp"
		mkdir -p "$_tmp"
		msg "downloading $_p:$arch"
		(cd "$_tmp" && apt-get download -qq "$_p:$arch" >/dev/null 2>"$_tmp/log") ||
			die "apt-get download $_p:$arch failed: $(tail -n 3 "$_tmp/log")"
		for _d in "$_tmp"/*.deb; do
			echo "$(stat -c %s "$_d") $(basename "$_d")" >>"$debs/downloads.log"
			mv "$_d" "$debs/"
		done
		rm -rf "$_tmp"
		set -- "$debs/${_p}_"*".deb"
		[ -f "$1" ] || die "apt-get download $_p:$arch produced no ${_p}_*.deb"
		downloaded=$((downloaded + 1))
	fi
	_stamp=$_into/.extracted/$(basename "$1")
	if [ ! -f "$_stamp" ]; then
		mkdir -p "$_into/.extracted"
		dpkg -x "$1" "$_into" || die "dpkg -x $1 failed"
		touch "$_stamp"
	fi
}

# Library search path of the unpacked Debian sysroot.
libdirs() {
	case "$arch" in
	arm64) _t=aarch64-linux-gnu ;;
	amd64) _t=x86_64-linux-gnu ;;
	esac
	echo "$root/lib/$_t $root/usr/lib/$_t $root/lib $root/usr/lib $root/usr/lib/$_t/perf"
}

find_lib() {
	for _d in $(libdirs); do
		[ -e "$_d/$1" ] && { echo "$_d/$1"; return 0; }
	done
	return 1
}

# The package that ships a soname on Debian, found through the host's own copy.
soname_pkg() {
	dpkg -S "*/$1" 2>/dev/null | grep -E ': (/usr)?/lib/([a-z0-9_]+-linux-gnu[a-z]*/)?[^/]*$' |
		sed -n 's/^\([^:,]*\)[:,].*/\1/p' | grep -v -- '-cross$' | head -n1
}

needed() {
	readelf -d "$1" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'
}

# Follow NEEDED entries from the given ELF files until every library is in the sysroot.
resolve_libs() {
	_todo="$*"
	_seen=" "
	while [ -n "$_todo" ]; do
		_next=""
		for _f in $_todo; do
			for _so in $(needed "$_f"); do
				case "$_seen" in *" $_so "*) continue ;; esac
				_seen="$_seen$_so "
				if ! _path=$(find_lib "$_so"); then
					_pkg=$(soname_pkg "$_so")
					[ -n "$_pkg" ] ||
						die "cannot map $_so (needed by $(basename "$_f")) to a package"
					fetch_pkg "$_pkg"
					_path=$(find_lib "$_so") || die "$_pkg:$arch does not ship $_so"
				fi
				_next="$_next $_path"
				_closure="$_closure $_path"
			done
		done
		_todo=$_next
	done
}

ensure_arch
downloaded=0
for fl in $flavours; do
	meta=${fl#*=}
	fl=${fl%%=*}
	if [ "$meta" = "$fl" ]; then
		case "$fl" in
		generic) meta=linux-image-$arch ;;
		rt) meta=linux-image-rt-$arch ;;
		*) die "unknown flavour '$fl' (generic, rt, or NAME=META-PACKAGE)" ;;
		esac
	fi
	kp=$(kernel_pkg "$meta")
	[ -n "$kp" ] || die "cannot resolve $meta:$arch to a kernel package (apt-get update?)"
	# One folder per kernel package: boards booting other kernels never share an image.
	fetch_pkg "$kp" "$kernels/$kp"
	echo "$kp" >"$kernels/$meta.package.new"
	mv "$kernels/$meta.package.new" "$kernels/$meta.package"
done
for p in busybox-static linux-perf stress-ng libc6; do
	fetch_pkg "$p"
done
_closure=""
resolve_libs "$root/usr/bin/perf" "$root/usr/bin/stress-ng"
# The library closure, relative to the sysroot, for mkinitramfs.sh.
for _p in $_closure; do
	echo "${_p#"$root"/}"
done | sort -u >"$root/.libs-closure.new"
# Rewrite it only when it changed: its time stamp decides whether the initramfs is rebuilt.
if cmp -s "$root/.libs-closure.new" "$root/.libs-closure"; then
	rm "$root/.libs-closure.new"
else
	mv "$root/.libs-closure.new" "$root/.libs-closure"
fi

total=$(ls "$debs"/*.deb | wc -l)
bytes=$(du -cb "$debs"/*.deb | tail -n1 | cut -f1)
msg "$arch: $downloaded package(s) downloaded now; cache holds $total packages, $((bytes / 1048576)) MiB"
[ "$print_root" = 1 ] && echo "$root"
exit 0
