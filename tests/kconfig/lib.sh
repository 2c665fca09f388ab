# SPDX-License-Identifier: GPL-2.0-only
# Sourced by the kconfig tests after tests/lib/tap.sh: the extracted Debian 6.1 tree in $ksrc
# (SKIP only when the source package is really missing; a failed extraction fails the test),
# ksrc_of for the other Debian trees, and a scratch folder in $tmp, removed on exit.
# Every kernel-config.sh run of the tests (make kernel-config's too) takes its defconfig base
# and checker from one shared --base-cache: one build per tree and arch for the whole suite,
# not one per build folder (tests/kconfig-cache.t checks that a seed gives what a build does).
TS_KCONFIG_BASE_CACHE=$TS_TOP/.cache/kconfig-test/base
export TS_KCONFIG_BASE_CACHE
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
