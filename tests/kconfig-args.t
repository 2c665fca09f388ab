#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make kernel-config's argument checks, before anything is written: an O= folder inside the
# kernel tree and an ARCH outside the documented ones are refused (exit 2) and the tree is left
# as it was; through make, the script's code is named in make's last line. Every make variable
# of kernel-config with a quote, a blank, a '..' and a newline: one line saying what is wrong,
# no command run from it, nothing written outside the O= folder (issue 30). A mistyped
# fragment is named with the nearest valid one before any work. An option that does nothing
# (--fast, FAST=1, JSON=yes) is refused with one line. A stand-in tree (a Makefile
# and scripts/kconfig/) is enough: the checks come before the tree is used.
. "$(dirname "$0")/lib/tap.sh"

tap_tmpdir
T=$TAP_TMP
k=$T/linux
mkdir -p "$k/scripts/kconfig"
echo "# stand-in" >"$k/Makefile"
ks=$TS_TOP/kconfig-fragments/kernel-config.sh
before=$(find "$k" | sort)

for o in "$k" "$k/build" "$k/scripts/../out"; do
	sh "$ks" --ksrc "$k" --arch x86_64 --out "$o" nohz-idle >/dev/null 2>"$T/err"
	rc=$?
	is "$rc $(grep -c "O=$o is inside KSRC" "$T/err")" "2 1" "O=$o inside the tree: exit 2, one line"
done
is "$(find "$k" | sort)" "$before" "the tree is left exactly as it was"

(cd "$T" && sh "$ks" --ksrc linux --arch x86_64 --out linux/o nohz-idle >/dev/null 2>"$T/err")
is "$? $(grep -c 'is inside KSRC' "$T/err")" "2 1" "a relative O= inside the tree is refused too"

# An O= whose .config is a directory (O=$HOME and its ~/.config): our .config was copied into
# that directory before "cp: omitting directory" ended the run as an internal error.
mkdir -p "$T/home/.config"
echo keep >"$T/home/.config/settings"
sh "$ks" --ksrc "$k" --arch x86_64 --out "$T/home" nohz-idle >/dev/null 2>"$T/err"
rc=$?
is "$rc $(wc -l <"$T/err") $(grep -c "O=$T/home: its .config is not a file" "$T/err")" "2 1 1" \
	"O= whose .config is a directory: exit 2, one line ($(head -1 "$T/err" | sed "s|$T/||g"))"
is "$(cd "$T/home" && find . | sort | tr '\n' ' ')" ". ./.config ./.config/settings " \
	"... and nothing written in it"
rm -rf "$T/home"

sh "$ks" --ksrc "$k" --arch riscv nohz-idle >/dev/null 2>"$T/err"
is "$? $(grep -c 'ARCH=riscv is not supported: x86_64 (or x86) and arm64 are' "$T/err")" "2 1" \
	"ARCH=riscv: exit 2 and the supported ones named"

make -s -C "$TS_TOP" kernel-config KSRC="$k" ARCH=x86_64 O="$k/o" FRAGMENTS=nohz-idle \
	>/dev/null 2>"$T/err"
rc=$?
grep -q "is inside KSRC" "$T/err" && grep -q 'kernel-config\] Error 2' "$T/err"
ok $? "through make: the message, and make names the script's exit code"
is "$rc" 2 "through make: make exits 2 (documented in kconfig-fragments/README.md)"
is "$(find "$k" | sort)" "$before" "the tree is still as it was"

# bad VAR VALUE PATTERN: make kernel-config with VAR=VALUE (the others valid) fails with make's
# exit 2 and a stderr line matching PATTERN (grep -E), runs nothing (no $T/pwned), leaves the
# tree as it was and writes nothing in $T but the O= folder.
bad() {
	_v=$1 _val=$2 _p=$3
	rm -rf "$T/o" "$T/pwned"
	set -- KSRC="$k" ARCH=x86_64 O="$T/o" FRAGMENTS=nohz-idle
	set -- "$@" "$_v=$_val"
	(cd "$T" && make -s -C "$TS_TOP" kernel-config "$@") >"$T/out" 2>"$T/err"
	_rc=$?
	_lines=$(grep -vc '^make: \*\*\*' "$T/err")
	_left=$(cd "$T" && find . -mindepth 1 -maxdepth 1 ! -name linux ! -name o ! -name out \
		! -name err | tr '\n' ' ')
	_label=$(printf '%s' "$_val" | tr '\n' '~')
	if [ $_rc -eq 2 ] && [ "$_lines" -eq 1 ] && grep -qE -e "$_p" "$T/err" &&
		[ ! -e "$T/pwned" ] && [ -z "$_left" ] && [ "$(find "$k" | sort)" = "$before" ]; then
		ok 0 "$_v=$_label: refused, one line"
	else
		ok 1 "$_v=$_label: refused, one line"
		diag "exit $_rc, $_lines lines, left: $_left; stderr: $(head -3 "$T/err")"
	fi
}
q="x'; touch $T/pwned; echo '\"\$(touch $T/pwned)"
nl="a
b"
path_re="a blank, newline, colon, quote, '\\\$', '\\\\' or '.' in a kernel build path"
for v in KSRC O; do
	bad $v "$q" "^kernel-config: $v \(--[a-z]*\)='.*': $path_re"
	bad $v "$T/o x" "^kernel-config: $v \(--[a-z]*\)='.*/o x': $path_re"
	bad $v "$nl" "^make kernel-config: $v has a newline in its value: give one line$"
done
bad KSRC ".." "^kernel-config: \.\. is not a kernel tree$"
for v in BOARD ARCH; do
	bad $v "$nl" "^make kernel-config: $v has a newline in its value: give one line$"
done
bad BOARD "$q" "^kernel-config: unknown board 'x'; touch .*' \(see kconfig-fragments/boards.tsv\)$"
bad BOARD "qemu x86" "^kernel-config: unknown board 'qemu x86'"
bad BOARD ".." "^kernel-config: unknown board '\.\.'"
bad ARCH "$q" "^kernel-config: ARCH=x'; touch .* is not supported"
bad ARCH "x86 64" "^kernel-config: ARCH=x86 64 is not supported"
bad ARCH ".." "^kernel-config: ARCH=\.\. is not supported"
bad BASE "$nl" "^make kernel-config: BASE has a newline in its value: give one line$"
bad BASE "$q" "^kernel-config: BASE=x'; touch .*: no such file"
bad BASE "$T/a b.config" "^kernel-config: BASE=$T/a b.config: no such file"
bad BASE ".." "^kernel-config: BASE=\.\.: no such file"
bad FRAGMENTS "$q" \
	"^kernel-config: fragment 'x';': not found|^kernel-config: fragment .*: no such file"
bad FRAGMENTS "nohz-idle no such" "^kernel-config: fragment 'no': not found"
bad FRAGMENTS ".." "^kernel-config: fragment '\.\.': not found"
bad FRAGMENTS "$nl" "^kernel-config: fragment 'a': not found"
# An option that would be accepted and do nothing is refused (the tree's olddefconfig always
# runs in the checker: --fast, FAST=1 once chose that), and so is a switch that is not 1 or 0.
noop="does nothing \\(olddefconfig always runs in the checker\\): remove it$"
bad FAST 1 "^make kernel-config: FAST=1 $noop"
for v in JSON REUSE DIFF VERBOSE ALLOW_DROPS; do
	bad $v yes "^make kernel-config: $v=yes: give $v=1 \(or 0\)$"
done
sh "$ks" --ksrc "$k" --arch x86_64 --out "$T/o" --fast nohz-idle >/dev/null 2>"$T/err"
is "$? $(wc -l <"$T/err")" "2 1" "--fast: exit 2, one line"
grep -qx 'kernel-config: --fast does nothing (olddefconfig always runs in the checker): remove it' \
	"$T/err"
ok $? "--fast: the line says why"

# A mistyped fragment: checked before any work, the nearest name and the list.
sh "$ks" --ksrc "$k" --arch x86_64 --out "$T/o" nohz_full >/dev/null 2>"$T/err"
is "$? $(wc -l <"$T/err")" "2 1" "FRAGMENTS=nohz_full: exit 2, one line"
want="^kernel-config: fragment 'nohz_full': not found (did you mean 'nohz-full'?)\\. "
grep -q "${want}Fragments: .*nohz-full nohz-idle .*preempt-rt .*(kconfig-fragments/)" "$T/err"
ok $? "the nearest name is suggested and the valid names are listed"
[ ! -e "$T/o" ]
ok $? "nothing was written before the name was checked"

tap_done
