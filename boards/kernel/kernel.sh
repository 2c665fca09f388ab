#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `make kernel`: build one kernel variant for a board from Debian's linux-source (base config +
# fragments through make kernel-config, optional patch series on a copy of the tree), recorded.
set -eu
TS_PROG=kernel
. "$(dirname "$0")/../lib/common.sh"

usage() {
	cat <<'USAGE'
Usage: boards/kernel/kernel.sh --board B --variant V [--fragments "F..."] [--patches P]
                               [--ksrc 6.1 | --tree DIR] [--force] [--print-image]

Builds the kernel image of variant V for board B out of tree, from the full tree of Debian's
linux-source-VER (extracted once into .cache/ksrc-full/), and records it:
  1. base config: allnoconfig + boards/kernel/base-<B>.config (everything built in, so the
     initramfs needs no modules); a board without one (hi1215) starts from its profile's
     DEFCONFIG (make defconfig), as a real board's kernel does;
  2. make kernel-config --base <that> --board B F...: fragments merged, a verdict per symbol
     (a dropped request fails the build, as in make kernel-config);
  3. P (a folder with a 'series' file or *.patch files, or one .patch file) is applied with
     patch -p1 to a copy of the tree (hard links; the files it touches are copied), never to
     the cached tree;
  4. make Image (arm64, CROSS_COMPILE from the profile) or bzImage (x86_64), with ccache
     (.cache/ccache), -j$(nproc); a board that boots its own kernel (not qemu) also gets
     modules and, on arm64, dtbs;
  5. such a board's kernel is packed for its boot methods into pack/: a tarball of /boot and
     /lib/modules for the board's root file system, and tftp/ with the image and the
     profile's DTB for u-boot over tftp (and LAVA's kernels file), with their sha256s.
Everything goes to .cache/kernels/B/V/, which is also the O= folder (p/ holds a patched
variant's tree and O= folder): config, verdicts.txt, build.log and kernel.variant
(fragments, the verdict line, the base, config, patch series and image hashes).
A re-run with the same config and patch hashes reuses the built image (--force rebuilds).
--tree DIR builds the kernel tree DIR (a git work tree, e.g. make bisect's own checkout)
instead of linux-source-VER; its HEAD and uncommitted changes take the place of the patch
hash in the reuse check, and --patches is refused with it (change the tree instead).
--print-image prints only the image path of an already built variant (exit 1 if none).
Exit: 0 built or reused, 1 build failed, 2 usage, 3 missing tree/toolchain, 4 a patch does not
apply, 5 a fragment request was dropped.
USAGE
}

board="" variant="" fragments="" patches="" ver=6.1 tree="" force=0 print_image=0
while [ $# -gt 0 ]; do
	case "$1" in
	--board) board=$2; shift 2 ;;
	--variant) variant=$2; shift 2 ;;
	--fragments) fragments=$2; shift 2 ;;
	--patches) patches=$2; shift 2 ;;
	--ksrc) ver=$2; shift 2 ;;
	--tree) tree=$2; shift 2 ;;
	--force) force=1; shift ;;
	--print-image) print_image=1; shift ;;
	-h | --help) usage; exit 0 ;;
	*) usage >&2; echo "kernel: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
if [ -z "$board" ] || [ -z "$variant" ]; then
	echo "kernel: --board and --variant are required (make kernel VARIANT=NAME [BOARD=B];" \
		"--help)" >&2
	exit 2
fi
name_ok "$variant" || {
	echo "kernel: VARIANT '$(printf '%s' "$variant" | tr -c '[:print:]' '?')' is not a name:" \
		"$TS_NAME_RULE" >&2
	exit 2
}
profile_load "$board" || exit 2
board=$P_NAME
kdir=$TS_TOP/.cache/kernels/$board/$variant
vfile=$kdir/kernel.variant

vget() {
	sed -n "s/^$1=//p" "$vfile" 2>/dev/null | tail -n1
}

if [ "$print_image" = 1 ]; then
	img=$(vget image)
	[ -n "$img" ] && [ -f "$TS_TOP/$img" ] || die "no built kernel $board/$variant (make kernel)"
	echo "$TS_TOP/$img"
	exit 0
fi

# The emulated boards boot a small kernel with everything built in; a real board boots the
# kernel of its profile's defconfig, with modules and its device tree.
base_frag=$TS_TOP/boards/kernel/base-$board.config
real_board=0
if [ ! -f "$base_frag" ]; then
	[ "$P_TRANSPORT" != qemu ] ||
		die "board $board has no base config boards/kernel/base-$board.config"
	real_board=1
fi
case "$P_ARCH" in
arm64) image_rel=arch/arm64/boot/Image target=Image ;;
x86_64) image_rel=arch/x86/boot/bzImage target=bzImage ;;
*) die "board $board: cannot build for ARCH=$P_ARCH" ;;
esac
cross=${P_CROSS_COMPILE:-}
command -v "${cross}gcc" >/dev/null ||
	{ echo "kernel: ${cross}gcc is not installed (make deps)" >&2; exit 3; }
ccache=""
command -v ccache >/dev/null && ccache="ccache "

# full_tree: the whole linux-source-VER tree, extracted once (the Kconfig-only cache of
# kconfig-fragments/ksrc.sh cannot build a kernel).
full_tree() {
	_t=$TS_TOP/.cache/ksrc-full/linux-source-$ver
	if [ ! -f "$_t/.tickscope-full" ]; then
		_tar=/usr/src/linux-source-$ver.tar.xz
		[ -r "$_tar" ] || { echo "kernel: $_tar not found: install linux-source-$ver" >&2; exit 3; }
		msg "extracting the full tree of $_tar (once)"
		mkdir -p "$TS_TOP/.cache/ksrc-full"
		_tmp=$(mktemp -d "$TS_TOP/.cache/ksrc-full/tmp.XXXXXX")
		xz -T0 -dc "$_tar" | tar -x -C "$_tmp"
		touch "$_tmp/linux-source-$ver/.tickscope-full"
		mv -T "$_tmp/linux-source-$ver" "$_t" 2>/dev/null || true
		rm -rf "$_tmp"
	fi
	echo "$_t"
}

# series_files P: the patch files of P in order (series file, else sorted *.patch).
series_files() {
	if [ -f "$1" ]; then
		echo "$1"
	elif [ -f "$1/series" ]; then
		sed 's/#.*//; /^[[:space:]]*$/d' "$1/series" | while read -r _p _rest; do
			echo "$1/$_p"
		done
	else
		ls "$1"/*.patch 2>/dev/null || true
	fi
}

# apply_series TREE: copy the cached tree into TREE (hard links), break the links of the files
# the patches touch (all of them first: a later patch may change what an earlier one did),
# then apply each patch; one clear error for a patch that does not apply.
apply_series() {
	rm -rf "$1" "$1.tmp"
	mkdir -p "$(dirname "$1")"
	cp -al "$src_pristine" "$1.tmp"
	for _p in $series; do
		sed -n 's/^+++ [^/]*\/\([^[:space:]]*\).*/\1/p; s/^--- [^/]*\/\([^[:space:]]*\).*/\1/p' \
			"$_p"
	done | sort -u | while read -r _f; do
		[ -f "$1.tmp/$_f" ] && cp --remove-destination "$src_pristine/$_f" "$1.tmp/$_f"
		true
	done
	for _p in $series; do
		if ! _out=$(patch -d "$1.tmp" -p1 -N --dry-run <"$_p" 2>&1); then
			_why=$(echo "$_out" | grep -m1 -iE '^hunk #.*failed|can.t find file|malformed|reversed' ||
				echo "$_out" | grep -v '^checking file' | head -n1)
			_file=$(echo "$_out" | sed -n 's/^checking file //p' | tail -n1)
			rm -rf "$1.tmp"
			echo "kernel: patch ${_p#"$TS_TOP"/} does not apply to linux-source-$ver:" \
				"${_file:+$_file: }$_why" >&2
			exit 4
		fi
		patch -d "$1.tmp" -p1 -N -s <"$_p" >/dev/null
	done
	touch "$1.tmp/.tickscope-full"
	mv "$1.tmp" "$1"
}

series=""
patch_hash=none
if [ -n "$tree" ]; then
	[ -z "$patches" ] || die "--tree with --patches: make the change in the tree instead"
	[ -f "$tree/Makefile" ] && [ -d "$tree/arch/$P_ARCH" ] || die "$tree is not a kernel tree"
	src_pristine=$(cd "$tree" && pwd)
	# what the tree holds: its commit and any change on top of it (a revert, a cherry-pick)
	patch_hash="tree:$(git -C "$tree" rev-parse HEAD 2>/dev/null || echo -)"
	patch_hash="$patch_hash+$(git -C "$tree" diff HEAD 2>/dev/null | sha256sum | cut -c1-16)"
else
	src_pristine=$(full_tree)
fi
if [ -n "$patches" ]; then
	case "$patches" in /*) ;; *) patches=$TS_TOP/$patches ;; esac
	[ -e "$patches" ] || die "no patch series $patches"
	series=$(series_files "$patches")
	[ -n "$series" ] || die "$patches holds no patch (a series file or *.patch)"
	patch_hash=$(cat $series | sha256sum | cut -d' ' -f1)
fi
mkdir -p "$kdir"
# The O= folder is the variant folder, at the same depth under .cache as the tree: with ccache's
# base_dir at .cache the compile commands of every variant read alike, and ccache reuses what
# a configuration change did not touch. A patched variant gets a private root p/ shaped like
# .cache (p/ksrc-full/linux-source-VER, p/kernels/B/V) for the same reason.
src=$src_pristine
bdir=$kdir
if [ -n "$series" ]; then
	src=$kdir/p/ksrc-full/linux-source-$ver
	bdir=$kdir/p/kernels/$board/$variant
	if [ "$(cat "$src/.tickscope-patches" 2>/dev/null)" != "$patch_hash" ]; then
		msg "applying $(echo "$series" | wc -w) patch(es) to a copy of linux-source-$ver"
		apply_series "$src"
		echo "$patch_hash" >"$src/.tickscope-patches"
	fi
fi

# 1-2: base config, then the fragments and their verdicts.
mkdir -p "$kdir/base" "$bdir"
if [ "$real_board" = 1 ]; then
	base_desc="$P_DEFCONFIG (the profile's DEFCONFIG)"
	make -s -C "$src" O="$kdir/base" ARCH="$P_ARCH" CROSS_COMPILE="$cross" \
		"$P_DEFCONFIG" >"$kdir/base.log" 2>&1 ||
		{ cat "$kdir/base.log" >&2; die "make $P_DEFCONFIG failed"; }
else
	base_desc="${base_frag#"$TS_TOP"/} allnoconfig"
	make -s -C "$src" O="$kdir/base" ARCH="$P_ARCH" CROSS_COMPILE="$cross" \
		KCONFIG_ALLCONFIG="$base_frag" allnoconfig >"$kdir/base.log" 2>&1 ||
		{ cat "$kdir/base.log" >&2; die "allnoconfig with $base_frag failed"; }
fi
vrc=0
# the variant folder is ours, not a user's folder kernel-config.sh must refuse (base/ is in it)
: >"$bdir/.tickscope-out"
# shellcheck disable=SC2086 # fragment names, split on purpose
"$TS_TOP/kconfig-fragments/kernel-config.sh" --ksrc "$src" --board "$board" \
	--base "$kdir/base/.config" --out "$bdir" $fragments >"$kdir/verdicts.txt" 2>&1 || vrc=$?
verdict=$(grep '^result:' "$kdir/verdicts.txt" | tail -n1)
if [ "$vrc" != 0 ]; then
	grep -E '^(dropped|unknown|overridden|check-FAIL)' -A2 "$kdir/verdicts.txt" >&2 ||
		tail -n 5 "$kdir/verdicts.txt" >&2
	echo "kernel: make kernel-config refused the fragments ($kdir/verdicts.txt)" >&2
	exit 5
fi
cfg_hash=$(sha256sum <"$bdir/.config" | cut -d' ' -f1)
base_hash=$(sha256sum <"$kdir/base/.config" | cut -d' ' -f1)
cp "$bdir/.config" "$kdir/config"

# Reuse: same config and patch hashes, and the image is the one recorded.
img=$bdir/$image_rel
if [ "$force" = 0 ] && [ "$(vget config_sha256)" = "$cfg_hash" ] &&
	[ "$(vget patches_sha256)" = "$patch_hash" ] && [ -f "$img" ] &&
	[ "$(vget image_sha256)" = "$(sha256sum <"$img" | cut -d' ' -f1)" ]; then
	msg "$board/$variant: reusing the built kernel (config and patches unchanged): $img"
	exit 0
fi

# 4: the build; a real board also needs its modules and device trees.
targets=$target
if [ "$real_board" = 1 ]; then
	! grep -qx 'CONFIG_MODULES=y' "$bdir/.config" || targets="$targets modules"
	[ "$P_ARCH" != arm64 ] || targets="$targets dtbs"
fi
jobs=$(nproc 2>/dev/null || echo 2)
msg "$board/$variant: building $targets (ARCH=$P_ARCH${cross:+ CROSS_COMPILE=$cross}," \
	"-j$jobs${ccache:+, ccache}); log: $kdir/build.log"
t0=$(now_s)
# shellcheck disable=SC2086 # $targets: make targets, split on purpose
CCACHE_DIR=${CCACHE_DIR:-$TS_TOP/.cache/ccache} CCACHE_BASEDIR=$TS_TOP/.cache CCACHE_NOHASHDIR=1 \
	make -C "$src" O="$bdir" KBUILD_BUILD_USER=tickscope \
	KBUILD_BUILD_HOST=tickscope ARCH="$P_ARCH" CROSS_COMPILE="$cross" CC="${ccache}${cross}gcc" \
	-j"$jobs" $targets >"$kdir/build.log" 2>&1 ||
	{
		tail -n 20 "$kdir/build.log" >&2
		echo "kernel: the build failed ($kdir/build.log)" >&2
		exit 1
	}
secs=$(($(now_s) - t0))
[ -f "$img" ] || die "the build ended without $img"

# pack_kernel: the built kernel of a real board, for its boot methods (boards/README.md,
# "Kernels for a real board"): pack/linux-<release>-<variant>.tar.xz holds boot/ (the image,
# config, System.map, dtbs/<release>/) and lib/modules/<release>/ for the board's root file
# system; pack/tftp/ the image and the DTB for u-boot over tftp. Prints the pack's record.
pack_kernel() {
	_rel=$(cat "$bdir/include/config/kernel.release")
	_pk=$kdir/pack
	rm -rf "$_pk" "$_pk.tmp"
	mkdir -p "$_pk.tmp/root/boot" "$_pk.tmp/tftp"
	cp "$img" "$_pk.tmp/root/boot/vmlinuz-$_rel"
	cp "$img" "$_pk.tmp/tftp/"
	cp "$bdir/.config" "$_pk.tmp/root/boot/config-$_rel"
	cp "$bdir/System.map" "$_pk.tmp/root/boot/System.map-$_rel"
	if grep -qx 'CONFIG_MODULES=y' "$bdir/.config"; then
		make -s -C "$src" O="$bdir" ARCH="$P_ARCH" CROSS_COMPILE="$cross" \
			INSTALL_MOD_PATH="$_pk.tmp/root" INSTALL_MOD_STRIP=1 DEPMOD=/sbin/depmod \
			modules_install >>"$kdir/build.log" 2>&1 ||
			die "make modules_install failed ($kdir/build.log)"
		rm -f "$_pk.tmp/root/lib/modules/$_rel/build" "$_pk.tmp/root/lib/modules/$_rel/source"
	fi
	if [ "$P_ARCH" = arm64 ]; then
		mkdir -p "$_pk.tmp/root/boot/dtbs/$_rel"
		(cd "$bdir/arch/arm64/boot/dts" && find . -name '*.dtb' | cpio -pdm --quiet \
			"$_pk.tmp/root/boot/dtbs/$_rel")
		if [ -n "${P_DTB:-}" ]; then
			[ -f "$bdir/arch/arm64/boot/dts/$P_DTB" ] ||
				die "the profile's DTB $P_DTB was not built (is its ARCH_ option on?)"
			cp "$bdir/arch/arm64/boot/dts/$P_DTB" "$_pk.tmp/tftp/"
		fi
	fi
	_dirs=boot
	[ ! -d "$_pk.tmp/root/lib" ] || _dirs="boot lib"
	# shellcheck disable=SC2086 # the two folder names, split on purpose
	tar -C "$_pk.tmp/root" --owner=0 --group=0 -cf "$_pk.tmp/linux-$_rel-$variant.tar" $_dirs
	xz -T0 -6 "$_pk.tmp/linux-$_rel-$variant.tar"
	rm -rf "$_pk.tmp/root"
	mv "$_pk.tmp" "$_pk"
	echo "pack=$(rel "$_pk")"
	(cd "$_pk" && find . -type f | sort | while read -r _f; do
		echo "pack_sha256=$(sha256sum <"$_f" | cut -d' ' -f1) ${_f#./}"
	done)
}

rel() { echo "${1#"$TS_TOP"/}"; }
{
	echo "format=tickscope-kernel-variant-1"
	echo "board=$board"
	echo "variant=$variant"
	echo "arch=$P_ARCH"
	echo "ksrc=${tree:-linux-source-$ver} $(make -s -C "$src" kernelversion 2>/dev/null)"
	echo "kernel_release=$(cat "$bdir/include/config/kernel.release" 2>/dev/null || echo -)"
	echo "base=$base_desc"
	echo "base_config_sha256=$base_hash"
	echo "fragments=$fragments"
	echo "fragments_merged=$(sed -n '1s/.*, fragments: //p' "$kdir/verdicts.txt")"
	echo "fragment_verdicts=$verdict"
	echo "config_sha256=$cfg_hash"
	echo "patches=$( [ -n "$series" ] && for p in $series; do printf '%s ' "$(rel "$p")"; done)"
	echo "patches_sha256=$patch_hash"
	echo "image=$(rel "$img")"
	echo "image_sha256=$(sha256sum <"$img" | cut -d' ' -f1)"
	[ "$real_board" = 0 ] || pack_kernel
	echo "build_seconds=$secs"
	echo "built_utc=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
} >"$vfile.tmp"
mv "$vfile.tmp" "$vfile"
msg "$board/$variant: built in ${secs}s: $img ($verdict)"
