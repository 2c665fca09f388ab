#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# dump's compiled printer against libtraceevent's (TS_PRINTER=libtraceevent), byte for byte,
# on every recorded fixture (x86, aarch64, every board run, generic and PREEMPT_RT), with the
# kallsyms of its boot (%ps as names) and without (%ps as addresses). libtraceevent is the
# oracle; tests/dump-oracle.t holds both against perf script.
. "$(dirname "$0")/lib/tap.sh"

[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
command -v xz >/dev/null || skip_all "xz not installed (Debian package xz-utils)"
tap_tmpdir
cache="$TS_TOP/.cache/fixtures/printer"
mkdir -p "$cache"

# unpack SRC: its decompressed copy under $cache, on stdout
unpack() {
	_d="$cache/$(echo "${1#"$TS_TOP"/tests/fixtures/}" | tr / _)"
	_d=${_d%.xz}
	if [ ! -f "$_d" ] || [ "$1" -nt "$_d" ]; then
		xz -dc "$1" >"$_d.tmp.$$" && mv "$_d.tmp.$$" "$_d" || return 1
	fi
	echo "$_d"
}

# the kallsyms of fixture FILE.data.xz: its board run's, or the one its .meta names
kallsyms_of() {
	case "$1" in
	*/boards/*) [ -f "$(dirname "$1")/kallsyms.xz" ] && unpack "$(dirname "$1")/kallsyms.xz" ;;
	*/aarch64/*) unpack "$TS_TOP/tests/fixtures/aarch64/a64-6.1-generic.kallsyms.xz" ;;
	*)
		_k=$(sed -n 's/^kallsyms: //p' "${1%.data.xz}.meta" 2>/dev/null | head -1)
		[ -n "$_k" ] && unpack "$TS_TOP/tests/fixtures/$_k"
		;;
	esac
}

# same NAME FILE [KALLSYMS]: both printers give the same bytes and the same exit code
same() {
	_n=$1
	shift
	"$TICKSCOPE" dump -i "$@" >"$TAP_TMP/fast.txt" 2>"$TAP_TMP/fast.err"
	_rf=$?
	TS_PRINTER=libtraceevent "$TICKSCOPE" dump -i "$@" >"$TAP_TMP/tep.txt" 2>"$TAP_TMP/tep.err"
	_rt=$?
	if [ -s "$TAP_TMP/tep.txt" ] && [ $_rf = $_rt ] && cmp -s "$TAP_TMP/fast.txt" "$TAP_TMP/tep.txt"
	then
		ok 0 "$_n"
	else
		ok 1 "$_n"
		diff "$TAP_TMP/tep.txt" "$TAP_TMP/fast.txt" | head -6 | sed 's/^/# /'
	fi
}

files=$(find "$TS_TOP/tests/fixtures" -name '*.data.xz' -o -name 'perf.data.xz' | sort)
[ -n "$files" ] || { echo "Bail out! no fixtures under tests/fixtures"; exit 1; }
for x in $files; do
	n=${x#"$TS_TOP"/tests/fixtures/}
	f=$(unpack "$x") || { ok 1 "$n: decompress"; continue; }
	same "$n: compiled printer equals libtraceevent's, without kallsyms" "$f"
	k=$(kallsyms_of "$x") && [ -n "$k" ] || continue
	same "$n: compiled printer equals libtraceevent's, with its kallsyms" "$f" --kallsyms "$k"
done

# The compiled printer is in use: without it, the table's events would not gain anything.
f=$(unpack "$TS_TOP/tests/fixtures/x86-pingpong-cross.data.xz")
TS_PRINTER=verbose "$TICKSCOPE" dump -i "$f" 2>"$TAP_TMP/stats" >/dev/null
for e in sched:sched_switch sched:sched_waking sched:sched_wakeup; do
	grep -qx "tickscope: printer: $e: compiled" "$TAP_TMP/stats"
	ok $? "$e goes through the compiled printer"
done
tap_done
