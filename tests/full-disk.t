#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A full disk: every command whose output cannot be written says so in one line with the
# system's reason ("No space left on device") and exits non-zero. `info >/dev/full` and
# `--help >/dev/full` exited 0 with their output lost; report, dump and plot said
# "Input/output error" (stdio's error flag, read as EIO), which names a broken disk instead.
# /dev/full (every write fails with ENOSPC) stands in for stdout; a 64 KiB tmpfs filled to the
# last block for the output folders (as root; SKIP otherwise). A closed stdout is named too.
. "$(dirname "$0")/lib/tap.sh"
. "$TS_TOP/tests/fixtures/fixtures.sh"

[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
tiny=$(fixture_data x86-tiny) || { echo "Bail out! fixture x86-tiny missing"; exit 1; }
tap_tmpdir
T=$TAP_TMP
mkdir -p "$T/a" "$T/b"
echo 'AF_UNIX sock stream latency: 5 microseconds' >"$T/a/workload.out"
echo 'AF_UNIX sock stream latency: 6 microseconds' >"$T/b/workload.out"

# full LABEL PATTERN ARGS...: tickscope ARGS with stdout on /dev/full exits 1 with one stderr
# line matching PATTERN
full() {
	_l=$1 _p=$2
	shift 2
	"$TICKSCOPE" "$@" >/dev/full 2>"$T/err"
	_rc=$?
	is "$_rc $(wc -l <"$T/err") $(grep -cE -e "$_p" "$T/err")" "1 1 1" \
		"$_l >/dev/full: exit 1, one line ($(head -1 "$T/err"))"
}

if [ -c /dev/full ]; then
	nospc='No space left on device$'
	full "info" "^tickscope: writing the output: $nospc" info "$tiny"
	full "dump" "^tickscope: writing the output: $nospc" dump "$tiny"
	full "report" "^tickscope: writing the report: $nospc" report "$tiny"
	full "report --json" "^tickscope: writing the report: $nospc" report "$tiny" --json
	full "--help" "^tickscope: writing the output: $nospc" --help
	full "--version" "^tickscope: writing the output: $nospc" --version
	full "report --help" "^tickscope: writing the output: $nospc" report --help
	full "compare" "^tickscope: writing the comparison: $nospc" compare "$T/a/workload.out" \
		-- "$T/b/workload.out" --no-cache
else
	skip "stdout on a full disk" "no /dev/full"
fi

# A closed stdout (`>&-`): it said "Input/output error" (report) or "Bad file descriptor"
# (dump). Now one line naming it, exit 1; a command that prints nothing on stdout still works,
# and no file it opens takes the closed stdout's number.
closed() {
	_l=$1
	shift
	"$TICKSCOPE" "$@" >&- 2>"$T/err"
	_rc=$?
	is "$_rc $(wc -l <"$T/err") $(grep -c ": stdout is closed (>&-): send it to a file or /dev/null$" \
		"$T/err")" "1 1 1" "$_l >&-: exit 1, one line ($(head -1 "$T/err"))"
}
closed "info" info "$tiny"
closed "dump" dump "$tiny"
closed "report" report "$tiny"
closed "report --json" report "$tiny" --json
closed "--version" --version
closed "compare" compare "$T/a/workload.out" -- "$T/b/workload.out" --no-cache
"$TICKSCOPE" report "$tiny" --tsv "$T/closed-tsv" >&- 2>"$T/err"
is "$? $(wc -c <"$T/err")" "0 0" "report --tsv DIR >&-: nothing for stdout, exit 0"
"$TICKSCOPE" report "$tiny" --tsv "$T/closed-tsv2" >/dev/null 2>&1
diff -r "$T/closed-tsv" "$T/closed-tsv2" >/dev/null
ok $? "... and the same files as with an open stdout"
# plot -o DIR and summary: the files are the product; their "N charts in DIR" / "N metrics"
# note is left out (plot wrote its charts, then exited 1 on the note)
if command -v gnuplot >/dev/null 2>&1; then
	"$TICKSCOPE" plot "$tiny" -o "$T/closed-plot" >&- 2>"$T/err"
	is "$? $(wc -c <"$T/err")" "0 0" "plot -o DIR >&-: the note left out, exit 0"
	"$TICKSCOPE" plot "$tiny" -o "$T/closed-plot2" >/dev/null 2>&1
	diff -r "$T/closed-plot" "$T/closed-plot2" >/dev/null
	ok $? "... and the same files as with an open stdout"
else
	skip "plot -o DIR >&-" "no gnuplot"
fi
mkdir -p "$T/closed-run"
ln -s "$tiny" "$T/closed-run/perf.data"
echo 'AF_UNIX sock stream latency: 5 microseconds' >"$T/closed-run/workload.out"
"$TICKSCOPE" summary "$T/closed-run" >&- 2>"$T/err"
is "$? $(wc -c <"$T/err")" "0 0" "summary RUN >&-: the note left out, exit 0"
[ -s "$T/closed-run/perf.data.tsum" ]
ok $? "... and the summary is written"
closed "summary --check" summary --check "$T/closed-run"

# a filled tmpfs: report --tsv, plot -o, plot --html, summary
if [ "$(id -u)" != 0 ] || ! mkdir -p "$T/full" || ! mount -t tmpfs -o size=64k tmpfs "$T/full" \
	2>/dev/null; then
	skip "output folders on a full disk" "mounting a tmpfs needs root"
	tap_done
	exit
fi
trap 'umount "$T/full" 2>/dev/null; rm -rf "$T"' EXIT
mkdir -p "$T/full/run"
ln -s "$tiny" "$T/full/run/perf.data"
printf '<!DOCTYPE html>\n<p>the earlier page</p>\n' >"$T/full/old.html"
cp "$T/full/old.html" "$T/old.html"
echo 'AF_UNIX sock stream latency: 5 microseconds' >"$T/full/run/workload.out"
dd if=/dev/zero of="$T/full/fill" bs=4k count=64 2>/dev/null
# the tmpfs takes no new block, but a file of 0 bytes yes: what fails is the data
"$TICKSCOPE" report "$tiny" --tsv "$T/full/tsv" >/dev/null 2>"$T/err"
is "$? $(wc -l <"$T/err") $(grep -c "writing the report to $T/full/tsv: No space left on device$" \
	"$T/err")" "1 1 1" "report --tsv FULL: exit 1, one line with the system's reason"
"$TICKSCOPE" plot "$tiny" -o "$T/full/plots" >/dev/null 2>"$T/err"
rc=$?
if command -v gnuplot >/dev/null; then
	is "$rc $(wc -l <"$T/err") $(grep -c "No space left on device$" "$T/err")" "1 1 1" \
		"plot -o FULL: exit 1, one line with the system's reason ($(head -1 "$T/err" |
			sed "s|$T/||g"))"
	"$TICKSCOPE" plot "$tiny" -o "$T/plots" --html "$T/full/p.html" >/dev/null 2>"$T/err"
	is "$? $(wc -l <"$T/err") $(grep -c "writing $T/full/p.html: No space left on device$" \
		"$T/err")" "1 1 1" "plot --html FULL/p.html: exit 1, one line with the system's reason"
	# the earlier page was truncated first, then left half written
	"$TICKSCOPE" plot "$tiny" -o "$T/plots" --html "$T/full/old.html" >/dev/null 2>"$T/err"
	is "$? $(wc -l <"$T/err") $(grep -c "writing $T/full/old.html: No space left on device$" \
		"$T/err") $(cmp -s "$T/old.html" "$T/full/old.html" && echo kept) $(ls -A "$T/full" |
		grep -c '^old\.html\.')" "1 1 1 kept 0" \
		"plot --html over an earlier page on a full disk: one line, the page left whole, no half one"
else
	skip "plot on a full disk" "no gnuplot"
	skip "plot --html on a full disk" "no gnuplot"
	skip "plot --html over an earlier page on a full disk" "no gnuplot"
fi
"$TICKSCOPE" summary "$T/full/run" >/dev/null 2>"$T/err"
is "$? $(grep -c "No space left on device" "$T/err")" "1 1" \
	"summary of a run on a full disk: exit 1 with the system's reason ($(head -1 "$T/err" |
		sed "s|$T/||g"))"
is "$(find "$T/full/run" -name 'perf.data.tsum*' | wc -l)" 0 "... and no half summary left"
tap_done
