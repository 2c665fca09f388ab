#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A figure not measured is null in the JSON and `-` in the text, never 0, and is not ranked
# (docs/compare.md, "Families not recorded", "Measured on one side only"): two stress-ng ramfs
# traces of one kernel, A recorded without workqueue events, B with them. Who woke the
# benchmark's tasks by work function needs workqueue:workqueue_execute_start: A has no such
# share, so B's 66.5% for wait_rcu_exp_gp is no change "from 0%". The oracle for what each
# trace recorded is perf's own event list (perf evlist -i); given as bare perf.data files,
# compare says the events differ from the files' attrs, as perf evlist lists them.
. "$(dirname "$0")/lib/tap.sh"
command -v jq >/dev/null || skip_all "jq not installed (analysis/packages)"
command -v xz >/dev/null || skip_all "xz not installed (analysis/packages)"
[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
tap_tmpdir
export XDG_CACHE_HOME="$TAP_TMP/cache" TS_SUMMARY_CACHE="$TAP_TMP/cache"
fx=$TS_TOP/tests/fixtures/aarch64
ks=$fx/a64-6.1-generic-ramfs-g.kallsyms.xz
fn=wait_rcu_exp_gp
m=task.woken_by_work.$fn.share
for s in A B; do
	n=a64-6.1-generic-stress-ramfs$([ $s = B ] && echo -g)
	mkdir -p "$TAP_TMP/$s/run-1"
	cp "$fx/$n.data.xz" "$TAP_TMP/$s/run-1/perf.data.xz"
	cp "$fx/$n.log" "$TAP_TMP/$s/run-1/workload.out"
	xz -dc "$fx/$n.data.xz" >"$TAP_TMP/$s.data"
	cp "$fx/$n.log" "$TAP_TMP/$s.log"
done

# 0. What the traces recorded, by perf's own reading (or, without perf, by the fixtures' logs'
# names: A is the trace without workqueue events).
if command -v perf >/dev/null; then
	for s in A B; do
		perf evlist -i "$TAP_TMP/$s.data" 2>/dev/null | grep -E '^[a-z_]+:[a-z_0-9]+$' |
			grep -v '^dummy:' | sort >"$TAP_TMP/$s.events"
	done
	is "$(grep -c '^workqueue:' "$TAP_TMP/A.events") $(grep -c '^workqueue:workqueue_execute_start$' "$TAP_TMP/B.events")" \
		"0 1" "perf evlist: A recorded no workqueue event, B workqueue_execute_start"
else
	skip "perf evlist: what A and B recorded" "perf not installed (Debian package linux-perf)"
fi

# 1. Run folders: the share of work function $fn is null in A, with the reason, not 0.
"$TICKSCOPE" compare --kallsyms "$ks" "$TAP_TMP/A/run-1" -- "$TAP_TMP/B/run-1" \
	>"$TAP_TMP/c.txt" 2>"$TAP_TMP/err"
is "$? $(wc -l <"$TAP_TMP/err")" "0 0" "compare A -- B: exit 0, nothing on stderr"
! grep -Eq "^ +$fn +0(\\.0)?% ->" "$TAP_TMP/c.txt"
ok $? "the text does not say $fn went from 0%"
[ $? = 0 ] || diag "$(grep -n "$fn" "$TAP_TMP/c.txt")"
sed -n '/^Not compared, B vs A/,/^$/p' "$TAP_TMP/c.txt" >"$TAP_TMP/not"
grep -q '^  A: workqueue:workqueue_execute_start not recorded: [0-9]* metrics, e\.g\. ' \
	"$TAP_TMP/not"
ok $? "the text says once why A's workqueue figures are not compared"
[ $? = 0 ] || diag "$(cat "$TAP_TMP/not")"
is "$(grep -c 'workqueue:workqueue_execute_start not recorded' "$TAP_TMP/c.txt")" 1 \
	"the reason is said once"

"$TICKSCOPE" compare --json --kallsyms "$ks" "$TAP_TMP/A/run-1" -- "$TAP_TMP/B/run-1" \
	>"$TAP_TMP/c.json" 2>/dev/null
ok $? "compare --json A -- B"
is "$(jq -r .version "$TAP_TMP/c.json")" 8 "the JSON is version 8"
is "$(jq -c --arg m "$m" '.metrics[] | select(.name == $m) | .variants |
	map([.variant, .values, .measured, .median]) ' "$TAP_TMP/c.json")" \
	'[["A",[null],0,null],["B",[66.46586345],1,66.46586345]]' \
	"$m: A null (not measured), B 66.5%"
is "$(jq -r --arg m "$m" '.metrics[] | select(.name == $m) | .variants[0].why_null' \
	"$TAP_TMP/c.json")" "workqueue:workqueue_execute_start not recorded" \
	"its A cell says why it is null"
is "$(jq --arg m "$m" '[.explanations[0] | .wakeup_path[], .changes[] |
	select(.metric == $m)] | length' "$TAP_TMP/c.json")" 0 \
	"not in the wakeup path nor among the changes"
is "$(jq -c '.explanations[0].unmeasured[] |
	select(.why == "workqueue:workqueue_execute_start not recorded") | .variant' \
	"$TAP_TMP/c.json")" '"A"' "explanations[].unmeasured names A's reason once"
# every metric with no figure in A (and one in B) is listed under a reason, and none is tested
is "$(jq '[.metrics[] | select(.variants[0].measured == 0 and .variants[1].measured > 0)] |
	length' "$TAP_TMP/c.json")" \
	"$(jq '[.explanations[0].unmeasured[] | select(.variant == "A") | .metrics] | add' \
		"$TAP_TMP/c.json")" "the unmeasured lists count every metric A has no figure of"
is "$(jq '[.metrics[] | select(.variants[0].measured == 0 or .variants[1].measured == 0) |
	.variants[1] | select(.p != null or .significant)] | length' "$TAP_TMP/c.json")" 0 \
	"none of them has a p-value or is significant"

# 2. Bare perf.data files (no meta.txt): the events differ, said from the files' attrs.
"$TICKSCOPE" compare --kallsyms "$ks" --bench "$TAP_TMP/A.log" "$TAP_TMP/A.data" -- \
	--bench "$TAP_TMP/B.log" "$TAP_TMP/B.data" >"$TAP_TMP/f.txt" 2>"$TAP_TMP/err"
is "$? $(wc -l <"$TAP_TMP/err")" "0 0" "compare on bare perf.data files: exit 0"
! grep -q 'not checked: .*events.* unknown' "$TAP_TMP/f.txt"
ok $? "the recorded events are not said to be unknown"
line=$(grep '! events differ: .* recorded in B only' "$TAP_TMP/f.txt")
if [ -f "$TAP_TMP/A.events" ]; then
	want=$(comm -13 "$TAP_TMP/A.events" "$TAP_TMP/B.events" | tr '\n' ' ')
	got=$(printf '%s\n' "$line" | sed 's/.*events differ: //; s/ recorded in B only//' |
		tr ',' '\n' | tr -d ' ' | sort | tr '\n' ' ')
	is "$got" "$want" "events differ: B's events not in A's are perf evlist's"
else
	printf '%s\n' "$line" | grep -q 'workqueue:workqueue_execute_start'
	ok $? "events differ: B's workqueue events are named"
fi
"$TICKSCOPE" compare --json --kallsyms "$ks" --bench "$TAP_TMP/A.log" "$TAP_TMP/A.data" -- \
	--bench "$TAP_TMP/B.log" "$TAP_TMP/B.data" >"$TAP_TMP/f.json" 2>/dev/null
is "$(jq -c --arg m "$m" '.metrics[] | select(.name == $m) | .variants | map(.values)' \
	"$TAP_TMP/f.json")" '[[null],[66.46586345]]' "bare files: $m null in A too"
tap_done
