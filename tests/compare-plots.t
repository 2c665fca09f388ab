#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# tickscope compare --plots/--html on the recorded x86 ping-pong A/B (pinned same-CPU against
# cross-CPU): every chart drawn with no gnuplot warning, the data files agree with the compare
# JSON (the runs' results, the decomposition, idle exits as medians of runs, N in the CDF
# legends against each run's report), and the HTML opens in headless Chromium with every
# chart and table in its DOM and nothing from outside.
. "$(dirname "$0")/lib/tap.sh"
. "$TS_TOP/tests/lib/plots.sh"

[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
"$TICKSCOPE" compare --help 2>/dev/null | grep -q -- '--plots' ||
	skip_all "this build's tickscope compare has no --plots"
command -v gnuplot >/dev/null || skip_all "gnuplot not installed (plots/packages: gnuplot-nox)"
command -v xmllint >/dev/null || skip_all "xmllint not installed (plots/packages: libxml2-utils)"
command -v jq >/dev/null || skip_all "jq not installed (tests/packages)"
ab=$TS_TOP/tests/fixtures/boards/x86-host/ab
[ -d "$ab/pingpong-same" ] && [ -d "$ab/pingpong-cross" ] ||
	{ echo "Bail out! the A/B fixtures are missing ($ab)"; exit 1; }
tap_tmpdir
tmp=$TAP_TMP
# A copy: compare caches every run's summary and chart data next to its perf.data.
cp -a "$ab" "$tmp/ab"
A=$tmp/ab/pingpong-same
B=$tmp/ab/pingpong-cross

"$TICKSCOPE" compare "$A" "$B" --json --plots "$tmp/p" --html "$tmp/c.html" >"$tmp/c.json" \
	2>"$tmp/err"
ok $? "compare --json --plots --html exits 0"
jq -e . "$tmp/c.json" >/dev/null 2>&1
ok $? "stdout is still one JSON document"
is "$(grep -v '^tickscope: [0-9]* charts\{0,1\} (PNG and SVG) in \|^  not drawn: ' "$tmp/err")" "" \
	"stderr holds the charts summary only (gnuplot printed no warning)"
check_charts "$tmp/p" "A/B"
for c in bench explain wake-delivery-cdf wakeup-latency-cdf sched-delay-cdf idle-residency \
	timers; do
	is "$(chart_status "$tmp/p" $c)" drawn "$c drawn"
done
is "$(chart_missing "$tmp/p" offcpu-stacks)" \
	"record sched:sched_switch with callchains (perf record -g)" \
	"no callchains: the off-CPU chart says to record with -g"

# The data files against the JSON: same numbers, same units.
# res JQ: JQ applied to the benchmark result's metric in the JSON
res() {
	jq -r "(.result as \$r | .metrics[] | select(.name == \$r)) | $1" "$tmp/c.json"
}
nA=$(res .variants[0].n)
nB=$(res .variants[1].n)
is "$(head -1 "$tmp/p/bench.tsv")" \
	"$(printf 'run\tA: pingpong-same (N=%s)\tB: pingpong-cross (N=%s)' "$nA" "$nB")" \
	"bench.tsv: one column per variant, N in the legend"
is "$(tail -n +2 "$tmp/p/bench.tsv" | cut -f2 | grep -v '^-$' | sort -g | tr '\n' ' ')" \
	"$(res ".variants[0].values[]" | awk '{ printf "%.6g\n", $1 }' |
		sort -g | tr '\n' ' ')" "bench.tsv: A's runs are the JSON's values"
is "$(tail -n +2 "$tmp/p/bench.tsv" | cut -f3 | grep -v '^-$' | sort -g | tr '\n' ' ')" \
	"$(res ".variants[1].values[]" | awk '{ printf "%.6g\n", $1 }' |
		sort -g | tr '\n' ' ')" "bench.tsv: B's runs are the JSON's values"
chg=$(res .variants[1].change_pct |
	awk '{ printf "%.1f%% %s", $1 < 0 ? -$1 : $1, $1 < 0 ? "worse" : "better" }')
grep -q "title='latency: B against A $chg" "$tmp/p/plots.sh"
ok $? "the box plot's title carries the change in words: $chg"
is "$(awk -F'\t' 'NR > 2 && $4 != "total_b" { printf "%s %.4g %.4g\n", $1, $3 - $2, $5 }' \
	"$tmp/p/explain.tsv")" \
	"$(jq -r '.explanations[0].decomposition.parts[] | "\(.label) \(.delta) \(.share_pct)"' \
		"$tmp/c.json" | awk '{ d = $(NF - 1); s = $NF; $(NF - 1) = ""; $NF = "";
		sub(/ +$/, ""); printf "%s %.4g %.4g\n", $0, d, s }')" \
	"explain.tsv: each component's change and share as in the JSON"
# Idle exits per second by cause: the medians of runs, as in the JSON. A cause whose medians
# are all 0 has no column (0 here), and a chart of nothing but zeros is not drawn.
# The tick has its own column, apart from the other hrtimers: each as the idle section's metric.
for pair in "hrtimer (not the tick):other_hrtimer" "the tick:tick" "ipi:ipi"; do
	col=${pair%:*} cause=${pair##*:}
	if [ "$(chart_status "$tmp/p" idle-exits)" = drawn ]; then
		got=$(awk -F'\t' -v c="$col" 'NR == 1 { for (i = 2; i <= NF; i++) if ($i == c) k = i }
			NR > 1 { printf "%.4g ", k ? $k : 0 }' "$tmp/p/idle-exits.tsv")
	else
		got="0 0 "
	fi
	is "$got" "$(jq -r --arg m "idle.exits.$cause.per_s" '.metrics[] | select(.name == $m) |
		.variants[].median' "$tmp/c.json" | awk '{ printf "%.4g ", $1 }')" \
		"idle-exits.tsv: $col per second = the JSON's idle.exits.$cause.per_s medians of runs"
done
if [ "$(chart_status "$tmp/p" idle-exits)" != drawn ]; then
	# a run with exits makes "none happened" false: the JSON's idle.exits.per_s says which
	some=$(jq -r '.metrics[] | select(.name == "idle.exits.per_s") | .variants[].values[]' \
		"$tmp/c.json" | awk '$1 != "null" && $1 > 0 { print "yes"; exit }')
	if [ "$some" = yes ]; then
		want="some runs had them, but the median of runs is 0 for every column"
		want="$want (as in compare's table)"
	else
		want="recorded, but none happened"
	fi
	is "$(chart_missing "$tmp/p" idle-exits)" "$want" \
		"idle exits: all medians 0: not an empty frame, and it says why"
fi

# Work items and timers by function: every value of the chart is the JSON's median of runs
# for that function (a run where it did not run counts 0 in both), every variant a column.
for chart in work timers; do
	case $chart in
	work) prefix=workqueue.work. ;;
	timers) prefix=timer.expire. ;;
	esac
	bad=""
	nv=$(head -1 "$tmp/p/$chart.tsv" | awk -F'\t' '{ print NF - 1 }')
	is "$nv" 2 "$chart.tsv: a column for each variant"
	tail -n +2 "$tmp/p/$chart.tsv" >"$tmp/rows"
	while IFS='	' read -r label va vb; do
		fn=${label#*: }
		want=$(jq -r --arg m "$prefix$fn.per_s" '.metrics[] | select(.name == $m) |
			.variants[].median' "$tmp/c.json" | awk '{ printf "%.4g ", $1 }')
		got=$(printf '%s %s\n' "$va" "$vb" | awk '{ printf "%.4g %.4g ", $1, $2 }')
		[ "$got" = "$want" ] || bad="$bad $fn(chart $got, JSON $want)"
	done <"$tmp/rows"
	is "$bad" "" "$chart.tsv: each function's rate per variant = the JSON's median of runs"
done

# N in the wake delivery legend: the benchmark's tasks' wakeups summed over each run's report.
want=""
for v in "$A" "$B"; do
	n=0
	for r in "$v"/run-*/; do
		xz -dc "$r/perf.data.xz" >"$tmp/run.data"
		c=$("$TICKSCOPE" report "$tmp/run.data" --json 2>/dev/null | jq '[.sections.sched.tasks[] |
			select(.comm == "pingpong" or (.comm | startswith("pingpong-"))) |
			.wake_delivery.count] | add // 0')
		n=$((n + c))
	done
	want="$want$n "
done
is "$(head -1 "$tmp/p/wake-delivery-cdf.tsv" | tr '\t' '\n' | tail -n +2 |
	sed 's/.*(N=\([0-9]*\))$/\1/' | tr '\n' ' ')" "$want" \
	"wake-delivery-cdf: N = the benchmark tasks' wake deliveries over every run's report"

# Again, from the user's cache (TS_SUMMARY_CACHE, never the run folders): the same tables.
"$TICKSCOPE" compare "$A" "$B" --plots "$tmp/p2" >/dev/null 2>&1
ok $? "a second compare --plots (from the cache) exits 0"
[ -s "$(summary_cache_file "$A/run-1/perf.data.xz" .tplot)" ] &&
	! ls "$A"/run-1/*.tplot >/dev/null 2>&1
ok $? "the chart data of each run is cached in TS_SUMMARY_CACHE, not next to its perf.data"
is "$(for f in "$tmp"/p/*.tsv; do cmp -s "$f" "$tmp/p2/${f##*/}" || echo "${f##*/}"; done)" "" \
	"the charts' tables from the cache equal those read from the traces"

# --html alone: the charts are drawn in a temporary folder, removed afterwards. TMPDIR is a
# folder of this test's: in /tmp, another tickscope's (another test's, a user's) folders come
# and go meanwhile.
mkdir "$tmp/tmpdir"
TMPDIR=$tmp/tmpdir "$TICKSCOPE" compare "$A" "$B" --html "$tmp/only.html" >/dev/null 2>"$tmp/err"
ok $? "--html alone exits 0"
is "$(ls -A "$tmp/tmpdir" | tr '\n' ' ')" "" "and leaves no temporary folder behind in TMPDIR"
is "$(grep -c '<svg' "$tmp/only.html")" "$(grep -c '<svg' "$tmp/c.html")" \
	"with the same charts"

# The page in a real browser.
h=$tmp/c.html
is "$(self_contained "$h")" "" "the page refers to nothing outside itself"
CHROMIUM=${CHROMIUM:-chromium}
if command -v "$CHROMIUM" >/dev/null; then
	browse dump-dom "$h" "$tmp/dom.html"
	ok $? "chromium dumps the DOM"
	bad=""
	while IFS="$(printf '\t')" read -r name _ status _ missing; do
		grep -q "id=\"chart-$name\"" "$tmp/dom.html" || bad="$bad $name"
		[ "$status" = drawn ] || grep -qF "Not drawn: $missing." "$tmp/dom.html" ||
			bad="$bad $name(reason)"
	done <<EOF
$(tail -n +2 "$tmp/p/charts.tsv")
EOF
	is "$bad" "" "the DOM has every chart of charts.tsv, missing ones with the reason"
	is "$(grep -o '<svg' "$tmp/dom.html" | wc -l | tr -d ' ')" \
		"$(grep -c '	drawn	' "$tmp/p/charts.tsv")" "one inline SVG per drawn chart"
	for t in "The decomposition of the benchmark" "What changed, ranked" \
		"Every metric compared"; do
		grep -q "<caption>$t" "$tmp/dom.html"
		ok $? "table: $t"
	done
	grep -q '<table class="runs">' "$tmp/dom.html" && grep -q '<th>pinning</th>' "$tmp/dom.html"
	ok $? "every run's recording conditions"
	grep -q 'class="warn">pinning differs' "$tmp/dom.html"
	ok $? "the confounder warnings"
	# Each title once: the figure's caption, not gnuplot's title inside the SVG as well.
	t=$(awk -F'\t' '$1 == "explain" { print $4 }' "$tmp/p/charts.tsv" | sed 's/&/\&amp;/g')
	is "$(grep -oF "$t" "$tmp/dom.html" | wc -l | tr -d ' ')" 1 "the waterfall's title once"
	# The ranked table in the text's words, units and figures: each row's "what: A -> B,
	# change" is the text's ranked line, and no raw metric name is in it.
	"$TICKSCOPE" compare "$A" "$B" 2>/dev/null | sed -n '/^What changed/,/^$/p' |
		sed -n 's/^ *[0-9]*\. \(.*\) (p=.*$/\1/p' >"$tmp/ranked.txt"
	sed -n '/<caption>What changed, ranked/,/<\/table>/p' "$tmp/dom.html" |
		sed -n 's|^<tr><td class="n">[0-9]*</td><td>[^<]*</td><td>\([^<]*\)</td><td class="n">\([^<]*\)</td><td class="n">\([^<]*\)</td><td>\([^<]*\)</td>.*|\1: \2 -> \3, \4|p' |
		sed 's/&gt;/>/g; s/&lt;/</g; s/&amp;/\&/g' | head -n "$(wc -l <"$tmp/ranked.txt")" >"$tmp/ranked-html.txt"
	[ -s "$tmp/ranked.txt" ] && cmp -s "$tmp/ranked.txt" "$tmp/ranked-html.txt"
	ok $? "the HTML's ranked table says what the text's ranked list says ($(wc -l <"$tmp/ranked.txt") rows)"
	diag "$(diff "$tmp/ranked.txt" "$tmp/ranked-html.txt" | head -6)"
	sed -n '/<caption>What changed, ranked/,/<\/table>/p' "$tmp/dom.html" |
		grep -Eq '>(task|sched|idle|timer|workqueue|rcu|irq|migrate|shrinker|bench)\.[a-z_]'
	ok $((!$?)) "the HTML's ranked table holds no raw metric name"
	# Printed to PDF, the first page holds the headline: the benchmark's change and the
	# mechanism (the text's first lines), and the decomposition's waterfall.
	if command -v pdftotext >/dev/null; then
		browse pdf "$h" "$tmp/c.pdf" && pdftotext -f 1 -l 1 -layout "$tmp/c.pdf" "$tmp/p1.txt"
		ok $? "chromium prints the page to PDF, pdftotext reads its first page"
		"$TICKSCOPE" compare "$A" "$B" 2>/dev/null | head -3 >"$tmp/head.txt"
		bad=""
		for l in 1 3; do
			# the line's words, as pdftotext may wrap them
			w=$(sed -n "${l}p" "$tmp/head.txt" | cut -c1-60 | tr -s ' ')
			tr -s ' \n' '  ' <"$tmp/p1.txt" | grep -qF "$w" || bad="$bad line$l"
		done
		is "$bad" "" "page 1 has the headline's benchmark line and its first mechanism"
		grep -q 'What the change is made of' "$tmp/p1.txt"
		ok $? "page 1 has the decomposition's waterfall"
	else
		skip "pdftotext not installed (tests/packages: poppler-utils)"
		skip "pdftotext not installed (tests/packages: poppler-utils)"
	fi
	browse screenshot "$h" "$tmp/shot.png"
	s=$(wc -c <"$tmp/shot.png" 2>/dev/null || echo 0)
	ok "$([ "$s" -gt 100000 ] && echo 0 || echo 1)" "the screenshot is not blank ($s bytes)"
else
	diag "SKIP the browser checks: $CHROMIUM not installed (plots/packages: chromium)"
fi

tap_done
