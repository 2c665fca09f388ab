#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Careless inputs to compare and report (issue 30): a kallsyms replaced after the summary was
# cached, a zeroed kallsyms, two different workloads, runs without a usable trace, task and
# variant names with tabs and newlines. Nothing may come out silently wrong: the answer is the
# one --no-cache gives, or one line saying what is wrong; never "nan".
. "$(dirname "$0")/lib/tap.sh"
command -v xz >/dev/null || skip_all "no xz"
command -v python3 >/dev/null || skip_all "no python3"
[ -x "$TICKSCOPE" ] || skip_all "no $TICKSCOPE (make all)"
tap_tmpdir
T=$TAP_TMP
fx=$TS_TOP/tests/fixtures/experiment/qemu-aarch64-pingpong-default-vs-nohz-off
F=$TS_TOP/tests/fixtures

# Real runs of tests/fixtures/experiment with their kallsyms unpacked; variant_check dropped
# (those Debian kernels miss the board's fragments by design, boards-experiment.t).
mkdir -p "$T/x"
cp -rL "$fx/default" "$fx/nohz-off" "$T/x/"
for r in "$T"/x/*/run-*; do
	xz -dc "$r/kallsyms.xz" >"$r/kallsyms.real" && rm "$r/kallsyms.xz"
	sed -i '/^variant_check=/d; /^variant_mismatch=/d' "$r/meta.txt"
	sed 's/^[0-9a-f]*/0000000000000000/' "$r/kallsyms.real" >"$r/kallsyms"
done
cmpx() {
	"$TICKSCOPE" compare --json "$@" "$T/x/default" "$T/x/nohz-off"
}

# 7. A zeroed kallsyms (a non-root /proc/kallsyms) is said, per run, and not used.
cmpx >"$T/zero.json" 2>"$T/zero.err"
rc=$?
[ $rc -eq 0 ] && [ "$(grep -c 'kallsyms: every address in it is 0 .*not used' "$T/zero.err")" = 4 ]
ok $? "compare: a zeroed kallsyms is named, once per run (exit $rc)"
xz -dc "$F/x86-tiny.data.xz" >"$T/tiny.data"
xz -dc "$F/x86-b0ab7601.kallsyms.xz" | sed 's/^[0-9a-f]*/0000000000000000/' >"$T/zero.ksyms"
# report --kallsyms of a zeroed file named every function wrongly (the tick counted as another
# hrtimer) after a warning: now it is refused in one line.
"$TICKSCOPE" report "$T/tiny.data" --kallsyms "$T/zero.ksyms" >/dev/null 2>"$T/err"
rc=$?
[ $rc = 1 ] && [ "$(wc -l <"$T/err")" = 1 ] &&
	grep -q "^tickscope: $T/zero.ksyms: every address in it is 0: .*kptr_restrict" "$T/err" &&
	! grep -q 'another architecture' "$T/err"
ok $? "report: a zeroed kallsyms is refused as such in one line, not as another architecture's"

# 6. The real kallsyms put in afterwards: the cache must not answer with the zeroed one's.
for r in "$T"/x/*/run-*; do mv "$r/kallsyms.real" "$r/kallsyms"; done
cmpx >"$T/cached.json" 2>/dev/null
cmpx --no-cache >"$T/fresh.json" 2>/dev/null
cmp -s "$T/cached.json" "$T/fresh.json" && ! cmp -s "$T/zero.json" "$T/fresh.json"
ok $? "the summary cache is keyed by the kallsyms: after the real one, the --no-cache answer"
s=$(summary_cache_file "$T/x/default/run-1/perf.data.xz" .tsum)
head -n1 "$s" | grep -q "^tickscope-summary 18	" &&
	head -n1 "$s" | grep -q "	ksyms:$(sha256sum \
		<"$T/x/default/run-1/kallsyms" | cut -c1-64)$"
ok $? "the key names the kallsyms by its sha256"
# Without kallsyms the tick's handler time is unmeasured (null, with the reason), not 0: no
# hrtimer expiry can be told to be the tick's. The runs: two of each side of
# tests/fixtures/kernel-mech, without their kallsyms, then with them. The oracle: perf script
# with a run's kallsyms names the tick's expiries (tick_nohz_handler, tick_sched_timer), and
# compare with the kallsyms gives a time above 0 in every run.
km=$F/kernel-mech/x86-host-pingpong-same-root-vs-cfs-quota
for v in root cfs-quota; do
	for k in 1 2; do
		mkdir -p "$T/km/$v/run-$k" && cp -L "$km/$v/run-$k"/* "$T/km/$v/run-$k/"
		mv "$T/km/$v/run-$k/kallsyms.xz" "$T/km/$v/run-$k/kallsyms.keep"
	done
done
# tick FILE: per variant, "VALUES WHY_NULL" of the tick's handler time
tick() { jq -r '.. | objects | select(.name? == "task.path.run.tick.per_op") | .variants[] |
	"\(.values | map(tostring) | join(",")) \(.why_null)"' "$1"; }
if command -v perf >/dev/null && command -v jq >/dev/null; then
	"$TICKSCOPE" compare --json --no-cache "$T/km/root" "$T/km/cfs-quota" >"$T/nok.json" 2>/dev/null
	for r in "$T"/km/*/run-*; do mv "$r/kallsyms.keep" "$r/kallsyms.xz"; done
	"$TICKSCOPE" compare --json --no-cache "$T/km/root" "$T/km/cfs-quota" >"$T/k.json" 2>/dev/null
	r1=$T/km/root/run-1
	xz -dc "$r1/perf.data.xz" >"$T/r1.data" && xz -dc "$r1/kallsyms.xz" >"$T/r1.ksyms"
	nt=$(perf script -i "$T/r1.data" --kallsyms "$T/r1.ksyms" -F event,trace 2>/dev/null |
		grep -c 'hrtimer_expire_entry:.*function=tick_\(nohz_handler\|sched_timer\)')
	[ "$(tick "$T/nok.json" | grep -c '^null,null no symbols: ')" = 2 ] && [ "$nt" -gt 0 ] &&
		tick "$T/k.json" | awk '{ split($1, v, ","); for (i in v) if (!(v[i] > 0)) bad = 1 }
			END { exit bad }'
	ok $? "without kallsyms the tick's handler time is null (no symbols), not 0 (perf script: $nt tick expiries in root run-1; with the kallsyms, ns/op: $(tick "$T/k.json" | cut -d' ' -f1 | tr '\n' ' '))"
else
	skip "without kallsyms the tick's handler time is null" "no perf or no jq"
fi

# 8. Two different workloads: refused, naming both; with --allow-mismatch, no nan anywhere.
xz -dc "$F/x86-pingpong-cross.data.xz" >"$T/pp.data"
xz -dc "$F/x86-ramfs-pipe.data.xz" >"$T/rf.data"
mixed() {
	"$TICKSCOPE" compare "$@" --bench "$F/x86-pingpong-cross.log" "$T/pp.data" \
		--bench "$F/x86-pingpong-cross.log" "$T/pp.data" -- \
		--bench "$F/x86-ramfs-pipe.log" "$T/rf.data" --bench "$F/x86-ramfs-pipe.log" "$T/rf.data"
}
mixed >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 1 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" = 1 ] &&
	grep -q "pp.data ran latency, but .*rf.data ran ramfs.bogo_ops_per_s.*: not the same workload" \
		"$T/err"
ok $? "ping-pong against stress-ng: refused in one line naming both (exit $rc)"
mixed --allow-mismatch >"$T/out" 2>"$T/err"
rc=$?
mixed --allow-mismatch --json >"$T/out.json" 2>/dev/null
[ $rc = 0 ] && ! grep -qiw 'nan\|-nan\|inf' "$T/out" && ! grep -qiw 'nan\|inf' "$T/out.json" &&
	grep -q 'compared anyway (--allow-mismatch)' "$T/err"
ok $? "with --allow-mismatch: compared with a warning, and no nan or inf printed"

# 9. Runs without a usable trace: each one said, with why; an untraced variant is not
# "nothing changed".
mkdir -p "$T/u"
cp -r "$T/x/default" "$T/x/nohz-off" "$T/u/"
for r in "$T"/u/nohz-off/run-*; do
	rm -f "$r"/perf.data.xz* "$r"/perf.data.tsum
	sed -i '/^perf_data_sha256=/d' "$r/meta.txt"
done
mkdir "$T/u/nohz-off/run-1/perf.data"
ln -s perf.data.xz "$T/u/nohz-off/run-2/perf.data"
ln -s perf.data "$T/u/nohz-off/run-2/perf.data.xz"
"$TICKSCOPE" compare "$T/u/default" "$T/u/nohz-off" >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 0 ] &&
	grep -q "warning: $T/u/nohz-off/run-1: no trace (perf.data is a directory)" "$T/err" &&
	grep -q "warning: $T/u/nohz-off/run-2: no trace (perf.data: Too many levels of symbolic" \
		"$T/err"
ok $? "runs without a usable trace are named with the reason (exit $rc)"
! grep -q 'nothing in the trace changed' "$T/out" &&
	grep -q 'no trace to compare: no run of nohz-off has a usable trace' "$T/out"
ok $? "an untraced variant: 'no trace to compare', not 'nothing changed'"
ln -s /dev/zero "$T/u/nohz-off/run-1/perf.data.xz"
rmdir "$T/u/nohz-off/run-1/perf.data"
"$TICKSCOPE" compare "$T/u/default" "$T/u/nohz-off" >/dev/null 2>"$T/err"
grep -q "nohz-off/run-1: no trace (perf.data.xz is not a regular file)" "$T/err"
ok $? "a perf.data.xz that is /dev/zero is said as such"

# 10. A task named "sche<TAB>pi<NL>pe" (the trace's bytes changed in place) and variant names
# with a tab and a newline: every TSV row keeps its columns, the text shows the escapes.
python3 - "$T/tiny.data" "$T/tab.data" <<'EOF'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
off, size = struct.unpack_from('<QQ', b, 40)
seg = bytes(b[off:off + size]).replace(b'sched-pipe', b'sche\tpi\npe')
assert len(seg) == size and seg != bytes(b[off:off + size])
b[off:off + size] = seg
open(sys.argv[2], 'wb').write(b)
EOF
"$TICKSCOPE" report "$T/tab.data" --tsv "$T/tsv" >/dev/null 2>&1 &&
	"$TICKSCOPE" report "$T/tab.data" >"$T/tab.txt" 2>/dev/null
ok $? "report of the trace with the tab and newline in a task name"
bad=""
for f in "$T"/tsv/*.tsv; do
	awk -F'\t' 'NR == 1 { n = NF } NF != n { bad = 1 } END { exit bad }' "$f" || bad="$bad ${f##*/}"
done
[ -z "$bad" ] && grep -q '^12666	sche\\tpi\\npe	' "$T/tsv/sched_tasks.tsv"
ok $? "report --tsv: every row has its header's columns, the name escaped${bad:+ (broken:$bad)}"
grep -q '^  sche\\tpi\\npe ' "$T/tab.txt" && ! grep -q "$(printf 'sche\tpi')" "$T/tab.txt"
ok $? "the text report shows the escapes, not the raw tab and newline"
"$TICKSCOPE" compare --no-trace --names "$(printf 'a\tb,c\nd')" --tsv "$T/ctsv" \
	"$T/x/default" "$T/x/nohz-off" >/dev/null 2>&1
bad=""
for f in "$T"/ctsv/*.tsv; do
	awk -F'\t' 'NR == 1 { n = NF } NF != n { bad = 1 } END { exit bad }' "$f" || bad="$bad ${f##*/}"
done
[ -z "$bad" ] && grep -q '^a\\tb	1	' "$T/ctsv/runs.tsv" && grep -q '^c\\nd	1	' "$T/ctsv/runs.tsv"
ok $? "compare --tsv: variant names with a tab and a newline are escaped${bad:+ (broken:$bad)}"

# A name with a newline (a run folder "run<NL>9", a file): every error naming it is still one
# line, the newline shown as \n; summary --check's line keeps its three fields, the folder's
# name escaped as in the TSV (it was "bad<TAB>run", then "9<TAB>run", the reason cut there).
nl=$(printf 'run\n9')
mkdir "$T/$nl"
"$TICKSCOPE" summary --check "$T/$nl" >"$T/nl.out" 2>"$T/nl.err"
rc=$?
[ $rc = 1 ] && [ "$(wc -l <"$T/nl.out")" = 1 ] &&
	RUN="$T/run\\n9" awk -F'\t' 'NF != 3 || $1 != "bad" || $2 != ENVIRON["RUN"] ||
		index($3, ENVIRON["RUN"]) == 0 { bad = 1 } END { exit bad }' "$T/nl.out"
ok $? "summary --check on a run folder named with a newline: one line, the name escaped (exit $rc)"
"$TICKSCOPE" report "$T/$nl/perf.data" >/dev/null 2>"$T/nl.err"
rc=$?
[ $rc = 1 ] && [ "$(wc -l <"$T/nl.err")" = 1 ] &&
	grep -qF "tickscope: $T/run\n9/perf.data: " "$T/nl.err"
ok $? "report of a missing file under that folder: one line, the newline escaped (exit $rc)"
"$TICKSCOPE" compare --no-trace --tsv "$T/$nl/x/y" "$T/x/default" "$T/x/nohz-off" \
	>/dev/null 2>"$T/nl.err"
rc=$?
[ $rc != 0 ] && [ "$(wc -l <"$T/nl.err")" = 1 ] && grep -qF "$T/run\n9/x/y" "$T/nl.err"
ok $? "compare --tsv under a missing folder named with a newline: one line (exit $rc)"

# compare --html stopped (SIGTERM, as Ctrl-C) while it draws: the charts' temporary folder in
# TMPDIR was left behind, with every chart's data; the earlier page is left as it was. The
# stand-in gnuplot stops its parent, tickscope, at the moment the folder is fullest.
mkdir -p "$T/tmpd"
printf '#!/bin/sh\nkill -TERM $PPID\nsleep 1\n' >"$T/stopgp"
chmod +x "$T/stopgp"
printf '<!DOCTYPE html>\n<p>the earlier page</p>\n' >"$T/page.html"
cp "$T/page.html" "$T/page.before"
TMPDIR="$T/tmpd" TS_GNUPLOT="$T/stopgp" "$TICKSCOPE" compare --no-trace --html "$T/page.html" \
	"$T/x/default" "$T/x/nohz-off" >/dev/null 2>&1
rc=$?
left=$(ls -A "$T/tmpd" "$T" | grep -c -e tickscope-charts -e 'page\.html\.')
[ $rc = 143 ] && [ "$left" = 0 ] && cmp -s "$T/page.html" "$T/page.before"
ok $? "compare --html stopped while drawing: no temporary folder left, the earlier page intact (exit $rc, $left left)"

# An output folder that cannot be one: said in one line before the runs are loaded (it was
# "Not a directory" once the whole comparison was done), the file left as it was.
echo "my notes" >"$T/notes"
for o in --tsv --plots; do
	for d in notes no/such/out; do
		case $d in
		notes) want="$T/notes: a file, not a folder: $o names the folder to write into" ;;
		*) want="$T/$d: cannot create it in $T/no/such: No such file or directory" ;;
		esac
		"$TICKSCOPE" compare --no-trace $o "$T/$d" "$T/x/default" "$T/x/nohz-off" \
			>"$T/o.out" 2>"$T/o.err"
		is "$?:$(cat "$T/o.err"):$(cat "$T/notes")" "1:tickscope: $want:my notes" \
			"compare $o ${d%%/*}: refused before the runs are loaded"
	done
done

# 13. A --comm that names no task on call-chain runs (UBSan: qsort of NULL): no crash.
xz -dc "$F/x86-ramfs-callchain.data.xz" >"$T/cc.data"
"$TICKSCOPE" compare --no-cache --comm nosuchtask --bench "$F/x86-ramfs-callchain.log" \
	"$T/cc.data" -- --bench "$F/x86-ramfs-callchain.log" "$T/cc.data" >/dev/null 2>"$T/err"
rc=$?
[ $rc = 0 ] && ! grep -q 'runtime error' "$T/err"
ok $? "compare --comm nosuchtask on call-chain runs (exit $rc)"

# A stress-ng run that completed no bogo op measured nothing (a stressor that failed to start
# prints such a row): its per-op figures were inf, "80.27 -> inf", and 100% of the change. It is
# refused, one line naming the output and its line, and no report is printed.
sed 's/ramfs              2000      0.30      0.01      0.23      6688.87        8298.89/ramfs                 0      0.30      0.01      0.23         0.00           0.00/' \
	"$F/x86-ramfs-callchain.log" >"$T/none.log"
grep -q 'ramfs  *0  ' "$T/none.log"
ok $? "a stress-ng output of 0 bogo ops made"
"$TICKSCOPE" compare --no-cache --all --bench "$F/x86-ramfs-callchain.log" "$T/cc.data" -- \
	--bench "$T/none.log" "$T/cc.data" >"$T/none.txt" 2>"$T/err"
rc=$?
[ $rc != 0 ] && [ "$(wc -l <"$T/err")" = 1 ] &&
	grep -q "none.log:[0-9]*: the benchmark measured nothing" "$T/err" && ! grep -qw inf "$T/none.txt"
ok $? "compare: 0 bogo ops refused in one line (exit $rc: $(head -c 200 "$T/err"))"
"$TICKSCOPE" compare --no-cache --all --json --bench "$F/x86-ramfs-callchain.log" "$T/cc.data" \
	-- --bench "$T/none.log" "$T/cc.data" >"$T/none.json" 2>"$T/err"
rc=$?
[ $rc != 0 ] && [ ! -s "$T/none.json" ]
ok $? "compare --json: 0 bogo ops refused, no document (exit $rc)"

# Two variants of one name (the same folder twice, or --names a,a): their rows, TSV lines and
# charts could not be told apart. One line naming both, exit 1, nothing written.
kv=$F/kernel-variants/qemu-x86-pingpong-vmstat-44-before-vs-after-vs-nohz-idle
for args in "$kv/vmstat-44-before $kv/vmstat-44-before" \
	"--names a,a $kv/vmstat-44-before $kv/vmstat-44-after"; do
	# shellcheck disable=SC2086
	"$TICKSCOPE" compare --tsv "$T/dup" $args >"$T/dup.out" 2>"$T/dup.err"
	rc=$?
	[ $rc = 1 ] && [ "$(wc -l <"$T/dup.err")" = 1 ] && [ ! -s "$T/dup.out" ] &&
		[ ! -e "$T/dup" ] && grep -q "variants 1 and 2 are both named '" "$T/dup.err"
	ok $? "two variants of one name: refused (exit $rc): $(head -1 "$T/dup.err" | sed "s|$F/||")"
done

# A meta.txt with a key given twice (a hand edit appended kernel=): the first was taken silently,
# the run compared as the older kernel. One line naming the file, key and lines, exit 1.
rm -rf "$T/dk"
mkdir -p "$T/dk"
cp -r "$T/x/default" "$T/x/nohz-off" "$T/dk/"
m=$T/dk/default/run-1/meta.txt
first=$(grep -n '^kernel=' "$m" | cut -d: -f1)
echo 'kernel=6.12.0-other' >>"$m"
"$TICKSCOPE" compare --no-cache --tsv "$T/dk/out" "$T/dk/default" "$T/dk/nohz-off" \
	>"$T/dk.out" 2>"$T/dk.err"
rc=$?
[ $rc = 1 ] && [ "$(wc -l <"$T/dk.err")" = 1 ] && [ ! -s "$T/dk.out" ] && [ ! -e "$T/dk/out" ] &&
	grep -q "^tickscope: $m:$(wc -l <"$m"): key 'kernel' given twice (first on line $first)" \
		"$T/dk.err"
ok $? "a meta.txt key given twice: refused in one line (exit $rc: $(head -1 "$T/dk.err"))"

# bad_meta HOW KEY VALUE WHAT [OPTION]: nohz-off's run-2 meta.txt with KEY=VALUE (HOW: set, its
# line replaced; add, appended) is refused in one line naming meta.txt, the line and WHAT
bad_meta() {
	rm -rf "$T/dk"
	mkdir -p "$T/dk"
	cp -r "$T/x/default" "$T/x/nohz-off" "$T/dk/"
	m=$T/dk/nohz-off/run-2/meta.txt
	if [ "$1" = set ]; then
		sed -i "s/^$2=.*/$2=$3/" "$m"
	else
		echo "$2=$3" >>"$m"
	fi
	line=$(grep -n "^$2=" "$m" | tail -1 | cut -d: -f1)
	"$TICKSCOPE" compare $5 "$T/dk/default" "$T/dk/nohz-off" >"$T/dk.out" 2>"$T/dk.err"
	rc=$?
	[ $rc = 1 ] && [ "$(wc -l <"$T/dk.err")" = 1 ] && [ ! -s "$T/dk.out" ] &&
		grep -q "^tickscope: $m:$line: $2 '$3' is not $4$" "$T/dk.err"
	ok $? "meta.txt $2=$3: refused in one line (exit $rc: $(head -1 "$T/dk.err"))"
}

# lost_samples= that is not a count: "abc" was read as 0 lost samples and "-5" as -5, so that
# the run's losses went unsaid. One line naming the file and line, exit 1.
for bad in abc -5 1.5 ''; do
	bad_meta set lost_samples "$bad" 'a count of samples' --no-cache
done

# perf_data_size= that is not a size: "12x" was taken as no size (the summary's went unchecked),
# 99999999999999999999 as 9223372036854775807 bytes in a message about another trace.
for bad in 12x 99999999999999999999 -5 ' 5'; do
	bad_meta add perf_data_size "$bad" 'a size in bytes'
done

# refused_attempts= (ts-record.sh --retries: the run was recorded again after attempts refused
# as a damaged trace) that is not a count of attempts. One line naming the file and line.
for bad in abc -1 2x ''; do
	bad_meta add refused_attempts "$bad" 'a count of attempts'
done

# result= and result_unit= (ts-record.sh copies the benchmark's figure from workload.out; the
# experiment's order.txt, record.sh's progress and LAVA's measurement show it): compare read
# workload.out and never looked, so a malformed or lying figure there went unsaid. Now one
# line naming meta.txt and the line (of KEY, else of the key set), exit 1, and nothing on stdout.
# bad_result KEY VALUE PATTERN [KEY]
bad_result() {
	rm -rf "$T/dk"
	mkdir -p "$T/dk"
	cp -r "$T/x/default" "$T/x/nohz-off" "$T/dk/"
	m=$T/dk/nohz-off/run-2/meta.txt
	sed -i "s/^$1=.*/$1=$2/" "$m"
	line=$(grep -n "^${4:-$1}=" "$m" | cut -d: -f1)
	"$TICKSCOPE" compare --no-cache "$T/dk/default" "$T/dk/nohz-off" >"$T/dk.out" 2>"$T/dk.err"
	rc=$?
	[ $rc = 1 ] && [ "$(wc -l <"$T/dk.err")" = 1 ] && [ ! -s "$T/dk.out" ] &&
		grep -q "^tickscope: $m:$line: result=.* result_unit=.*: $3" "$T/dk.err"
	ok $? "meta.txt $1=$2: refused in one line (exit $rc: $(head -1 "$T/dk.err"))"
}
fig=$(sed -n 's/^result=//p' "$T/x/nohz-off/run-2/meta.txt")
for bad in nan -3 1e309 1.2.3; do
	bad_result result "$bad" 'not a benchmark result (a plain decimal >= 0)$'
done
for bad in 1.5 "${fig%?}" "${fig}1"; do
	bad_result result "$bad" \
		"not the result the benchmark's output gives (pingpong's latency $fig us)$"
done
bad_result result_unit furlongs 'not a result unit'
bad_result result_unit bogo_ops_per_s_real_time "not the result the benchmark's output gives" \
	result
bad_result result_unit '' 'not a result unit'
# the run's own figure, and none recorded (ts-record.sh found no result line), are compared
for good in "$fig" ''; do
	rm -rf "$T/dk"
	mkdir -p "$T/dk"
	cp -r "$T/x/default" "$T/x/nohz-off" "$T/dk/"
	sed -i "s/^result=.*/result=$good/" "$T/dk/nohz-off/run-2/meta.txt"
	"$TICKSCOPE" compare --no-cache "$T/dk/default" "$T/dk/nohz-off" >"$T/dk.out" 2>"$T/dk.err"
	ok $? "meta.txt result=$good: compared ($(head -1 "$T/dk.err"))"
done

# A run recorded again after a refused attempt (ts-record.sh --retries, as the LAVA jobs do):
# its variant says so in one line among the confounders (the text and the JSON's), with the
# first reason; nothing else of the comparison changes.
rm -rf "$T/rt"
mkdir -p "$T/rt"
cp -r "$T/x/default" "$T/x/nohz-off" "$T/rt/"
rt() {
	"$TICKSCOPE" compare "$T/rt/default" "$T/rt/nohz-off" >"$T/rt$1.txt" 2>"$T/rt.err" &&
		"$TICKSCOPE" compare --json "$T/rt/default" "$T/rt/nohz-off" >"$T/rt$1.json" 2>/dev/null
}
rt 0
why="damaged trace: timer:hrtimer_expire_entry: 0 samples while timer:hrtimer_expire_exit had"
why="$why 42722: the event never reached perf (see perf-stats.txt)"
m=$T/rt/nohz-off/run-2/meta.txt
awk -v why="$why" '/^status=complete$/ { print "refused_attempts=2"; print "refused_reason=" why }
	{ print }' "$m" >"$T/meta" && mv "$T/meta" "$m"
rt 1
rc=$?
note="nohz-off: 1 of its 2 runs recorded again after 2 attempts refused ($T/rt/nohz-off/run-2:"
note="$note $why); a run kept after a retry is a selection, its refused attempt ran under load"
[ $rc = 0 ] && [ "$(tail -n 1 "$m")" = status=complete ] &&
	[ "$(diff "$T/rt0.txt" "$T/rt1.txt" | grep '^>')" = "$(printf '>   ! %s' "$note")" ] &&
	[ -z "$(diff "$T/rt0.txt" "$T/rt1.txt" | grep '^<' | grep -v '^<   none found$')" ]
ok $? "a run recorded again: one line for its variant among the confounders (exit $rc)"
python3 - "$T/rt0.json" "$T/rt1.json" "$note" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
extra = [c for c in b["confounders"] if c not in a["confounders"]]
assert extra == [sys.argv[3]], extra
a["confounders"] = b["confounders"] = []
assert a == b, "the numbers changed"
PY
ok $? "... in the JSON's confounders too, and every figure of the JSON is the same"

# A stress-ng run that says it failed (an instance killed: "fail: ... metrics-check: stressor
# metrics corrupted, data is compromised", "unsuccessful run completed") printed its table all
# the same, which was compared as a measurement; and a run folder whose workload.out is refused
# fell back to its stress-ng.yaml. One line naming workload.out and the line, exit 1.
for v in a b; do
	mkdir -p "$T/sfail/$v/run-1"
	cp "$F/bench/stress-ng-0.15-cpu-killed.out" "$T/sfail/$v/run-1/workload.out"
	cp "$F/bench/stress-ng-0.15-ramfs.yaml" "$T/sfail/$v/run-1/stress-ng.yaml"
done
"$TICKSCOPE" compare "$T/sfail/a/run-1/workload.out" -- "$T/sfail/b/run-1/workload.out" \
	>"$T/sfail.out" 2>"$T/sfail.err"
rc=$?
[ $rc = 1 ] && [ ! -s "$T/sfail.out" ] && [ "$(wc -l <"$T/sfail.err")" = 1 ] &&
	grep -q "^tickscope: $T/sfail/a/run-1/workload.out:6: the benchmark says its run failed" \
		"$T/sfail.err"
ok $? "compare of a failed stress-ng run's output: one line at its fail: line (exit $rc)"
"$TICKSCOPE" compare "$T/sfail/a" -- "$T/sfail/b" >"$T/sfail.out" 2>"$T/sfail.err"
rc=$?
[ $rc = 1 ] && [ ! -s "$T/sfail.out" ] &&
	grep -q "^tickscope: $T/sfail/a/run-1/workload.out:6: the benchmark says its run failed" \
		"$T/sfail.err"
ok $? "... and of its run folder: not its stress-ng.yaml instead (exit $rc)"

# stress-ng's YAML says nothing of how its run ended: stress-ng 0.15 writes the same metrics for
# an "unsuccessful run" (an instance killed, checked on this machine), and a run read from its
# YAML alone was compared as a measurement, silently. A meta.txt that says the run failed
# (status=failed, workload_status= other than 0) is refused in one line naming it; a YAML that
# nothing beside says succeeded is compared with a warning naming it.
kp=$F/kernel-params/qemu-aarch64-stress-ramfs-default-vs-rcu-expedited
for v in default rcu-expedited; do
	mkdir -p "$T/yaml/$v"
	cp -r "$kp/$v/run-1" "$kp/$v/run-2" "$T/yaml/$v/"
done
rm "$T"/yaml/*/run-*/workload.out
"$TICKSCOPE" compare "$T/yaml/default" "$T/yaml/rcu-expedited" >"$T/y.out" 2>"$T/y.err"
rc=$?
[ $rc = 0 ] && [ -s "$T/y.out" ] && ! grep -q 'YAML' "$T/y.err"
ok $? "run folders read from their YAML, workload_status=0 beside it: no warning (exit $rc)"
m=$T/yaml/rcu-expedited/run-2/meta.txt
sed -i 's/^workload_status=0$/workload_status=2/' "$m"
line=$(grep -n '^workload_status=' "$m" | cut -d: -f1)
"$TICKSCOPE" compare "$T/yaml/default" "$T/yaml/rcu-expedited" >"$T/y.out" 2>"$T/y.err"
rc=$?
[ $rc = 1 ] && [ ! -s "$T/y.out" ] && [ "$(wc -l <"$T/y.err")" = 1 ] &&
	grep -q "^tickscope: $m:$line: the run failed (workload_status=2): not compared$" "$T/y.err"
ok $? "meta.txt workload_status=2: refused in one line naming it (exit $rc: $(head -1 "$T/y.err"))"
sed -i 's/^workload_status=2$/workload_status=0/; s/^status=complete$/status=failed/' "$m"
echo 'failure=perf/workload exited with status 2' >>"$m"
line=$(grep -n '^status=failed' "$m" | cut -d: -f1)
"$TICKSCOPE" compare "$T/yaml/default" "$T/yaml/rcu-expedited" >"$T/y.out" 2>"$T/y.err"
rc=$?
[ $rc = 1 ] && [ ! -s "$T/y.out" ] && [ "$(wc -l <"$T/y.err")" = 1 ] &&
	grep -q "^tickscope: $m:$line: the run failed (status=failed; perf/workload exited with status 2): not compared$" \
		"$T/y.err"
ok $? "meta.txt status=failed (a run-<k>.failed renamed): refused (exit $rc: $(head -1 "$T/y.err"))"
sed -i '/^workload_status=/d; /^failure=/d; s/^status=failed$/status=complete/' "$T"/yaml/*/run-*/meta.txt
"$TICKSCOPE" compare "$T/yaml/default" "$T/yaml/rcu-expedited" >"$T/y.out" 2>"$T/y.err"
rc=$?
[ $rc = 0 ] && [ -s "$T/y.out" ] &&
	[ "$(grep -c "^tickscope: warning: $T/yaml/[a-z-]*/run-[12]/stress-ng.yaml: stress-ng's YAML does not say whether its run failed" "$T/y.err")" = 4 ]
ok $? "run folders with only the YAML: compared, a warning naming each (exit $rc)"
# A failed run whose workload.out holds no table (stress-ng printed none, or it is damaged):
# the output was "unrecognised", and its stress-ng.yaml was read in its place, silently.
printf '%s\n' 'stress-ng: info:  [1] dispatching hogs: 2 ramfs' \
	'stress-ng: fail:  [7] ramfs: child mount/umount failed' \
	'stress-ng: info:  [1] unsuccessful run completed in 8.13s' >"$T/yaml/default/run-2/workload.out"
"$TICKSCOPE" compare "$T/yaml/default" "$T/yaml/rcu-expedited" >"$T/y.out" 2>"$T/y.err"
rc=$?
[ $rc = 1 ] && [ ! -s "$T/y.out" ] && [ "$(grep -vc "stress-ng's YAML does not say" "$T/y.err")" = 1 ] &&
	grep -q "^tickscope: $T/yaml/default/run-2/workload.out:2: the benchmark says its run failed" \
		"$T/y.err"
ok $? "a failed run's workload.out without a table: refused at its fail: line, not read from its YAML (exit $rc)"
rm "$T/yaml/default/run-2/workload.out"
"$TICKSCOPE" compare "$F/bench/stress-ng-0.15-ramfs.yaml" -- "$F/bench/stress-ng-0.15-ramfs.yaml" \
	>"$T/y.out" 2>"$T/y.err"
rc=$?
[ $rc = 0 ] && [ -s "$T/y.out" ] &&
	[ "$(grep -c "^tickscope: warning: $F/bench/stress-ng-0.15-ramfs.yaml: stress-ng's YAML does not say" "$T/y.err")" = 2 ]
ok $? "a YAML given alone: compared, with the warning (exit $rc)"

tap_done
