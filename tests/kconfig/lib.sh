# SPDX-License-Identifier: GPL-2.0-only
# Sourced by the kconfig tests after tests/lib/tap.sh: the extracted Debian 6.1 tree in $ksrc
# (SKIP only when the source package is really missing; a failed extraction fails the test),
# ksrc_of for the other Debian trees, and a scratch folder in $tmp, removed on exit.
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

# ksrc_of VER: prints Debian's linux-source-VER tree, extracted; when the package is not
# installed, prints why and fails.
ksrc_of() {
	if [ "$1" = 6.1 ]; then
		echo "$ksrc"
	elif [ -f "$TS_TOP/.cache/linux-source-$1/.tickscope-extracted" ] ||
		[ -r "/usr/src/linux-source-$1.tar.xz" ]; then
		"$kf/ksrc.sh" "$1"
	else
		echo "/usr/src/linux-source-$1.tar.xz is missing (package linux-source-$1)"
		return 1
	fi
}
