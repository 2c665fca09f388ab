#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make check-experiment (and CI): the nohz=off against default experiment, live on the emulated
# aarch64 board (ping-pong unpinned); compare must see the periodic tick, with assertions that
# noise cannot flip: complete separation, a large effect, and a p-value far below alpha.
. "$(dirname "$0")/lib/tap.sh"
[ "${TS_CHECK_EXPERIMENT:-0}" = 1 ] || skip_all "qemu boots run in 'make check-experiment'"
[ "$(id -u)" = 0 ] || skip_all "needs root (apt-get download of arm64 packages)"
command -v qemu-system-aarch64 >/dev/null || skip_all "no qemu-system-aarch64"
[ -x "$TICKSCOPE" ] || skip_all "no $TICKSCOPE (make all)"
tap_tmpdir
tmp=$TAP_TMP
# 8 a side: a complete separation has the exact U-test p 2/C(16,8) = 1.55e-4 (6 a side: 2.2e-3,
# which Benjamini-Hochberg over the trace family lifted to 0.019; see boards/README.md).
runs=${TS_EXPERIMENT_RUNS:-8}
# TS_EXPERIMENT_RESULTS=DIR keeps the runs in DIR (resumable) instead of a temporary folder.
res=${TS_EXPERIMENT_RESULTS:-$tmp/r}
exp=$res/experiments/check

t0=$(date +%s)
# The rule for refused runs: the recorder refuses a run it cannot vouch for and the experiment
# stops with the reason, the run kept in refused/ (boards/README.md). Under TCG with the host
# loaded, a tracepoint stayed off for a whole run (a damaged trace: 2 runs in 50 here, 4 of the
# 386 committed fixture runs); CI's machine refused a run here once, at 426 s, for a reason its
# log did not keep. The check resumes the experiment after a refusal, which records that run
# again, at most twice in all, each refusal and its reason said on stderr (CI's log); a failure
# that kept no run (boot, fetch, compare), or a third refusal, fails the check.
# say_refused DIR: a refused run's reason and the tails of its logs, on stderr (once per run)
say_refused() {
	echo "# refused: ${1#"$exp"/}: $(sed -n 's/^failure=//p' "$1/meta.txt" 2>/dev/null)"
	for f in perf-record.log workload.out; do
		[ ! -f "$1/$f" ] || tail -n 15 "$1/$f" | sed "s|^|# $f: |"
	done >&2
}
refused=0
while :; do
	"$TS_TOP/boards/experiment.sh" BOARD=qemu-aarch64 WORKLOAD=pingpong A=default \
		B=nohz-off RUNS="$runs" ITERS=5000 WARMUP=500 NAME=check RESULTS="$res" \
		TICKSCOPE="$TICKSCOPE" CONFIG=/dev/null >"$tmp/log" 2>&1
	rc=$?
	[ $rc -ne 0 ] && [ $refused -lt 2 ] &&
		[ "$(ls "$exp/refused" 2>/dev/null | wc -l)" -gt $refused ] || break
	refused=$((refused + 1))
	diag "refused, the experiment resumed: $(sed -n 's/^experiment: error: //p' "$tmp/log")" >&2
	say_refused "$(ls -d "$exp"/refused/* | tail -n 1)" >&2
done
ok $rc "make experiment A=default B=nohz-off RUNS=$runs ITERS=5000 ($(($(date +%s) - t0))s)"
# prove shows only stderr without -v: why the experiment stopped, and the run refused last with
# the recorder's own reason and the tails of its logs (those resumed were said above), go there
# so that CI's log has them
if [ $rc -ne 0 ]; then
	tail -n 40 "$tmp/log" | sed 's/^/# /' >&2
	ls -d "$exp"/refused/* 2>/dev/null | tail -n +$((refused + 1)) | while read -r k; do
		say_refused "$k"
	done >&2
fi
is "$(ls "$exp/refused" 2>/dev/null | wc -l)" "$refused" \
	"runs refused by the recorder and recorded again: $refused (at most 2), each kept"
grep '^experiment: \[' "$tmp/log" | sed 's/^/# /'
sed -n '1,14p; /^What changed/,/^$/p; /^Confounders/,/^$/p' "$exp/compare.txt" 2>/dev/null |
	sed 's/^/# /'

# tick CHECK: a Python assertion on compare.json's metrics m (by name), with a and b the default
# and nohz-off cells of idle.exits.tick.per_s; prints the failing values.
tick() {
	python3 -c "import json, math, sys
d = json.load(open('$exp/compare.json'))
m = {e['name']: {x['variant']: x for x in e['variants']} for e in d['metrics']}
a, b = m['idle.exits.tick.per_s']['default'], m['idle.exits.tick.per_s']['nohz-off']
n = $runs
floor = 2 / math.comb(2 * n, n)
$1" >"$tmp/tick.out" 2>&1
	_rc=$?
	sed 's/^/# /' "$tmp/tick.out"
	# prove shows a failing test's stderr without -v: the values that failed, in CI's log
	[ $_rc -eq 0 ] || sed 's/^/# /' "$tmp/tick.out" >&2
	return $_rc
}
tick "print('idle exits by tick per s: default', a['values'], 'nohz=off', b['values'])
print('p', b['p'], '(floor %.3g)' % floor, 'adjusted', b['p_adjusted'], 'change', b['raw'])"
tick "assert a['n'] == n and b['n'] == n, (a['n'], b['n'])"
rc=$?
ok $rc "compare has $runs runs a side"
# a run without the figure: its summary (compare's cache of the run) says why, run by run
if [ $rc -ne 0 ]; then
	for r in "$exp"/default/run-* "$exp"/nohz-off/run-*; do
		s=$(summary_cache_file "$r/perf.data" .tsum)
		m=$(awk -F'\t' '$1 == "m" && $2 == "idle.exits.tick.per_s" { $1 = $2 = $3 = $4 = $5 = ""
			print }' "$s" 2>/dev/null | sed 's/^ *//')
		echo "# ${r#"$exp"/}: ${m:-no summary in $s}"
	done >&2
fi
tick "assert min(b['values']) > 5 * max(a['values']), (a['values'], b['values'])"
ok $? "separation: every nohz=off run has over 5x the idle exits by tick of every default run"
tick "assert b['p_exact'] and abs(b['p'] - floor) < 1e-9 * floor, (b['p'], floor)"
ok $? "the exact U-test p is its floor 2/C(2n,n) (complete separation)"
tick "assert b['significant'] and b['p_adjusted'] < 0.01, (b['significant'], b['p_adjusted'])"
ok $? "significant after Benjamini-Hochberg, adjusted p below 0.01 (alpha 0.05)"
tick "assert all(x == 0 for x in m['idle.tick_stop.ok.per_s']['nohz-off']['values'])"
ok $? "compare: tick_stop successes are zero in every nohz=off run"
tick "assert all(x > 0 for x in m['idle.tick_stop.ok.per_s']['default']['values'])"
ok $? "compare: every default run has tick_stop successes"

# the headline names the tick within its first three lines, and its first mechanism is one;
# the line saying what the kernels differ in (here the boot parameter) is not counted
head -4 "$exp/compare.txt" | sed 's/^/# /'
# (with the irq events, line 3 splits the run time and gives the tick's handler's part first)
grep -Ev '^  (the kernels differ in|one kernel build .*, booted two ways): ' "$exp/compare.txt" |
	head -3 | grep -Eq '(<- idle exits by the tick|<- the tick: its handler|'\
'the tick.s handler [0-9]|<- the tick.s handler while|<- CPUs stopping the tick)'
ok $? "the headline names the tick in its first three lines"
tick "h = d['headline']['mechanisms'][0]
assert h['metric'] in ('idle.exits.tick.per_s', 'idle.tick_stop.ok.per_s',
	'idlepath.tick_restarts.per_s', 'timer.expire.tick_sched_timer.per_s',
	'timer.expire.tick.per_s', 'task.path.run.tick.per_op'), h"
ok $? "compare.json: headline.mechanisms[0] is a tick metric"

# the oracle: perf script's tick_stop successes, run by run
if command -v perf >/dev/null; then
	for v in default nohz-off; do
		for r in "$exp/$v"/run-*; do
			d=$r/perf.data
			[ -s "$d" ] || { xz -dc "$d.xz" >"$tmp/p.data" && d=$tmp/p.data; }
			perf script -i "$d" -F event,trace 2>/dev/null | grep -c 'tick_stop:.*success=1'
		done | tr '\n' ' ' >"$tmp/ts-$v"
	done
	diag "perf script tick_stop successes: default $(cat "$tmp/ts-default")," \
		"nohz=off $(cat "$tmp/ts-nohz-off")"
	[ "$(tr -d '0 ' <"$tmp/ts-nohz-off")" = "" ] && [ -s "$tmp/ts-nohz-off" ] &&
		! grep -qw 0 "$tmp/ts-default" && [ -s "$tmp/ts-default" ]
	ok $? "perf script: no tick_stop success in any nohz=off run, some in every default run"
else
	skip "perf script's tick_stop count" "no perf"
fi
ok_all=1
for r in "$exp/nohz-off"/run-*; do grep -qw 'nohz=off' "$r/cmdline.txt" || ok_all=0; done
for r in "$exp/default"/run-*; do ! grep -qw 'nohz=off' "$r/cmdline.txt" || ok_all=0; done
[ $ok_all = 1 ]
ok $? "every nohz-off run booted with nohz=off, no default run did"
! grep -q 'cmdline differs' "$exp/compare.txt"
ok $? "compare does not call the variant's own nohz=off a cmdline confounder"
# A failure keeps what it came from (the runs, their logs, compare's output and summaries) in
# the build folder, replacing the last one kept: the temporary folder goes when the test ends.
if [ "$_tap_failed" -gt 0 ] && [ -z "${TS_EXPERIMENT_RESULTS:-}" ]; then
	keep=$TS_BUILD/check-experiment.failed
	rm -rf "$keep" && mkdir -p "$keep" && cp "$tmp/log" "$keep/experiment.log" &&
		cp -a "$res" "$keep/results" && diag "kept: $keep (experiment.log, results/)"
	[ ! -d "$TS_SUMMARY_CACHE" ] || cp -a "$TS_SUMMARY_CACHE" "$keep/summary-cache"
fi
tap_done
