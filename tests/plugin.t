#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The perf --dlfilter plugin against the CLI on the same files: its JSON equals
# `tickscope report --json` except the side-band fields docs/plugin.md lists (lost events),
# its text equals the text report, it exports only perf's names, and pipe input fails in
# start() with advice unless --dlarg input= names the file.
. "$(dirname "$0")/lib/tap.sh"
. "$TS_TOP/tests/fixtures/fixtures.sh"

PLUGIN=$TS_BUILD/tickscope.so
command -v perf >/dev/null 2>&1 || skip_all "perf is not installed"
command -v jq >/dev/null 2>&1 || skip_all "jq is not installed (make deps installs it)"
[ -f "$PLUGIN" ] || { echo "Bail out! $PLUGIN not built"; exit 1; }
tap_tmpdir

# A sanitized plugin needs the sanitizer runtimes loaded first into perf (which is not built
# with them); perf's own allocations are not ours to leak-check.
if [ "${SANITIZE:-}" = 1 ]; then
	SAN_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)"
	perf() {
		LD_PRELOAD="$SAN_PRELOAD" ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
			command perf "$@"
	}
fi
ORACLE_TMP=$TAP_TMP
T=$TAP_TMP

# Exports: perf's entry points only; libtraceevent is linked in and hidden.
got=$(nm -D --defined-only "$PLUGIN" | awk '{print $3}' | sort | tr '\n' ' ')
is "$got" "filter_description filter_event filter_event_early perf_dlfilter_fns start stop " \
	"tickscope.so exports only perf's dlfilter names"
ok "$(nm -D --undefined-only "$PLUGIN" | grep -c ' tep_')" "no tep_* symbol is left for perf's copy to bind"

# The fields a dlfilter cannot know: perf hands it no LOST records.
SIDEBAND='del(.trace.lost_events, .trace.lost_records) |
	.sections |= with_entries(.value |= del(.lost_events, .lost_records))'

# parity NAME FILE [KALLSYMS]
parity() {
	_k=""
	[ -n "${3:-}" ] && _k="$3"
	if [ -n "$_k" ]; then
		"$TICKSCOPE" report --json -i "$2" --kallsyms "$_k" >"$T/cli.json" 2>"$T/cli.err"
		perf script -i "$2" --dlfilter "$PLUGIN" --dlarg json --dlarg "kallsyms=$_k" \
			>"$T/plugin.json" 2>"$T/plugin.err"
	else
		"$TICKSCOPE" report --json -i "$2" >"$T/cli.json" 2>"$T/cli.err"
		perf script -i "$2" --dlfilter "$PLUGIN" --dlarg json >"$T/plugin.json" \
			2>"$T/plugin.err"
	fi
	_rc=$?
	# With lost events, a task's last name may exist only in a COMM record (side-band too).
	_f=$SIDEBAND
	if [ "$(jq '.trace.lost_records' "$T/cli.json" 2>/dev/null)" != 0 ]; then
		_f="$SIDEBAND | walk(if type == \"object\" then del(.comm) else . end)"
	fi
	jq -S "$_f" "$T/cli.json" >"$T/cli.n" 2>&1
	jq -S "$_f" "$T/plugin.json" >"$T/plugin.n" 2>&1
	if [ $_rc -eq 0 ] && [ -s "$T/cli.n" ] && cmp -s "$T/cli.n" "$T/plugin.n"; then
		ok 0 "$1: the plugin's JSON equals tickscope report --json (side-band aside)"
	else
		ok 1 "$1: the plugin's JSON equals tickscope report --json (perf exit $_rc)"
		diff "$T/cli.n" "$T/plugin.n" | head -12 | sed 's/^/#   /'
		grep -v unwind "$T/plugin.err" | head -3 | sed 's/^/#   /'
	fi
}

for n in $(fixture_names); do
	case $n in *pipe*) continue ;; esac
	f=$(fixture_data "$n") || { ok 1 "$n: fixture decompresses"; continue; }
	parity "$n" "$f" "$(fixture_kallsyms "$n" || true)"
done
k=$(shared_fixture a64-6.1-generic.kallsyms) || true
for n in a64-6.1-generic-stress-ramfs a64-6.1-generic-perf-bench-pipe; do
	f=$(shared_fixture "$n.data") || continue
	parity "$n" "$f" "$k"
done
for d in "$TS_FIXTURES"/boards/qemu-aarch64/rt/pingpong/run-1 \
	"$TS_FIXTURES"/boards/qemu-aarch64/generic/stress-ramfs/run-1; do
	[ -f "$d/perf.data.xz" ] || continue
	n=$(echo "$d" | sed 's|.*/boards/||; s|/|-|g')
	f=$(unxz_cached "$d/perf.data.xz" "$TS_FIXTURE_CACHE/board-$n.data")
	kk=$(unxz_cached "$d/kallsyms.xz" "$TS_FIXTURE_CACHE/board-$n.kallsyms")
	parity "board $n" "$f" "$kk"
done

# Lost events are not measured by a dlfilter: null and "-", never a 0 that looks measured.
l=$(fixture_data x86-lost)
perf script -i "$l" --dlfilter "$PLUGIN" --dlarg json >"$T/lost.json" 2>/dev/null
is "$(jq -c '[.trace.lost_events, .trace.lost_records, .sections.sched.lost_events]' \
	"$T/lost.json" 2>&1)" "[null,null,null]" "x86-lost: the plugin's lost events are null"
perf script -i "$l" --dlfilter "$PLUGIN" >"$T/lost.txt" 2>/dev/null
grep -q '^  lost events: - (not measured' "$T/lost.txt" && ! grep -q '^  LOST ' "$T/lost.txt"
ok $? "x86-lost: the plugin's text says lost events were not measured, and why"

# The text report, byte for byte, on a file without lost events, but for the plugin's line
# saying that it cannot measure them.
f=$(fixture_data x86-pingpong-cross)
k=$(fixture_kallsyms x86-pingpong-cross)
"$TICKSCOPE" report -i "$f" --kallsyms "$k" >"$T/cli.txt" 2>/dev/null
perf script -i "$f" --dlfilter "$PLUGIN" --dlarg "kallsyms=$k" 2>/dev/null |
	grep -v '^  lost events: - (not measured: perf hands a dlfilter no LOST records' \
		>"$T/plugin.txt"
if cmp -s "$T/cli.txt" "$T/plugin.txt" && grep -q '^== sched ==' "$T/cli.txt"; then
	ok 0 "x86-pingpong-cross: the plugin's text report equals tickscope report"
else
	ok 1 "x86-pingpong-cross: the plugin's text report equals tickscope report"
	diff "$T/cli.txt" "$T/plugin.txt" | head -8 | sed 's/^/#   /'
fi

# Pipe input: the formats cannot be re-read from a pipe, so start() must say what to do.
p=$(fixture_data x86-ramfs-pipe)
perf script -i - --dlfilter "$PLUGIN" <"$p" >/dev/null 2>"$T/pipe.err"
rc=$?
[ $rc -ne 0 ] && grep -q -- '--dlarg input=' "$T/pipe.err"
ok $? "pipe input without input= fails in start() with advice (exit $rc)"
perf script -i - --dlfilter "$PLUGIN" --dlarg json --dlarg "input=$p" <"$p" \
	>"$T/pipe.json" 2>/dev/null
"$TICKSCOPE" report --json -i "$p" >"$T/cli-pipe.json" 2>/dev/null
jq -S "$SIDEBAND" "$T/pipe.json" >"$T/a" 2>&1
jq -S "$SIDEBAND" "$T/cli-pipe.json" >"$T/b" 2>&1
[ -s "$T/a" ] && cmp -s "$T/a" "$T/b"
ok $? "pipe input with --dlarg input=FILE gives the CLI's JSON"

# perf's default input (./perf.data, no -i on its command line) is found too.
cp "$(fixture_data x86-tiny)" "$T/perf.data"
(cd "$T" && perf script --dlfilter "$PLUGIN" --dlarg json >"$T/default.json" 2>/dev/null)
jq -e '.sections.sched.status == "present"' "$T/default.json" >/dev/null 2>&1
ok $? "the input is found when perf reads ./perf.data by default"

perf script -i "$T/perf.data" --dlfilter "$PLUGIN" --dlarg bogus >/dev/null 2>"$T/bad.err"
rc=$?
[ $rc -ne 0 ] && grep -q "unknown --dlarg 'bogus'" "$T/bad.err"
ok $? "an unknown --dlarg is refused by name (exit $rc)"

tap_done
