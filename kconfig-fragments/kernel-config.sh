#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `make kernel-config`: base defconfig of the board + fragments in order + the tree's own
# olddefconfig in a pristine-source O= folder, then a verdict and a reason for every symbol.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
ts_prog=kernel-config
# shellcheck source=kconfig-fragments/exit.sh
. "$here/exit.sh"

usage() {
	cat <<USAGE
usage: $0 [options] FRAGMENT...
Build a validated kernel .config: start from the board's base defconfig, merge the board
fragment and then FRAGMENT... in order, run the tree's own olddefconfig (ARCH exported,
CROSS_COMPILE when the cross gcc exists), and report for each requested symbol: kept, dropped
(with the reason, in the tree's Kconfig terms), overridden by a later fragment, or unknown.

  --ksrc DIR|VER  kernel tree, or 6.1 / 6.12 for Debian's linux-source-VER extracted into
                  .cache/ (default: 6.1)
  --arch ARCH     x86_64 or arm64 (default: the board's)
  --board NAME    a board of kconfig-fragments/boards.tsv; its fragment is merged first
  --base BASE     what the fragments apply to: defconfig (the board's, default), running
                  (/proc/config.gz, else /boot/config-\$(uname -r)), board (the running
                  config of BOARD, over its boards/ transport), or a .config FILE (.gz/.xz
                  too); a config other than defconfig goes through this tree's olddefconfig
  --out DIR       output folder, the O= of the kernel build (default out/kernel-<board>/):
                  new, empty, used by this tool before, or a kernel build folder
  --json          JSON report instead of text
  --diff          print only the whole diff against the base, grouped (as scripts/diffconfig)
  -v, --verbose   also list the requests that a later fragment repeats (verdict "same")
  --make-olddefconfig  run the tree's 'make olddefconfig' per set instead (a make and a
                  Kconfig parse more; the tests' oracle for the in-process one)
  --each          every FRAGMENT is a set of its own ('a+b' joins two); .configs go to
                  <out>/sets/; used by the tests to validate all fragments in one parse
  --reuse         reuse <out>'s base config and tool when KSRC, ARCH and board match
  --base-cache DIR  build the defconfig base and the checker once per tree path, arch and
                  cross prefix in DIR and copy them into each <out> (the tests' build
                  folders share one; default \$TS_KCONFIG_BASE_CACHE); like --reuse, for
                  trees that do not change under the same path
  --fragment-dir DIR  look fragment names up in DIR first (repeatable; no spaces)
  --allow-drops   a fragment's purpose that does not survive is reported, not a failure
  --experiment F  take the board and the fragments from the experiment .config F
                  (CONFIG_TS_BOARD, CONFIG_TS_FRAGMENTS, CONFIG_TS_EXTRA_FRAGMENTS) when
                  --board or FRAGMENT are not given
  -h, --help      this help

FRAGMENT is a name in kconfig-fragments/, in the tree's kernel/configs/ or
arch/\$SRCARCH/configs/, or a path. The user's tree is never written: a tree that is not
pristine (has .config or include/config) is refused. An existing <out>/.config that this tool
did not write last is backed up to <out>/.config.tickscope-backup (one file, replaced).
Each fragment states its purpose ('# ts: purpose CONFIG_X=v'): a purpose that this kernel
cannot deliver fails the run, naming the era (kconfig-fragments/README.md, "Kernel eras");
other drops are warnings with their reasons.
Exit: 0 every purpose survived, 1 a purpose did not (unless --allow-drops), 2 bad fragment
or usage, 3 unusable kernel tree or toolchain, or no verdict: an internal error (a step that
failed unexpectedly, the checker killed by a signal) or SIGINT/SIGTERM/SIGHUP, each said in
one line. No other status. 'make kernel-config' exits 2 on any failure (GNU make's own
status), its last line naming this script's code ("... kernel-config] Error 3").
USAGE
}

ksrc='' arch='' board='' out='' json='' makeold='' each='' reuse='' experiment='' fdirs=''
bcache=${TS_KCONFIG_BASE_CACHE:-}
diff='' verbose='' basespec=defconfig allow=''
while [ $# -gt 0 ]; do
	case "$1" in
	--ksrc | --arch | --board | --base | --out | --experiment | --fragment-dir | --base-cache)
		[ $# -ge 2 ] || { echo "kernel-config: $1 needs a value" >&2; usage >&2; leave 2; } ;;
	esac
	case "$1" in
	-h | --help) usage; leave 0 ;;
	--ksrc) ksrc=$2; shift 2 ;;
	--arch) arch=$2; shift 2 ;;
	--board) board=$2; shift 2 ;;
	--base) basespec=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--json) json=--json; shift ;;
	--diff) diff=--diff; shift ;;
	-v | --verbose) verbose=--verbose; shift ;;
	--fast)
		# It once chose the in-process olddefconfig, which is now the only way: accepting it
		# would say it did something.
		echo "kernel-config: --fast does nothing (olddefconfig always runs in the checker): remove it" >&2
		leave 2
		;;
	--make-olddefconfig) makeold=1; shift ;;
	--each) each=1; shift ;;
	--reuse) reuse=1; shift ;;
	--base-cache) bcache=$2; shift 2 ;;
	--allow-drops) allow=--allow-drops; shift ;;
	--experiment) experiment=$2; shift 2 ;;
	--fragment-dir)
		[ -d "$2" ] || { echo "kernel-config: --fragment-dir $2: no such folder" >&2; leave 2; }
		fdirs="$fdirs --fragment-dir $(cd "$2" && pwd)"
		shift 2
		;;
	--) shift; break ;;
	-*) echo "kernel-config: unknown option $1" >&2; usage >&2; leave 2 ;;
	*) break ;;
	esac
done
# The experiment .config (make menuconfig / make <board>_defconfig) names board and fragments.
exp_get() {
	sed -n "s/^CONFIG_$1=\"\(.*\)\"\$/\1/p" "$experiment"
}
if [ -n "$experiment" ]; then
	[ -f "$experiment" ] || { echo "kernel-config: $experiment: no such file" >&2; leave 2; }
	[ -n "$board" ] || [ -n "$arch" ] || board=$(exp_get TS_BOARD)
	if [ $# -eq 0 ]; then
		# shellcheck disable=SC2046 # space-separated names, split on purpose
		set -- $(exp_get TS_FRAGMENTS) $(exp_get TS_EXTRA_FRAGMENTS)
	fi
fi
if [ $# -eq 0 ]; then
	echo "kernel-config: no fragments given: FRAGMENTS=\"...\", or run 'make <board>_defconfig'" \
		"or 'make menuconfig' first" >&2
	leave 2
fi

die() {
	code=$1
	shift
	printf 'kernel-config: %s\n' "$*" >&2
	leave "$code"
}

# A build path goes into the kernel's make, which splits it at blanks and colons (a space in
# O= once wrote another folder's .config and created folders inside the tree): such a path is
# refused before anything is written. Quotes, '$', '\\' and '`' are refused with them.
check_path() {
	case "$2" in
	*[[:space:]:\'\"\$\\\`]*)
		die 2 "$1='$(printf '%s' "$2" | tr '\n\t' '??')': a blank, newline, colon, quote," \
			"'\$', '\\' or '\`' in a kernel build path breaks the kernel's make; give a" \
			"path without them"
		;;
	esac
}
[ -z "$ksrc" ] || check_path "KSRC (--ksrc)" "$ksrc"
[ -z "$out" ] || check_path "O (--out)" "$out"
[ -z "$bcache" ] || check_path "the base cache (--base-cache)" "$bcache"

# The board decides the arch, the base defconfig, its fragment and the cross prefix.
base='' bfrag='' cross=''
if [ -n "$board" ]; then
	line=$(awk -v b="$board" '$1 == b' "$here/boards.tsv")
	[ -n "$line" ] || die 2 "unknown board '$board' (see kconfig-fragments/boards.tsv)"
	# shellcheck disable=SC2046 # the tab-separated columns, split on purpose
	set -- $(echo "$line" | cut -f2-5) "$@"
	barch=$1 base=$2 bfrag=$3 cross=$4
	shift 4
	[ "$cross" = - ] && cross=
	[ -z "$arch" ] || [ "$arch" = "$barch" ] || die 2 "board $board is $barch, not ARCH=$arch"
	arch=$barch
fi
[ -n "$arch" ] || die 2 "give BOARD= or ARCH="
case "$arch" in
x86_64 | x86) srcarch=x86 base=${base:-x86_64_defconfig} ;;
arm64) srcarch=arm64 base=${base:-defconfig} cross=${cross:-aarch64-linux-gnu-} ;;
*) die 2 "ARCH=$arch is not supported: x86_64 (or x86) and arm64 are" ;;
esac
if [ -n "$cross" ] && ! command -v "${cross}gcc" >/dev/null 2>&1; then
	echo "kernel-config: ${cross}gcc not found: continuing without CROSS_COMPILE; compiler" \
		"probes (CC_HAS_*, AS_HAS_*) will describe the host gcc" >&2
	cross=
fi

case "$ksrc" in
'') ksrc=$("$here/ksrc.sh") || leave 3 ;;
[0-9]*.[0-9]*) [ -d "$ksrc" ] || ksrc=$("$here/ksrc.sh" "$ksrc") || leave 3 ;;
esac
{ [ -e "$ksrc" ] || [ -L "$ksrc" ]; } ||
	die 3 "KSRC (--ksrc) $ksrc: no such folder (a kernel tree, or 6.1 / 6.12: Debian's" \
		"linux-source)"
[ -d "$ksrc" ] || die 3 "KSRC (--ksrc) $ksrc is not a folder"
[ -f "$ksrc/Makefile" ] && [ -d "$ksrc/scripts/kconfig" ] ||
	die 3 "KSRC (--ksrc) $ksrc is not a kernel tree (no Makefile and scripts/kconfig)"
ksrc=$(cd "$ksrc" && pwd)
if [ -e "$ksrc/.config" ] || [ -d "$ksrc/include/config" ]; then
	die 3 "$ksrc is not pristine (it has .config or include/config): an O= build needs a" \
		"clean source tree and tickscope never writes into yours; use 'git worktree add'" \
		"or a copy, or run 'make mrproper' there yourself"
fi

# Fragment names first, before the base config and the Kconfig parse (tens of seconds): a
# mistyped one is named with the nearest valid name and the list of them.
frag_dirs=$(printf '%s\n' $fdirs | grep -v '^--fragment-dir$' || true)
frag_dirs="$frag_dirs
$here
$ksrc/kernel/configs
$ksrc/arch/$srcarch/configs"
nearest() {
	printf '%s\n' "$2" | awk -v w="$1" '
	function dist(a, b,   i, j, la, lb, d, c) {
		la = length(a); lb = length(b)
		for (i = 0; i <= la; i++) d[i, 0] = i
		for (j = 0; j <= lb; j++) d[0, j] = j
		for (i = 1; i <= la; i++)
			for (j = 1; j <= lb; j++) {
				c = d[i - 1, j - 1] + (substr(a, i, 1) != substr(b, j, 1))
				if (d[i - 1, j] + 1 < c) c = d[i - 1, j] + 1
				if (d[i, j - 1] + 1 < c) c = d[i, j - 1] + 1
				d[i, j] = c
			}
		return d[la, lb]
	}
	NF { n = dist(w, $1); if (best == "" || n < bn) { best = $1; bn = n } }
	END { if (best != "" && bn <= length(w) / 2 + 1) print best }'
}
frag_known() {
	while IFS= read -r d; do
		[ -n "$d" ] || continue
		[ ! -f "$d/$1.config" ] && [ ! -f "$d/$1" ] || return 0
	done <<DIRS
$frag_dirs
DIRS
	return 1
}
for set in "$@"; do
	for part in $(printf '%s' "$set" | tr '+' ' '); do
		case "$part" in
		*/*)
			[ ! -d "$part" ] || die 2 "fragment '$part': a directory, not a fragment file"
			[ -f "$part" ] || die 2 "fragment '$part': no such file"
			;;
		*)
			! frag_known "$part" || continue
			ours=$(cd "$here" && ls ./*.config | sed 's|^\./||; s|\.config$||')
			tree=$(for d in "$ksrc/kernel/configs" "$ksrc/arch/$srcarch/configs"; do
				(cd "$d" 2>/dev/null && ls ./*.config 2>/dev/null) || true
			done | sed 's|^\./||; s|\.config$||' | sort -u)
			near=$(nearest "$part" "$ours
$tree")
			# shellcheck disable=SC2086 # the name lists, one word each
			die 2 "fragment '$part': not found${near:+ (did you mean '$near'?)}. Fragments:" \
				$ours "(kconfig-fragments/); this tree's:" ${tree:-none} \
				"(kernel/configs/, arch/$srcarch/configs/); or give a path"
			;;
		esac
	done
done

out=${out:-$top/out/kernel-${board:-$arch}}
check_path "KSRC (--ksrc)" "$ksrc"
check_path "O (--out)" "$out"
# Refused before anything is created: an O= inside the source tree would write into it.
case "$(realpath -m "$out")/" in
"$(realpath "$ksrc")"/*)
	die 2 "O=$out is inside KSRC ($ksrc): the build would write into your tree, which" \
		"tickscope never writes; give an O= folder outside it"
	;;
esac
[ -z "$bcache" ] || case "$(realpath -m "$bcache")/" in
"$(realpath "$ksrc")"/*)
	die 2 "the base cache $bcache is inside KSRC ($ksrc): give a folder outside it"
	;;
esac
# O= is a kernel build folder: its .config is the kernel's, a file. A folder whose .config is
# a directory (O=$HOME, where ~/.config holds the user's settings) got our .config copied into
# that directory, then "cp: omitting directory" and an internal error.
[ ! -e "$out/.config" ] || [ -f "$out/.config" ] ||
	die 2 "O=$out: its .config is not a file (a directory?): O= is a kernel build folder," \
		"where .config is the kernel's; give one of its own"
# The kernel's make writes its build files (Makefile, scripts/, include/, ...) into O=: an
# existing folder takes them only when it is empty, one of ours (.tickscope-out, written
# below; tickscope-make.env, which earlier versions wrote first) or already a kernel build
# folder (its Makefile the stub the kernel's O= build writes); any other folder of the user's
# (O=$HOME/Documents) is refused before anything is written.
if [ -d "$out" ] && [ ! -e "$out/.tickscope-out" ] && [ ! -e "$out/tickscope-make.env" ] &&
	! head -n1 "$out/Makefile" 2>/dev/null | grep -q '^# Automatically generated by'; then
	# shellcheck disable=SC2012 # a few names for the message only
	some=$(ls -A "$out" 2>/dev/null | head -n3 | tr '\n' ' ')
	[ -z "$some" ] ||
		die 2 "O=$out: a folder that is not empty (${some% }...) and neither a kernel" \
			"build folder nor one of tickscope's: the kernel's make would write its build" \
			"files into it; give a new or empty folder"
fi
[ ! -e "$out" ] || [ -d "$out" ] || die 2 "O=$out: not a folder; give a new or empty folder"
mkdir -p "$out" 2>/dev/null && [ -w "$out" ] && : >"$out/.tickscope-out" 2>/dev/null ||
	die 2 "O=$out: cannot create or write this folder; give an output folder you can write"
out=$(cd "$out" && pwd)

# The base config: the board's defconfig, or a config read from a file, this machine or the
# board, decompressed into <out>/tickscope-base-input.config.
base_from() {
	case "$1" in
	*.gz) gzip -dc "$1" ;;
	*.xz) xz -dc "$1" ;;
	*) cat "$1" ;;
	esac >"$out/tickscope-base-input.config" || die 2 "BASE: cannot read $1"
}
base_running() {
	if [ -r /proc/config.gz ]; then
		base_from /proc/config.gz
		basename="the running kernel's /proc/config.gz ($(uname -r))"
	elif [ -r "/boot/config-$(uname -r)" ]; then
		base_from "/boot/config-$(uname -r)"
		basename="the running kernel's /boot/config-$(uname -r)"
	else
		die 3 "BASE=running: neither /proc/config.gz (CONFIG_IKCONFIG_PROC) nor" \
			"/boot/config-$(uname -r) is readable on this machine"
	fi
}
base_board() {
	[ -n "$board" ] || die 2 "BASE=board needs BOARD="
	# The profile parser of boards/, in a subshell: it brings its own die().
	prof=$(
		. "$top/boards/lib/common.sh"
		profile_load "$board" >&2 || exit 1
		printf '%s\n' "$P_TRANSPORT" "${P_SSH:-}" "${P_SSH_OPTS:-}" "${P_SSH_TARGET:-}"
	) || die 2 "BASE=board: no usable boards/ profile for board $board"
	P_TRANSPORT=$(echo "$prof" | sed -n 1p) P_SSH=$(echo "$prof" | sed -n 2p)
	P_SSH_OPTS=$(echo "$prof" | sed -n 3p) P_SSH_TARGET=$(echo "$prof" | sed -n 4p)
	case "$P_TRANSPORT" in
	local) base_running ;;
	ssh)
		# shellcheck disable=SC2086 # SSH_OPTS is a list of options
		$P_SSH $P_SSH_OPTS "$P_SSH_TARGET" 'if [ -r /proc/config.gz ]; then
			gzip -dc /proc/config.gz; else cat /boot/config-$(uname -r); fi' \
			>"$out/tickscope-base-input.config" ||
			die 3 "BASE=board: cannot read the running config of $P_SSH_TARGET over ssh"
		basename="the running config of board $board ($P_SSH_TARGET)"
		;;
	*) die 3 "BASE=board: board $board ($P_TRANSPORT) boots a packaged kernel; give its" \
		"config as BASE=FILE (the /boot/config-* of the kernel package)" ;;
	esac
}
basename=
case "$basespec" in
defconfig) ;;
running) base_running ;;
board) base_board ;;
*)
	[ -f "$basespec" ] && [ -r "$basespec" ] ||
		die 2 "BASE=$basespec: no such file (BASE is defconfig, running," \
		"board or a .config file)"
	base_from "$basespec"
	basename=$(cd "$(dirname "$basespec")" && pwd)/$(basename "$basespec")
	;;
esac
[ -z "$basename" ] || grep -q '^CONFIG_' "$out/tickscope-base-input.config" ||
	die 2 "BASE=$basespec: no CONFIG_ line in it: not a kernel .config"
kmake() {
	make -s -C "$ksrc" O="$out" ARCH="$arch" CROSS_COMPILE="$cross" "$@"
}

# A .config this run would overwrite is copied aside first, unless it is the one the last run
# wrote (its checksum is in tickscope-written): one backup, of the last .config that was not ours.
backed_up=
backup() {
	[ -z "$backed_up" ] && [ -f "$out/.config" ] || return 0
	backed_up=1
	[ "$(cksum <"$out/.config")" = "$(cat "$out/tickscope-written" 2>/dev/null)" ] && return 0
	bak=$out/.config.tickscope-backup
	cp -p "$out/.config" "$bak"
	echo "kernel-config: backed up the existing $out/.config to $bak" >&2
}

# env_dump DIR: the environment the kernel's make gives scripts/kconfig/conf (CC, LD, srctree,
# CC_VERSION_TEXT, ...) into DIR/tickscope-make.env: Kconfig's $(shell,...) probes need it. A
# *config target name makes the top Makefile read the arch Makefile as it does for
# olddefconfig; the recipe is a plain command, so its environment is the one conf gets.
env_dump() {
	make -s -C "$ksrc" O="$1" ARCH="$arch" CROSS_COMPILE="$cross" \
		--eval='tickscope-envconfig: ; @env -0' tickscope-envconfig \
		>"$1/tickscope-make.env" 2>/dev/null
}

# build_base DIR [defer]: the base .config (make <defconfig>, or this tree's olddefconfig of
# BASE) and the checker, linked with the kconfig objects that build left in DIR and with a copy
# of the tree's conf.o (its main renamed ts_conf_main, its conf_parse call going to the
# checker's, which parses once). With defer, a defconfig base whose file is in the tree is left
# to the checker (defcfg= names it, relative to the tree): make builds conf only, and the
# Kconfig tree is parsed once instead of three times.
build_base() {
	o=$1 defcfg=
	# The kconfig era, from the tree's own headers (see "Across kernel eras" in README.md).
	kc=$ksrc/scripts/kconfig era=
	grep -q 'sym_get_choice_menu' "$kc/lkc_proto.h" && era="$era -DTS_KC_CHOICE_MENU"
	# conf before 4.1 or so takes long options only: no -s (3.18: getopt_long(ac, av, "", ...))
	grep -q 'getopt_long(ac, av, "",' "$kc/conf.c" && era="$era -DTS_KC_NO_SILENT_OPT"
	[ -d "$ksrc/scripts/include" ] && era="$era -I$ksrc/scripts/include"
	# The checker's own sources need only the tree's headers: they compile while make builds
	# conf (a second core's worth of the cold run). Linked below, once conf.o is there.
	rm -rf "$o/tickscope-tool"
	mkdir -p "$o/tickscope-tool"
	# shellcheck disable=SC2086 # $era is a list
	(cd "$o/tickscope-tool" && exec ${HOSTCC:-cc} -O2 -D_GNU_SOURCE $era -I"$here/tool" \
		-I"$kc" -c "$here"/tool/*.c) 2>"$o/tickscope-tool/cc.log" &
	ccpid=$! mkfail=
	if [ -z "$basename" ] && [ -n "${2:-}" ]; then
		# conf alone (the tree's build_config: what make <defconfig> runs but conf) and,
		# beside it, the make environment
		env_dump "$o" &
		envpid=$! built=
		make -s -C "$ksrc" O="$o" ARCH="$arch" CROSS_COMPILE="$cross" build_config \
			>/dev/null 2>"$o/tickscope-base.log" && built=1
		wait "$envpid" || built=
		file=$base
		[ -z "$built" ] || [ "$base" != defconfig ] ||
			file=$(tr '\0' '\n' <"$o/tickscope-make.env" |
				sed -n 's/^KBUILD_DEFCONFIG=//p')
		# A tree without build_config, or a base that is a make target only: make
		# <defconfig> below, as before.
		if [ -n "$built" ] && tr '\0' '\n' <"$o/tickscope-make.env" | grep -q '^srctree=' &&
			[ -x "$o/scripts/kconfig/conf" ] && [ -n "$file" ] &&
			[ -f "$ksrc/arch/$srcarch/configs/$file" ]; then
			defcfg=arch/$srcarch/configs/$file
		fi
	fi
	if [ -n "$defcfg" ]; then
		:
	elif [ -z "$basename" ]; then
		make -s -C "$ksrc" O="$o" ARCH="$arch" CROSS_COMPILE="$cross" "$base" >/dev/null ||
			mkfail="make $base failed in $ksrc (ARCH=$arch)"
	else
		# A config from another kernel: this tree's olddefconfig makes it a base for it.
		cp "$out/tickscope-base-input.config" "$o/.config"
		kmake olddefconfig >"$o/tickscope-base.log" 2>&1 ||
			mkfail="make olddefconfig of BASE=$basespec failed in $ksrc (ARCH=$arch):
$(tail -3 "$o/tickscope-base.log")"
	fi
	ccrc=0
	wait "$ccpid" || ccrc=$?
	[ -z "$mkfail" ] || die 3 "$mkfail"
	# The parser objects, whatever the era splits them into (4.4: one zconf.tab.o that
	# includes the rest; 6.x: confdata.o expr.o lexer.lex.o ...), without the front ends;
	# conf's own, renamed, runs defconfig and olddefconfig in the checker's children.
	objs=
	for obj in "$o"/scripts/kconfig/*.o; do
		case "${obj##*/}" in
		conf.o | mconf.o | nconf*.o | qconf*.o | gconf*.o | images.o | mnconf-common.o) ;;
		*) objs="$objs $obj" ;;
		esac
	done
	objcopy --redefine-sym main=ts_conf_main --redefine-sym conf_parse=ts_conf_parse \
		"$o/scripts/kconfig/conf.o" "$o/tickscope-conf.o" ||
		die 3 "cannot copy $o/scripts/kconfig/conf.o for the checker (objcopy, binutils)"
	# Sources that needed a header the build generates are compiled again, with it.
	if [ "$ccrc" = 0 ]; then
		# shellcheck disable=SC2086 # $objs is a list
		${HOSTCC:-cc} -o "$o/tickscope-kconfig" "$o"/tickscope-tool/*.o \
			"$o/tickscope-conf.o" $objs
	else
		# shellcheck disable=SC2086 # $era and $objs are lists
		${HOSTCC:-cc} -O2 -D_GNU_SOURCE $era -I"$here/tool" -I"$kc" -I"$o/scripts/kconfig" \
			-o "$o/tickscope-kconfig" "$here"/tool/*.c "$o/tickscope-conf.o" $objs
	fi || die 3 "cannot build the checker against $ksrc/scripts/kconfig" \
		"(kconfig API too old/new?)"
}

# --base-cache: one defconfig build per tree, arch and cross prefix, shared by every <out>
# (the tests' build folders). A seed folder holds the base .config and the checker; a stale
# one (other tree path, checker sources newer) is rebuilt. Built in a temporary folder and
# renamed, so that two runs at once never see half a seed.
seed_of() {
	key="$ksrc $arch $cross $base"
	seed=$bcache/$arch-$base-$(printf '%s' "$key" | cksum | cut -d' ' -f1)
	if [ "$(cat "$seed/tickscope-seed" 2>/dev/null)" != "$key" ] ||
		[ ! -x "$seed/tickscope-kconfig" ] || [ ! -f "$seed/.config" ] ||
		[ -n "$(find "$here/tool" -newer "$seed/tickscope-kconfig" -name "*.[ch]")" ]; then
		mkdir -p "$bcache"
		bcache=$(cd "$bcache" && pwd)
		stmp=$(mktemp -d "$bcache/seed.tmp.XXXXXX")
		(build_base "$stmp") || { rm -rf "$stmp"; leave 3; }
		echo "$key" >"$stmp/tickscope-seed"
		rm -rf "$seed"
		# Another run may have won the race: keep its seed.
		mv -T "$stmp" "$seed" 2>/dev/null || rm -rf "$stmp"
	fi
}

stamp="$ksrc $arch $cross $base $board"
[ -z "$basename" ] || stamp="$stamp $(cksum <"$out/tickscope-base-input.config")"
tool=$out/tickscope-kconfig
defcfg=
if [ -z "$reuse" ] || [ "$(cat "$out/tickscope-stamp" 2>/dev/null)" != "$stamp" ] ||
	[ ! -x "$tool" ] || [ ! -f "$out/tickscope-base.config" ] ||
	[ -n "$(find "$here/tool" -newer "$tool" -name "*.[ch]")" ]; then
	backup
	backed_up=1 # what defconfig writes next is ours, not the user's
	rm -f "$out/tickscope-stamp"
	if [ -n "$bcache" ] && [ -z "$basename" ]; then
		seed_of
		# What make <defconfig> and the checker's build would have given this folder: the
		# base, the checker and the link to the tree that other tools read (two-trees.sh).
		cp -p "$seed/.config" "$out/.config"
		cp -p "$seed/tickscope-kconfig" "$tool"
		ln -sfn "$ksrc" "$out/source"
	else
		build_base "$out" defer
	fi
	if [ -z "$defcfg" ]; then
		cp "$out/.config" "$out/tickscope-base.config"
		env_dump "$out" || die 3 "cannot read the kernel make environment"
		echo "$stamp" >"$out/tickscope-stamp"
	fi
fi

# Fragment paths are relative to where we were called from: the checker runs in the O= folder.
n=$#
while [ $n -gt 0 ]; do
	abs=
	for part in $(echo "$1" | tr '+' ' '); do
		case "$part" in
		/*) ;;
		*/*) part=$PWD/$part ;;
		esac
		abs="${abs:+$abs+}$part"
	done
	set -- "$@" "$abs"
	shift
	n=$((n - 1))
done

# The fragments: the board's first, unless named already. With --each, every set starts with it.
if [ -n "$bfrag" ]; then
	if [ -n "$each" ]; then
		n=$#
		while [ $n -gt 0 ]; do
			[ "$1" = "$bfrag" ] || set -- "$@" "$bfrag+$1"
			shift
			n=$((n - 1))
		done
	else
		case " $* " in
		*" $bfrag "*) ;; # already named, e.g. a boards/ profile's FRAGMENTS
		*) set -- "$bfrag" "$@" ;;
		esac
	fi
fi
set -- --env-file "$out/tickscope-make.env" --base "$out/tickscope-base.config" \
	${defcfg:+--defconfig "$defcfg"} \
	--base-name "${basename:-$base}${board:+ + board $board}" $fdirs \
	--fragment-dir "$here" --fragment-dir "$ksrc/kernel/configs" \
	--fragment-dir "$ksrc/arch/$srcarch/configs" --confounders "$here/confounders.tsv" \
	--eras "$here/README.md" ${allow:+"$allow"} \
	${json:+"$json"} ${diff:+"$diff"} ${verbose:+"$verbose"} "$@"
if [ -n "$each" ]; then
	mkdir -p "$out/sets"
	set -- --each --outdir "$out/sets" "$@"
else
	backup
	set -- --output "$out/.config" "$@"
fi
if [ -n "$makeold" ]; then
	# The values go through the environment, never pasted into the command's text. What
	# the tree's conf prints (4.x: "configuration written to .config") is not the report.
	TS_KC_SRC=$ksrc TS_KC_OUT=$out TS_KC_ARCH=$arch TS_KC_CROSS=$cross
	export TS_KC_SRC TS_KC_OUT TS_KC_ARCH TS_KC_CROSS
	set -- --olddefconfig 'make -s -C "$TS_KC_SRC" O="$TS_KC_OUT" ARCH="$TS_KC_ARCH" \
CROSS_COMPILE="$TS_KC_CROSS" KCONFIG_CONFIG="$TS_KCONFIG_FILE" olddefconfig >&2' "$@"
fi
cd "$out"
[ -z "$defcfg" ] || rm -f "$out/tickscope-base.config"
rc=0
"$tool" "$@" || rc=$?
# The base the checker wrote (--defconfig): a later --reuse may take it.
[ -z "$defcfg" ] || [ ! -s "$out/tickscope-base.config" ] || echo "$stamp" >"$out/tickscope-stamp"
if [ -z "$each" ] && [ $rc -le 1 ]; then
	cksum <"$out/.config" >"$out/tickscope-written"
	if [ -f "$ksrc/.tickscope-origin" ]; then
		# An extract of tree-extract.sh: Kconfig files only; the build needs the tree it
		# came from (the second word of its origin line).
		src=$(cut -d' ' -f2 "$ksrc/.tickscope-origin")
		[ -d "$src/.git" ] || [ -f "$src/Makefile" ] || src="<a full checkout of $src>"
		echo "kernel-config: wrote $out/.config from a Kconfig-only extract (to build:" \
			"make -C $src O=$out ARCH=$arch${cross:+ CROSS_COMPILE=$cross})" >&2
	elif [ -f "$ksrc/.tickscope-extracted" ]; then
		# The extract of ksrc.sh configures but cannot build: name the full source.
		ver=${ksrc##*/linux-source-}
		echo "kernel-config: wrote $out/.config (to build: tar xf" \
			"/usr/src/linux-source-$ver.tar.xz, then make -C linux-source-$ver O=$out" \
			"ARCH=$arch${cross:+ CROSS_COMPILE=$cross})" >&2
	else
		echo "kernel-config: wrote $out/.config (build with: make -C $ksrc O=$out" \
			"ARCH=$arch${cross:+ CROSS_COMPILE=$cross})" >&2
	fi
fi
leave_tool $rc
