#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make lava-collect without a lab: real emulated-board runs (tests/fixtures/experiment/) packed
# as LAVA jobs upload them, with their traces or (as ts-lava-run.sh does by default) with the
# summary the board computed instead, plus runs that must be set aside (another kernel, board
# type, experiment, a failed run, a broken archive, a trace or a summary that is not the run's);
# the kept runs, and only they, reach compare, and summaries alone give the traces' numbers.
. "$(dirname "$0")/lib/tap.sh"
command -v xz >/dev/null || skip_all "no xz"
command -v sha256sum >/dev/null || skip_all "no sha256sum"
[ -x "$TICKSCOPE" ] || skip_all "no $TICKSCOPE (make all)"
tap_tmpdir
tmp=$TAP_TMP
fx=$TS_TOP/tests/fixtures/experiment/qemu-aarch64-pingpong-default-vs-nohz-off
mkdir -p "$tmp/in" "$tmp/sin"

# lava_run MODE SRC VARIANT K JOB [KEY=VALUE...]: SRC as ts-lava-run.sh publishes it, packed
# alone into one job's archive: meta.txt with the LAVA notes and the trace's size and sha256
# as ts-record.sh writes them (the edits override them); MODE full: everything, as the
# fixture stores it; MODE summary: the board's files (perf.data, kallsyms unpacked), the
# summary and chart data computed by tickscope summary --charts, then perf.data, kallsyms and
# kconfig left out, as ts-lava-run.sh packs a run without --traces 1.
lava_run() {
	mode=$1 src=$2 v=$3 k=$4 job=$5
	shift 5
	d=$tmp/stage/$job/pingpong-nohz/$v/run-$k
	mkdir -p "$d"
	cp -r "$src"/. "$d/"
	{
		grep -v -e '^variant_check' -e '^variant_mismatch' -e '^status=' "$src/meta.txt"
		echo "device_type=qemu"
		echo "experiment=pingpong-nohz"
		echo "lava_job=$job"
		echo "kernel_hash=4b1d0e5c0ffee"
		echo "perf_data_size=$(xz -dc "$src/perf.data.xz" | wc -c)"
		echo "perf_data_sha256=$(xz -dc "$src/perf.data.xz" | sha256sum | cut -d' ' -f1)"
		echo "status=complete"
	} >"$d/meta.txt"
	for e in "$@"; do
		sed -i "s/^${e%%=*}=.*/$e/" "$d/meta.txt"
	done
	dest=$tmp/in
	if [ "$mode" = summary ]; then
		dest=$tmp/sin
		xz -d "$d/perf.data.xz" "$d/kallsyms.xz"
		"$TICKSCOPE" summary --charts "$d" >"$d.summary" 2>&1 || echo "summary of $d failed"
		rm -f "$d/perf.data" "$d/kallsyms" "$d/kconfig.xz"
	fi
	(cd "$tmp/stage/$job/pingpong-nohz" && tar czf "$dest/pingpong-nohz-$v-job$job.tar.gz" "$v")
}
lava_run full "$fx/default/run-1" default 1 101
lava_run full "$fx/nohz-off/run-1" nohz-off 1 102
lava_run full "$fx/default/run-2" default 2 103
lava_run full "$fx/nohz-off/run-2" nohz-off 2 104
lava_run full "$fx/default/run-1" default 3 105 kernel_hash=99aa00ff7777
lava_run full "$fx/nohz-off/run-1" nohz-off 3 106 device_type=hi1215
lava_run full "$fx/default/run-2" default 4 107 status=failed
lava_run full "$fx/nohz-off/run-2" nohz-off 4 108 experiment=pingpong-rt
lava_run full "$fx/default/run-2" default 5 110 events=sched:sched_switch
echo "not an archive" >"$tmp/in/pingpong-nohz-default-job109.tar.gz"
# a trace that is not the one its meta.txt names (another run's perf.data.xz)
lava_run full "$fx/default/run-1" default 6 111
cp "$fx/default/run-2/perf.data.xz" "$tmp/stage/111/pingpong-nohz/default/run-6/"
(cd "$tmp/stage/111/pingpong-nohz" && tar czf "$tmp/in/pingpong-nohz-default-job111.tar.gz" default)

"$TS_TOP/boards/lava/collect.sh" IN="$tmp/in" EXPERIMENT=pingpong-nohz OUT="$tmp/c" \
	TICKSCOPE="$TICKSCOPE" >"$tmp/out" 2>"$tmp/err"
ok $? "lava-collect compares what it kept"
is "$(grep -c '^kept' "$tmp/c/runs.tsv")" 4 "four runs kept"
reason() {
	grep -F "job$1/$2/run-$3 (variant $2, job $1): " "$5" | grep -qF -- "$4"
	ok $? "job $1 set aside: $4"
}
reason 105 default 3 "kernel 99aa00ff7777 differs from the one of variant default's other runs (4b1d0e5c0ffe)" "$tmp/err"
reason 106 nohz-off 3 "board type hi1215, the others ran on qemu" "$tmp/err"
reason 107 default 4 "incomplete (status=failed)" "$tmp/err"
reason 108 nohz-off 4 "another experiment (pingpong-rt)" "$tmp/err"
reason 110 default 5 "other events than variant default's other runs (sched:sched_switch)" "$tmp/err"
reason 111 default 6 "perf.data.xz: sha256 12521b80c1d2f0d2... (3249970 bytes), but meta.txt records b80b3bd24f1734de... (2542946 bytes): not the trace this run recorded, or damaged since" "$tmp/err"
grep -q "set aside .*job109.tar.gz: not a readable .tar.gz" "$tmp/err"
ok $? "a broken archive is set aside and said"

# compare got exactly the kept runs, the baseline first.
grep -o '"label": *"[^"]*"' "$tmp/c/compare.json" | sed 's/.*: *"//; s/"$//' | grep '/run-[0-9]*$' >"$tmp/labels"
awk -F'\t' '$1 == "kept" { print $4 }' "$tmp/c/runs.tsv" | sort >"$tmp/kept"
[ -s "$tmp/kept" ] && sort -u "$tmp/labels" | cmp -s - "$tmp/kept"
ok $? "compare's runs are the kept runs"
head -n1 "$tmp/labels" | grep -q '/default/run-'
ok $? "the baseline is the experiment's a= (default)"
grep -q '"name": *"nohz-off"' "$tmp/c/compare.json"
ok $? "compare.json has the variant nohz-off"
is "$(awk -F'\t' '$1 == "kept" { print $6 }' "$tmp/c/runs.tsv" | sort -u)" trace \
	"runs.tsv: compare read the kept runs' traces"
[ "$_tap_failed" = 0 ] || sed "s|^|# |" "$tmp/err" "$tmp/c/runs.tsv"

# The same run found twice, with OUT inside IN (its unpacked/ is found under IN too) and an
# archive uploaded twice: each was a run of its own, compare's N doubled. Counted once now.
mkdir -p "$tmp/in2"
cp "$tmp/in"/*.tar.gz "$tmp/in2/"
cp "$tmp/in/pingpong-nohz-default-job101.tar.gz" "$tmp/in2/pingpong-nohz-default-job101-again.tar.gz"
"$TS_TOP/boards/lava/collect.sh" IN="$tmp/in2" EXPERIMENT=pingpong-nohz OUT="$tmp/in2/c" \
	TICKSCOPE="$TICKSCOPE" >/dev/null 2>"$tmp/err3"
ok $? "lava-collect with OUT inside IN and an archive given twice"
is "$(grep -c '^kept' "$tmp/in2/c/runs.tsv")" 4 "the same four runs kept, each once"
grep -o '"label": *"[^"]*"' "$tmp/in2/c/compare.json" | grep -c '/run-[0-9]*"$' >"$tmp/n3"
is "$(cat "$tmp/n3")" 4 "compare got four runs, not eight"
[ "$(grep -c "job101[-a-z]*/default/run-1 (variant default, job 101): a copy of .*job101[-a-z]*"\
"/default/run-1 (the same meta.txt): counted once" "$tmp/err3")" = 1 ]
ok $? "the archive given twice: its run is set aside as a copy of the first"
# OUT holding the user's own files, or a file: refused before anything is written there.
mkdir -p "$tmp/mine"
echo mine >"$tmp/mine/compare.txt"
echo mine >"$tmp/afile"
for o in mine afile; do
	"$TS_TOP/boards/lava/collect.sh" IN="$tmp/in" EXPERIMENT=pingpong-nohz OUT="$tmp/$o" \
		TICKSCOPE="$TICKSCOPE" >/dev/null 2>"$tmp/err4"
	[ $? -ne 0 ] && [ "$(wc -l <"$tmp/err4")" = 1 ] && grep -q "error: OUT '$tmp/$o'" "$tmp/err4" &&
		[ "$(cat "$tmp/mine/compare.txt" "$tmp/afile")" = "mine
mine" ] && [ "$(ls -A "$tmp/mine")" = compare.txt ]
	ok $? "OUT=$o (the user's folder, a file): refused in one line, untouched"
done

# --- The same runs uploaded as summaries alone, as ts-lava-run.sh sends them by default ---
lava_run summary "$fx/default/run-1" default 1 201
lava_run summary "$fx/nohz-off/run-1" nohz-off 1 202
lava_run summary "$fx/default/run-2" default 2 203
lava_run summary "$fx/nohz-off/run-2" nohz-off 2 204
# the summary of another run (run-2's, in run-3's folder)
lava_run summary "$fx/default/run-1" default 3 205
cp "$tmp/stage/203/pingpong-nohz/default/run-2/perf.data.tsum" \
	"$tmp/stage/205/pingpong-nohz/default/run-3/"
# the summary of an older format, one cut short, none at all
lava_run summary "$fx/default/run-1" default 4 206
sed -i '1s/^tickscope-summary [0-9]*/tickscope-summary 7/' \
	"$tmp/stage/206/pingpong-nohz/default/run-4/perf.data.tsum"
lava_run summary "$fx/default/run-1" default 5 207
f=$tmp/stage/207/pingpong-nohz/default/run-5/perf.data.tsum
head -n 100 "$f" >"$f.cut" && mv "$f.cut" "$f"
lava_run summary "$fx/default/run-2" default 6 208
rm "$tmp/stage/208/pingpong-nohz/default/run-6/perf.data.tsum"
for j in 205 206 207 208; do
	(cd "$tmp/stage/$j/pingpong-nohz" && tar czf "$tmp/sin/pingpong-nohz-default-job$j.tar.gz" default)
done
tar tzf "$tmp/sin/pingpong-nohz-default-job201.tar.gz" >"$tmp/list"
grep -qx 'default/run-1/perf.data.tsum' "$tmp/list" && ! grep -q 'perf.data$\|kallsyms\|kconfig' "$tmp/list"
ok $? "a summary-only archive holds the summary, not perf.data, kallsyms or kconfig"

"$TS_TOP/boards/lava/collect.sh" IN="$tmp/sin" EXPERIMENT=pingpong-nohz OUT="$tmp/s" \
	TICKSCOPE="$TICKSCOPE" >"$tmp/sout" 2>"$tmp/serr"
ok $? "lava-collect compares runs that carry only their summaries"
is "$(grep -c '^kept' "$tmp/s/runs.tsv")" 4 "the four good ones kept"
is "$(awk -F'\t' '$1 == "kept" { print $6 }' "$tmp/s/runs.tsv" | sort -u)" summary \
	"runs.tsv: compare read their summaries"
reason 205 default 3 "the summary of another trace (sha256 12521b80c1d2f0d2..., 3249970 bytes); meta.txt's perf.data is b80b3bd24f1734de... (2542946 bytes)" "$tmp/serr"
reason 206 default 4 "written by tickscope 0.1 (tickscope-summary 7); this tickscope 0.1 reads tickscope-summary 18" "$tmp/serr"
reason 207 default 5 "perf.data.tsum:101: tickscope summary cut short (no end line)" "$tmp/serr"
reason 208 default 6 "neither perf.data[.xz] nor its summary perf.data.tsum, though meta.txt records a trace" "$tmp/serr"
# The oracle: the same four runs compared from their traces (decoded here, above).
norm() { sed 's|"[^"]*-job[0-9]*/\([a-z-]*/run-[0-9]*\)"|"\1"|g' "$1"; }
norm "$tmp/c/compare.json" >"$tmp/full.json"
norm "$tmp/s/compare.json" >"$tmp/sum.json"
cmp -s "$tmp/full.json" "$tmp/sum.json"
ok $? "compare.json from the summaries alone is the one from the traces"
[ "$_tap_failed" = 0 ] || { diff "$tmp/full.json" "$tmp/sum.json" | head -n 20 | sed 's/^/# /'; sed 's/^/# /' "$tmp/serr"; }
sed -n '1,/^Benchmark/p' "$tmp/s/compare.txt" >"$tmp/s.head"
sed -n '1,/^Benchmark/p' "$tmp/c/compare.txt" | cmp -s - "$tmp/s.head"
ok $? "compare.txt: the same header and variants"

[ "$_tap_failed" = 0 ] || sed "s|^|# |" "$tmp/err" "$tmp/c/runs.tsv"
# Nothing comparable: one clear line.
rm -f "$tmp/in"/*job10[24].tar.gz
"$TS_TOP/boards/lava/collect.sh" IN="$tmp/in" EXPERIMENT=pingpong-nohz OUT="$tmp/c2" \
	TICKSCOPE="$TICKSCOPE" >/dev/null 2>"$tmp/err2"
[ $? -ne 0 ] && grep -q "error: fewer than two variants with comparable runs" "$tmp/err2"
ok $? "with no comparable nohz-off run: $(tail -n1 "$tmp/err2")"
tap_done
