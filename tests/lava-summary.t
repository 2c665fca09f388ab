#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# tickscope summary, and compare on runs that carry only their summary: real emulated-board
# runs (tests/fixtures/experiment/) summarised, their traces dropped; compare must give the
# numbers and the charts it gives from the traces, and refuse with one line a summary that is
# not the run's (another trace, an older format or version, cut short, malformed, computed for
# another benchmark, unnamed in meta.txt, missing). Then ts-record.sh --summary 1 on this host
# (root): the board-side summary is the one compare computes from the trace.
. "$(dirname "$0")/lib/tap.sh"
command -v xz >/dev/null || skip_all "no xz"
command -v sha256sum >/dev/null || skip_all "no sha256sum"
[ -x "$TICKSCOPE" ] || skip_all "no $TICKSCOPE (make all)"
tap_tmpdir
T=$TAP_TMP
fx=$TS_TOP/tests/fixtures/experiment/qemu-aarch64-pingpong-default-vs-nohz-off

# The fixture's runs as ts-record.sh now writes them: meta.txt names the trace.
for v in default nohz-off; do
	for r in 1 2; do
		d=$T/full/$v/run-$r
		mkdir -p "$d"
		cp -r "$fx/$v/run-$r"/. "$d/"
		{
			grep -v -e '^variant_check' -e '^variant_mismatch' -e '^status=' \
				"$fx/$v/run-$r/meta.txt"
			echo "perf_data_size=$(xz -dc "$d/perf.data.xz" | wc -c)"
			echo "perf_data_sha256=$(xz -dc "$d/perf.data.xz" | sha256sum | cut -d' ' -f1)"
			echo "status=complete"
		} >"$d/meta.txt"
	done
done
"$TICKSCOPE" compare --no-cache --json "$T/full/default" "$T/full/nohz-off" >"$T/traces.json" \
	2>"$T/err"
ok $? "compare of the runs from their traces (the oracle)"
find "$T/full" -name '*.tsum' -delete

# 1. tickscope summary: one line per run, the summary next to the trace, naming it.
"$TICKSCOPE" summary --charts "$T"/full/*/run-* >"$T/sum.out" 2>"$T/sum.err"
ok $? "tickscope summary --charts of 4 runs"
is "$(grep -c '/perf.data.xz.tsum: [0-9]* metrics of a trace of [0-9]* bytes, sha256 [0-9a-f]\{64\}$' \
	"$T/sum.out")" 4 "one line per run: the summary, its metrics, the trace's size and sha256"
want=$(xz -dc "$T/full/default/run-2/perf.data.xz" | sha256sum | cut -d' ' -f1)
sed -n 2p "$T/full/default/run-2/perf.data.xz.tsum" | grep -qx "trace	$want	[0-9]*"
ok $? "the summary's second line is the uncompressed trace's sha256, as sha256sum says"
[ -f "$T/full/default/run-2/perf.data.xz.tplot" ] && [ -s "$T/full/nohz-off/run-1/perf.data.xz.tplot" ]
ok $? "--charts: the chart data next to each trace"

# 2. Summaries alone: the traces and what only decoding needs dropped.
cp -r "$T/full" "$T/sum"
rm -f "$T"/sum/*/run-*/perf.data.xz "$T"/sum/*/run-*/kallsyms.xz "$T"/sum/*/run-*/kconfig.xz
for d in "$T"/sum/*/run-*; do
	mv "$d/perf.data.xz.tsum" "$d/perf.data.tsum"
	mv "$d/perf.data.xz.tplot" "$d/perf.data.tplot"
done
norm() { sed "s|$T/[a-z0-9]*/|X/|g" "$1"; }
"$TICKSCOPE" compare --json "$T/sum/default" "$T/sum/nohz-off" >"$T/sum.json" 2>"$T/err"
ok $? "compare of the runs from their summaries alone"
norm "$T/traces.json" >"$T/a" && norm "$T/sum.json" >"$T/b" && cmp -s "$T/a" "$T/b"
ok $? "the same document as from the traces"
grep -q '"name":"task.path.wake_delivery.per_op"' "$T/b"
ok $? "(and it holds the trace metrics, not only the benchmark's)"

"$TICKSCOPE" summary --check "$T"/full/default/run-1 "$T"/sum/*/run-* >"$T/check" 2>"$T/err"
ok $? "summary --check: every run usable (exit 0)"
is "$(cut -f1,3 "$T/check" | sort | uniq -c | awk '{ print $1, $2, $3 }' | tr '\n' ' ')" \
	"4 ok summary 1 ok trace " "--check says which runs compare reads from a trace, which from a summary"

# 3. The charts: drawn from the runs' chart data, else said.
if command -v gnuplot >/dev/null; then
	"$TICKSCOPE" compare --html "$T/full.html" "$T/full/default" "$T/full/nohz-off" \
		>/dev/null 2>"$T/err" &&
		"$TICKSCOPE" compare --html "$T/sum.html" "$T/sum/default" "$T/sum/nohz-off" \
			>/dev/null 2>>"$T/err"
	ok $? "compare --html of both"
	norm "$T/full.html" >"$T/a" && norm "$T/sum.html" >"$T/b" && cmp -s "$T/a" "$T/b"
	ok $? "the HTML report from summaries and chart data is the one from the traces"
	rm "$T/sum/default/run-1/perf.data.tplot"
	"$TICKSCOPE" compare --html "$T/part.html" "$T/sum/default" "$T/sum/nohz-off" \
		>/dev/null 2>"$T/err"
	grep -q 'A: default (without 1 untraced run), 1 run' "$T/part.html"
	ok $? "a run without chart data: the legends say the charts leave it out"
	rm "$T/sum/default/run-2/perf.data.tplot"
	"$TICKSCOPE" compare --html "$T/none.html" "$T/sum/default" "$T/sum/nohz-off" \
		>/dev/null 2>"$T/err"
	grep -q "default&#39;s runs came as summaries alone (no perf.data, no chart data)" \
		"$T/none.html" || grep -q "default's runs came as summaries alone" "$T/none.html"
	ok $? "none: the page says the distributions need the traces"
	grep -q '<figure class="chart" id="chart-bench">' "$T/none.html" &&
		grep -q '<figure class="chart" id="chart-explain">' "$T/none.html"
	ok $? "... and still draws the benchmark and the explanation from the summaries"
	cp "$T/full/default/run-1/perf.data.xz.tplot" "$T/sum/default/run-1/perf.data.tplot"
	cp "$T/full/default/run-2/perf.data.xz.tplot" "$T/sum/default/run-2/perf.data.tplot"
else
	for i in 1 2 3 4 5; do skip "compare --html" "no gnuplot"; done
fi

# 4. What compare refuses: one line naming the summary, exit 1.
bad() {
	_why=$1
	shift
	rm -rf "$T/bad"
	cp -r "$T/sum/default" "$T/bad"
	"$@"
	"$TICKSCOPE" compare "$T/bad" "$T/sum/nohz-off" >"$T/out" 2>"$T/err"
	_rc=$?
	[ $_rc = 1 ] && [ ! -s "$T/out" ] && [ "$(wc -l <"$T/err")" = 1 ] &&
		grep -qF -- "$_why" "$T/err"
	ok $? "refused: $(sed "s|$T/||g" "$T/err")"
	"$TICKSCOPE" summary --check "$T/bad/run-1" >"$T/out" 2>/dev/null
	[ $? = 1 ] && grep -q "^bad	$T/bad/run-1	.*$(printf '%s' "$_why" | cut -c1-20)" "$T/out"
	ok $? "  and summary --check says bad, with the same reason"
}
s1=$T/bad/run-1/perf.data.tsum
bad "bad/run-1/perf.data.tsum: the summary of another trace (sha256 " \
	cp "$T/sum/default/run-2/perf.data.tsum" "$s1"
bad "bad/run-1/perf.data.tsum: written by tickscope 0.1 (tickscope-summary 7); this tickscope" \
	sed -i '1s/^tickscope-summary [0-9]*/tickscope-summary 7/' "$s1"
bad "bad/run-1/perf.data.tsum: written by tickscope 0.0 (tickscope-summary" \
	sed -i '1s/	0\.1\([+	]\)/	0.0\1/' "$s1"
bad "bad/run-1/perf.data.tsum:201: tickscope summary cut short (no end line)" \
	sed -i '201,$d' "$s1"
bad "bad/run-1/perf.data.tsum:50: malformed tickscope summary" \
	sed -i '50s/	[^	]*$/	12x/' "$s1"
bad "bad/run-1/perf.data.tsum:1: malformed tickscope summary" sed -i '1s/^/x/' "$s1"
# values tickscope never writes: strtod() took "inf" (a median moved by it) and "0x10" (16)
for v in inf -inf 1e999 0x10 ' 5'; do
	bad "bad/run-1/perf.data.tsum:50: malformed tickscope summary" \
		sed -i "50s/	[^	]*\$/	$v/" "$s1"
done
bad "bad/run-1/perf.data.tsum:3: malformed tickscope summary" sed -i '3s/^lost	.*/lost	-3/' "$s1"
bad "bad/run-1/perf.data.tsum: computed for the tasks 'pingpong' and 1100 operations; this run's benchmark gives 'pingpong' and 1099" \
	sed -i 's/iterations=1000/iterations=999/' "$T/bad/run-1/workload.out"
bad "bad/run-1/perf.data.tsum: meta.txt records no perf_data_sha256: without perf.data nothing ties" \
	sed -i '/^perf_data_sha256=/d' "$T/bad/run-1/meta.txt"
bad "bad/run-1: neither perf.data[.xz] nor its summary perf.data.tsum, though meta.txt records a trace" \
	rm "$s1"
rm -rf "$T/bad"
"$TICKSCOPE" compare --no-cache "$T/sum/default" "$T/sum/nohz-off" >"$T/out" 2>"$T/err"
[ $? = 1 ] && [ "$(wc -l <"$T/err")" = 1 ] &&
	grep -q "sum/default/run-1: --no-cache, but there is no perf.data\[.xz\] to compute" "$T/err"
ok $? "--no-cache on a run without its trace: one line"

# 5. A trace that is not the one meta.txt names, and a summary under a stale key.
cp -r "$T/full/default" "$T/swap"
cp "$T/full/default/run-2/perf.data.xz" "$T/swap/run-1/perf.data.xz"
"$TICKSCOPE" compare --no-cache "$T/swap" "$T/full/nohz-off" >"$T/out" 2>"$T/err"
[ $? = 1 ] && grep -q "swap/run-1/perf.data.xz: sha256 [0-9a-f]*\.\.\. ([0-9]* bytes), but meta.txt records [0-9a-f]*\.\.\. ([0-9]* bytes): not the trace this run recorded" "$T/err"
ok $? "a trace meta.txt does not name is refused before decoding: $(sed "s|$T/||g" "$T/err")"
# tar keeps times to the second: the key no longer matches, the trace line still does. A
# marked value shows that compare took the summary rather than decoding the trace again.
cp -r "$T/full/default" "$T/mark"
f=$T/mark/run-1/perf.data.xz.tsum
sed -i 's/^\(m	task.path.run.per_op	[^	]*	[0-9]	[0-9]	\)[^	]*$/\1123456789/' "$f"
(cd "$T" && tar cf mark.tar mark && rm -rf mark && tar xf mark.tar)
stat -c %y "$T/mark/run-1/perf.data.xz" | grep -q '\.000000000 ' &&
	! head -n1 "$f" | grep -q '\.000000000	'
ok $? "after tar, the trace's time has no nanoseconds: the summary's key is stale"
"$TICKSCOPE" compare --json "$T/mark" "$T/full/nohz-off" >"$T/mark.json" 2>"$T/err"
grep -q '"values":\[123456789' "$T/mark.json"
ok $? "a summary whose trace line is this trace's sha256 is taken without decoding"
head -n1 "$(summary_cache_file "$T/mark/run-1/perf.data.xz" .tsum)" |
	grep -q "	$(stat -c %Y "$T/mark/run-1/perf.data.xz")\.000000000	" &&
	! head -n1 "$f" | grep -q '\.000000000	'
ok $? "... and keyed again to the file as it is, in the user's cache (the run's own is left)"

# 5b. A damaged perf.data.xz (issue 30): one line naming it and what is wrong with it (not a
# sha256 riddle, not xz's line and ours, not a summary's problem), and the path said once.
cp -r "$T/full/default" "$T/dmg"
d1=$T/dmg/run-1
xz -dc "$d1/perf.data.xz" >"$T/good.data"
cp "$d1/perf.data.xz" "$T/good.xz"
cp "$T/full/nohz-off/run-1/perf.data.xz.tsum" "$T/other.tsum"
# damaged LABEL PATTERN RC: compare of the damaged run exits RC with one line matching PATTERN
damaged() {
	rm -f "$d1"/perf.data.xz.tsum
	[ "$3" = 0 ] && cp "$T/full/default/run-1/perf.data.xz.tsum" "$d1/"
	[ "$3" = 1 ] && [ -L "$d1/perf.data.xz" ] && cp "$T/other.tsum" "$d1/perf.data.xz.tsum"
	"$TICKSCOPE" compare "$T/dmg" "$T/full/nohz-off" >"$T/out" 2>"$T/err"
	_rc=$?
	[ $_rc = "$3" ] && [ "$(wc -l <"$T/err")" = 1 ] && grep -q -e "$2" "$T/err"
	ok $? "$1: $(sed "s|$T/||g" "$T/err" | head -2) (exit $_rc)"
}
head -c 3000 /dev/urandom >"$d1/perf.data.xz"
damaged "perf.data.xz that is not xz" \
	"^tickscope: $d1/perf.data.xz: cannot unpack it: xz: File format not recognized$" 1
head -c 3000 "$T/good.xz" >"$d1/perf.data.xz"
damaged "perf.data.xz cut short" \
	"^tickscope: $d1/perf.data.xz: cannot unpack it: xz: Unexpected end of input$" 1
head -c 3000 /dev/urandom | xz >"$d1/perf.data.xz"
damaged "xz of garbage" \
	"^tickscope: $d1/perf.data.xz: unpacks to 3000 bytes that are not a perf.data" 1
head -c 30000 "$T/good.data" | xz >"$d1/perf.data.xz"
damaged "xz of a perf.data cut short" \
	"^tickscope: $d1/perf.data.xz: unpacks to a perf.data cut short: 30000 of the" 1
rm "$d1/perf.data.xz"
ln -s perf.data.xz "$d1/perf.data.xz"
damaged "a self-looping perf.data.xz beside another trace's summary" \
	"^tickscope: $d1: perf.data.xz: Too many levels of symbolic links, and its summary" 1
damaged "a self-looping perf.data.xz beside its own summary: compared from it, said" \
	"^tickscope: warning: $d1: perf.data.xz: Too many .*: compared from its summary" 0
rm "$d1/perf.data.xz"
sed -i '/^perf_data_s/d' "$d1/meta.txt"
head -c 30000 "$T/good.data" | xz >"$d1/perf.data.xz"
damaged "xz of a cut perf.data, meta.txt naming no trace: the offset, the file said once" \
	"^tickscope: $d1/perf.data.xz (unpacked): offset 0x28: data section " 1
rm "$d1/perf.data.xz"
head -c 30000 "$T/good.data" >"$d1/perf.data"
damaged "a cut perf.data: the offset, the file said once" \
	"^tickscope: $d1/perf.data: offset 0x28: data section " 1
rm -rf "$T/dmg" "$T/good.data" "$T/good.xz"

# 6. tickscope summary's own mistakes.
"$TICKSCOPE" summary >"$T/out" 2>"$T/err"
[ $? = 2 ] && [ "$(wc -l <"$T/err")" = 1 ] && grep -q "give at least one run folder" "$T/err"
ok $? "summary without a run: one line, exit 2"
"$TICKSCOPE" summary "$T/sum/default/run-1" >"$T/out" 2>"$T/err"
[ $? = 1 ] && [ "$(wc -l <"$T/err")" = 1 ] &&
	grep -q "sum/default/run-1: no perf.data or perf.data.xz to summarise" "$T/err"
ok $? "summary of a run without its trace: one line, exit 1"
"$TICKSCOPE" summary "$T/nosuch" >"$T/out" 2>"$T/err"
[ $? = 1 ] && grep -q "nosuch: not a run folder" "$T/err"
ok $? "summary of a missing folder: one line, exit 1"
# a good run before a mistyped one: nothing written, as for a usage error
rm -f "$T"/full/default/run-1/*.tsum
"$TICKSCOPE" summary "$T/full/default/run-1" "$T/nosuch" >"$T/out" 2>"$T/err"
[ $? = 1 ] && [ "$(wc -l <"$T/err")" = 1 ] && grep -q "nosuch: not a run folder" "$T/err" &&
	! ls "$T"/full/default/run-1/*.tsum >/dev/null 2>&1
ok $? "a good run, then a missing folder: one line, exit 1, no summary written"

# 7. On this host, as a board does it: ts-record.sh --summary 1 (needs root and tracefs).
pp=$TS_BUILD/workloads/pingpong
if [ "$(id -u)" != 0 ]; then
	skip "ts-record.sh --summary 1" "needs root to record"
elif [ ! -x "$pp" ]; then
	skip "ts-record.sh --summary 1" "no $pp (make workloads)"
elif ! { [ -r /sys/kernel/tracing/available_events ] ||
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null; }; then
	skip "ts-record.sh --summary 1" "no tracefs"
else
	"$TS_TOP/boards/target/ts-record.sh" --out "$T/host" --workload pingpong --iters 300 \
		--warmup 10 --tickscope "$TICKSCOPE" --pingpong "$pp" --summary 1 \
		>"$T/host.log" 2>&1
	m=$T/host/run-1/meta.txt
	grep -qx summary=ok "$m" && [ "$(tail -n1 "$m")" = status=complete ] &&
		grep -q '^summary_s=[0-9.]*$' "$m"
	ok $? "ts-record.sh --summary 1: meta.txt says summary=ok, how long, then status=complete"
	is "$(sed -n 's/^perf_data_sha256=//p' "$m") $(sed -n 's/^perf_data_size=//p' "$m")" \
		"$(sha256sum <"$T/host/run-1/perf.data" | cut -d' ' -f1) $(wc -c <"$T/host/run-1/perf.data")" \
		"meta.txt names the trace: sha256sum and size of perf.data"
	cp -a "$T/host/run-1" "$T/host-c"
	rm "$T/host-c/perf.data.tsum" "$T/host-c/perf.data.tplot"
	mkdir -p "$T/hv/a" "$T/hv/b"
	mv "$T/host-c" "$T/hv/a/run-1"
	cp -a "$T/hv/a/run-1" "$T/hv/b/run-1"
	"$TICKSCOPE" compare --no-cache --allow-mismatch "$T/hv/a" "$T/hv/b" >/dev/null 2>"$T/err"
	tail -n +2 "$T/host/run-1/perf.data.tsum" >"$T/board.tsum"
	tail -n +2 "$(summary_cache_file "$T/hv/a/run-1/perf.data" .tsum)" >"$T/here.tsum"
	[ -s "$T/board.tsum" ] && cmp -s "$T/board.tsum" "$T/here.tsum"
	ok $? "the summary recorded next to the data is the one compare computes from the trace"
fi
tap_done
