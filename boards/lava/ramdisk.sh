#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `make lava-ramdisk`: the LAVA ramdisk of the emulated aarch64 board: the board's initramfs
# with a LAVA /init, network modules and ts-lava-run.sh, as ONE cpio archive (LAVA's overlay
# step unpacks only one), plus the kernels file for `make lava-jobs DEVICE_TYPE=qemu`.
set -eu
TS_PROG=lava-ramdisk
. "$(dirname "$0")/../lib/common.sh"

usage() {
	cat <<'USAGE'
Usage: boards/lava/ramdisk.sh [--flavour generic|rt] [--workloads DIR] [--out DIR]

Builds the emulated board's initramfs (boards/qemu/mkinitramfs.sh, with the static aarch64
tickscope of DIR when there is one: the board computes the runs' summaries), unpacks it, replaces
/init with boards/lava/target/init.sh, adds /ts/ts-lava-run.sh, /ts/udhcpc.sh and the
virtio-net modules, and packs it again as one gzip'd cpio.newc archive:
  OUT/qemu-aarch64-<flavour>-lava.cpio.gz  (default OUT: results/lava)
Then writes OUT/kernels-qemu.txt (file:// URLs of the kernel and ramdisk and the kernel's
sha256) for a LAVA dispatcher on this machine; copy the two files to a web server and
edit the URLs for a real lab.
USAGE
}

flavour=generic wdir=${BUILD:-build}/workloads-arm64 out=$TS_TOP/results/lava
while [ $# -gt 0 ]; do
	case "$1" in
	--flavour) flavour=$2; shift 2 ;;
	--workloads) wdir=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--help | -h) usage; exit 0 ;;
	*) usage >&2; die "unknown argument '$1'" ;;
	esac
done
case "$wdir" in /*) ;; *) wdir=$TS_TOP/$wdir ;; esac
[ -x "$wdir/tickscope" ] || msg "warning: no $wdir/tickscope (make tickscope-arm64): the" \
	"boards cannot compute the runs' summaries, so their traces will travel instead"
mkdir -p "$out"
out=$(cd "$out" && pwd)

set -- $("$TS_TOP/boards/qemu/mkinitramfs.sh" --board qemu-aarch64 --flavour "$flavour" \
	--workloads "$wdir")
base=$1 kernel=$2
kver=$(basename "$kernel" | sed 's/^vmlinuz-//')
mdir=$(dirname "$(dirname "$kernel")")/lib/modules/$kver
rd=$out/qemu-aarch64-$flavour-lava.cpio.gz

stage=$(mktemp -d "${TMPDIR:-/tmp}/ts-lava-rd.XXXXXX")
trap 'rm -rf "$stage"' EXIT
(cd "$stage" && gzip -dc "$base" | cpio -id --quiet) || die "cannot unpack $base"
cp "$TS_TOP/boards/lava/target/init.sh" "$stage/init"
cp "$TS_TOP/boards/lava/target/ts-lava-run.sh" "$TS_TOP/boards/lava/target/udhcpc.sh" "$stage/ts/"
chmod 755 "$stage/init" "$stage/ts/ts-lava-run.sh" "$stage/ts/udhcpc.sh"
# The network, for the upload: virtio-net and what it needs, after the disk modules.
for m in failover net_failover virtio_net; do
	ko=$(find "$mdir/kernel" -name "$m.ko" -o -name "$m.ko.xz" | head -n1)
	if [ -z "$ko" ]; then
		grep -q "/$m.ko\$" "$mdir/modules.builtin" || die "no module $m in $mdir"
		continue
	fi
	case "$ko" in *.xz) xz -dc "$ko" >"$stage/modules/$m.ko" ;; *) cp "$ko" "$stage/modules/" ;; esac
	grep -qx "$m" "$stage/modules/order" || echo "$m" >>"$stage/modules/order"
done
(cd "$stage" && find . | sort | cpio -o -H newc --quiet -R 0:0 | gzip -1) >"$rd.tmp"
mv "$rd.tmp" "$rd"

ksha=$(sha256sum <"$kernel" | cut -d' ' -f1)
kf=$out/kernels-qemu.txt
tmp=$kf.tmp
grep -v "^$flavour\." "$kf" 2>/dev/null >"$tmp" || true
{
	echo "$flavour.kernel=file://$kernel"
	echo "$flavour.ramdisk=file://$rd"
	echo "$flavour.kernel_sha256=$ksha"
} >>"$tmp"
mv "$tmp" "$kf"
msg "built $rd ($(($(stat -c %s "$rd") / 1048576)) MiB, one cpio archive); kernels: $kf"
