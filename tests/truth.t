#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Truth of the figures on inputs of unusual shapes (issue 11): lost events counted once as perf
# counts them, and files of the shapes other perf versions and killed recordings leave, made
# from the committed fixtures by tests/fixtures/perfdata.pl.
. "$(dirname "$0")/lib/tap.sh"
. "$TS_TOP/tests/fixtures/fixtures.sh"

[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
command -v perl >/dev/null || { echo "Bail out! perl missing"; exit 1; }
tap_tmpdir
T=$TAP_TMP
PERFDATA="perl $TS_FIXTURES/perfdata.pl"
lost=$(fixture_data x86-lost) || { echo "Bail out! fixture x86-lost missing"; exit 1; }
ks=$(fixture_kallsyms x86-lost) || { echo "Bail out! kallsyms of x86-lost missing"; exit 1; }
tiny=$(fixture_data x86-tiny) || { echo "Bail out! fixture x86-tiny missing"; exit 1; }
tinyp=$(fixture_data x86-tiny-pipe) || { echo "Bail out! fixture x86-tiny-pipe missing"; exit 1; }

# --- 1. Lost events once: LOST and LOST_SAMPLES records count the same samples. ------------
# The oracle is perf report's "Total Lost Samples"; without perf, the LOST_SAMPLES sum that
# info reads (which dump-oracle.t checks against perf where perf exists).
"$TICKSCOPE" info -i "$lost" >"$T/info" 2>&1
want=$(sed -n 's/^lost events: *[0-9]* in LOST records, *\([0-9]*\) in LOST_SAMPLES.*/\1/p' \
	"$T/info")
if command -v perf >/dev/null; then
	want=$(perf report -i "$lost" --stdio 2>/dev/null |
		sed -n 's/^# Total Lost Samples: *\([0-9]*\).*/\1/p')
fi
"$TICKSCOPE" report -i "$lost" --kallsyms "$ks" >"$T/lost.txt" 2>"$T/lost.err"
got=$(sed -n 's/^  LOST \([0-9]*\) events.*/\1/p' "$T/lost.txt")
is "$got" "$want" "x86-lost: the text report's lost events equal perf's Total Lost Samples"
"$TICKSCOPE" report -i "$lost" --kallsyms "$ks" --json >"$T/lost.json" 2>"$T/lost.err"
got=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["trace"]["lost_events"])' \
	"$T/lost.json" 2>/dev/null)
is "$got" "$want" "x86-lost: the JSON trace.lost_events equals perf's Total Lost Samples"
over=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join(k for k, s in d["sections"].items() if s.get("lost_events", 0) > int(sys.argv[2])))' \
	"$T/lost.json" "$want" 2>/dev/null)
is "$over" "" "x86-lost: no section claims more lost events than the whole trace"

# one_line LABEL FILE PATTERN CMD...: CMD fails with exit 1, its stderr's last line names FILE
# and matches PATTERN (grep -E)
one_line() {
	_l=$1 _f=$2 _p=$3
	shift 3
	"$@" >/dev/null 2>"$T/one.err"
	_rc=$?
	_last=$(tail -1 "$T/one.err")
	if [ $_rc -eq 1 ] && printf '%s' "$_last" | grep -qF "$_f" &&
		printf '%s' "$_last" | grep -qE "$_p"; then
		ok 0 "$_l"
	else
		ok 1 "$_l"
		diag "exit $_rc: $(head -3 "$T/one.err")"
	fi
}

# same_dump LABEL A B: tickscope dump of A and of B are the same text, and not empty
same_dump() {
	"$TICKSCOPE" dump -i "$2" --kallsyms "$ONE_KS" >"$T/a.dump" 2>"$T/a.err"
	_ra=$?
	"$TICKSCOPE" dump -i "$3" --kallsyms "$ONE_KS" >"$T/b.dump" 2>"$T/b.err"
	_rb=$?
	if [ $_ra -eq 0 ] && [ $_rb -eq 0 ] && [ -s "$T/a.dump" ] && cmp -s "$T/a.dump" "$T/b.dump"
	then
		ok 0 "$1"
	else
		ok 1 "$1"
		diag "exit $_ra and $_rb: $(head -2 "$T/b.err")"
	fi
}

ONE_KS=$T/one-line.kallsyms
echo "ffffffff81000000 T _text" >"$ONE_KS"
$PERFDATA layout "$tiny" >"$T/tiny.layout" || { echo "Bail out! cannot parse $tiny"; exit 1; }
$PERFDATA layout "$tinyp" >"$T/tinyp.layout" || { echo "Bail out! cannot parse $tinyp"; exit 1; }
lget() { awk -v n="$2" -v c="${3:-2}" '$1 == n { print $c; exit }' "$1"; }

# --- 6. A sample's cpu at or above the file's nr_cpus_avail is a named error. ---------------
ncpu=$("$TICKSCOPE" info -i "$tiny" | sed -n 's/^cpus: .*, \([0-9]*\) available$/\1/p')
cpuoff=$(lget "$T/tiny.layout" sample_cpu)
for c in "$ncpu" 256 8388609 4294967294; do
	$PERFDATA patch "$tiny" "$T/cpu$c.data" "$cpuoff" 4 "$c"
	for cmd in info report; do
		one_line "a sample on cpu $c of $ncpu: $cmd names the file, offset and cpu" \
			"$T/cpu$c.data" "offset 0x[0-9a-f]+: SAMPLE on cpu $c, .* $ncpu CPUs" \
			"$TICKSCOPE" $cmd -i "$T/cpu$c.data" --kallsyms "$ONE_KS"
	done
done

# --- 8. A data size of 0 (a killed perf record): warn, and read to the end of the file. -----
doff=$(lget "$T/tiny.layout" data_offset 4)
dsz=$(lget "$T/tiny.layout" data_size 4)
head -c $((doff + dsz)) "$tiny" >"$T/killed0"
$PERFDATA patch "$T/killed0" "$T/killed.data" 48 8 0
"$TICKSCOPE" info -i "$T/killed.data" >"$T/killed.out" 2>"$T/killed.err"
rc=$?
want=$("$TICKSCOPE" info -i "$tiny" | sed -n 's/^samples: *//p')
is "$rc $(sed -n 's/^samples: *//p' "$T/killed.out")" "0 $want" \
	"data size 0: info reads every sample up to the end of the file"
grep -q "killed.data: offset 0x30: .*data size is 0.*end of the file" "$T/killed.err"
ok $? "data size 0: a warning names the file and the header field"

# --- 20. perf before 4.10 wrote the pipe-mode HEADER_TRACING_DATA as 12 bytes. --------------
td=$(awk '$1 == "rec" && $3 == 66 { print $2; exit }' "$T/tinyp.layout")
$PERFDATA splice "$tinyp" "$T/p12a" $((td + 12)) 4
$PERFDATA patch "$T/p12a" "$T/p12.data" $((td + 6)) 2 12
same_dump "a 12-byte pipe-mode HEADER_TRACING_DATA reads as the 16-byte one" "$tinyp" \
	"$T/p12.data"

# --- 21. A malformed informational feature is a warning naming it. -------------------------
$PERFDATA patch "$tiny" "$T/cpudesc.data" "$(lget "$T/tiny.layout" feat_8_size)" 8 0
same_dump "an empty CPUDESC feature does not stop the reading" "$tiny" "$T/cpudesc.data"
grep -q "cpudesc.data: offset 0x[0-9a-f]*: feature section CPUDESC (8) is malformed" "$T/b.err"
ok $? "an empty CPUDESC feature is a warning that names it"

# --- 22. perf 6.16's COMPRESSED2 records are read like COMPRESSED. -------------------------
tinyz=$(fixture_data x86-tiny-zstd) || { echo "Bail out! fixture x86-tiny-zstd missing"; exit 1; }
$PERFDATA compressed2 "$tinyz" "$T/z2.data"
same_dump "COMPRESSED2 records give the samples of their COMPRESSED twins" "$tinyz" "$T/z2.data"
# a record type nobody knows is skipped with a warning, never a silent zero
first=$(awk '$1 == "rec" { print $2; exit }' "$T/tiny.layout")
$PERFDATA patch "$tiny" "$T/unknown.data" "$first" 4 200
"$TICKSCOPE" info -i "$T/unknown.data" >/dev/null 2>"$T/unknown.err"
grep -q "unknown.data: offset 0x[0-9a-f]*: record type 200 is unknown" "$T/unknown.err"
ok $? "an unknown record type is a warning naming it"

# --- 23. The first perf.data format ("PERFFILE") is named. ---------------------------------
$PERFDATA replace "$tiny" "$T/v1.data" PERFILE2 PERFFILE
one_line "a PERFFILE (v1) header is named as the first format" "$T/v1.data" \
	"offset 0: .*first format.*not supported" "$TICKSCOPE" info -i "$T/v1.data"

# --- 7. A damaged size in the tracing data says which event, what size, what was left. -----
fo=$(lget "$T/tiny.layout" td_format_0_0_size)
$PERFDATA patch "$tiny" "$T/fmt-huge.data" "$fo" 8 0xffffffffffffff00
one_line "a huge event format size names the event, the size and the bytes left" \
	"$T/fmt-huge.data" \
	"tracing data offset 0x[0-9a-f]+: event format 0 of system 'sched' \(sched:sched_switch\): its size says 18446744073709551360 bytes, but [0-9]+ are left" \
	"$TICKSCOPE" dump -i "$T/fmt-huge.data" --kallsyms "$ONE_KS"
$PERFDATA patch "$tiny" "$T/fmt-small.data" "$fo" 8 100
one_line "a too small event format size names the format after the one it cut" \
	"$T/fmt-small.data" "event format 1 of system 'sched' \(after sched:sched_switch\)" \
	"$TICKSCOPE" dump -i "$T/fmt-small.data" --kallsyms "$ONE_KS"
sc=$(lget "$T/tiny.layout" td_system_0_count)
$PERFDATA patch "$tiny" "$T/fmt-count.data" "$sc" 4 0xffffffff
one_line "a huge event format count names the system and the count" "$T/fmt-count.data" \
	"the event format count of system 'sched' is 4294967295" \
	"$TICKSCOPE" dump -i "$T/fmt-count.data" --kallsyms "$ONE_KS"

# --- 9. A pipe cut inside a record: what was read is reported, the cut is named. -----------
# perf script prints every record before the cut; the oracle without perf is the count of
# samples before the cut in the layout.
cutoff=$(awk -v h=2 '$1 == "rec" && $3 == 9 { n++; if (n == 100) { print $2 + 40; exit } }' \
	"$T/tinyp.layout")
head -c "$cutoff" "$tinyp" >"$T/pcut.data"
want=$(awk -v c="$cutoff" '$1 == "rec" && $3 == 9 && $2 + $4 <= c { n++ } END { print n }' \
	"$T/tinyp.layout")
"$TICKSCOPE" info -i "$T/pcut.data" >"$T/pcut.out" 2>"$T/pcut.err"
is "$? $(sed -n 's/^samples: *//p' "$T/pcut.out")" "0 $want" \
	"a pipe cut inside a record: info counts every sample before the cut, exit 0"
grep -q "warning: $T/pcut.data: offset $(printf '%#x' $((cutoff - 40))): the input was cut" \
	"$T/pcut.err"
ok $? "a pipe cut inside a record: the warning names the file and the record's offset"
"$TICKSCOPE" report -i - --kallsyms "$ONE_KS" <"$T/pcut.data" >"$T/pcut.rep" 2>/dev/null
is "$? $(grep -c '^  INPUT CUT at offset' "$T/pcut.rep")" "0 1" \
	"a pipe cut on stdin: report prints the analysis and says the input was cut"
one_line "a pipe cut inside a record with --strict is an error" "$T/pcut.data" \
	"offset 0x[0-9a-f]+: SAMPLE record of [0-9]+ bytes is cut short" \
	"$TICKSCOPE" report --strict -i "$T/pcut.data" --kallsyms "$ONE_KS"
if command -v perf >/dev/null; then
	is "$(perf script -i "$T/pcut.data" 2>/dev/null | wc -l)" "$want" \
		"perf script prints the same number of samples before the cut"
fi

# --- 5. Broken switch chains are in the data: counted per CPU and reported. ----------------
# The oracle counts, per CPU, switches whose prev_pid is not the previous switch's next_pid in
# perf script's output (tickscope dump's, which dump-oracle.t holds equal, without perf).
pp=$(fixture_data x86-pingpong-cross) || { echo "Bail out! x86-pingpong-cross missing"; exit 1; }
# chains_oracle FILE: "cpu count" per CPU with broken chains, from perf script (else dump)
chains_oracle() {
	if command -v perf >/dev/null; then
		perf script -i "$1" -F cpu,event,trace 2>/dev/null
	else
		"$TICKSCOPE" dump -i "$1" --kallsyms "$ONE_KS" 2>/dev/null
	fi | awk '/sched:sched_switch:/ {
		cpu = $0; sub(/^[^[]*\[0*/, "", cpu); sub(/\].*/, "", cpu); cpu += 0
		p = $0; sub(/.* prev_pid=/, "", p); sub(/ .*/, "", p)
		n = $0; sub(/.* next_pid=/, "", n); sub(/ .*/, "", n)
		if ((cpu in last) && last[cpu] != p) br[cpu]++
		last[cpu] = n
	} END { for (c in last) if (br[c]) print c, br[c] }' | sort -n
}
chains_oracle "$pp" >"$T/chains.want"
"$TICKSCOPE" report -i "$pp" --kallsyms "$ONE_KS" 2>/dev/null |
	sed -n 's/^  DATA: cpu\([0-9]*\): \([0-9]*\) sched_switch events switch out a task.*/\1 \2/p' \
	>"$T/chains.got"
is "$(cat "$T/chains.got")" "$(cat "$T/chains.want")" \
	"x86-pingpong-cross: broken switch chains per CPU, as in perf script ($(tr '\n' ' ' <"$T/chains.want"))"

# --- 24. A per-task recording (no -a) leaves the per-CPU figures unmeasured. ---------------
# x86-tiny was recorded without -a: its ID_INDEX names the task (perf report -D: "tid: N").
"$TICKSCOPE" report -i "$tiny" --kallsyms "$ONE_KS" >"$T/pt.txt" 2>/dev/null
grep -q "^  per-CPU busy and idle time: - (a per-task recording" "$T/pt.txt" &&
	! grep -qE "^  [0-9]+ +[0-9.]+ +[0-9.]+ " "$T/pt.txt"
ok $? "per-task recording: the text report has no CPU rows, and says why"
"$TICKSCOPE" report -i "$tiny" --kallsyms "$ONE_KS" --json >"$T/pt.json" 2>/dev/null
got=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["sections"]["sched"]["cpus"])' \
	"$T/pt.json" 2>/dev/null)
is "$got" "None" "per-task recording: JSON sched.cpus is null"
mkdir -p "$T/pt.tsv"
"$TICKSCOPE" report -i "$tiny" --kallsyms "$ONE_KS" --tsv "$T/pt.tsv" >/dev/null 2>&1
is "$(wc -l <"$T/pt.tsv/sched_cpus.tsv")" 1 "per-task recording: sched_cpus.tsv has its header only"
# Its broken chains stay in the text and JSON: in a per-task recording they are the switches
# of the tasks it does not follow, and the run slices they end hold those tasks' time.
chains_oracle "$tiny" >"$T/pt-chains.want"
sed -n 's/^  DATA: cpu\([0-9]*\): \([0-9]*\) sched_switch events switch out a task that no recorded.*/\1 \2/p' \
	"$T/pt.txt" >"$T/pt-chains.got"
want=$(tr '\n' ' ' <"$T/pt-chains.want")
[ -s "$T/pt-chains.want" ] && cmp -s "$T/pt-chains.want" "$T/pt-chains.got"
ok $? "per-task recording: the text's broken chains per CPU are perf script's ($want)"
got=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["sections"]["sched"]["broken_chains"])' \
	"$T/pt.json" 2>/dev/null)
is "$got" "$(awk '{ n += $2 } END { print n + 0 }' "$T/pt-chains.want")" \
	"per-task recording: JSON sched.broken_chains is their sum"
"$TICKSCOPE" report -i "$pp" --kallsyms "$ONE_KS" --json >"$T/pp.json" 2>/dev/null
got=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["sections"]["sched"]["cpus"]))' \
	"$T/pp.json" 2>/dev/null)
is "$got" 2 "a -a recording keeps its CPU rows"

# --- 3. The text report shows perf's sched delay rule (sum and max) under its own name. -----
# report-oracle.t holds the TSV's sched_delay_perf_ns and _max_ns equal to perf sched
# timehist; here the text's schdly columns must be those figures, and the legend must say
# what each rule is.
mkdir -p "$T/pp.tsv"
"$TICKSCOPE" report -i "$pp" --kallsyms "$ONE_KS" --tsv "$T/pp.tsv" >/dev/null 2>&1
"$TICKSCOPE" report -i "$pp" --kallsyms "$ONE_KS" >"$T/pp.txt" 2>/dev/null
awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ printf "%s %.3f %.1f\n", $c["tid"], $c["sched_delay_perf_ns"] / 1e6,
		$c["sched_delay_perf_longest_ns"] / 1e3 }' "$T/pp.tsv/sched_tasks.tsv" | sort >"$T/want"
# columns: comm tid sw-in invol migr run-ms schdly-ms schd-max ... (comms here have no spaces)
awk '/^  comm +tid +sw-in +invol +migr +run ms +schdly ms +schd max / { on = 1; next }
	on && NF < 10 { on = 0 }
	on && $2 ~ /^[0-9]+$/ { print $2, $7, $8 }' "$T/pp.txt" | sort >"$T/got"
n=$(wc -l <"$T/got")
is "$([ "$n" -gt 0 ] && join "$T/got" "$T/want" | awk '$2 != $4 || $3 != $5' | head -3)" "" \
	"x86-pingpong-cross: the text's schdly ms and max are perf's rule, per task ($n tasks)"
grep -q '^(schdly: sched delay by perf sched timehist.s rule' "$T/pp.txt" &&
	grep -q 'rqdly: run-queue delay' "$T/pp.txt"
ok $? "the legend says what schdly and rqdly mean"

# --- 4. The idle section lists every CPU the trace covers. ----------------------------------
# x86-pingpong-cross: both CPUs switch tasks, but cpu_idle fired on cpu0 only.
cpus_sched=$(python3 -c 'import json,sys; print(" ".join(str(c["cpu"]) for c in json.load(open(sys.argv[1]))["sections"]["sched"]["cpus"]))' \
	"$T/pp.json" 2>/dev/null)
cpus_idle=$(python3 -c 'import json,sys; print(" ".join(str(c["cpu"]) for c in json.load(open(sys.argv[1]))["sections"]["idle"]["cpus"]))' \
	"$T/pp.json" 2>/dev/null)
is "$cpus_idle" "$cpus_sched" "x86-pingpong-cross: the idle section's JSON has every CPU ($cpus_sched)"
sed -n '/^== idle ==/,/^== timer ==/p' "$T/pp.txt" >"$T/pp.idle"
grep -q '^  1 .* -  *no cpu_idle period on this CPU (idle task ran [0-9.]* ms' "$T/pp.idle"
ok $? "x86-pingpong-cross: the idle text has a row for cpu1 with '-' and the reason"

# --- 10. A kallsyms of another architecture or kernel is warned about, naming the file. -----
a64ks=$(shared_fixture a64-6.1-generic.kallsyms) ||
	{ echo "Bail out! aarch64 kallsyms missing"; exit 1; }
a64=$(shared_fixture a64-6.1-generic-stress-ramfs.data) ||
	{ echo "Bail out! aarch64 data missing"; exit 1; }
for cmd in report dump; do
	"$TICKSCOPE" $cmd -i "$tiny" --kallsyms "$a64ks" >/dev/null 2>"$T/ks.err"
	grep -q "^tickscope: warning: $a64ks: its kernel text .* is not where an x86_64 kernel lives" \
		"$T/ks.err"
	ok $? "$cmd: an aarch64 kallsyms for an x86_64 recording is warned about, naming the file"
done
"$TICKSCOPE" report -i "$a64" --kallsyms "$ks" >/dev/null 2>"$T/ks.err"
grep -q "^tickscope: warning: $ks: .* not where an aarch64 kernel lives" "$T/ks.err"
ok $? "an x86_64 kallsyms for an aarch64 recording is warned about"
echo "ffffffffc1000000 T _text" >"$T/far.kallsyms"
"$TICKSCOPE" report -i "$tiny" --kallsyms "$T/far.kallsyms" >/dev/null 2>"$T/ks.err"
grep -q "^tickscope: warning: $T/far.kallsyms: its _text .* more than KASLR moves a kernel" \
	"$T/ks.err"
ok $? "an x86_64 kallsyms whose _text is 1 GiB off the recording's is warned about"
"$TICKSCOPE" report -i "$a64" --kallsyms "$a64ks" >/dev/null 2>"$T/ks.err"
is "$(grep -c warning "$T/ks.err")" 0 "the recording boot's own kallsyms gives no warning"

# --- 19. A run's meta.txt beside the file: the header says pinned or not, and the result. ----
for w in pingpong pingpong-cross; do
	src=$TS_FIXTURES/boards/x86-host/live/$w/run-1
	mkdir -p "$T/$w"
	cp "$src/meta.txt" "$T/$w/"
	xz -dc "$src/perf.data.xz" >"$T/$w/perf.data"
	res=$(sed -n 's/^result=//p' "$src/meta.txt")
	unit=$(sed -n 's/^result_unit=//p' "$src/meta.txt")
	case $w in
	pingpong) pin="not pinned" ;;
	*) pin="pinned (--pin cross --cpus 0,1)" ;;
	esac
	"$TICKSCOPE" report -i "$T/$w/perf.data" --kallsyms "$ONE_KS" 2>/dev/null | sed -n 2,6p \
		>"$T/$w/head"
	grep -qxF "  run: x86-host/live $w run 1 of 3, $pin; benchmark result $res $unit" \
		"$T/$w/head"
	ok $? "$w: the report header says '$pin' and the benchmark's result ($res $unit)"
	"$TICKSCOPE" report -i "$T/$w/perf.data" --kallsyms "$ONE_KS" --json 2>/dev/null |
		jq -r '.input.run | "\(.pinned) \(.result) \(.result_unit)"' >"$T/$w/json" 2>&1
	is "$(cat "$T/$w/json")" "$([ $w = pingpong ] && echo no || echo yes) $res $unit" \
		"$w: JSON input.run has the pinning and the result"
done
rm "$T/pingpong/meta.txt"
"$TICKSCOPE" report -i "$T/pingpong/perf.data" --kallsyms "$ONE_KS" --json 2>/dev/null |
	jq -r '.input.run' >"$T/norun" 2>&1
is "$(cat "$T/norun")" "null" "without meta.txt, input.run is null"

# --- 25. A file without perf record's command line: analysed as unfiltered, and said once. --
# Only HEADER_CMDLINE tells the filters a recording had (-p, -C, --filter); perf record always
# writes it, another recorder may not. The same file with and without it (perfdata.pl
# nocmdline), file and pipe mode: the figures are the same, stderr says it once, naming the
# file, and the JSON has input.cmdline null with its reason.
why="the file does not carry perf record's command line (HEADER_CMDLINE), so the filters it"
whole="$why may have been recorded with (-p, -C, --filter, --exclude-perf) cannot be known: it"
whole="$whole is analysed as unfiltered"
for f in "$tiny" "$tinyp"; do
	n=$(basename "$f" .data)
	$PERFDATA nocmdline "$f" "$T/$n-nocmd.data"
	"$TICKSCOPE" info -i "$f" 2>/dev/null | grep -c '^cmdline:' >"$T/c1"
	"$TICKSCOPE" info -i "$T/$n-nocmd.data" 2>/dev/null | grep -c '^cmdline:' >"$T/c2"
	is "$(cat "$T/c1") $(cat "$T/c2")" "1 0" \
		"$n: perfdata.pl nocmdline takes the command line out"
	"$TICKSCOPE" report -i "$f" --kallsyms "$ONE_KS" >"$T/with.txt" 2>"$T/with.err"
	"$TICKSCOPE" report -i "$T/$n-nocmd.data" --kallsyms "$ONE_KS" >"$T/without.txt" \
		2>"$T/without.err"
	ok $? "$n: a file without it is reported"
	is "$(grep -cF "$why" "$T/with.err") $(grep -cF "$why" "$T/without.err")" "0 1" \
		"$n: one warning without it, none with it"
	grep -qxF "tickscope: warning: $T/$n-nocmd.data: $whole" "$T/without.err"
	ok $? "$n: the warning names the file and says it is analysed as unfiltered"
	diff "$T/with.err" "$T/without.err" | grep -c '^[<>]' >"$T/nd"
	is "$(cat "$T/nd")" 1 "$n: that line is the only difference on stderr"
	sed 1d "$T/with.txt" >"$T/a" && sed 1d "$T/without.txt" >"$T/b"
	cmp -s "$T/a" "$T/b"
	ok $? "$n: the figures are those of the same file with its command line"
	"$TICKSCOPE" report -i "$f" --kallsyms "$ONE_KS" --json 2>/dev/null |
		jq -r '.input | "\(.cmdline | type) \(.cmdline_null_reason)"' >"$T/j1"
	"$TICKSCOPE" report -i "$T/$n-nocmd.data" --kallsyms "$ONE_KS" --json 2>/dev/null |
		jq -r '.input | "\(.cmdline) \(.cmdline_null_reason)"' >"$T/j2"
	is "$(cat "$T/j1")" "string null" "$n: JSON input.cmdline is perf's command line"
	grep -qxF "null $whole" "$T/j2"
	ok $? "$n: without it, input.cmdline is null and cmdline_null_reason says why"
	"$TICKSCOPE" dump -i "$T/$n-nocmd.data" --kallsyms "$ONE_KS" >/dev/null 2>"$T/d.err"
	is "$(grep -cF "$why" "$T/d.err")" 0 \
		"$n: dump, which prints every record as it is, says nothing"
done
# compare and summary compute a run's figures from its trace: the same line, naming the run's
mkdir -p "$T/nocmd-run"
cp "$TS_FIXTURES/boards/x86-host/live/pingpong/run-1/meta.txt" \
	"$TS_FIXTURES/boards/x86-host/live/pingpong/run-1/workload.out" "$T/nocmd-run/"
xz -dc "$TS_FIXTURES/boards/x86-host/live/pingpong/run-1/perf.data.xz" >"$T/pp-full.data"
$PERFDATA nocmdline "$T/pp-full.data" "$T/nocmd-run/perf.data"
sed -i '/^perf_data_sha256=/d; /^perf_data_size=/d' "$T/nocmd-run/meta.txt"
TS_SUMMARY_CACHE=off "$TICKSCOPE" summary "$T/nocmd-run" >/dev/null 2>"$T/s.err"
rc=$?
is "$rc $(grep -c "^tickscope: warning: $T/nocmd-run/perf.data: $why" "$T/s.err")" "0 1" \
	"summary of a run without it: one warning naming its perf.data"
# the summary carries it (format 18): compare from the trace, from the summary cached beside
# it and from the summary alone (no trace) says the same line, once a run
mkdir -p "$T/nocmd-a" "$T/nocmd-b"
for v in a b; do
	cp -r "$T/nocmd-run" "$T/nocmd-$v/run-1"
	rm -f "$T/nocmd-$v/run-1/perf.data.tsum"
done
nocmd_compare() {
	TS_SUMMARY_CACHE="$T/nocmd-cache" "$TICKSCOPE" compare "$T/nocmd-a" "$T/nocmd-b" \
		>/dev/null 2>"$T/c.err"
	echo "$? $(grep -c "^tickscope: warning: $T/nocmd-[ab]/run-1/perf.data: $whole$" "$T/c.err")"
}
is "$(nocmd_compare)" "0 2" "compare from the traces: the line for each run"
is "$(nocmd_compare)" "0 2" "compare from the summaries it cached: the same lines"
for v in a b; do
	TS_SUMMARY_CACHE=off "$TICKSCOPE" summary "$T/nocmd-$v/run-1" >/dev/null 2>&1
	rm "$T/nocmd-$v/run-1/perf.data"
done
is "$(nocmd_compare)" "0 2" "compare from the summaries alone, no trace: the same lines"

tap_done
