# SPDX-License-Identifier: GPL-2.0-only
# TAP helpers for shell tests; source it. Each test prints "ok N - name" lines and ends with
# tap_done. Tests needing root/tracefs/qemu call skip_all with the reason.

: "${TS_TOP:=$(cd "$(dirname "$0")/.." && pwd)}"
while [ ! -f "$TS_TOP/Makefile" ] && [ "$TS_TOP" != / ]; do TS_TOP=$(dirname "$TS_TOP"); done
: "${TS_BUILD:=$TS_TOP/build}"
# A test that runs make must see what a user's shell gives it, not the `make check` it runs
# under: its MAKEFLAGS and MAKELEVEL turn "make: ***" lines into "make[2]: ***" ones and pass
# make check's own options down.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES
TICKSCOPE="$TS_BUILD/tickscope"
_tap_n=0
_tap_failed=0

ok() {
	# ok CONDITION_EXIT_STATUS NAME
	_tap_n=$((_tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $_tap_n - $2"
	else
		echo "not ok $_tap_n - $2"
		_tap_failed=$((_tap_failed + 1))
	fi
}

is() {
	# is GOT WANT NAME
	if [ "$1" = "$2" ]; then
		ok 0 "$3"
	else
		ok 1 "$3"
		echo "#   got:  '$1'"
		echo "#   want: '$2'"
	fi
}

diag() {
	echo "# $*"
}

skip() {
	# skip NAME REASON: one test that cannot run here, said so
	_tap_n=$((_tap_n + 1))
	echo "ok $_tap_n - $1 # SKIP $2"
}

skip_all() {
	echo "1..0 # SKIP $*"
	exit 0
}

tap_done() {
	echo "1..$_tap_n"
	[ "$_tap_failed" -eq 0 ]
}

# A scratch folder removed on exit, in $TAP_TMP. Call it directly, not as $(tap_tmpdir): the
# EXIT trap of a command substitution's subshell would remove the folder at once.
tap_tmpdir() {
	TAP_TMP=$(mktemp -d "${TMPDIR:-/tmp}/tickscope-test.XXXXXX")
	trap 'rm -rf "$TAP_TMP"' EXIT
}

# The aarch64 fixtures of tests/fixtures/aarch64/, decompressed once into a git-ignored cache.
shared_fixture() {
	_src="$TS_TOP/tests/fixtures/aarch64/$1.xz"
	_dst="$TS_TOP/.cache/shared-fixtures/$1"
	[ -f "$_src" ] || return 1
	if [ ! -f "$_dst" ]; then
		mkdir -p "$(dirname "$_dst")"
		xz -dc "$_src" >"$_dst.tmp" && mv "$_dst.tmp" "$_dst"
	fi
	echo "$_dst"
}

# perf loading a sanitized plugin: under SANITIZE=1 the sanitizer runtimes must come first into
# perf (which is not built with them); perf's own allocations are not ours to leak-check.
tap_sanitized_perf() {
	[ "${SANITIZE:-}" = 1 ] || return 0
	SAN_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)"
	perf() {
		LD_PRELOAD="$SAN_PRELOAD" ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
			command perf "$@"
	}
}
