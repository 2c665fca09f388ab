#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# report's threads change nothing it prints. The tests run with TS_THREADS=1 (tests/lib/tap.sh:
# scanner, kallsyms and decode worker threads), so report's default path, the threads chosen
# by the load, would otherwise be checked only by no-threads.t and round-budget.t. Here the
# text and JSON reports of the report oracle's fixtures (and of the pipe-mode, -z and per-task
# ones), read from the file and, for pipe-mode streams, from stdin, are byte-identical with
# TS_THREADS unset (the default: by the load), spare (the default's threads on a calm machine:
# scanner and kallsyms threads, decode on the merging thread), 0 (one thread) and 1 (every
# thread). The oracle itself (perf sched timehist, fixtures.sh's oracle_timehist_check) is
# then applied to the default's calm-machine path, as report-oracle.t applies it to TS_THREADS=1.
. "$(dirname "$0")/lib/tap.sh"
. "$TS_TOP/tests/fixtures/fixtures.sh"

[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
tap_tmpdir
tmp=$TAP_TMP

# run OUT ENV FILE KALLSYMS FORMAT: report (FORMAT: text or json) of FILE ("-" reads $tmp/in on
# stdin) with TS_THREADS=ENV ("unset": no TS_THREADS), stdout to OUT; its status is returned
run() {
	_o=$1 _e=$2 _f=$3 _k=$4 _j=
	[ "$5" = json ] && _j=--json
	set -- report -i "$_f" $_j
	[ -n "$_k" ] && set -- "$@" --kallsyms "$_k"
	if [ "$_e" = unset ]; then
		env -u TS_THREADS "$TICKSCOPE" "$@"
	else
		TS_THREADS=$_e "$TICKSCOPE" "$@"
	fi <"$tmp/in" >"$_o" 2>"$_o.err"
}

# same NAME FILE KALLSYMS: every thread setting against TS_THREADS=1, text and JSON
same() {
	for _fmt in text json; do
		: >"$tmp/in"
		[ "$2" = - ] && cp "$f" "$tmp/in"
		run "$tmp/ref" 1 "$2" "$3" "$_fmt"
		_rc=$?
		ok "$([ $_rc -eq 0 ] && [ -s "$tmp/ref" ]; echo $?)" \
			"$1: $_fmt report with TS_THREADS=1"
		[ $_rc -eq 0 ] || sed -n '1,3s/^/#   /p' "$tmp/ref.err" >&2
		for _e in unset spare 0; do
			run "$tmp/out" "$_e" "$2" "$3" "$_fmt"
			_rc=$?
			ok "$([ $_rc -eq 0 ] && cmp -s "$tmp/ref" "$tmp/out"; echo $?)" \
				"$1: $_fmt, TS_THREADS $_e: the same ($(wc -l <"$tmp/out") lines)"
			[ $_rc -eq 0 ] || sed -n '1,3s/^/#   /p' "$tmp/out.err" >&2
		done
	done
}

# the report oracle's fixtures (report-oracle.t), then pipe-mode, -z and per-task recordings
for n in x86-ramfs-callchain x86-ramfs-pipe x86-pingpong-cross x86-pingpong-none x86-lost \
	x86-tiny-twice x86-tiny-group x86-tiny-pipe x86-ramfs-zstd x86-pertask-loop; do
	if ! f=$(fixture_data "$n"); then
		ok 1 "$n: fixture decompresses"
		continue
	fi
	k=$(fixture_kallsyms "$n") || k=
	same "$n" "$f" "$k"
	oracle_is_pipe "$f" && same "$n on stdin" - "$k"
done

# An ID_INDEX after the run began (here the pipe stream's own, again at its end): every thread
# setting reports what the stream without it does. (A pipe stream is scanned by the thread that
# delivers; a file's scanning thread waits for the merger before such a record, user_record().)
if f0=$(fixture_data x86-tiny-pipe) && idx=$(perl "$TS_FIXTURES/perfdata.pl" layout "$f0" |
	awk '$1 == "rec" && $3 == 69 { print $2, $4; exit }') && [ -n "$idx" ]; then
	f=$tmp/late-index.data
	{ cat "$f0" && dd if="$f0" bs=1 skip="${idx% *}" count="${idx#* }" 2>/dev/null; } >"$f"
	run "$tmp/want" 1 "$f0" "" text && run "$tmp/got" 1 "$f" "" text &&
		[ "$(sed 1d "$tmp/want" | cksum)" = "$(sed 1d "$tmp/got" | cksum)" ] &&
		[ "$(wc -c <"$f")" -gt "$(wc -c <"$f0")" ]
	ok $? "a late ID_INDEX: the report of the stream without it"
	same "late ID_INDEX" "$f" ""
	same "late ID_INDEX on stdin" - ""
else
	ok 1 "x86-tiny-pipe decompresses and has an ID_INDEX record"
fi

# The same in a file, where a thread of its own scans while the merger delivers: x86-lost's
# ID_INDEX again after the second round marker past each group of LOST records (by then the
# scanner has handed those records to the merger, which looks their ids up in id_cpu as the
# scanner reaches the copy). The scanner must wait for the merger before it adds the copy's
# entries (user_record()); a ThreadSanitizer build of tickscope reports the race otherwise
# (its exit status 66 fails the checks below): make BUILD=build-tsan LTO= LDFLAGS=-fsanitize=thread
# CFLAGS='-O1 -g -fsanitize=thread' build-tsan/tickscope, then TS_BUILD=$PWD/build-tsan prove
# --exec '' tests/report-threads.t (the Makefile has no target of its own for it).
if f0=$(fixture_data x86-lost) &&
	perl "$TS_FIXTURES/perfdata.pl" layout "$f0" >"$tmp/lost.layout" &&
	idx=$(awk '$1 == "rec" && $3 == 69 { print $2; exit }' "$tmp/lost.layout") &&
	at=$(awk '$1 == "rec" { if ($3 == 2) n = 2; else if ($3 == 68 && n && !--n) print $2 + 8 }' \
		"$tmp/lost.layout") && [ -n "$idx" ] && [ "$(echo "$at" | wc -l)" -ge 10 ] &&
	perl "$TS_FIXTURES/perfdata.pl" insert "$f0" "$tmp/late-file.data" "$idx" $at; then
	f=$tmp/late-file.data
	# a report's checksum without the input's path (text: the first line; JSON: input.path)
	pathless() { sed '1s/^tickscope report: .*//; 1s/"path":"[^"]*"//' "$1" | cksum; }
	perl "$TS_FIXTURES/perfdata.pl" layout "$f" >"$tmp/late.layout"
	[ "$(awk '$1 == "rec" && $3 == 69' "$tmp/late.layout" | wc -l)" -eq \
		$(($(echo "$at" | wc -l) + 1)) ] &&
		[ "$(awk '$1 == "rec" && $3 == 2' "$tmp/late.layout" | wc -l)" -eq \
			"$(awk '$1 == "rec" && $3 == 2' "$tmp/lost.layout" | wc -l)" ]
	ok $? "x86-lost with its ID_INDEX again after $(echo "$at" | wc -l) rounds of LOST records"
	for _e in 1 unset spare 0; do
		for _fmt in text json; do
			run "$tmp/want" "$_e" "$f0" "" "$_fmt" && run "$tmp/got" "$_e" "$f" "" "$_fmt" &&
				[ "$(pathless "$tmp/want")" = "$(pathless "$tmp/got")" ]
			_rc=$?
			ok $_rc "late ID_INDEX in a file, TS_THREADS $_e: the $_fmt report without it"
			[ $_rc -eq 0 ] || sed -n '1,3s/^/#   /p' "$tmp/got.err" >&2
		done
	done
else
	ok 1 "x86-lost decompresses, has an ID_INDEX and LOST records, and takes an insert"
fi

# The oracle on the default's calm-machine path (report-oracle.t checks TS_THREADS=1).
if command -v perf >/dev/null && command -v jq >/dev/null; then
	ORACLE_TMP=$tmp
	for n in x86-ramfs-callchain x86-ramfs-pipe x86-pingpong-cross x86-lost; do
		f=$(fixture_data "$n") || continue
		export TS_THREADS=spare
		if [ "$n" = x86-lost ]; then # the tasks no gap of lost events touched
			oracle_timehist_lost_check "$n (TS_THREADS=spare)" "$f"
		else
			oracle_timehist_check "$n (TS_THREADS=spare)" "$f"
		fi
		export TS_THREADS=1
	done
else
	ok 0 "# SKIP the perf sched timehist oracle: needs perf and jq"
fi
tap_done
