# SPDX-License-Identifier: GPL-2.0-only
# The known answers of the built-kernel experiments, as TAP checks on an experiment folder's
# compare.json and compare.txt; sourced after tap.sh by the live test and the fixture test.

# kv_metric DIR METRIC VARIANT FIELD: one field of a metric's variant in DIR/compare.json.
kv_metric() {
	python3 -c "import json, sys
d = json.load(open(sys.argv[1] + '/compare.json'))
m = {e['name']: e for e in d['metrics']}
v = {x['variant']: x for x in m[sys.argv[2]]['variants']}
print(v[sys.argv[3]].get(sys.argv[4]))" "$@" 2>&1
}

# kv_rank DIR REGEX: the rank (1 = first) of the first metric matching REGEX in B's ranked
# changes of the explanation (compare.json), or 0 if none does.
kv_rank() {
	python3 -c "import json, re, sys
d = json.load(open(sys.argv[1] + '/compare.json'))
names = [c['metric'] for c in d['explanations'][0]['changes']]
print(next((i + 1 for i, n in enumerate(names) if re.search(sys.argv[2], n)), 0))" "$@" 2>&1
}

# kv_tick_answer DIR A B MINRUNS: hz-periodic (B) against nohz-idle (A) on the ping-pong: idle
# exits by the tick change significantly and rank among the top five changes, tick_stop
# successes fall to zero in every B run and are there in every A run.
kv_tick_answer() {
	_d=$1 _a=$2 _b=$3 _min=$4
	_n=$(kv_metric "$_d" idle.exits.tick.per_s "$_b" n)
	_na=$(kv_metric "$_d" idle.exits.tick.per_s "$_a" n)
	[ "$_n" -ge "$_min" ] 2>/dev/null && [ "$_na" -ge "$_min" ] 2>/dev/null
	ok $? "compare has at least $_min runs of each variant ($_a: $_na, $_b: $_n)"
	_ma=$(kv_metric "$_d" idle.exits.tick.per_s "$_a" median)
	_mb=$(kv_metric "$_d" idle.exits.tick.per_s "$_b" median)
	diag "idle exits by the tick per s (medians): $_a $_ma, $_b $_mb," \
		"adjusted p $(kv_metric "$_d" idle.exits.tick.per_s "$_b" p_adjusted)"
	is "$(kv_metric "$_d" idle.exits.tick.per_s "$_b" significant)" True \
		"the change in idle exits by the tick is significant (after the adjustment)"
	awk -v a="$_ma" -v b="$_mb" 'BEGIN { exit !(b > 5 * a) }'
	ok $? "idle exits by the tick rise more than 5x with the periodic tick"
	_r=$(kv_rank "$_d" 'tick')
	[ "$_r" -ge 1 ] 2>/dev/null && [ "$_r" -le 5 ]
	ok $? "the tick is among the top five changes of the explanation (first at rank $_r)"
	_r=$(kv_rank "$_d" '^idle[.]exits[.]tick[.]')
	[ "$_r" -ge 1 ] 2>/dev/null
	ok $? "idle exits by the tick are among the ranked changes (rank $_r)"
	grep -q 'idle exits by tick\|idle.exits.tick' "$_d/compare.txt"
	ok $? "compare.txt names the idle exits by the tick"
	awk -v x="$(kv_metric "$_d" idle.tick_stop.ok.per_s "$_b" max)" \
		'BEGIN { exit !(x == "0" || x == "0.0") }'
	ok $? "tick_stop successes fall to zero in every $_b run"
	awk -v x="$(kv_metric "$_d" idle.tick_stop.ok.per_s "$_a" min)" 'BEGIN { exit !(x > 0) }'
	ok $? "every $_a run has tick_stop successes"
}
