#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# tickscope report's three forms on real fixtures: the JSON parses and follows
# docs/report-json.md (distributions consistent, missing sections without figures), every
# TSV table is rectangular, and both docs match the output table by table in both directions
# (tests/lib/doc-check.pl); the text form shows watched work functions and "not recorded".
. "$(dirname "$0")/lib/tap.sh"
. "$TS_TOP/tests/fixtures/fixtures.sh"

command -v jq >/dev/null || skip_all "jq not installed (analysis/packages)"
[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
command -v perl >/dev/null || skip_all "perl not installed"
tap_tmpdir
tmp=$TAP_TMP
"$TICKSCOPE" report --help >"$tmp/help" 2>&1
ok $? "tickscope report --help runs"

# doc_check MODE DOC OUTPUT: one test point per documented table
doc_check() {
	perl "$TS_TOP/tests/lib/doc-check.pl" "$@" >"$tmp/doc" 2>"$tmp/doc.err"
	_rc=$?
	ok $_rc "doc-check.pl $1 runs"
	[ $_rc -eq 0 ] || sed 's/^/#   /' "$tmp/doc.err"
	while IFS='	' read -r _v _t _p; do
		[ "$_v" = ok ]
		ok $? "$(basename "$2"): $_t matches the output${_p:+ ($_p)}"
	done <"$tmp/doc"
}

n=x86-ramfs-callchain
f=$(fixture_data $n) || { echo "Bail out! fixture $n"; exit 1; }
k=$(fixture_kallsyms $n)
"$TICKSCOPE" report -i "$f" --kallsyms "$k" --json >"$tmp/r.json" 2>"$tmp/err"
ok $? "$n: --json"
jq -e . "$tmp/r.json" >/dev/null 2>&1
ok $? "$n: the JSON parses"
is "$(jq -r '"\(.schema) \(.version)"' "$tmp/r.json")" "tickscope-report 1" "schema and version"
is "$(jq -r '.sections | keys | join(",")' "$tmp/r.json")" \
	"idle,idlepath,irq,migrate,probes,rcu,sched,shrinker,timer,workqueue" "ten sections"

# Every distribution: buckets add up to count, quantiles are ordered within [min, max].
bad=$(jq '[.. | objects | select(has("p50_ns") and .count > 0)
	| select(([.buckets[][1]] | add) != .count or .min_ns > .p50_ns or .p50_ns > .p90_ns
		or .p90_ns > .p99_ns or .p99_ns > .p999_ns or .p999_ns > .max_ns)] | length' \
	"$tmp/r.json")
is "$bad" 0 "distributions: buckets sum to count, min <= p50 <= ... <= max"
is "$(jq '[.. | objects | select(has("p50_ns") and .count == 0 and .p50_ns != null)] | length' \
	"$tmp/r.json")" 0 "empty distributions have null quantiles, not zeros"
ok "$(jq '[.sections.sched.offcpu_stacks[].total_ns] | add > 0' "$tmp/r.json" |
	grep -q true; echo $?)" "callchains give off-CPU stacks"
is "$(jq -r '.sections.timer.functions[] | select(.tick == 1) | .function' "$tmp/r.json" |
	head -1)" "tick_nohz_handler" "the tick is picked out by symbol"

doc_check json "$TS_TOP/docs/report-json.md" "$tmp/r.json"

# The aarch64 file lacks workqueue and shrinker events, and RCU_TRACE.
a=$(shared_fixture a64-6.1-generic-stress-ramfs.data) || a=""
if [ -z "$a" ]; then
	ok 1 "a64-6.1-generic-stress-ramfs: fixture present in tests/fixtures/aarch64"
else
	"$TICKSCOPE" report -i "$a" --json >"$tmp/a.json" 2>/dev/null
	is "$(jq -r '.sections.workqueue | keys | join(",")' "$tmp/a.json")" "events,status" \
		"not recorded: no figures at all"
	is "$(jq -r '.sections.workqueue.status' "$tmp/a.json")" "not_recorded" "status"
	is "$(jq -r '.sections.rcu | has("grace_periods")' "$tmp/a.json")" "false" \
		"no RCU_TRACE: no grace-period figures"
	"$TICKSCOPE" report -i "$a" >"$tmp/a.txt" 2>/dev/null
	grep -q '^== shrinker == not recorded' "$tmp/a.txt"
	ok $? "text: shrinker not recorded"
	grep -q 'rcu_grace_period not recorded (needs CONFIG_RCU_TRACE)' "$tmp/a.txt"
	ok $? "text: grace periods not recorded"
fi

# TSV: rectangular tables, each one's columns exactly as documented.
"$TICKSCOPE" report -i "$f" --kallsyms "$k" --tsv "$tmp/tsv" 2>"$tmp/err"
ok $? "$n: --tsv"
bad=""
nt=0
for t in "$tmp"/tsv/*.tsv; do
	[ -f "$t" ] || continue
	nt=$((nt + 1))
	awk -F'\t' 'NR == 1 { n = NF } NF != n { exit 1 }' "$t" || bad="$bad $(basename "$t")"
done
[ "$nt" -gt 0 ] && [ -z "$bad" ]
ok $? "every row of the $nt TSV tables has the header's number of fields$bad"
doc_check tsv "$TS_TOP/docs/report-tsv.md" "$tmp/tsv"

# The whole-trace wake classes: the JSON's counts are the TSV's, and (no task filter) the sum of
# every task's counts per class.
j=$(jq -r '.sections.sched.wake_classes[] | "\(.class) \(.count)"' "$tmp/r.json" | sort)
is "$j" "$(tail -n +2 "$tmp/tsv/sched_wake_classes.tsv" | cut -f1,2 | tr '\t' ' ' | sort)" \
	"whole-trace wake class counts: the JSON's equal sched_wake_classes.tsv's"
is "$j" "$(jq -r '[.sections.sched.tasks[].wake_classes | to_entries[]] | group_by(.key)[] |
	select(.[0].key | test("^(same|cross)_cpu_")) | "\(.[0].key) \(map(.value) | add)"' \
	"$tmp/r.json" | sort)" "whole-trace wake class counts are the sum of the tasks'"
[ -n "$j" ] && echo "$j" | awk '$2 > 0 { n++ } END { exit n < 4 }'
ok $? "$n: all four wake classes occur (so the checks above can tell them apart)"
is "$(cut -f1,2 "$tmp/tsv/sections.tsv" | tail -n +2 | sort | tr '\t\n' ': ')" \
	"$(jq -r '.sections | to_entries[] | "\(.key):\(.value.status)"' "$tmp/r.json" |
		sort | tr '\n' ' ')" "sections.tsv and the JSON agree on status"

# A watched work function is listed even outside the top N, marked with '>'.
"$TICKSCOPE" report -i "$f" --kallsyms "$k" --top 1 --watch blk_mq_run_work_fn >"$tmp/w.txt"
grep -q '^> blk_mq_run_work_fn' "$tmp/w.txt"
ok $? "--watch lists a work function outside --top, marked"
"$TICKSCOPE" report -i "$f" --cpu nonsense >/dev/null 2>&1
is $? 2 "bad --cpu list: usage error"
tap_done
