#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Build the base initramfs of an emulated board and kernel flavour from the cached Debian
# packages: busybox, perf and stress-ng with their libraries, the virtio disk modules, our
# workloads and the board-side recorder. Rebuilt only when an input is newer.
set -eu
TS_PROG=mkinitramfs
. "$(dirname "$0")/../lib/common.sh"

usage() {
	cat <<'USAGE'
Usage: boards/qemu/mkinitramfs.sh --board qemu-aarch64|qemu-x86 --flavour generic|rt
                                  --workloads DIR [--force]

Writes .cache/boards/initramfs/<board>-<flavour>.cpio.gz (and .kernel: its kernel package) and
prints its path and the kernel image path on stdout (two lines). Fetches the packages first (boards/qemu/fetch.sh).
--workloads DIR holds the static workload binaries for the guest's arch (pingpong).
The job (/job.sh) is not inside: boot.sh appends it as a second cpio archive.
USAGE
}

board="" flavour=generic wdir="" force=0
while [ $# -gt 0 ]; do
	case "$1" in
	--board) board=$2; shift 2 ;;
	--flavour) flavour=$2; shift 2 ;;
	--workloads) wdir=$2; shift 2 ;;
	--force) force=1; shift ;;
	--help | -h) usage; exit 0 ;;
	*) usage >&2; die "unknown argument '$1'" ;;
	esac
done
[ -n "$board" ] || die "--board is required"
[ -n "$wdir" ] && [ -x "$wdir/pingpong" ] || die "--workloads DIR with pingpong is required"
profile_load "$board" || exit 1
profile_check || die "bad profile $board"
board=$P_NAME
[ "$P_TRANSPORT" = qemu ] || die "$board is not an emulated board"
arch=$P_DEB_ARCH

eval "meta=\${P_KERNEL_META_$flavour:-}"
[ -n "$meta" ] || die "$board has no KERNEL_META_$flavour (flavours: generic, rt)"
root=$("$TS_TOP/boards/qemu/fetch.sh" --arch "$arch" --flavour "$flavour=$meta" --print-root)
kpkg=$(cat "$TS_CACHE/kernels/$arch/$meta.package")
kroot=$TS_CACHE/kernels/$arch/$kpkg
kver=${kpkg#linux-image-}
kernel=$kroot/boot/vmlinuz-$kver
[ -f "$kernel" ] || die "no kernel image $kernel"

out=$TS_CACHE/initramfs/$board-$flavour.cpio.gz
inputs="$kernel $root/.libs-closure $wdir/pingpong $TS_TOP/boards/target/ts-record.sh
$TS_TOP/boards/qemu/init.sh $TS_TOP/boards/qemu/mkinitramfs.sh $P_FILE"
# the static tickscope, when built (make tickscope-arm64), for ts-record.sh --recorder
[ ! -x "$wdir/tickscope" ] || inputs="$inputs $wdir/tickscope"
fresh=1
[ -f "$out" ] || fresh=0
# another kernel package behind the board's meta package (a new ABI) rebuilds it too
[ "$(cat "$out.kernel" 2>/dev/null)" = "$kpkg" ] || fresh=0
for f in $inputs; do
	[ "$fresh" = 1 ] && [ "$f" -nt "$out" ] && fresh=0
done
if [ "$fresh" = 1 ] && [ "$force" = 0 ]; then
	printf '%s\n%s\n' "$out" "$kernel"
	exit 0
fi

stage=$TS_CACHE/initramfs/$board-$flavour.d.$$
rm -rf "$stage"
mkdir -p "$stage/bin" "$stage/usr/bin" "$stage/ts" "$stage/modules" "$stage/boot" "$stage/etc"
cp "$root/bin/busybox" "$stage/bin/busybox"
cp "$root/usr/bin/perf" "$root/usr/bin/stress-ng" "$stage/usr/bin/"
# Libraries keep their Debian paths; copy the interpreter's own path (a symlink) as a file.
while read -r lib; do
	mkdir -p "$stage/$(dirname "$lib")"
	cp -L "$root/$lib" "$stage/$lib"
done <"$root/.libs-closure"
interp=$(readelf -l "$root/usr/bin/perf" | sed -n 's/.*interpreter: \(.*\)\]/\1/p')
mkdir -p "$stage/$(dirname "$interp")"
cp -L "$root/$interp" "$stage/$interp"

# Modules and their dependencies (from each .ko's own modinfo), deepest first; built-ins skipped.
mdir=$kroot/lib/modules/$kver
order=""
add_module() {
	case " $order " in *" $1 "*) return 0 ;; esac
	ko=$(find "$mdir/kernel" -name "$1.ko" -o -name "$1.ko.xz" | head -n1)
	if [ -z "$ko" ]; then
		grep -q "/$1.ko\$" "$mdir/modules.builtin" ||
			die "module $1 is neither built in nor shipped in $kpkg"
		return 0
	fi
	case "$ko" in
	*.xz) xz -dc "$ko" >"$stage/modules/$1.ko" ;;
	*) cp "$ko" "$stage/modules/$1.ko" ;;
	esac
	deps=$(tr '\0' '\n' <"$stage/modules/$1.ko" | sed -n 's/^depends=//p' | tr ',' ' ')
	for d in $deps; do
		add_module "$d"
	done
	order="$order $1"
}
for m in $P_GUEST_MODULES; do
	add_module "$m"
done
echo $order | tr ' ' '\n' >"$stage/modules/order"
# init.sh loads them only into this kernel release (a kernel built by make kernel has none).
echo "$kver" >"$stage/modules/kernel-release"

cp "$kroot/boot/config-$kver" "$stage/boot/"
cp "$wdir/pingpong" "$TS_TOP/boards/target/ts-record.sh" "$stage/ts/"
[ ! -x "$wdir/tickscope" ] || cp "$wdir/tickscope" "$stage/ts/"
cp "$TS_TOP/boards/qemu/init.sh" "$stage/init"
chmod 755 "$stage/init" "$stage/ts/"*
echo "root:x:0:0:root:/root:/bin/sh" >"$stage/etc/passwd"
echo "root:x:0:" >"$stage/etc/group"

mkdir -p "$(dirname "$out")"
(cd "$stage" && find . | sort | cpio -o -H newc --quiet -R 0:0 | gzip -1) >"$out.tmp.$$"
mv "$out.tmp.$$" "$out"
echo "$kpkg" >"$out.kernel"
rm -rf "$stage"
msg "built $out ($(($(stat -c %s "$out") / 1048576)) MiB, modules:$order)"
printf '%s\n%s\n' "$out" "$kernel"
