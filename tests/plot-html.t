#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The HTML report in a real browser: headless Chromium (Debian) renders tickscope's one-file
# report to a screenshot that is not blank, and its DOM holds every chart (inline SVG) and
# table; a chart whose events were not recorded says which to record. Nothing in the file
# refers to a network address or to another file.
. "$(dirname "$0")/lib/tap.sh"
. "$TS_TOP/tests/fixtures/fixtures.sh"
. "$TS_TOP/tests/lib/plots.sh"

[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
command -v gnuplot >/dev/null || skip_all "gnuplot not installed (plots/packages: gnuplot-nox)"
CHROMIUM=${CHROMIUM:-chromium}
command -v "$CHROMIUM" >/dev/null ||
	skip_all "no headless browser: $CHROMIUM not installed (plots/packages: chromium)"
tap_tmpdir
tmp=$TAP_TMP

n=x86-ramfs-callchain
f=$(fixture_data $n) || { echo "Bail out! fixture $n"; exit 1; }
k=$(fixture_kallsyms $n)
"$TICKSCOPE" plot "$f" --kallsyms "$k" -o "$tmp/p" --html "$tmp/report.html" >/dev/null \
	2>"$tmp/err"
ok $? "$n: tickscope plot --html exits 0"
is "$(cat "$tmp/err")" "" "$n: no warning"
h=$tmp/report.html

# Self-contained: no reference to anything outside the file.
is "$(self_contained "$h")" "" "no network address, no script, no outside file, no outside link"
ids=$(grep -Eo " id=[\"'][^\"']*[\"']" "$h" | sort | uniq -d | head -3)
is "$ids" "" "no id is used twice (the charts' SVG ids are made unique)"

# A real browser renders it, and it is not blank: against an empty page's screenshot.
printf '<!DOCTYPE html><html><body></body></html>\n' >"$tmp/blank.html"
t0=$(date +%s)
browse screenshot "$h" "$tmp/shot.png"
ok $? "chromium renders the page to a screenshot ($(($(date +%s) - t0)) s)"
browse screenshot "$tmp/blank.html" "$tmp/blank.png"
s=$(wc -c <"$tmp/shot.png" 2>/dev/null || echo 0)
b=$(wc -c <"$tmp/blank.png" 2>/dev/null || echo 0)
ok "$([ "$s" -gt $((b * 10)) ] && [ "$b" -gt 0 ] && echo 0 || echo 1)" \
	"the screenshot is not blank ($s bytes against $b for an empty page)"

# It prints: Chromium's PDF of it has several pages (the print CSS keeps figures whole).
timeout "$TS_HANG_GUARD" "$CHROMIUM" --headless --no-sandbox --disable-gpu \
	--user-data-dir="$tmp/profile" --print-to-pdf="$tmp/report.pdf" "file://$h" >/dev/null 2>&1
[ $? -ne 124 ] || echo "#   chromium did not exit in $TS_HANG_GUARD s, the hang guard: a hang" >&2
pages=$(grep -ao '/Count [0-9]*' "$tmp/report.pdf" 2>/dev/null |
	awk '{ if ($2 > n) n = $2 } END { print n + 0 }')
ok "$([ "$pages" -ge 3 ] && echo 0 || echo 1)" "it prints to PDF ($pages pages)"

# Its DOM, as the browser built it: every chart and table.
browse dump-dom "$h" "$tmp/dom.html"
ok $? "chromium dumps the DOM"
bad=""
drawn=0
while IFS="$(printf '\t')" read -r name _ status _ missing; do
	grep -q "id=\"chart-$name\"" "$tmp/dom.html" || bad="$bad $name"
	if [ "$status" = drawn ]; then
		drawn=$((drawn + 1))
	else
		grep -qF "Not drawn: $missing." "$tmp/dom.html" || bad="$bad $name(reason)"
	fi
done <<EOF
$(tail -n +2 "$tmp/p/charts.tsv")
EOF
is "$bad" "" "the DOM has a figure for every chart in charts.tsv, missing ones with the reason"
is "$(grep -o '<svg' "$tmp/dom.html" | wc -l | tr -d ' ')" "$drawn" \
	"one inline SVG per drawn chart ($drawn)"
is "$(grep -o '<g id="c[0-9]*-gnuplot_canvas"' "$tmp/dom.html" | wc -l | tr -d ' ')" "$drawn" \
	"each SVG is gnuplot's, whole"
grep -q '<table class="kv">' "$tmp/dom.html" && grep -q '<th>kernel</th>' "$tmp/dom.html"
ok $? "the recording conditions table"
grep -q '^== sched ==' "$tmp/dom.html"
ok $? "the text report"
grep -q 'synchronize_rcu_expedited' "$tmp/dom.html"
ok $? "the off-CPU chart names the grace-period wait"

tap_done
