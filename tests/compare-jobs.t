#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# tickscope compare loads runs in parallel (--jobs), and plot its files (TS_JOBS): the output,
# the messages and the exit code are the serial ones (one worker, the oracle), for good runs
# and for a bad run among them.
. "$(dirname "$0")/lib/tap.sh"

command -v xz >/dev/null || skip_all "xz not installed (analysis/packages)"
[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
tap_tmpdir
[ "${SANITIZE:-0}" = 1 ] &&
	diag "a sanitized build works with one worker (analysis/cli/jobs.c): parallel == serial trivially"
# a copy: the caches written next to perf.data stay out of the tree
cp -a "$TS_TOP/tests/fixtures/boards/x86-host/ab" "$TAP_TMP/ab"
ab=$TAP_TMP/ab
vars="$ab/pingpong-same $ab/pingpong-cross $ab/pingpong-delay"

# run NAME JOBS ARGS...: stdout, stderr and the exit code of one compare, cold
run() {
	_n=$1 _j=$2
	shift 2
	"$TICKSCOPE" compare --no-cache --jobs "$_j" "$@" >"$TAP_TMP/$_n.$_j.out" \
		2>"$TAP_TMP/$_n.$_j.err"
	echo $? >"$TAP_TMP/$_n.$_j.rc"
	# an unpacked perf.data.xz has a temporary name of its own in each run
	sed -i 's/tickscope-cmp-[A-Za-z0-9]*/tickscope-cmp-X/g' "$TAP_TMP/$_n.$_j.err"
}

# same NAME JOBS WHAT: the run with JOBS workers gave what the serial one gave
same() {
	for k in out err rc; do
		cmp -s "$TAP_TMP/$1.1.$k" "$TAP_TMP/$1.$2.$k" || {
			diag "$1: --jobs $2 differs in $k"
			diff "$TAP_TMP/$1.1.$k" "$TAP_TMP/$1.$2.$k" | head -5 | sed 's/^/# /'
			ok 1 "$3"
			return
		}
	done
	ok 0 "$3"
}

# shellcheck disable=SC2086 # the variant folders are a word list
for j in 1 2 5; do run text "$j" $vars; done
is "$(cat "$TAP_TMP/text.1.rc")" 0 "serial compare of 3 variants x 10/10/6 runs"
grep -q 'wake delivery' "$TAP_TMP/text.1.out"
ok $? "the serial text explains the change (wake delivery)"
same text 2 "2 workers: the same text, messages and exit code"
same text 5 "5 workers: the same text, messages and exit code"
# shellcheck disable=SC2086
for j in 1 4; do run json "$j" --json $vars; done
same json 4 "4 workers: the same JSON document"
# shellcheck disable=SC2086
"$TICKSCOPE" compare --no-cache $vars >"$TAP_TMP/default.out" 2>/dev/null
cmp -s "$TAP_TMP/text.1.out" "$TAP_TMP/default.out"
ok $? "the default (one worker per core): the same text"

# The probe child that guards against libtraceevent crashing (tracedata.c) is forked once per
# distinct tracing-data section in a process, not once per run (issue 33: 15% of a cold
# compare's CPU). The oracle: the sections' own sha256, each cut out of its perf.data at the
# offset its feature table gives (perfdata.pl); strace counts the processes forked.
if command -v strace >/dev/null; then
	for d in "$ab"/*/run-*; do
		xz -dc "$d/perf.data.xz" >"$TAP_TMP/td.data"
		# shellcheck disable=SC2046 # offset and size, two words
		set -- $(perl "$TS_TOP/tests/fixtures/perfdata.pl" layout "$TAP_TMP/td.data" |
			awk '$1 == "feat_1_offset" { o = $4 } $1 == "feat_1_size" { n = $4 }
				END { print o + 0, n + 0 }')
		# a section of a few KB at least (formats), else no sum: the count below fails
		[ "$2" -gt 4096 ] && tail -c +$(($1 + 1)) "$TAP_TMP/td.data" | head -c "$2" | sha256sum
	done | sort -u >"$TAP_TMP/td.sums"
	nd=$(wc -l <"$TAP_TMP/td.sums")
	[ "$(grep -c . "$TAP_TMP/td.sums")" -gt 0 ] || nd=none
	nr=$(find "$ab" -name perf.data.xz | wc -l)
	# forks JOBS [MARKERS]: the processes a cold compare with JOBS workers forks, with no
	# probe markers (TS_FORMATS_CACHE: a marker left by an earlier probe spares the child)
	# or with the folder MARKERS
	forks() {
		# shellcheck disable=SC2086
		TS_FORMATS_CACHE=${2:-off} strace -f -qq -e trace=clone,fork,vfork \
			-o "$TAP_TMP/st$1" "$TICKSCOPE" compare --no-cache --jobs "$1" $vars \
			>/dev/null 2>&1
		# processes of their own: not threads, nor LeakSanitizer's tracer (CLONE_VM)
		grep -v 'CLONE_THREAD\|CLONE_VM' "$TAP_TMP/st$1" | grep -c 'clone(\|fork('
	}
	np1=$(forks 1)
	np2=$(forks 2)
	is "$np1" "$nd" "one worker: one probe child per distinct tracing data ($nd in $nr runs)"
	[ "$np2" -ge "$nd" ] && [ "$np2" -le $((2 * nd)) ]
	ok $? "2 workers: $np2 probe children, at most one per worker and tracing data"
	nm1=$(forks 2 "$TAP_TMP/markers")
	nm2=$(forks 2 "$TAP_TMP/markers")
	is "$([ "$nm1" -ge "$nd" ] && echo probed) $nm2" "probed 0" \
		"a probe that found the tracing data clean leaves a marker: the next compare forks none"
else
	for t in "one probe child per tracing data" "2 workers: probe children" \
		"the probe's markers"; do
		skip "$t" "strace not installed (tests/packages)"
	done
fi

# The workers take the largest run first (issue 33): a large run loaded alone at the end by
# one worker while the others wait is a cold compare's tail. The oracle: the sizes of the runs'
# perf.data.xz (find), against the order in which strace sees a compare open them. With W
# workers the i-th trace opened is at worst the (i + W - 1)-th largest (the W - 1 taken before
# it may open after it); with one worker the order is the input's.
if [ "${SANITIZE:-0}" != 1 ] && command -v strace >/dev/null; then
	opened() { # opened JOBS: the perf.data.xz files in the order a cold compare opens them
		# shellcheck disable=SC2086
		strace -f -qq -e trace=open,openat -o "$TAP_TMP/op$1" "$TICKSCOPE" compare \
			--no-cache --jobs "$1" $vars >/dev/null 2>&1
		sed -n 's/.*"\([^"]*\/perf\.data\.xz\)".*/\1/p' "$TAP_TMP/op$1" | awk '!seen[$0]++'
	}
	# shellcheck disable=SC2086
	for v in $vars; do find "$v" -name perf.data.xz | sort -V; done >"$TAP_TMP/input-order"
	# the largest first, ties in input order
	while read -r f; do echo "$(stat -c %s "$f") $f"; done <"$TAP_TMP/input-order" |
		awk '{ print $1, NR, $2 }' | sort -k1,1nr -k2,2n | cut -d' ' -f3 >"$TAP_TMP/by-size"
	opened 1 >"$TAP_TMP/o1"
	cmp -s "$TAP_TMP/input-order" "$TAP_TMP/o1"
	ok $? "one worker: the runs in input order ($(wc -l <"$TAP_TMP/o1") traces)"
	opened 2 >"$TAP_TMP/o2"
	late=$(awk -v w=2 'NR == FNR { rank[$0] = NR; next } { if (rank[$0] > FNR + w - 1) n++ }
		END { print n + 0 }' "$TAP_TMP/by-size" "$TAP_TMP/o2")
	is "$(wc -l <"$TAP_TMP/o2") $late" "$(wc -l <"$TAP_TMP/by-size") 0" \
		"2 workers: every trace opened, the largest first (none later than its size says)"
	head -2 "$TAP_TMP/by-size" | grep -qxF "$(head -1 "$TAP_TMP/o2")"
	ok $? "2 workers: the first trace opened is one of the two largest, not the first given"
fi
if [ "${SANITIZE:-0}" = 1 ] || ! command -v strace >/dev/null; then
	for t in "one worker: input order" "2 workers: largest first" "2 workers: first"; do
		skip "$t" "strace not installed (tests/packages), or a sanitized build (one worker)"
	done
fi

# plot A B C: one variant per file, loaded in parallel; the same chart data and summary.
if command -v gnuplot >/dev/null; then
	for r in 1 2 3; do
		xz -dc "$ab/pingpong-same/run-$r/perf.data.xz" >"$TAP_TMP/p$r.data"
	done
	for j in 1 3; do # the same relative output folder, so that the messages can be equal
		mkdir "$TAP_TMP/w$j"
		(cd "$TAP_TMP/w$j" && TS_JOBS=$j "$TICKSCOPE" plot ../p1.data ../p2.data ../p3.data \
			-o plot >"$TAP_TMP/plot$j.out" 2>&1)
		echo $? >>"$TAP_TMP/plot$j.out"
		mv "$TAP_TMP/w$j/plot" "$TAP_TMP/plot$j"
	done
	is "$(tail -1 "$TAP_TMP/plot1.out")" 0 "plot of 3 files, one worker"
	cmp -s "$TAP_TMP/plot1.out" "$TAP_TMP/plot3.out"
	ok $? "plot of 3 files, 3 workers: the same summary"
	nt=$(find "$TAP_TMP/plot1" -name '*.tsv' | wc -l)
	bad=$(cd "$TAP_TMP/plot1" && find . -name '*.tsv' | while read -r t; do
		cmp -s "$t" "$TAP_TMP/plot3/$t" || echo "$t"
	done | wc -l)
	ok "$([ "$nt" -gt 0 ] && [ "$bad" = 0 ]; echo $?)" \
		"plot of 3 files, 3 workers: the same chart data ($nt TSV files, $bad differ)"
else
	for t in "plot of 3 files" "plot, 3 workers: summary" "plot, 3 workers: data"; do
		skip "$t" "gnuplot not installed (plots/packages: gnuplot-nox)"
	done
fi

# A run the kernel check refused before others, a corrupt trace after: the same first error.
sed -i 's/^variant_check=.*//' "$ab/pingpong-cross/run-2/meta.txt"
printf 'variant_check=mismatch\nvariant_mismatch=CONFIG_X: test\n' \
	>>"$ab/pingpong-cross/run-2/meta.txt"
xz -dc "$ab/pingpong-cross/run-7/perf.data.xz" | head -c 300000 | xz >"$TAP_TMP/cut.xz"
mv "$TAP_TMP/cut.xz" "$ab/pingpong-cross/run-7/perf.data.xz"
# shellcheck disable=SC2086
for j in 1 3; do run mism "$j" $vars; done
is "$(cat "$TAP_TMP/mism.1.rc")" 1 "serial: a mismatched run is refused (exit 1)"
grep -q 'run-2/meta.txt: the recorded kernel does not match' "$TAP_TMP/mism.1.err"
ok $? "serial: the message names the run"
same mism 3 "3 workers: the same refusal, nothing else"
# shellcheck disable=SC2086
for j in 1 2 8; do run cut "$j" --allow-mismatch $vars; done
is "$(cat "$TAP_TMP/cut.1.rc")" 1 "serial: a cut trace fails the comparison"
grep -q 'run-7' "$TAP_TMP/cut.1.err"
ok $? "serial: the error names run-7"
same cut 2 "2 workers: the same warnings and error, in order"
same cut 8 "8 workers: the same warnings and error, in order"

# shellcheck disable=SC2086
"$TICKSCOPE" compare --jobs 0 $vars >/dev/null 2>"$TAP_TMP/bad"
is "$?:$(cat "$TAP_TMP/bad")" "2:tickscope: --jobs: bad number '0'" "--jobs 0 is refused (a usage error)"
# shellcheck disable=SC2086
"$TICKSCOPE" compare --jobs 4294967297 $vars >/dev/null 2>"$TAP_TMP/bad"
is "$?:$(cat "$TAP_TMP/bad")" "2:tickscope: --jobs: bad number '4294967297'" \
	"--jobs 2^32+1 is refused, not wrapped to 1"
# shellcheck disable=SC2086
TS_JOBS=2x "$TICKSCOPE" compare $vars >/dev/null 2>"$TAP_TMP/bad"
is "$?:$(cat "$TAP_TMP/bad")" \
	"1:tickscope: TS_JOBS: bad number '2x' (how many inputs at once: 1 or more)" \
	"a bad TS_JOBS is refused in one line, not taken as one per core"
if [ -s "$TAP_TMP/p1.data" ]; then
	(cd "$TAP_TMP" && TS_JOBS=-1 "$TICKSCOPE" plot p1.data p2.data -o badjobs >/dev/null \
		2>"$TAP_TMP/bad")
	is "$?:$(cat "$TAP_TMP/bad"):$([ -e "$TAP_TMP/badjobs" ]; echo $?)" \
		"1:tickscope: TS_JOBS: bad number '-1' (how many inputs at once: 1 or more):1" \
		"plot refuses it too, before its -o folder is made"
else
	skip "plot refuses a bad TS_JOBS" "gnuplot not installed (plots/packages: gnuplot-nox)"
fi
tap_done
