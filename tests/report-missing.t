#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Missing events are reported as missing, never as zeros: x86-tiny was recorded with only
# sched_switch/waking/wakeup and hrtimer_start (no rcu:*, no power:cpu_idle, no expiries).
. "$(dirname "$0")/lib/tap.sh"
. "$TS_TOP/tests/fixtures/fixtures.sh"
command -v jq >/dev/null 2>&1 || skip_all "jq is not installed (make deps installs it)"
tap_tmpdir

f=$(fixture_data x86-tiny) || { echo "Bail out! fixture x86-tiny missing"; exit 1; }
"$TICKSCOPE" report --json -i "$f" >"$TAP_TMP/r.json" 2>"$TAP_TMP/err"
ok $? "report --json runs on a file without rcu, cpu_idle or timer expiries"
"$TICKSCOPE" report -i "$f" >"$TAP_TMP/r.txt" 2>>"$TAP_TMP/err"
ok $? "the text report runs too"

for s in idle rcu timer workqueue shrinker; do
	is "$(jq -r ".sections.$s.status" "$TAP_TMP/r.json")" not_recorded "$s: not_recorded"
	# only status, events and the bookkeeping: no figure that could read as a measurement
	is "$(jq -r ".sections.$s | keys - [\"status\", \"events\"] | join(\",\")" \
		"$TAP_TMP/r.json")" "" "$s: carries no figures"
	grep -q "^== $s == not recorded" "$TAP_TMP/r.txt"
	ok $? "$s: the text says not recorded"
done
is "$(jq -r '.sections.idle.events[] | select(.name == "power:cpu_idle") | .status' \
	"$TAP_TMP/r.json")" not_recorded "power:cpu_idle is named as not recorded"
is "$(jq -r '.sections.rcu.events[] | select(.name == "rcu:rcu_utilization") | .status' \
	"$TAP_TMP/r.json")" not_recorded "rcu:rcu_utilization is named as not recorded"
is "$(jq -r '.sections.timer.events[] | select(.name == "timer:hrtimer_start") | .count' \
	"$TAP_TMP/r.json")" 2 "hrtimer_start alone is counted but makes no timer figures"
is "$(jq -r '.sections.sched.status' "$TAP_TMP/r.json")" present "sched: present"

# A rate over a trace that spans no time is not measured: a --time window holding one hrtimer
# expiry printed "1 expiries, 0.0 per s" (and 0.000 in TSV); a window holding no event printed
# the trace as "0.000000 .. 0.000000 s" and first_ns 0.
irq=$(fixture_data x86-pingpong-irq) || { echo "Bail out! fixture x86-pingpong-irq missing"; exit 1; }
at=$("$TICKSCOPE" dump -i "$irq" | awk '$5 == "timer:hrtimer_expire_entry:" { sub(":", "", $4);
	print $4; exit }')
T=$TAP_TMP
"$TICKSCOPE" report -i "$irq" --time "$at,$at" >"$T/one.txt" 2>"$T/err" &&
	"$TICKSCOPE" report -i "$irq" --time "$at,$at" --json >"$T/one.json" 2>>"$T/err" &&
	"$TICKSCOPE" report -i "$irq" --time "$at,$at" --tsv "$T/one" >/dev/null 2>>"$T/err"
ok $? "report of a window holding one expiry ($at) runs"
is "$(jq -r '.trace.duration_ns, .sections.timer.hrtimer_expiries' "$T/one.json" | tr '\n' ' ')" \
	"0 1 " "the window: one expiry in a span of 0 ns"
is "$(awk '/^  callback/ { getline; print $4 }' "$T/one.txt")" "-" \
	"text: the expiry's per s is -, not 0.0"
is "$(sed -n '/per CPU expiries\/s/ { n; p; }' "$T/one.txt" | tr -s ' ')" " cpu0 - cpu1 -" \
	"text: per CPU expiries/s are -"
is "$(cut -f6 "$T/one/timer_functions.tsv" | tr '\n' ' ')" "per_s - " "TSV: per_s is -"
is "$(cut -f4 "$T/one/timer_cpus.tsv" | tr '\n' ' ')" "per_s - " "TSV: the CPU's per_s is -"
"$TICKSCOPE" report -i "$irq" --time 1,2 >"$T/none.txt" 2>"$T/err" &&
	"$TICKSCOPE" report -i "$irq" --time 1,2 --json >"$T/none.json" 2>>"$T/err"
ok $? "report of a window holding no event runs"
grep -q '^  trace - (no event analysed), symbols: ' "$T/none.txt"
ok $? "text: no event analysed, no times ($(sed -n 3p "$T/none.txt"))"
is "$(jq -c '[.trace.first_ns, .trace.last_ns, .trace.duration_ns]' "$T/none.json")" \
	"[null,null,null]" "JSON: the trace's times are null"
tap_done
