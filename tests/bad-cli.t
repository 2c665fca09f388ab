#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Command-line mistakes: each gets exactly one line on stderr saying what is wrong, nothing on
# stdout, and exit 2 (usage) or 1 (the input cannot be read).
. "$(dirname "$0")/lib/tap.sh"
. "$TS_TOP/tests/fixtures/fixtures.sh"

[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
tiny=$(fixture_data x86-tiny) || { echo "Bail out! fixture x86-tiny missing"; exit 1; }
# a recording of whole CPUs: x86-tiny follows one command, whose wake and delay charts are
# not measured (not drawn); these cases need charts that gnuplot draws
drawn=$(fixture_data x86-tiny-twice) || { echo "Bail out! fixture x86-tiny-twice missing"; exit 1; }
tap_tmpdir
T=$TAP_TMP

# mistake LABEL RC PATTERN ARGS...: tickscope ARGS exits RC, prints nothing on stdout and one
# stderr line matching PATTERN (grep -E)
mistake() {
	_l=$1 _rc=$2 _p=$3
	shift 3
	"$TICKSCOPE" "$@" >"$T/out" 2>"$T/err"
	_got=$?
	if [ $_got -eq "$_rc" ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
		grep -qE -e "$_p" "$T/err"; then
		ok 0 "$_l"
	else
		ok 1 "$_l"
		diag "exit $_got (want $_rc), $(wc -l <"$T/out") stdout lines, stderr: $(head -3 "$T/err")"
	fi
}

for cmd in info dump report; do
	mistake "$cmd a b: one line about the two inputs" 2 \
		"^tickscope: $cmd: one input file expected, got 2 \('a', 'b'\)$" $cmd a b
	mistake "$cmd -i F F: one line about the two inputs" 2 \
		"^tickscope: $cmd: one input file: -i .* and '.*' were both given$" \
		$cmd -i "$tiny" "$tiny"
	mistake "$cmd --bogus: one line naming the option" 2 \
		"^tickscope: $cmd: unknown option '--bogus' \(tickscope $cmd --help lists them\)$" \
		$cmd --bogus "$tiny"
	mistake "$cmd -x: one line naming the option" 2 "unknown option '-x'" $cmd -x "$tiny"
	mistake "$cmd --kallsyms (no value): one line" 2 "option '--kallsyms' needs a value" \
		$cmd "$tiny" --kallsyms
	mistake "$cmd on a missing file: the file and the system's reason, no offset" 1 \
		"^tickscope: $T/nosuch.data: No such file or directory$" $cmd "$T/nosuch.data"
done
# every command: an unknown option is one line naming it (compare printed its whole help, record
# getopt's own words and then its help)
for cmd in compare summary plot record; do
	mistake "$cmd --bogus: one line naming the option" 2 \
		"^tickscope: $cmd: unknown option '--bogus' \(tickscope $cmd --help lists them\)$" \
		$cmd --bogus "$T" "$T"
	mistake "$cmd -x: one line naming the option" 2 \
		"^tickscope: $cmd: unknown option '-x' \(tickscope $cmd --help lists them\)$" \
		$cmd -x "$T" "$T"
done
# no gnuplot: one line, not one per chart (compare --plots said it 11 times on a fresh machine)
TS_GNUPLOT=$T/no-gnuplot
export TS_GNUPLOT
mistake "plot without gnuplot: one line saying what to install" 1 \
	"^tickscope: cannot run $T/no-gnuplot: install gnuplot \(Debian: gnuplot-nox\)$" \
	plot "$drawn" -o "$T/charts-nognuplot"
unset TS_GNUPLOT
mistake "compare --kallsyms (no value): one line naming the option" 2 \
	"^tickscope: compare: option '--kallsyms' needs a value \(tickscope compare --help\)$" \
	compare "$T" "$T" --kallsyms
mistake "record -e (no value): one line" 2 "^tickscope: record: option '-e' needs a value" \
	record -e
mistake "report --json --tsv DIR: one line, not the last one winning" 2 \
	"^tickscope: report: --json and --tsv DIR cannot be combined" \
	report "$tiny" --json --tsv "$T/tsv"
mistake "report --tsv DIR --json: the same" 2 "--json and --tsv DIR cannot be combined" \
	report "$tiny" --tsv "$T/tsv" --json
ncpu=$("$TICKSCOPE" info -i "$tiny" | sed -n 's/^cpus: .*, \([0-9]*\) available$/\1/p')
mistake "report --cpu 99 on a $ncpu-CPU file: one line, not an empty report" 2 \
	"^tickscope: report: --cpu 99: the recording machine has CPUs 0-$((ncpu - 1)) only$" \
	report "$tiny" --cpu 99
"$TICKSCOPE" report "$tiny" --cpu 1,99 >"$T/out" 2>"$T/err"
is "$? $(wc -l <"$T/err") $(grep -c 'warning: --cpu 1,99: 1 of these CPUs are not' "$T/err")" \
	"0 1 1" "report --cpu 1,99: the report, and one warning about cpu 99"
mistake "report --top x: one line" 2 "^tickscope: --top: bad number 'x'$" report "$tiny" --top x
mistake "report --cpu 2-1: one line" 2 "^tickscope: --cpu: bad list '2-1'$" \
	report "$tiny" --cpu 2-1
# an empty --pid or --comm ("$PID" unset) filtered nothing: every task's figures, exit 0
mistake "report --pid '': one line, not every task's report" 2 "^tickscope: --pid: bad list ''$" \
	report "$tiny" --pid ''
for cmd in report "plot -o $T/empty-comm" compare summary; do
	mistake "${cmd%% *} --comm '': one line, not every task's figures" 2 \
		"^tickscope: --comm: an empty name " $cmd --comm '' "$tiny"
done
mistake "dump --format xml: one line" 2 "--format: 'xml' is not text, tsv, json or none" \
	dump "$tiny" --format xml
# issue 30: compare's mistakes are exit 2 too, and --top takes a count, not anything strtoul eats
mistake "compare A: one line about the second variant" 2 "give at least two variants" \
	compare "$T"
# one folder of variants (make experiment's, a fixture's A/B): the line names them and says how
ab=$TS_TOP/tests/fixtures/boards/x86-host/ab
mistake "compare EXPERIMENT: one line naming its variants and how to give them" 2 \
	"^tickscope: give at least two variants \(see --help\): $ab/ holds the variants \
pingpong-cross, pingpong-delay, pingpong-same; give two or more of them, the baseline first: \
tickscope compare $ab/<baseline> $ab/<variant>\.\.\.$" compare "$ab/"
mistake "compare VARIANT: the variant's own runs are no variants" 2 \
	"^tickscope: give at least two variants \(see --help\)$" compare "$ab/pingpong-same"
# a '--' with no run on one side (compare -- A -- B, compare A --, compare --) crashed: a NULL
# dereference of the empty list's first run
for args in "-- $tiny -- $tiny" "$tiny -- -- $tiny" "--"; do
	mistake "compare $(echo "$args" | sed "s|$tiny|F|g"): one line, '--' with no run before it" \
		2 "^tickscope: compare: '--' with no run before it: '--' goes between two variants' runs" \
		compare $args
done
mistake "compare F --: one line, '--' with no run after it" 2 \
	"^tickscope: compare: '--' with no run after it: '--' goes between" compare "$tiny" --
for top in -3 99999999999999999999 0 3x; do
	mistake "report --top $top: one line" 2 "^tickscope: --top: bad number '$top'$" \
		report "$tiny" --top "$top"
	mistake "compare --top $top: one line" 2 "^tickscope: --top: bad number '$top'$" \
		compare --top "$top" "$T" "$T"
done
# --cv-max nan passed (nan > 0 is false, but so is nan <= 0) and marked no variant noisy; inf too
for cv in nan inf 1e400 -1 0 ''; do
	mistake "compare --cv-max '$cv': one line" 2 "^tickscope: --cv-max: bad '$cv'$" \
		compare --cv-max "$cv" "$T" "$T"
done
printf '# pingpong: iterations=10 warmup=1\nAF_UNIX sock stream latency: -5 microseconds\n' \
	>"$T/neg.out"
mistake "compare: a latency below zero is an error naming the line" 1 "neg.out:2: " \
	compare "$T/neg.out" -- "$T/neg.out"
mkdir -p "$T/threads.data"
: >"$T/threads.data/data"
: >"$T/threads.data/data.0"
for cmd in info dump report; do
	mistake "$cmd -i DIR (perf record --threads' folder): one line saying what it is" 1 \
		"^tickscope: $T/threads.data: a folder \(perf record --threads or --kcore writes" \
		$cmd -i "$T/threads.data"
done
mkdir "$T/ksdir"
mistake "report --kallsyms DIR: the system's reason, not an I/O error" 1 \
	"^tickscope: $T/ksdir: Is a directory$" report "$tiny" --kallsyms "$T/ksdir"
: >"$T/empty.kallsyms"
for cmd in report dump; do
	mistake "$cmd --kallsyms EMPTY: says it holds no symbol, not 'line 0'" 1 \
		"^tickscope: $T/empty.kallsyms: no symbol in it \(an empty kallsyms\?\)$" \
		$cmd "$tiny" --kallsyms "$T/empty.kallsyms"
done
# no FILE and no perf.data where the user stands: one line saying both, not only ENOENT
mkdir "$T/nodata"
for cmd in info dump report plot; do
	(cd "$T/nodata" && "$TICKSCOPE" $cmd >"$T/out" 2>"$T/err")
	rc=$?
	want="tickscope: $cmd: no FILE given, and no perf.data in this folder (tickscope $cmd [-i] FILE)"
	[ $rc -eq 1 ] && [ ! -s "$T/out" ] && [ "$(cat "$T/err")" = "$want" ]
	ok $? "$cmd without FILE in a folder without perf.data: one line saying so"
done
is "$(ls -A "$T/nodata")" "" "plot made no folder for its charts there"
# the bundled recordings are .xz: a compressed perf.data or kallsyms says what it is and how to
# unpack it, where it said only "bad magic" or "not a kallsyms line"
xz -c "$tiny" >"$T/tiny.data.xz" && gzip -c "$tiny" >"$T/tiny.data.gz" &&
	printf 'ffffffff81000000 T _text\n' | xz -c >"$T/ks.xz"
ok $? "a compressed perf.data and kallsyms"
xzhint='an xz file: unpack it first \(xz -dk\)$'
for cmd in info dump report; do
	mistake "$cmd FILE.xz: one line saying it is an xz file and how to unpack it" 1 \
		"^tickscope: $T/tiny.data.xz: offset 0: not a perf.data file .bad magic.: $xzhint" \
		$cmd "$T/tiny.data.xz"
done
mistake "report FILE.gz: one line saying it is a gzip file" 1 \
	"^tickscope: $T/tiny.data.gz: offset 0: .*: a gzip file: unpack it first \(gzip -dk\)$" \
	report "$T/tiny.data.gz"
mistake "report --kallsyms K.xz: one line saying it is an xz file" 1 \
	"^tickscope: $T/ks.xz: line 1: not a kallsyms line: $xzhint" \
	report "$tiny" --kallsyms "$T/ks.xz"
# summary's file could not replace what is in its place: "Input/output error" for every cause
mkdir -p "$T/srun/perf.data.tsum"
cp "$tiny" "$T/srun/perf.data"
printf '# pingpong: iterations=10 warmup=1\nAF_UNIX sock stream latency: 5 microseconds\n' \
	>"$T/srun/workload.out"
mistake "summary RUN, its perf.data.tsum a folder: one line, before the trace is read" 1 \
	"^tickscope: $T/srun/perf.data.tsum: a directory, not a regular file: summary writes its summary there$" \
	summary "$T/srun"
# one that is not tickscope's (nor .tplot with --charts) is the user's file: refused, kept
rmdir "$T/srun/perf.data.tsum"
echo 'my notes on this run' >"$T/srun/perf.data.tsum"
mistake "summary RUN, its perf.data.tsum the user's file: refused in one line" 1 \
	"^tickscope: $T/srun/perf.data.tsum: not tickscope's summary .*replaces only its own" \
	summary "$T/srun"
grep -qx 'my notes on this run' "$T/srun/perf.data.tsum"
ok $? "summary RUN: the user's perf.data.tsum is as it was"
rm "$T/srun/perf.data.tsum"
echo 'my chart notes' >"$T/srun/perf.data.tplot"
mistake "summary --charts RUN, its perf.data.tplot the user's file: refused in one line" 1 \
	"^tickscope: $T/srun/perf.data.tplot: not tickscope's chart data .*replaces only its own" \
	summary --charts "$T/srun"
[ ! -e "$T/srun/perf.data.tsum" ] && grep -qx 'my chart notes' "$T/srun/perf.data.tplot"
ok $? "summary --charts RUN: nothing written, the user's perf.data.tplot as it was"
mistake "an unknown command: one line" 2 "^tickscope: unknown command 'reprot'" reprot "$tiny"
# record's ring size: a power of two pages (libperf maps no other), checked before anything
for m in 3 12K 0; do
	mistake "record -m $m: one line, a power of two pages" 2 \
		"^tickscope: -m $m: .*must be a power of two pages$" \
		record -m $m -e sched:sched_switch -o "$T/m.data" -- true
done
# record -C went to libperf unchecked: "0,,1" recorded CPUs 0-1, "" failed to open as "Invalid
# argument"; -r 4294967297 was priority 1 (cut to an int before its check)
for c in '' 0,,1 9999 1-0 x; do
	mistake "record -C '$c': one line, exit 2" 2 "^tickscope: -C $c: not a CPU list" \
		record -C "$c" -e sched:sched_switch -o "$T/c.data"
done
mistake "record -r 4294967297: one line, exit 2" 2 \
	"^tickscope: -r 4294967297: a SCHED_FIFO priority" \
	record -r 4294967297 -e sched:sched_switch -o "$T/c.data" -- true
[ ! -e "$T/c.data" ]
ok $? "record: no perf.data written for a bad -C or -r"
# issue 30: record's --interval is checked with its other options; the report's own check came
# after the report had started and ended it, and record died writing to it (SIGPIPE, exit 141)
for iv in -1 0 x; do
	mistake "record --report --interval $iv: one line, exit 2, not a signal" 2 \
		"^tickscope: --interval: N seconds >= 0.001, got '$iv'$" \
		record --report --interval "$iv" -e sched:sched_switch -- true
done
# --time with NaN passed (nan was (uint64_t)NaN ns: plot timeline drew, report --time 1,nan
# exited 0), and an empty window made plot timeline say "no error"; an END of 0 was "no END":
# --time 1,0 reported everything from 1 s on
mistake "plot timeline --time 0.1,0.1: one line, exit 1" 1 \
	"^tickscope: plot timeline: --time START,END is an empty window: give END after START$" \
	plot timeline "$tiny" --time 0.1,0.1 -o "$T/tl"
for t in nan 1,nan 1,0 ,0; do
	mistake "plot timeline --time $t: one line, exit 2" 2 \
		"^tickscope: --time: expected START,END in seconds, got '$t'$" \
		plot timeline "$tiny" --time "$t" -o "$T/tl"
	mistake "report --time $t: one line, exit 2" 2 \
		"^tickscope: --time: expected START,END in seconds, got '$t'$" \
		report "$tiny" --time "$t"
done
[ ! -e "$T/tl" ]
ok $? "plot timeline: no chart folder for a bad --time"
# issue 30: -o names a regular file to replace, in a folder that takes new files; a FIFO (or a
# device) was replaced by a regular file, /proc/version was "No such file or directory"
mkfifo "$T/fifo"
mistake "record -o FIFO: one line saying it is not a regular file" 1 \
	"^tickscope: $T/fifo: a FIFO, not a regular file: -o names the perf.data" \
	record -o "$T/fifo" -e sched:sched_switch -- true
[ -p "$T/fifo" ]
ok $? "record -o FIFO: the FIFO is still there, not replaced by a file"
# a regular file that is not a perf.data (a run's meta.txt, the script being recorded, a
# perf.data.xz) was replaced by the recording; an empty file or a perf.data still is
printf 'format=tickscope-run-1\n' >"$T/meta.txt"
mistake "record -o meta.txt: one line, the file is not a perf.data" 1 \
	"^tickscope: $T/meta.txt: not a perf.data \(it does not start with PERFILE2\): -o replaces only a perf.data, not this file$" \
	record -o "$T/meta.txt" -e sched:sched_switch -- true
is "$(cat "$T/meta.txt")" format=tickscope-run-1 "record -o meta.txt: the file is as it was"
cp "$tiny" "$T/old.data"
: >"$T/empty.data"
for f in old.data empty.data; do
	"$TICKSCOPE" record -o "$T/$f" -e sched:sched_switch -- true >/dev/null 2>"$T/err"
	! grep -q "not a perf.data" "$T/err"
	ok $? "record -o $f: not refused as a file to keep"
done
mistake "record -o /proc/version: one line saying why no file can be written there" 1 \
	"^tickscope: /proc/version: (not writable: |cannot create a file in /proc: that folder takes no)" \
	record -o /proc/version -e sched:sched_switch -- true
mistake "record -o NODIR/F: the folder and the system's reason" 1 \
	"^tickscope: $T/nodir/x.data: cannot create a file in $T/nodir: No such file or directory$" \
	record -o "$T/nodir/x.data" -e sched:sched_switch -- true

# --html FILE is written whole in place: a file that is not a page of ours (the trace itself, a
# run's meta.txt) was overwritten, and a FILE that could not be written was found only after the
# charts were drawn into -o DIR. Now it is checked first, and nothing is written.
cp "$tiny" "$T/in.data"
sum=$(cksum <"$T/in.data")
mistake "plot F --html F: one line, the trace is not replaced by the page" 1 \
	"^tickscope: $T/in.data: not an HTML page \(it does not start with <!DOCTYPE html>\): --html" \
	plot "$T/in.data" -o "$T/charts" --html "$T/in.data"
[ "$(cksum <"$T/in.data")" = "$sum" ] && [ ! -e "$T/charts" ]
ok $? "plot F --html F: the trace as it was, no chart folder made"
mkdir -p "$T/cmp/a/run-1" "$T/cmp/b/run-1"
printf '# pingpong: iterations=10 warmup=1\nAF_UNIX sock stream latency: 5 microseconds\n' \
	>"$T/cmp/a/run-1/workload.out"
cp "$T/cmp/a/run-1/workload.out" "$T/cmp/b/run-1/workload.out"
mistake "compare --html INPUT: one line, the run's output is not replaced" 1 \
	"^tickscope: $T/cmp/a/run-1/workload.out: not an HTML page" \
	compare "$T/cmp/a/run-1/workload.out" -- "$T/cmp/b/run-1/workload.out" --html \
	"$T/cmp/a/run-1/workload.out"
grep -q '^AF_UNIX sock stream latency: 5 microseconds$' "$T/cmp/a/run-1/workload.out"
ok $? "compare --html INPUT: the benchmark output as it was"
mistake "plot --html NODIR/F: one line before any chart is drawn" 1 \
	"^tickscope: $T/nodir/p.html: cannot create a file in $T/nodir: No such file or directory$" \
	plot "$tiny" -o "$T/charts" --html "$T/nodir/p.html"
[ ! -e "$T/charts" ]
ok $? "plot --html NODIR/F: no chart folder made"
# as root access() passes for /proc and /sys, so the page failed only after the charts were
# drawn: the folder is now asked whether it takes a new file before any work
for d in /proc /sys; do
	mistake "plot --html $d/new.html: one line before any chart is drawn" 1 \
		"^tickscope: $d/new.html: cannot create a file in $d: (a kernel pseudo file system|Permission denied)" \
		plot "$tiny" -o "$T/charts" --html "$d/new.html"
	[ ! -e "$T/charts" ] && [ ! -e "$d/new.html" ]
	ok $? "plot --html $d/new.html: no chart folder made, no page"
done
mistake "compare --html /proc/new.html: one line" 1 \
	"^tickscope: /proc/new.html: cannot create a file in /proc: " \
	compare "$T/cmp/a/run-1/workload.out" -- "$T/cmp/b/run-1/workload.out" --html \
	/proc/new.html
mistake "compare --html DIR: one line" 1 \
	"^tickscope: $T/cmp: a directory, not a regular file: --html names the HTML page" \
	compare "$T/cmp/a/run-1/workload.out" -- "$T/cmp/b/run-1/workload.out" --html "$T/cmp"
# a symbolic link in the output folder (out/events.tsv -> a user's file) was written through:
# the user's file outside the folder was replaced by a table. Links are not followed now.
echo precious >"$T/user.txt"
mkdir -p "$T/lnk"
ln -s ../user.txt "$T/lnk/events.tsv"
mistake "report --tsv DIR with a link in it: one line" 1 \
	"^tickscope: writing the report to $T/lnk/events.tsv: an output file is a symbolic link \(not followed\)$" \
	report "$tiny" --tsv "$T/lnk"
is "$(cat "$T/user.txt")" precious "report --tsv: the file the link names is as it was"
# --tsv DIR was checked only once the whole trace was read (compare checks its folders first):
# a file or a folder that cannot be made is said before the input is opened
mistake "report --tsv FILE: one line, before the trace is read" 1 \
	"^tickscope: $T/user.txt: a file, not a folder: --tsv names the folder to write into$" \
	report "$tiny" --tsv "$T/user.txt"
# a link to nothing: taken for the folder (mkdir: EEXIST), "No such file or directory" only
# once the whole trace was read
ln -s "$T/nowhere" "$T/dangling"
for cmd in "report $tiny --tsv" "plot $tiny -o" "compare --plots" "compare --tsv"; do
	case $cmd in compare*) in="$T/cmp/a/run-1/workload.out -- $T/cmp/b/run-1/workload.out" ;;
	*) in= ;;
	esac
	# shellcheck disable=SC2086 # the command's words
	mistake "${cmd%% *} ${cmd##* } a link to nothing: one line, before the input is read" 1 \
		"^tickscope: $T/dangling: a symbolic link to nothing: ${cmd##* } names the folder" \
		$cmd "$T/dangling" $in
done
[ ! -e "$T/nowhere" ]
ok $? "--tsv, -o, --plots a link to nothing: nothing made where it points"
mistake "report --tsv NODIR/DIR: one line naming the missing folder" 1 \
	"^tickscope: $T/nodir/tsv: cannot create it in $T/nodir: No such file or directory$" \
	report "$T/no-such.data" --tsv "$T/nodir/tsv"
if command -v gnuplot >/dev/null; then
	mkdir -p "$T/lnk2"
	ln -s ../user.txt "$T/lnk2/charts.tsv"
	mistake "plot -o DIR with a link in it: one line" 1 \
		"^tickscope: cannot write $T/lnk2/charts.tsv: an output file is a symbolic link" \
		plot "$tiny" -o "$T/lnk2"
	"$TICKSCOPE" plot "$drawn" -o "$T/pl" >/dev/null 2>&1
	png=$(ls "$T/pl" | grep '\.png$' | head -1)
	mkdir -p "$T/lnk3"
	ln -s ../user.txt "$T/lnk3/$png"
	mistake "plot -o DIR with a link where gnuplot writes ($png): one line" 1 \
		"^tickscope: cannot write $T/lnk3/$png: an output file is a symbolic link" \
		plot "$drawn" -o "$T/lnk3"
	is "$(cat "$T/user.txt")" precious "plot -o: the file the links name is as it was"
else
	skip "plot -o DIR with links" "no gnuplot"
fi
# An input in the output folder under an output's name was replaced by that output (the user's
# trace became a table, or gnuplot's image, or remove_stale() removed it); now refused, the
# input as it was. The output names are taken from a run into an empty folder.
mkdir -p "$T/in-out"
"$TICKSCOPE" report "$tiny" --tsv "$T/in-out" >/dev/null 2>&1
tsv=$(ls "$T/in-out" | grep '\.tsv$' | tail -1)
rm -f "$T/in-out"/*
cp "$tiny" "$T/in-out/$tsv"
mistake "report -i DIR/$tsv --tsv DIR: one line, the input not replaced" 1 \
	"^tickscope: writing the report to $T/in-out/$tsv: an output file is this command's input \(not replaced\)$" \
	report "$T/in-out/$tsv" --tsv "$T/in-out"
cmp -s "$tiny" "$T/in-out/$tsv"
ok $? "report --tsv: the input named like an output ($tsv) is as it was"
cp "$tiny" "$T/in-out/k" # a kallsyms named like an output: the same
printf 'ffffffff81000000 T _text\n' >"$T/in-out/$tsv"
mistake "report --kallsyms DIR/$tsv --tsv DIR: one line" 1 \
	"^tickscope: writing the report to $T/in-out/$tsv: an output file is this command's input" \
	report "$T/in-out/k" --kallsyms "$T/in-out/$tsv" --tsv "$T/in-out"
is "$(cat "$T/in-out/$tsv")" "ffffffff81000000 T _text" "report --tsv: the kallsyms is as it was"
if command -v gnuplot >/dev/null; then
	mkdir -p "$T/in-pl"
	cp "$drawn" "$T/in-pl/$png"
	mistake "plot -i DIR/$png -o DIR: one line, before gnuplot writes it" 1 \
		"^tickscope: cannot write $T/in-pl/$png: an output file is this command's input" \
		plot "$T/in-pl/$png" -o "$T/in-pl"
	cmp -s "$drawn" "$T/in-pl/$png"
	ok $? "plot -o: the input named like a chart ($png) is as it was"
	# the chart tables were written before that refusal, and with no charts.tsv the folder
	# was then refused as one of other files: every output is now checked before the first
	is "$(ls "$T/in-pl")" "$png" "plot -o refused: no chart table written beside the input"
	rm -f "$T/in-pl/$png"
	cp "$tiny" "$T/in-pl/bench-box.gp"
	mistake "plot A B -o DIR, B named like a gnuplot script: one line" 1 \
		"^tickscope: cannot write $T/in-pl/bench-box.gp: an output file is this command's input" \
		plot "$drawn" "$T/in-pl/bench-box.gp" -o "$T/in-pl"
	cmp -s "$tiny" "$T/in-pl/bench-box.gp"
	ok $? "plot A B -o: the input named like a script is as it was"
	is "$(ls "$T/in-pl")" "bench-box.gp" "plot A B -o refused: no chart table written"
	# the eighth of 8 files, with --kallsyms: the inputs kept were 8 at most, and the input
	# and --kallsyms took two of them, so the last two files could be replaced
	for i in 1 2 3 4 5 6 7; do cp "$drawn" "$T/in-pl/v$i"; done
	printf 'ffffffff81000000 T _text\n' >"$T/in-pl/k"
	rm -f "$T/in-pl"/*.tsv
	cp "$tiny" "$T/in-pl/bench-box.gp"
	mistake "plot A..G H -o DIR --kallsyms K, H named like a gnuplot script: one line" 1 \
		"^tickscope: cannot write $T/in-pl/bench-box.gp: an output file is this command's input" \
		plot --kallsyms "$T/in-pl/k" "$T"/in-pl/v[1-7] "$T/in-pl/bench-box.gp" -o "$T/in-pl"
	cmp -s "$tiny" "$T/in-pl/bench-box.gp"
	ok $? "plot with 8 files and --kallsyms: the eighth, named like a script, is as it was"
	# a chart not drawn (no off-CPU stacks in this trace): remove_stale() removed its
	# offcpu-stacks.tsv, here the input, in a folder of an earlier plot; exit 0, no word
	mkdir -p "$T/st"
	cp "$T/pl/charts.tsv" "$T/st/"
	cp "$drawn" "$T/st/offcpu-stacks.tsv"
	mistake "plot -i DIR/offcpu-stacks.tsv -o DIR, that chart not drawn: one line" 1 \
		"^tickscope: cannot write $T/st/offcpu-stacks.tsv: an output file is this command's input" \
		plot "$T/st/offcpu-stacks.tsv" -o "$T/st"
	cmp -s "$drawn" "$T/st/offcpu-stacks.tsv"
	ok $? "plot -o: the input named like a chart not drawn is not removed"
else
	skip "plot -o DIR holding the input" "no gnuplot"
fi
# A folder of the user's files (-o ~/Pictures): a file named as a chart, a script or plots.sh
# was replaced, one named as a chart not drawn (the whole-CPU trace has no off-CPU stacks)
# removed, exit 0, no word. Now refused in one line before anything is written; the folder of
# an earlier plot (its charts.tsv) and a run folder (perf.data, meta.txt) still take charts.
mkdir -p "$T/mine"
for f in offcpu-stacks.png rcu-gp-cdf.svg work.tsv plots.sh charts.tsv latency-cdf.gp; do
	echo "my $f" >"$T/mine/$f"
done
mine() {
	for f in offcpu-stacks.png rcu-gp-cdf.svg work.tsv plots.sh charts.tsv latency-cdf.gp; do
		printf '%s:%s ' "$f" "$(cat "$T/mine/$f" 2>&1)"
	done
	ls "$T/mine" | wc -l
}
want_mine=$(mine)
mistake "plot -o a folder of the user's files: one line naming one" 1 \
	"^tickscope: $T/mine: [a-z.-]+ is there, and no charts.tsv of tickscope's: .*give -o a new" \
	plot "$drawn" -o "$T/mine"
is "$(mine)" "$want_mine" "plot -o: the user's files there as they were, none added"
mistake "compare --plots a folder of the user's files: one line naming one" 1 \
	"^tickscope: $T/mine: [a-z.-]+ is there, and no charts.tsv of tickscope's: .*--plots a new" \
	compare "$T/cmp/a/run-1/workload.out" -- "$T/cmp/b/run-1/workload.out" --plots "$T/mine"
is "$(mine)" "$want_mine" "compare --plots: the user's files there as they were, none added"
if command -v gnuplot >/dev/null; then
	mkdir -p "$T/run"
	cp "$drawn" "$T/run/perf.data"
	echo format=tickscope-run-1 >"$T/run/meta.txt"
	"$TICKSCOPE" plot "$T/run/perf.data" -o "$T/run" >/dev/null 2>"$T/err"
	ok $? "plot -o the run's own folder still draws ($(head -1 "$T/err"))"
	"$TICKSCOPE" plot "$T/run/perf.data" -o "$T/run" >/dev/null 2>"$T/err"
	ok $? "plot -o a folder it drew into before draws again ($(head -1 "$T/err"))"
	# the folder of report --tsv or compare --tsv is tickscope's too (sections.tsv,
	# runs.tsv): it was refused as a folder of other files. No chart has a table's name.
	"$TICKSCOPE" report "$drawn" --tsv "$T/rt" >/dev/null 2>&1
	cp -R "$T/rt" "$T/rt0"
	"$TICKSCOPE" plot "$drawn" -o "$T/rt" >/dev/null 2>"$T/err"
	ok $? "plot -o the folder of report --tsv draws ($(head -1 "$T/err"))"
	diff -r "$T/rt0" "$T/rt" | grep -v "^Only in $T/rt: " | grep -q .
	ok $((!$?)) "plot -o the folder of report --tsv: the report's tables as they were"
	"$TICKSCOPE" compare "$T/cmp/a/run-1/workload.out" -- "$T/cmp/b/run-1/workload.out" \
		--tsv "$T/ct" >/dev/null 2>&1 &&
		"$TICKSCOPE" compare "$T/cmp/a/run-1/workload.out" -- \
			"$T/cmp/b/run-1/workload.out" --plots "$T/ct" >/dev/null 2>"$T/err"
	ok $? "compare --plots the folder of compare --tsv draws ($(head -1 "$T/err"))"
else
	skip "plot -o a run folder" "no gnuplot"
	skip "plot -o a folder it drew into before" "no gnuplot"
	skip "plot -o the folder of report --tsv" "no gnuplot"
	skip "plot -o the folder of report --tsv: its tables" "no gnuplot"
	skip "compare --plots the folder of compare --tsv" "no gnuplot"
fi
# --tsv into a folder of the user's: their events.tsv or runs.tsv was replaced by a table, exit
# 0. A file of a table's name that does not start with that table's header row is now left as
# it was, one line, exit 1; an empty one, or a table of an earlier run (same header), is taken.
mkdir -p "$T/notes"
echo "my events" >"$T/notes/events.tsv"
echo "my runs" >"$T/notes/runs.tsv"
mistake "report --tsv a folder holding the user's events.tsv: one line" 1 \
	"^tickscope: writing the report to $T/notes/events.tsv: an output's name is another table or file" \
	report "$tiny" --tsv "$T/notes"
is "$(cat "$T/notes/events.tsv")" "my events" "report --tsv: the user's events.tsv as it was"
# the line named the folder, not the file; and the tables before the refused one (sections.tsv)
# stayed written: every table's file is now checked before the first is written
is "$(ls "$T/notes" | tr '\n' ' ')" "events.tsv runs.tsv " "report --tsv refused: no table written"
mistake "compare --tsv a folder holding the user's runs.tsv: one line" 1 \
	"^tickscope: writing the comparison to $T/notes/runs.tsv: an output's name is another table" \
	compare "$T/cmp/a/run-1/workload.out" -- "$T/cmp/b/run-1/workload.out" --tsv "$T/notes"
is "$(cat "$T/notes/runs.tsv")" "my runs" "compare --tsv: the user's runs.tsv as it was"
mkdir -p "$T/notes2"
echo "my confounders" >"$T/notes2/confounders.tsv"
mistake "compare --tsv a folder holding the user's confounders.tsv (the last table): one line" 1 \
	"^tickscope: writing the comparison to $T/notes2/confounders.tsv: an output's name is another" \
	compare "$T/cmp/a/run-1/workload.out" -- "$T/cmp/b/run-1/workload.out" --tsv "$T/notes2"
is "$(ls "$T/notes2" | tr '\n' ' ')" "confounders.tsv " "compare --tsv refused: no table written"
# a folder at a table's name: "Is a directory" once the tables before it were written
mkdir -p "$T/notes3/probes.tsv"
mistake "report --tsv with a folder at probes.tsv: one line naming it" 1 \
	"^tickscope: writing the report to $T/notes3/probes.tsv: an output's name is a folder, FIFO" \
	report "$tiny" --tsv "$T/notes3"
is "$(ls "$T/notes3" | tr '\n' ' ')" "probes.tsv " "report --tsv refused: no table written"
# an existing folder that takes no file was found only at the first table, after the trace
for cmd in "report $T/no-such.data --tsv" "plot $T/no-such.data -o"; do
	# shellcheck disable=SC2086 # the command's words
	mistake "${cmd%% *} ${cmd##* } /proc/self: one line before the input is opened" 1 \
		"^tickscope: /proc/self: cannot write into it: .*: ${cmd##* } names the folder" \
		$cmd /proc/self
done
mistake "compare --tsv /proc/self: one line before the runs are read" 1 \
	"^tickscope: /proc/self: cannot write into it: .*: --tsv names the folder" \
	compare "$T/cmp/a/run-1/workload.out" -- "$T/cmp/b/run-1/workload.out" --tsv /proc/self
: >"$T/notes/events.tsv"
rm "$T/notes/runs.tsv"
for i in 1 2; do
	"$TICKSCOPE" report "$tiny" --tsv "$T/notes" >/dev/null 2>"$T/err" &&
		"$TICKSCOPE" compare "$T/cmp/a/run-1/workload.out" -- "$T/cmp/b/run-1/workload.out" \
			--tsv "$T/notes" >/dev/null 2>>"$T/err"
	ok $? "report and compare --tsv into an empty events.tsv, then their own tables ($i)"
done
head -1 "$T/notes/events.tsv" | grep -q '^section	event	'
ok $? "report --tsv: the empty events.tsv became the table"

# meta.txt beside a run's trace (boards/record.sh's): run= and runs= were read by atoi(), so
# run=-3 became the JSON run 18446744073709551613 and run=x a run 0; now a run number that is
# not one is an error naming the line, and a missing one is null
mkdir -p "$T/mrun"
cp "$tiny" "$T/mrun/perf.data"
printf 'format=tickscope-run-1\nboard=b\nvariant=v\nworkload=w\nrun=-3\nruns=5\n' \
	>"$T/mrun/meta.txt"
mistake "report with a meta.txt of run=-3: one line naming its line" 1 \
	"^tickscope: $T/mrun/meta.txt:5: run=-3 is not a run number \(a whole number from 1\)$" \
	report "$T/mrun/perf.data" --json
printf 'format=tickscope-run-1\nboard=b\nvariant=v\nworkload=w\nrun=7\nruns=5\n' \
	>"$T/mrun/meta.txt"
mistake "report with a meta.txt of run=7 of runs=5: one line" 1 \
	"^tickscope: $T/mrun/meta.txt: run=7 of runs=5: a run past the last$" \
	report "$T/mrun/perf.data"
printf 'format=tickscope-run-1\nboard=b\nvariant=v\nworkload=w\nruns=5\n' >"$T/mrun/meta.txt"
"$TICKSCOPE" report "$T/mrun/perf.data" --json 2>/dev/null >"$T/mrun.json"
is "$(grep -o '"run":{"board"[^}]*' "$T/mrun.json" | grep -o '"runs*":[^,{]*,' | tr -d , | tr '\n' ' ')" \
	'"run":null "runs":5 ' "report: a meta.txt without run= gives run null"
is "$("$TICKSCOPE" report "$T/mrun/perf.data" 2>/dev/null | grep -c '^  run: b/v w run - of 5,')" 1 \
	"report text: run - of 5"
# result= and result_unit=, the benchmark's figure ts-record.sh copied: printed as the run's own
# whatever they held ("benchmark result nan furlongs", the JSON's "result":"-3", the later of two
# results). Now a figure that is not a plain decimal >= 0, a unit this tree does not write, a
# key given twice or cut to fit is one line naming the line, exit 1.
meta_result() {
	printf 'format=tickscope-run-1\nboard=b\nvariant=v\nworkload=w\nrun=1\nruns=5\n%s\n' "$1" |
		sed 's/|/\n/g' >"$T/mrun/meta.txt"
	mistake "report with a meta.txt of $1: one line naming its line" 1 \
		"^tickscope: $T/mrun/meta.txt:$2: $3" report "$T/mrun/perf.data" --json
}
for bad in nan -3 1e309 1.2.3 ' 5' 5x; do
	meta_result "result=$bad|result_unit=us_per_round_trip" 7 \
		'result=.* result_unit=us_per_round_trip: not a benchmark result \(a plain decimal >= 0\)$'
done
meta_result 'result=5|result_unit=furlongs' 8 'result=5 result_unit=furlongs: not a result unit'
meta_result 'result=5' 7 'result=5 result_unit=: not a result unit'
meta_result 'result=5|result_unit=us_per_round_trip|result=6' 9 \
	'result= given again \(first at line 7\)$'
meta_result "result=$(printf '%040d' 7)|result_unit=us_per_round_trip" 7 \
	'result=.*7: longer than 31 characters'
printf 'format=tickscope-run-1\nrun=1\nresult=17.5\nresult_unit=us_per_round_trip\n' \
	>"$T/mrun/meta.txt"
"$TICKSCOPE" report "$T/mrun/perf.data" --json 2>"$T/err" |
	grep -q '"result":"17.5","result_unit":"us_per_round_trip"'
ok $? "report: a meta.txt's own figure is the run's result ($(head -1 "$T/err"))"

# a FIFO at a run's perf.data.tsum: summary and compare read it as the run's summary and
# waited for a writer for ever (a folder there: above)
for r in sf1 sf2; do
	mkdir -p "$T/$r"
	cp "$drawn" "$T/$r/perf.data"
	echo format=tickscope-run-1 >"$T/$r/meta.txt"
	cp "$T/cmp/a/run-1/workload.out" "$T/$r/"
done
mkfifo "$T/sf1/perf.data.tsum"
mistake "summary RUN with a FIFO at RUN/perf.data.tsum: one line (it waited for ever)" 1 \
	"^tickscope: $T/sf1/perf.data.tsum: a FIFO, not a regular file: summary writes" \
	summary "$T/sf1"
"$TICKSCOPE" compare "$T/sf1" -- "$T/sf2" >/dev/null 2>"$T/err"
ok $? "compare with a FIFO at a run's perf.data.tsum reads the trace (it waited for ever)"
printf '<!DOCTYPE html>\n<p>an earlier page</p>\n' >"$T/old.html"
"$TICKSCOPE" compare "$T/cmp/a/run-1/workload.out" -- "$T/cmp/b/run-1/workload.out" \
	--html "$T/old.html" >/dev/null 2>"$T/err"
rc=$?
if command -v gnuplot >/dev/null; then
	[ $rc -eq 0 ] && ! grep -q 'an earlier page' "$T/old.html"
	ok $? "compare --html OLD.html: an earlier page is replaced (exit $rc)"
else
	skip "compare --html OLD.html" "no gnuplot"
fi

tap_done
