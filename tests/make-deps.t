#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The build's dependency files hold whatever the spelling of BUILD: an object built with BUILD
# relative, absolute (through a symlink too) or outside the tree is seen as one file by make
# given BUILD in another spelling, and is remade when a header it includes is newer. The .d
# files named the objects as the build that wrote them spelled BUILD: boards/record.sh made
# tickscope-arm64 with an absolute BUILD, lava.mk with a relative one, and a changed header left
# a stale arm64 tickscope of objects from two header versions. The header is made newer with
# make's -W (what if), so that the tree's own files keep their times.
. "$(dirname "$0")/lib/tap.sh"
command -v make >/dev/null || skip_all "no make"
[ -d "$TS_BUILD" ] || skip_all "no $TS_BUILD (make all)"
top=$(cd "$TS_TOP" && pwd -P)
b=$(cd "$TS_BUILD" && pwd -P)
case $b in "$top"/*) ;; *) skip_all "$TS_BUILD is outside the tree: no relative spelling" ;; esac
tap_tmpdir
T=$TAP_TMP
# A scratch build inside the tree (in the build folder), in each spelling: relative, absolute,
# with './' and a trailing '/', through a symlink to the top.
ln -s "$top" "$T/top"
rel=${b#"$top"/}/make-deps-scratch
abs=$top/$rel
dot=./$rel/
lnk=$T/top/$rel
out=$T/out
hdr=analysis/common/map.h
src=analysis/common/map.c

mk() {
	make -s --no-print-directory -C "$TS_TOP" "$@"
}

# var BUILD NAME: make's value of NAME for that BUILD (its database, make -p, read once)
var() {
	_db=$T/db-$(printf '%s' "$1" | cksum | tr ' ' -)
	[ -f "$_db" ] || mk BUILD="$1" -pq help >"$_db" 2>/dev/null
	sed -n "s/^$2 := //p" "$_db" | head -n1
}

# The names make gives the build's files: one spelling of BUILD, so one name for each file.
want=$(var "$rel" LIB)
bad=""
for s in "$abs" "$dot" "$lnk"; do
	[ "$(var "$s" LIB)" = "$want" ] || bad="$bad $s:$(var "$s" LIB)"
done
is "$want$bad" "$rel/libtickscope.a" \
	"BUILD relative, absolute, './.../' and through a symlink: the same target names"
[ "$(var "$out/" ARM64_CLI)" = "$out/arm64/tickscope" ] && [ "$(var "$abs" ARM64_CLI)" = \
	"$rel/arm64/tickscope" ]
ok $? "the arm64 build's too: outside the tree absolute, inside relative"

# obj BUILD [arm64]: the object of $src as make names it for that BUILD (host's or arm64's)
obj() {
	if [ -n "${2:-}" ]; then
		_d=$(var "$1" ARM64_BUILD)
	else
		_d=$(var "$1" LIB)
		_d=${_d%/libtickscope.a}
	fi
	echo "$_d/${src%.c}.o"
}

# mkobj BUILD [arm64] MAKE-ARGS...: make the object of $src (its goal named as make names it);
# the arm64 libraries, which this one file does not need, taken as made (-o)
mkobj() {
	_b=$1 _a=$2
	shift 2
	if [ -n "$_a" ]; then
		mk BUILD="$_b" -o "$(var "$_b" ARM64_LIBS)/.tickscope-extracted" \
			-o "$(var "$_b" LIBPERF_ARM64)/lib/libperf.a" "$@" "$(obj "$_b" "$_a")"
	else
		mk BUILD="$_b" "$@" "$(obj "$_b" "$_a")"
	fi
}

# check FROM TO [arm64]: the object of $src built with BUILD=FROM, then make -n with BUILD=TO:
# nothing to do, and with $hdr newer, the object is remade.
check() {
	rm -rf "${top:?}/$rel" "$out"
	mkobj "$1" "${3:-}" >"$T/build.log" 2>&1 || {
		sed 's/^/#   /' "$T/build.log" | tail -n 5
		return 1
	}
	mkobj "$2" "${3:-}" -n >"$T/n.log" 2>&1
	if grep -q "$src" "$T/n.log"; then
		echo "#   BUILD=$2 remakes $(obj "$2" "${3:-}"), built with BUILD=$1, with nothing newer"
		return 1
	fi
	mkobj "$2" "${3:-}" -n -W "$hdr" >"$T/n.log" 2>&1
	grep -q "$src" "$T/n.log" || {
		echo "#   BUILD=$2, $hdr newer: $(obj "$2" "${3:-}") not remade (built with BUILD=$1)"
		sed 's/^/#   /' "$T/n.log" | tail -n 3
		return 1
	}
}

check "$rel" "$abs"
ok $? "built with BUILD relative, make with BUILD absolute: a newer header remakes the object"
check "$abs" "$rel"
ok $? "built with BUILD absolute, make with BUILD relative: likewise"
check "$lnk" "$dot"
ok $? "built through a symlink to the tree, make with BUILD=./.../: likewise"
check "$out" "$out/"
ok $? "BUILD outside the tree (an absolute path, then with a trailing '/'): likewise"
if command -v aarch64-linux-gnu-gcc >/dev/null; then
	check "$abs" "$rel" arm64
	ok $? "arm64 (make tickscope-arm64): built with BUILD absolute, then relative: likewise"
	check "$rel" "$lnk" arm64
	ok $? "arm64: built with BUILD relative, then through a symlink: likewise"
else
	skip "arm64: the cross build" "no aarch64-linux-gnu-gcc (make deps)"
	skip "arm64: the cross build, the other way" "no aarch64-linux-gnu-gcc (make deps)"
fi
rm -rf "${top:?}/$rel" "$out"

# The scripts and tests a check target runs get the folder whole: outside the tree, absolute.
mk -n MAKE=: PROVE=PROVE-HERE BUILD="$out" check 2>/dev/null |
	sed -e :a -e '/\\$/N; s/\\\n//; ta' | grep PROVE-HERE >"$T/run"
grep -qF "TS_BUILD='$out' " "$T/run" && grep -qF "TS_SUMMARY_CACHE='$out/summary-cache'" "$T/run"
ok $? "make check with BUILD outside the tree: its tests get TS_BUILD, the caches there"

# A blank in BUILD, or none: one line saying so. make -n, so that a Makefile which took it
# would only print what it built ("a" and "b", or "/analysis/...": BUILD= built into /).
for s in "$T/a b" "a b" ""; do
	n=$(printf '%s' "$s" | sed "s|$T|T|")
	mk -n BUILD="$s" all >"$T/blank" 2>&1
	rc=$?
	[ "$rc" != 0 ] && [ "$(wc -l <"$T/blank")" = 1 ] && grep -q "BUILD='$s': one folder" \
		"$T/blank" && [ ! -e "$T/a" ] && [ ! -e "$T/a b" ] && [ ! -e "$top/a" ]
	ok $? "BUILD='$n': refused in one line (exit $rc)"
done
tap_done
