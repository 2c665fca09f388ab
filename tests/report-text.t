#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# What a reader of the text report meets, from tickscope report and from the plugin, on real
# fixtures: no line ends on a bare colon with nothing after it, every section that has events
# shows more than its events line, and a DATA line says what it means for the figures.
. "$(dirname "$0")/lib/tap.sh"
. "$TS_TOP/tests/fixtures/fixtures.sh"

[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
tap_tmpdir
T=$TAP_TMP
PLUGIN=$TS_BUILD/tickscope.so
tap_sanitized_perf

# check NAME FILE: the report's text in FILE read as a user would
check() {
	# a line ending in ":" must be followed by what it announces: not a blank line, not
	# the next section, not the end
	bare=$(awk '
		prev != "" { if ($0 ~ /^$/ || $0 ~ /^== / || $0 ~ /^\(/) print prev; prev = "" }
		/[^ ]:$/ { prev = $0 }
		END { if (prev != "") print prev }' "$2")
	is "$bare" "" "$1: no line ends on a bare colon"
	empty=$(awk '
		function end() {
			if (sec != "" && n < 1 && sec !~ /(not recorded|no events)/)
				print sec
		}
		/^== / { end(); sec = $0; n = -1; next }
		sec != "" && /^  events:/ { n = 0; next }
		sec != "" && /^  / { n++ }
		/^$/ || /^\(/ { end(); sec = "" }
		END { end() }' "$2")
	is "$empty" "" "$1: every section with events shows more than its events line"
	if grep -q '^  DATA: ' "$2"; then
		grep '^  DATA: ' "$2" | grep -v 'missing from the data' | grep -v 'uncertain' >"$T/data"
		is "$(cat "$T/data")" "" "$1: each DATA line says what is missing and what it makes uncertain"
	fi
}

for n in x86-pingpong-cross x86-pingpong-same x86-ramfs-callchain; do
	f=$(fixture_data $n) || { skip "$n" "fixture missing"; continue; }
	"$TICKSCOPE" report "$f" >"$T/$n.txt" 2>"$T/$n.err"
	ok $? "tickscope report $n"
	check "report $n" "$T/$n.txt"
	if command -v perf >/dev/null && [ -f "$PLUGIN" ]; then
		perf script -i "$f" --dlfilter "$PLUGIN" >"$T/$n.plugin" 2>&1
		ok $? "the plugin's report of $n"
		check "plugin $n" "$T/$n.plugin"
		perf script -i "$f" -C 1 --dlfilter "$PLUGIN" >"$T/$n.plugin1" 2>&1
		ok $? "the plugin's report of $n, perf script -C 1"
		check "plugin -C 1 $n" "$T/$n.plugin1"
	else
		skip "plugin $n" "needs perf and the built plugin"
	fi
done
grep -q '^  tick_stop: [0-9]* stopped, [0-9]* refused$' "$T/x86-pingpong-cross.txt"
ok $? "a tick_stop line without refusals ends after its counts"
tap_done
