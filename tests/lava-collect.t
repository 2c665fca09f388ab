#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make lava-collect without a lab: real emulated-board runs (tests/fixtures/experiment/) packed
# as LAVA jobs upload them, plus runs that must be set aside (another kernel, board type,
# experiment, a failed run, a broken archive); the kept runs, and only they, reach compare.
. "$(dirname "$0")/lib/tap.sh"
command -v xz >/dev/null || skip_all "no xz"
[ -x "$TICKSCOPE" ] || skip_all "no $TICKSCOPE (make all)"
tap_tmpdir
tmp=$TAP_TMP
fx=$TS_TOP/tests/fixtures/experiment/qemu-aarch64-pingpong-default-vs-nohz-off
mkdir -p "$tmp/in"

# lava_run SRC VARIANT K JOB [KEY=VALUE...]: SRC as ts-lava-run.sh publishes it: meta.txt
# with the LAVA notes (the edits override them), packed alone into one job's archive.
lava_run() {
	src=$1 v=$2 k=$3 job=$4
	shift 4
	d=$tmp/stage/$job/pingpong-nohz/$v/run-$k
	mkdir -p "$d"
	cp -r "$src"/. "$d/"
	{
		grep -v -e '^variant_check' -e '^variant_mismatch' -e '^status=' "$src/meta.txt"
		echo "device_type=qemu"
		echo "experiment=pingpong-nohz"
		echo "lava_job=$job"
		echo "kernel_hash=4b1d0e5c0ffee"
		echo "status=complete"
	} >"$d/meta.txt"
	for e in "$@"; do
		sed -i "s/^${e%%=*}=.*/$e/" "$d/meta.txt"
	done
	(cd "$tmp/stage/$job/pingpong-nohz" && tar czf "$tmp/in/pingpong-nohz-$v-job$job.tar.gz" "$v")
}
lava_run "$fx/default/run-1" default 1 101
lava_run "$fx/nohz-off/run-1" nohz-off 1 102
lava_run "$fx/default/run-2" default 2 103
lava_run "$fx/nohz-off/run-2" nohz-off 2 104
lava_run "$fx/default/run-1" default 3 105 kernel_hash=99aa00ff7777
lava_run "$fx/nohz-off/run-1" nohz-off 3 106 device_type=hi1215
lava_run "$fx/default/run-2" default 4 107 status=failed
lava_run "$fx/nohz-off/run-2" nohz-off 4 108 experiment=pingpong-rt
lava_run "$fx/default/run-2" default 5 110 events=sched:sched_switch
echo "not an archive" >"$tmp/in/pingpong-nohz-default-job109.tar.gz"

"$TS_TOP/boards/lava/collect.sh" IN="$tmp/in" EXPERIMENT=pingpong-nohz OUT="$tmp/c" \
	TICKSCOPE="$TICKSCOPE" >"$tmp/out" 2>"$tmp/err"
ok $? "lava-collect compares what it kept"
is "$(grep -c '^kept' "$tmp/c/runs.tsv")" 4 "four runs kept"
reason() {
	grep -qF "job$1/$2/run-$3 (variant $2, job $1): $4" "$tmp/err"
	ok $? "job $1 set aside: $4"
}
reason 105 default 3 "kernel 99aa00ff7777 differs from the one of variant default's other runs (4b1d0e5c0ffe)"
reason 106 nohz-off 3 "board type hi1215, the others ran on qemu"
reason 107 default 4 "incomplete (status=failed)"
reason 108 nohz-off 4 "another experiment (pingpong-rt)"
reason 110 default 5 "other events than variant default's other runs (sched:sched_switch)"
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

[ "$_tap_failed" = 0 ] || sed "s|^|# |" "$tmp/err" "$tmp/c/runs.tsv"
# Nothing comparable: one clear line.
rm -f "$tmp/in"/*job10[24].tar.gz
"$TS_TOP/boards/lava/collect.sh" IN="$tmp/in" EXPERIMENT=pingpong-nohz OUT="$tmp/c2" \
	TICKSCOPE="$TICKSCOPE" >/dev/null 2>"$tmp/err2"
[ $? -ne 0 ] && grep -q "error: fewer than two variants with comparable runs" "$tmp/err2"
ok $? "with no comparable nohz-off run: $(tail -n1 "$tmp/err2")"
tap_done
