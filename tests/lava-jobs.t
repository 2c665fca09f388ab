#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make lava-jobs: the jobs of an experiment, interleaved, validated by LAVA's own job schema
# (Debian's lava-common); and each bad input stopped with one line before any YAML is written.
. "$(dirname "$0")/lib/tap.sh"
tap_tmpdir
tmp=$TAP_TMP
jobs=$TS_TOP/boards/lava/jobs.sh
printf '%s\n' "generic.kernel=http://lab.invalid/vmlinuz" \
	"generic.ramdisk=http://lab.invalid/ts-lava.cpio.gz" "generic.dtb=http://lab.invalid/b.dtb" \
	"generic.kernel_sha256=0123abcd" >"$tmp/kernels"
printf '%s\n' "name=evx" "workload=pingpong-cross" "a=default" "b=boot:nohz=off" \
	"events=sched:sched_switch sched:sched_wakeup" "iters=500" >"$tmp/evx.exp"

gen() {
	"$jobs" KERNELS="$tmp/kernels" UPLOAD_URL=http://up.invalid/drop "$@"
}

# 1. qemu: 3 runs, 2 per boot: batches 1 (runs 1-2) and 3 (run 3), A B A B.
gen EXPERIMENT="$tmp/evx.exp" DEVICE_TYPE=qemu RUNS=3 RUNS_PER_JOB=2 OUT="$tmp/q" 2>"$tmp/err"
ok $? "lava-jobs writes the qemu jobs"
printf '%s\n' "001-evx-b1-default.yaml variant=default kernel=generic first_run=1 runs=2" \
	"002-evx-b1-nohz-off.yaml variant=nohz-off kernel=generic first_run=1 runs=2" \
	"003-evx-b3-default.yaml variant=default kernel=generic first_run=3 runs=1" \
	"004-evx-b3-nohz-off.yaml variant=nohz-off kernel=generic first_run=3 runs=1" |
	cmp -s - "$tmp/q/jobs.txt"
ok $? "one job per variant batch, the variants interleaved (jobs.txt)"
grep -q -- "-append \"console=ttyAMA0 rdinit=/init panic=-1 nohz=off\"" \
	"$tmp/q/002-evx-b1-nohz-off.yaml" && ! grep -q nohz=off "$tmp/q/001-evx-b1-default.yaml"
ok $? "the variant's boot parameters are on its kernel's command line only"
grep -q -- "--first-run 3 --runs 1 .*--workload pingpong-cross .*--events ''sched:sched_switch,sched:sched_wakeup'' --iters 500 .*--pin-cross 1,2" \
	"$tmp/q/003-evx-b3-default.yaml"
ok $? "the recorder gets the run numbers, workload, events, iterations and the board's pins"
grep -q "^  TS_UPLOAD_URL: 'http://up.invalid/drop'" "$tmp/q/001-evx-b1-default.yaml"
ok $? "the upload URL is a job secret"
! grep -q -- "--traces" "$tmp/q/001-evx-b1-default.yaml" &&
	grep -q "^  tickscope.traces: 0" "$tmp/q/001-evx-b1-default.yaml"
ok $? "by default the boards send summaries, not traces (no --traces 1; metadata traces 0)"
gen EXPERIMENT="$tmp/evx.exp" DEVICE_TYPE=qemu RUNS=1 TRACES=1 OUT="$tmp/t" 2>"$tmp/err" &&
	grep -q -- "--kernel-sha256 0123abcd --traces 1 " "$tmp/t/001-evx-b1-default.yaml"
ok $? "TRACES=1: the recorder is asked to send the traces too"
printf 'traces=1\n' >>"$tmp/evx.exp"
gen EXPERIMENT="$tmp/evx.exp" DEVICE_TYPE=qemu RUNS=1 OUT="$tmp/t2" 2>"$tmp/err" &&
	grep -q -- "--traces 1 " "$tmp/t2/002-evx-b1-nohz-off.yaml" &&
	gen EXPERIMENT="$tmp/evx.exp" DEVICE_TYPE=qemu RUNS=1 TRACES=0 OUT="$tmp/t3" 2>"$tmp/err" &&
	! grep -q -- "--traces" "$tmp/t3/002-evx-b1-nohz-off.yaml"
ok $? "the experiment's traces=1 does the same, and TRACES=0 overrides it"

# 2. hi1215 (tftp, u-boot).
gen EXPERIMENT="$tmp/evx.exp" DEVICE_TYPE=hi1215 RUNS=2 UPLOAD_TOKEN=t0k OUT="$tmp/h" 2>"$tmp/err"
ok $? "lava-jobs writes the hi1215 jobs"
grep -q "extra_kernel_args: 'nohz=off'" "$tmp/h/002-evx-b1-nohz-off.yaml" &&
	grep -q "^  TS_UPLOAD_TOKEN: 't0k'" "$tmp/h/002-evx-b1-nohz-off.yaml"
ok $? "u-boot: boot parameters as extra_kernel_args, the token a secret"

# 3. LAVA's own schema.
if /usr/bin/python3 -c 'import lava_common.schemas, yaml' 2>/dev/null; then
	"$TS_TOP/scripts/lava-validate.py" "$tmp"/q/*.yaml "$tmp"/h/*.yaml >"$tmp/val" 2>&1
	ok $? "every generated job validates with lava_common's schema"
	is "$(grep -c '^ok ' "$tmp/val")" 8 "8 jobs validated"
	sed 's/compression: gz/compression: lz4/' "$tmp/q/001-evx-b1-default.yaml" >"$tmp/bad.yaml"
	! "$TS_TOP/scripts/lava-validate.py" "$tmp/bad.yaml" >"$tmp/val2" 2>&1 &&
		grep -q '^invalid ' "$tmp/val2"
	ok $? "the validator rejects a broken job (an unknown compression)"
else
	skip "lava_common schema" "no lava-common (Debian package lava-common, boards/packages)"
	skip "8 jobs validated" "no lava-common"
	skip "the validator rejects a broken job" "no lava-common"
fi

# 4. Bad input: one line, non-zero, and no YAML written.
bad() {
	want=$1
	shift
	rm -rf "$tmp/b"
	"$jobs" OUT="$tmp/b" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -ne 0 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "$want" "$tmp/err" &&
		[ ! -e "$tmp/b" ]
	ok $? "$(cat "$tmp/err")"
}
bad "unknown device type 'rpi9' (known: hi1215 qemu)" EXPERIMENT=pingpong-nohz DEVICE_TYPE=rpi9 \
	KERNELS="$tmp/kernels" UPLOAD_URL=http://up.invalid/
bad "variant 'rt' has no rt kernel for device type qemu: no rt.kernel= in $tmp/kernels" \
	EXPERIMENT=pingpong-rt DEVICE_TYPE=qemu KERNELS="$tmp/kernels" UPLOAD_URL=http://up.invalid/
bad "UPLOAD_URL= is missing" EXPERIMENT=pingpong-nohz DEVICE_TYPE=qemu KERNELS="$tmp/kernels"
grep -v dtb "$tmp/kernels" >"$tmp/kernels-nodtb"
bad "no generic.dtb= in" EXPERIMENT=pingpong-nohz DEVICE_TYPE=hi1215 UPLOAD_URL=http://u.invalid/ \
	KERNELS="$tmp/kernels-nodtb"
printf '%s\n' "workload=pingpong" "a=default" "b=nohz-of" >"$tmp/typo.exp"
bad "unknown variant 'nohz-of'" EXPERIMENT="$tmp/typo.exp" DEVICE_TYPE=qemu \
	KERNELS="$tmp/kernels" UPLOAD_URL=http://up.invalid/
bad "TRACES (or the experiment's traces=) must be 0 or 1, not 'yes'" EXPERIMENT=pingpong-nohz \
	DEVICE_TYPE=qemu KERNELS="$tmp/kernels" UPLOAD_URL=http://up.invalid/ TRACES=yes
tap_done
