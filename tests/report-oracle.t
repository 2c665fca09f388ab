#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The sched oracle: for every task with at least 10 switch-ins, tickscope report agrees with
# perf sched timehist on the same file, within 1 us per event: switch-ins (exact), total run
# time, total and longest sched delay (timehist rule: sched_delay_perf_ns, _longest_ns). A
# task that exited and disagrees is left out (and named) when perf booked slices to its
# placeholder thread
# ":-1[-1]": perf loses track of a thread after its EXIT record; the tracepoint's prev_pid,
# which we use, does not. Lost events: the report's count against perf report's "Total Lost
# Samples" on every file-mode fixture.
. "$(dirname "$0")/lib/tap.sh"
. "$TS_TOP/tests/fixtures/fixtures.sh"

command -v perf >/dev/null || skip_all "perf not installed (Debian package linux-perf)"
command -v jq >/dev/null || skip_all "jq is not installed (make deps installs it)"
[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
tap_tmpdir
tmp=$TAP_TMP
"$TICKSCOPE" report --help >"$tmp/help" 2>&1
ok $? "tickscope report --help runs"

# perf's side: "tid count run_ns delay_ns max_delay_ns" per task, from timehist's per-slice
# lines: the first "[tid]", "[tid/pid]" or ":tid" (a thread perf never named) followed by the
# three figures (wait, sch delay, run time). Found by that match, not by field number, since a
# task name may hold blanks or tabs, or a newline (prctl(PR_SET_NAME) takes any bytes: then
# the line's second part holds them). <idle> and "lost" lines have no tid.
perf_tasks() {
	perf sched timehist -i "$1" 2>/dev/null | awk 'NR > 3 {
		re = "(\\[-?[0-9]+(/-?[0-9]+)?\\]|:-?[0-9]+)[ \t]+[0-9.]+[ \t]+[0-9.]+[ \t]+[0-9.]+"
		if (!match($0, re))
			next
		split(substr($0, RSTART, RLENGTH), f, /[ \t]+/)
		n = f[1]
		gsub(/[\[\]:]/, "", n)
		sub(/\/.*/, "", n)
		c[n]++; r[n] += f[4] * 1e6; d[n] += f[3] * 1e6; if (f[3] * 1e6 > m[n]) m[n] = f[3] * 1e6
	} END { for (k in c) printf "%s %d %.0f %.0f %.0f\n", k, c[k], r[k], d[k], m[k] }' | sort
}

# Tasks perf lists as terminated in its summary.
perf_exited() {
	perf sched timehist -s -i "$1" 2>/dev/null |
		awk '/^Terminated tasks:/ { t = 1; next } t && match($0, /\[[0-9]+(\/[0-9]+)?\][ \t]+[0-9]/) {
			n = substr($0, RSTART + 1); sub(/[\]\/].*/, "", n); print n }' |
		sort -u
}

# Ours: the same five columns from the sched_tasks table.
our_tasks() {
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		{ printf "%s %s %s %s %s\n", $col["tid"], $col["switches"], $col["run_sum_ns"],
			$col["sched_delay_perf_ns"], $col["sched_delay_perf_longest_ns"] }' \
		"$1/sched_tasks.tsv" | sort
}

check() { # NAME FILE
	rm -rf "$tmp/tsv"
	if ! "$TICKSCOPE" report -i "$2" --tsv "$tmp/tsv" 2>"$tmp/err"; then
		ok 1 "$1: tickscope report --tsv"
		sed 's/^/# /' "$tmp/err"
		return
	fi
	perf_tasks "$2" >"$tmp/perf"
	if [ ! -s "$tmp/perf" ] && oracle_is_pipe "$2"; then
		skip "$1: timehist agrees" "perf 6.1's sched timehist reads nothing from a pipe-mode file"
		return
	elif [ ! -s "$tmp/perf" ]; then
		ok 1 "$1: perf sched timehist read nothing from a file-mode recording"
		return
	fi
	perf_exited "$2" >"$tmp/exited"
	grep -q '^-1 ' "$tmp/perf" && echo placeholder >>"$tmp/exited"
	our_tasks "$tmp/tsv" >"$tmp/ours"
	join "$tmp/perf" "$tmp/ours" | awk -v exited="$tmp/exited" '
		BEGIN { while ((getline t < exited) > 0) gone[t] = 1; placeholder = gone["placeholder"] }
		$2 < 10 { next }
		{
			tol = 1000 * $2
			dr = $3 - $7; if (dr < 0) dr = -dr
			dd = $4 - $8; if (dd < 0) dd = -dd
			dm = $5 - $9; if (dm < 0) dm = -dm
			if (dm > 1000) dd = tol + 1 # the longest one: within the 1 us perf prints
			if (($2 != $6 || dr > tol || dd > tol) && gone[$1] && placeholder) {
				skipped++
				printf "# tid %s exited; perf has %s switches, we have %s\n", $1, $2, $6
				next
			}
			n++
			if ($2 != $6 || dr > tol || dd > tol) {
				bad++
				printf "# tid %s: perf %s switches, run %s, delay %s max %s; " \
					"ours %s, %s, %s max %s\n", $1, $2, $3, $4, $5, $6, $7, $8, $9
			}
		}
		END { printf "%d %d %d\n", n, bad, skipped }' >"$tmp/res"
	grep '^#' "$tmp/res"
	set -- "$1" $(grep -v '^#' "$tmp/res")
	ok $([ "$2" -gt 0 ] && [ "$3" -eq 0 ] && echo 0 || echo 1) \
		"$1: $2 tasks with >= 10 switch-ins agree with perf sched timehist ($4 exited, left out)"
}

# lost NAME FILE: the report's lost events, in the JSON and the text's LOST line, against perf
# report's "Total Lost Samples"; the text's split by record type against perf report -D's sums
# of PERF_RECORD_LOST and PERF_RECORD_LOST_SAMPLES ("total LOST LOST_SAMPLES").
lost() {
	_p=$(perf report -i "$2" --stdio --sort comm 2>/dev/null |
		sed -n 's/^# Total Lost Samples: *\([0-9][0-9]*\).*/\1/p')
	"$TICKSCOPE" report --json -i "$2" >"$tmp/lost.json" 2>/dev/null
	_t=$(jq '.trace.lost_events' "$tmp/lost.json" 2>/dev/null)
	_x=$(sed -n 's/^  LOST \([0-9][0-9]*\) events.*/\1/p' "$tmp/text" 2>/dev/null)
	[ -n "$_p" ] && [ "$_t" = "$_p" ] && { [ "$_p" -eq 0 ] || [ "$_x" = "$_p" ]; }
	ok $? "$1: the report's lost events (JSON $_t, text ${_x:-none}) equal perf report's\
 Total Lost Samples (${_p:-none})"
	[ "${_p:-0}" -gt 0 ] || return 0
	_d=$(oracle_perf_lost "$2" | sed -n 's/^total \([0-9]*\) \([0-9]*\)$/\1 \2/p')
	_r='^  LOST [0-9]* events (\([0-9]*\) in [0-9]* LOST records; \([0-9]*\) in .*'
	_y=$(sed -n "s/$_r/\\1 \\2/p" "$tmp/text")
	is "$_y" "$_d" "$1: the text's lost events in LOST and LOST_SAMPLES records are perf report -D's"
}

for n in x86-ramfs-callchain x86-ramfs-pipe x86-pingpong-cross x86-pingpong-none x86-lost; do
	if ! f=$(fixture_data "$n"); then
		ok 1 "$n: fixture decompresses"
		continue
	fi
	check "$n" "$f"
	oracle_is_pipe "$f" && continue # perf report cannot read pipe-mode files (perf 6.1)
	"$TICKSCOPE" report -i "$f" >"$tmp/text" 2>/dev/null
	lost "$n" "$f"
done
for n in a64-6.1-generic-stress-ramfs.data a64-6.1-generic-perf-bench-pipe.data; do
	if f=$(shared_fixture "$n"); then
		check "$n" "$f"
	else
		ok 1 "$n: fixture present in tests/fixtures/aarch64"
	fi
done
tap_done
