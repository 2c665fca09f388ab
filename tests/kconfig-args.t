#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make kernel-config's argument checks, before anything is written: an O= folder inside the
# kernel tree and an ARCH outside the documented ones are refused (exit 2) and the tree is left
# as it was; through make, the script's code is named in make's last line. A stand-in tree
# (a Makefile and scripts/kconfig/) is enough: the checks come before the tree is used.
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

tap_done
