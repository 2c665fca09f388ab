#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The perf --dlfilter plugin against the CLI on the same files: its JSON equals
# `tickscope report --json` except the side-band fields docs/plugin.md lists (lost events,
# which the plugin reports as not measured), on every committed fixture; its text equals the
# text report, it exports only perf's names, and pipe input fails in start() with advice unless
# --dlarg input= names the file; a file whose analysed attr has fewer samples than its twin
# (-e X --filter F -e X) is refused in start() with the CLI's line. Parity checks plumbing, not
# analysis: it is not an oracle.
. "$(dirname "$0")/lib/tap.sh"
. "$TS_TOP/tests/fixtures/fixtures.sh"

PLUGIN=$TS_BUILD/tickscope.so
command -v perf >/dev/null 2>&1 || skip_all "perf is not installed"
command -v jq >/dev/null 2>&1 || skip_all "jq is not installed (make deps installs it)"
[ -f "$PLUGIN" ] || { echo "Bail out! $PLUGIN not built"; exit 1; }
tap_tmpdir

tap_sanitized_perf
ORACLE_TMP=$TAP_TMP
T=$TAP_TMP

# Exports: perf's entry points only; libtraceevent is linked in and hidden.
command -v nm >/dev/null 2>&1 || { echo "Bail out! nm (binutils) is not installed"; exit 1; }
got=$(nm -D --defined-only "$PLUGIN" | awk '{print $3}' | sort | tr '\n' ' ')
is "$got" "filter_description filter_event filter_event_early perf_dlfilter_fns start stop " \
	"tickscope.so exports only perf's dlfilter names"
nm -D --undefined-only "$PLUGIN" >"$T/undef" 2>&1
rc=$?
[ $rc -eq 0 ] && grep -q ' U ' "$T/undef" && ! grep -q ' tep_' "$T/undef"
ok $? "no tep_* symbol is left for perf's copy to bind (nm exit $rc, $(wc -l <"$T/undef") undefined)"

# The fields a dlfilter cannot know: perf hands it no LOST records. The plugin must not claim
# a count for them: they are null (not measured), never a 0 that looks measured.
SIDEBAND='del(.trace.lost_events, .trace.lost_records) |
	.sections |= with_entries(.value |= del(.lost_events, .lost_records))'
UNMEASURED='[.trace.lost_events, .trace.lost_records,
	(.sections[] | .lost_events, .lost_records)] | all(. == null)'

# plugin_run FILE KALLSYMS PIPE OUT ERR: the plugin's JSON report of FILE into OUT, stderr into
# ERR; with PIPE, perf reads FILE from stdin (--dlarg input=FILE)
plugin_run() {
	if [ -n "$3" ]; then
		perf script -i - --dlfilter "$PLUGIN" --dlarg json --dlarg "input=$1" \
			${2:+--dlarg "kallsyms=$2"} <"$1" >"$4" 2>"$5"
	else
		perf script -i "$1" --dlfilter "$PLUGIN" --dlarg json ${2:+--dlarg "kallsyms=$2"} \
			>"$4" 2>"$5"
	fi
}

# parity NAME FILE KALLSYMS [PIPE]: with PIPE, perf reads FILE from stdin (--dlarg input=FILE)
parity() {
	set -- "$1" "$2" "$3" "${4:-}"
	_k=""
	[ -n "$3" ] && _k="--kallsyms=$3"
	"$TICKSCOPE" report --json -i "$2" ${_k:+"$_k"} >"$T/cli.json" 2>"$T/cli.err"
	plugin_run "$2" "$3" "$4" "$T/plugin.json" "$T/plugin.err"
	_rc=$?
	# and with the worker thread (TS_THREADS=1), whatever the load: the same
	(TS_THREADS=1 && export TS_THREADS &&
		plugin_run "$2" "$3" "$4" "$T/plugin1.json" "$T/plugin1.err")
	_rc1=$?
	[ $_rc1 -eq 0 ] && [ -s "$T/plugin1.json" ] && cmp -s "$T/plugin.json" "$T/plugin1.json" &&
		cmp -s "$T/plugin.err" "$T/plugin1.err"
	ok $? "$1: the same report and stderr with the worker thread (TS_THREADS=1, perf exit $_rc1)"
	# With lost events, a task's last name may exist only in a COMM record (side-band too),
	# and the CLI leaves out the sched slices a gap of lost events touched, which the plugin
	# cannot place (docs/plugin.md): the sched section is side-band there.
	_f=$SIDEBAND
	if [ "$(jq '.trace.lost_records' "$T/cli.json" 2>/dev/null)" != 0 ]; then
		_f="$SIDEBAND | del(.sections.sched) |"
		_f="$_f walk(if type == \"object\" then del(.comm) else . end)"
	fi
	jq -S "$_f" "$T/cli.json" >"$T/cli.n" 2>&1
	jq -S "$_f" "$T/plugin.json" >"$T/plugin.n" 2>&1
	if [ $_rc -eq 0 ] && [ -s "$T/cli.n" ] && cmp -s "$T/cli.n" "$T/plugin.n" &&
		jq -e "$UNMEASURED" "$T/plugin.json" >/dev/null; then
		ok 0 "$1: the plugin's JSON equals tickscope report --json (side-band aside)"
	else
		ok 1 "$1: the plugin's JSON equals tickscope report --json (perf exit $_rc)"
		diff "$T/cli.n" "$T/plugin.n" | head -12 | sed 's/^/#   /'
		jq -c "$UNMEASURED" "$T/plugin.json" 2>&1 | sed 's/^/#   lost fields unmeasured: /'
		grep -v unwind "$T/plugin.err" | head -3 | sed 's/^/#   /'
	fi
}

n=0
for n in $(fixture_names); do
	f=$(fixture_data "$n") || { ok 1 "$n: fixture decompresses"; continue; }
	k=$(fixture_kallsyms "$n") || k=""
	if oracle_is_pipe "$f"; then
		parity "$n (pipe, --dlarg input=)" "$f" "$k" pipe
	else
		parity "$n" "$f" "$k"
	fi
done
[ "$n" != 0 ]
ok $? "the committed fixtures were found (the last: $n)"

# The aarch64 fixtures of tests/fixtures/aarch64.
k=$(shared_fixture a64-6.1-generic.kallsyms) || k=""
for n in a64-6.1-generic-stress-ramfs a64-6.1-generic-perf-bench-pipe; do
	if f=$(shared_fixture "$n.data"); then
		parity "$n" "$f" "$k"
	else
		ok 1 "$n: fixture present in tests/fixtures/aarch64"
	fi
done
for d in "$TS_FIXTURES"/boards/qemu-aarch64/rt/pingpong/run-1 \
	"$TS_FIXTURES"/boards/qemu-aarch64/generic/stress-ramfs/run-1; do
	n=$(echo "$d" | sed 's|.*/boards/||; s|/|-|g')
	f=$(unxz_cached "$d/perf.data.xz" "$TS_FIXTURE_CACHE/board-$n.data") &&
		kk=$(unxz_cached "$d/kallsyms.xz" "$TS_FIXTURE_CACHE/board-$n.kallsyms")
	if [ $? -ne 0 ]; then
		ok 1 "board $n: fixture decompresses"
		continue
	fi
	parity "board $n" "$f" "$kk"
done

# Lost events are not measured by a dlfilter: null and "-", never a 0 that looks measured.
l=$(fixture_data x86-lost)
perf script -i "$l" --dlfilter "$PLUGIN" --dlarg json >"$T/lost.json" 2>/dev/null
is "$(jq -c '[.trace.lost_events, .trace.lost_records, .sections.sched.lost_events]' \
	"$T/lost.json" 2>&1)" "[null,null,null]" "x86-lost: the plugin's lost events are null"
# the CLI leaves out and counts the sched slices in a gap of lost events, the plugin cannot
"$TICKSCOPE" report --json -i "$l" >"$T/lost-cli.json" 2>/dev/null
is "$(jq -c '[(.sections.sched.totals.lost_slices > 0),
	([.sections.sched.tasks[] | has("lost_slices")] | all),
	(.sections.sched.totals.switches == $p[0].sections.sched.totals.switches),
	($p[0].sections.sched.totals | has("lost_slices"))]' --slurpfile p "$T/lost.json" \
	"$T/lost-cli.json" 2>&1)" "[true,true,true,false]" \
	"x86-lost: the CLI counts the sched slices it left out for lost events, the plugin has none"
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

# A recording of another machine given without its kallsyms (the aarch64 board's, here, with an
# empty HOME so that no build-id cache copy of it is found): each front end's header says the
# functions are raw addresses and how that front end takes a kallsyms.
f=$(shared_fixture a64-6.1-generic-stress-ramfs.data) ||
	{ echo "Bail out! cannot decompress a64-6.1-generic-stress-ramfs.data"; exit 1; }
mkdir -p "$T/home"
HOME=$T/home "$TICKSCOPE" report -i "$f" --top 1 2>/dev/null | sed -n 3p >"$T/nosym.cli"
HOME=$T/home perf script -i "$f" --dlfilter "$PLUGIN" --dlarg top=1 2>/dev/null | sed -n 3p \
	>"$T/nosym.plugin"
w="symbols: none (raw addresses: give the recording kernel's kallsyms"
grep -qF "$w, --kallsyms FILE)" "$T/nosym.cli"
ok $? "no kallsyms: tickscope report says to give --kallsyms FILE"
grep -qF "$w, --dlarg kallsyms=FILE)" "$T/nosym.plugin"
ok $? "no kallsyms: the dlfilter says to give --dlarg kallsyms=FILE"

# Pipe input: the formats cannot be re-read from a pipe, so start() must say what to do.
p=$(fixture_data x86-ramfs-pipe)
perf script -i - --dlfilter "$PLUGIN" <"$p" >/dev/null 2>"$T/pipe.err"
rc=$?
[ $rc -ne 0 ] && grep -q -- '--dlarg input=' "$T/pipe.err"
ok $? "pipe input without input= fails in start() with advice (exit $rc)"

# perf's default input (./perf.data, no -i on its command line) is found too.
cp "$(fixture_data x86-tiny)" "$T/perf.data"
(cd "$T" && perf script --dlfilter "$PLUGIN" --dlarg json >"$T/default.json" 2>/dev/null)
jq -e '.sections.sched.status == "present"' "$T/default.json" >/dev/null 2>&1
ok $? "the input is found when perf reads ./perf.data by default"

perf script -i "$T/perf.data" --dlfilter "$PLUGIN" --dlarg bogus >/dev/null 2>"$T/bad.err"
rc=$?
[ $rc -ne 0 ] && grep -q "unknown --dlarg 'bogus'" "$T/bad.err"
ok $? "an unknown --dlarg is refused by name (exit $rc)"
is "$rc" 2 "an unknown --dlarg exits 2, a command-line mistake (not perf's errno status)"
# a value that is not a number was read by atoi() or strtod() up to its first bad character
# ("top=5x" as 5, "ops=12abc" as 12) or called an unknown --dlarg ("top=x")
for a in top=x top=5x top=0 top=99999999999 ops=12abc ops=0 ops=inf ops=; do
	perf script -i "$T/perf.data" --dlfilter "$PLUGIN" --dlarg "$a" >/dev/null 2>"$T/badval.err"
	rc=$?
	[ $rc = 2 ] && [ "$(wc -l <"$T/badval.err")" = 1 ] &&
		grep -q "^tickscope.so: --dlarg '$a': ${a%%=*}= takes a" "$T/badval.err"
	ok $? "--dlarg $a: refused in one line naming it (exit $rc: $(head -c 120 "$T/badval.err"))"
done
# The usage line's command must be one perf runs: a bare tickscope.so is looked up in the
# current folder only, so the line names a path; run it as printed, with PATH filled in.
use=$(sed -n 's/^  \(perf script .*\) \[--dlarg ARG\]\.\.\.$/\1/p' "$T/bad.err")
case $use in *" PATH/tickscope.so") ok 0 "the usage line names the plugin by a path: $use" ;;
*) ok 1 "the usage line names the plugin by a path: '$use'" ;; esac
(cd "$T" && eval "$(echo "$use" | sed "s|FILE|perf.data|; s|PATH/tickscope.so|$PLUGIN|")" \
	>/dev/null 2>"$T/use.err")
ok $? "the usage line's command, its path filled in, runs ($(head -c 200 "$T/use.err"))"


# -e X --filter F -e X: the analysed attr (the first) has fewer hits than its twin. The CLI
# refuses such a file in one line (TS_ETWINSUBSET); the plugin, on the same models, printed the
# filtered subset's report. Made from x86-tiny: its attrs 0 (sched_switch, 102 samples) and 3
# (hrtimer_start, 2) swap tracepoints and ids sections, then attr 3 takes attr 0's tracepoint:
# attr 0 holds hrtimer_start's 2 samples, attr 3, the same tracepoint, 102.
PERFDATA="perl $TS_FIXTURES/perfdata.pl"
# attr_off N FIELD: the offset of attr N's FIELD in the layout (config is 4 bytes past size)
attr_off() {
	$PERFDATA layout "$T/perf.data" | awk -v f="attr_$1_$2" '$1 == f { print $2 }'
}
c0=$(attr_off 0 size) c3=$(attr_off 3 size) i0=$(attr_off 0 ids_offset) i3=$(attr_off 3 ids_offset)
v0=$($PERFDATA layout "$T/perf.data" | awk '$1 == "attr_0_ids_offset" { print $4 }')
v3=$($PERFDATA layout "$T/perf.data" | awk '$1 == "attr_3_ids_offset" { print $4 }')
cfg=$(perl -e 'open(F, "<:raw", $ARGV[0]) or die; seek(F, $ARGV[1], 0); read(F, $d, 8);
	print unpack("Q<", $d)' "$T/perf.data" "$((c3 + 4))")
$PERFDATA patch "$T/perf.data" "$T/tw1" "$((c0 + 4))" 8 "$cfg" &&
	$PERFDATA patch "$T/tw1" "$T/tw2" "$i0" 8 "$v3" &&
	$PERFDATA patch "$T/tw2" "$T/tw3" "$i3" 8 "$v0" &&
	$PERFDATA patch "$T/tw3" "$T/twin.data" "$((c3 + 4))" 8 "$cfg"
ok $? "a twin-subset file made from x86-tiny (attr 3 repeats attr 0's tracepoint)"
k=$(fixture_kallsyms x86-tiny)
"$TICKSCOPE" report -i "$T/twin.data" --kallsyms "$k" >"$T/twin.cli" 2>"$T/twin.cli.err"
rc=$?
why="attr 0 (timer:hrtimer_start) has 2 samples and attr 3, the same tracepoint, 102 (a --filter"
why="$why on attr 0, or lost events?): the analyses take attr 0's, which would count a subset"
[ $rc -eq 1 ] && [ ! -s "$T/twin.cli" ] &&
	grep -qxF "tickscope: $T/twin.data: $why of the hits; record the tracepoint once" \
		"$T/twin.cli.err"
ok $? "twin subset: tickscope report refuses it (exit $rc, $(grep -v warning "$T/twin.cli.err"))"
for th in 0 1; do
	TS_THREADS=$th perf script -i "$T/twin.data" --dlfilter "$PLUGIN" --dlarg "kallsyms=$k" \
		>"$T/twin.plugin" 2>"$T/twin.plugin.err"
	rc=$?
	[ $rc -ne 0 ] && [ ! -s "$T/twin.plugin" ] && [ "$(wc -l <"$T/twin.plugin.err")" -eq 1 ] &&
		grep -qxF "tickscope.so: $T/twin.data: $why of the hits; record the tracepoint once" \
			"$T/twin.plugin.err"
	_r=$?
	_what="exit $rc, $(wc -c <"$T/twin.plugin") bytes out: $(head -c 300 "$T/twin.plugin.err")"
	ok $_r "twin subset, TS_THREADS=$th: the plugin refuses it in one line, as the CLI ($_what)"
done
# The filter on the later attr (-e X -e X --filter F): the first keeps every hit and is analysed;
# the later one's samples are left out, and not as "the same hits again", which they are not.
# attr 3 of x86-tiny takes attr 0's tracepoint: 2 samples against attr 0's 102.
cfg0=$(perl -e 'open(F, "<:raw", $ARGV[0]) or die; seek(F, $ARGV[1], 0); read(F, $d, 8);
	print unpack("Q<", $d)' "$T/perf.data" "$((c0 + 4))")
$PERFDATA patch "$T/perf.data" "$T/twin2.data" "$((c3 + 4))" 8 "$cfg0"
perf script -i "$T/twin2.data" --dlfilter "$PLUGIN" --dlarg "kallsyms=$k" >"$T/twin2.plugin" \
	2>"$T/twin2.err"
rc=$?
[ $rc -eq 0 ] && grep -q 'sched_switch' "$T/twin2.plugin" &&
	grep -qF "tickscope.so: 2 samples of a tracepoint's second attr are left out: not the first" \
		"$T/twin2.err" && ! grep -q 'the same hits again' "$T/twin2.err"
ok $? "a filter on the later attr: reported, its 2 samples left out as other hits (exit $rc: \
$(head -c 300 "$T/twin2.err"))"
# the same tracepoint twice with the same hits (x86-tiny-twice) is still analysed, once
perf script -i "$(fixture_data x86-tiny-twice)" --dlfilter "$PLUGIN" \
	--dlarg "kallsyms=$(fixture_kallsyms x86-tiny-twice)" >"$T/twice.plugin" 2>"$T/twice.err"
rc=$?
[ $rc -eq 0 ] && grep -q 'sched_switch' "$T/twice.plugin" &&
	grep -q 'samples of a tracepoint recorded twice (the same hits again) are left out' \
		"$T/twice.err"
ok $? "x86-tiny-twice (the same hits twice): the plugin still reports it (exit $rc)"

tap_done
