#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make check-experiment: the nohz=off against default experiment, live on the emulated aarch64
# board (ping-pong unpinned); compare must see the periodic tick: idle exits by the tick up
# significantly, tick_stop successes down to zero.
. "$(dirname "$0")/lib/tap.sh"
[ "${TS_CHECK_EXPERIMENT:-0}" = 1 ] || skip_all "qemu boots run in 'make check-experiment'"
[ "$(id -u)" = 0 ] || skip_all "needs root (apt-get download of arm64 packages)"
command -v qemu-system-aarch64 >/dev/null || skip_all "no qemu-system-aarch64"
[ -x "$TICKSCOPE" ] || skip_all "no $TICKSCOPE (make all)"
tap_tmpdir
tmp=$TAP_TMP
runs=${TS_EXPERIMENT_RUNS:-6}
exp=$tmp/r/experiments/check

t0=$(date +%s)
"$TS_TOP/boards/experiment.sh" BOARD=qemu-aarch64 WORKLOAD=pingpong A=default B=nohz-off \
	RUNS="$runs" ITERS=5000 WARMUP=500 NAME=check RESULTS="$tmp/r" TICKSCOPE="$TICKSCOPE" \
	>"$tmp/log" 2>&1
rc=$?
ok $rc "make experiment A=default B=nohz-off RUNS=$runs ITERS=5000 ($(($(date +%s) - t0))s)"
[ $rc -eq 0 ] || tail -n 40 "$tmp/log" | sed 's/^/# /'
grep '^experiment: \[' "$tmp/log" | sed 's/^/# /'
sed -n '1,12p; /^What changed/,/^$/p' "$exp/compare.txt" 2>/dev/null | sed 's/^/# /'

# metric VARIANT FIELD: a field of idle metrics in compare.json.
metric() {
	python3 -c "import json, sys
d = json.load(open('$exp/compare.json'))
m = {e['name']: e for e in d['metrics']}
v = {x['variant']: x for x in m[sys.argv[1]]['variants']}
print(v[sys.argv[2]].get(sys.argv[3]))" "$@" 2>&1
}
n=$(metric idle.exits.tick.per_s nohz-off n)
is "$n" "$runs" "compare has the $runs runs of nohz-off"
a=$(metric idle.exits.tick.per_s default median)
b=$(metric idle.exits.tick.per_s nohz-off median)
p=$(metric idle.exits.tick.per_s nohz-off p_adjusted)
diag "idle exits by tick per s: default $a, nohz=off $b (adjusted p $p)"
is "$(metric idle.exits.tick.per_s nohz-off significant)" True \
	"idle exits by the tick change significantly (after the adjustment)"
awk -v a="$a" -v b="$b" 'BEGIN { exit !(b > 5 * a) }'
ok $? "they rise more than 5x with nohz=off"
awk -v x="$(metric idle.tick_stop.ok.per_s nohz-off max)" 'BEGIN { exit !(x == "0" || x == "0.0") }'
ok $? "tick_stop successes fall to zero in every nohz=off run"
awk -v x="$(metric idle.tick_stop.ok.per_s default min)" 'BEGIN { exit !(x > 0) }'
ok $? "every default run has tick_stop successes"
grep -q 'nohz=off' "$exp/nohz-off/run-1/cmdline.txt" &&
	! grep -q 'nohz=off' "$exp/default/run-1/cmdline.txt"
ok $? "only variant B booted with nohz=off"
tap_done
