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
tap_done
