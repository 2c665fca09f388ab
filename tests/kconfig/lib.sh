# SPDX-License-Identifier: GPL-2.0-only
# Sourced by the kconfig tests after tests/lib/tap.sh: the extracted Debian 6.1 tree in $ksrc
# (SKIP only when the source package is really missing; a failed extraction fails the test)
# and a scratch folder in $tmp, removed on exit.
kf=$TS_TOP/kconfig-fragments
[ -f "$TS_TOP/.cache/linux-source-6.1/.tickscope-extracted" ] ||
	[ -r /usr/src/linux-source-6.1.tar.xz ] ||
	skip_all "no kernel tree: /usr/src/linux-source-6.1.tar.xz is missing (package linux-source-6.1)"
if ! ksrc=$("$kf/ksrc.sh"); then
	echo "not ok 1 - extract the kernel tree (kconfig-fragments/ksrc.sh)"
	echo "1..1"
	exit 1
fi
tap_tmpdir
tmp=$TAP_TMP
