#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The migrate section against perf script: on every fixture that recorded sched_migrate_task,
# the migrations per CPU pair and per task equal what perf script prints, and the origins add
# up to the total.
. "$(dirname "$0")/lib/tap.sh"
. "$TS_TOP/tests/fixtures/fixtures.sh"

command -v perf >/dev/null || skip_all "perf not installed (Debian package linux-perf)"
command -v jq >/dev/null || skip_all "jq not installed (Debian package jq)"
[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
tap_tmpdir

n_checked=0
for n in $(fixture_names); do
	f=$(fixture_data "$n") || { ok 1 "$n: fixture"; continue; }
	perf script -i "$f" -F event,trace 2>/dev/null | grep 'sched:sched_migrate_task:' \
		>"$TAP_TMP/perf" || continue
	n_checked=$((n_checked + 1))
	"$TICKSCOPE" report -i "$f" --json >"$TAP_TMP/r.json" 2>"$TAP_TMP/err"
	ok $? "$n: report runs"
	# "orig dest count" per pair; "pid count" per task
	sed -n 's/.*orig_cpu=\([0-9]*\) dest_cpu=\([0-9]*\).*/\1 \2/p' "$TAP_TMP/perf" | sort |
		uniq -c | awk '{ print $2, $3, $1 }' >"$TAP_TMP/perf.pairs"
	jq -r '.sections.migrate.pairs[] | "\(.orig_cpu) \(.dest_cpu) \(.count)"' "$TAP_TMP/r.json" |
		sort >"$TAP_TMP/our.pairs"
	[ -s "$TAP_TMP/perf.pairs" ] && cmp -s "$TAP_TMP/perf.pairs" "$TAP_TMP/our.pairs"
	ok $? "$n: migrations per CPU pair equal perf script's ($(wc -l <"$TAP_TMP/perf.pairs") pairs)"
	sed -n 's/.* pid=\([0-9]*\) .*/\1/p' "$TAP_TMP/perf" | sort | uniq -c |
		awk '{ print $2, $1 }' | sort >"$TAP_TMP/perf.tasks"
	jq -r '.sections.migrate.tasks[] | "\(.tid) \(.count)"' "$TAP_TMP/r.json" |
		sort >"$TAP_TMP/our.tasks"
	cmp -s "$TAP_TMP/perf.tasks" "$TAP_TMP/our.tasks"
	ok $? "$n: migrations per task equal perf script's"
	is "$(jq '.sections.migrate | .migrations == ([.origin[]] | add)' "$TAP_TMP/r.json")" \
		"true" "$n: the origins add up to the migrations"
done
[ "$n_checked" -gt 0 ]
ok $? "fixtures with sched_migrate_task checked: $n_checked"
tap_done
