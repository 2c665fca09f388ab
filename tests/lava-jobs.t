#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make lava-jobs: the jobs of an experiment, interleaved (each batch's order shuffled from a
# seed, as make experiment shuffles it, or fixed), validated by LAVA's own job schema (Debian's
# lava-common); and each bad input stopped with one line before any YAML is written.
. "$(dirname "$0")/lib/tap.sh"
tap_tmpdir
tmp=$TAP_TMP
jobs=$TS_TOP/boards/lava/jobs.sh
printf '%s\n' "generic.kernel=http://lab.invalid/vmlinuz" \
	"generic.ramdisk=http://lab.invalid/ts-lava.cpio.gz" "generic.dtb=http://lab.invalid/b.dtb" \
	"generic.kernel_sha256=0123abcd" >"$tmp/kernels"
printf '%s\n' "name=evx" "workload=pingpong-cross" "a=default" "b=boot:nohz=off" \
	"events=sched:sched_switch sched:sched_wakeup" "iters=500" >"$tmp/evx.exp"

# gen VAR=value...: the jobs in the fixed order, A B in every batch, unless ORDER is given
gen() {
	"$jobs" KERNELS="$tmp/kernels" UPLOAD_URL=http://up.invalid/drop ORDER=fixed "$@"
}

# 1. qemu: 3 runs, 2 per boot: batches 1 (runs 1-2) and 3 (run 3), A B A B (ORDER=fixed).
gen EXPERIMENT="$tmp/evx.exp" DEVICE_TYPE=qemu RUNS=3 RUNS_PER_JOB=2 OUT="$tmp/q" 2>"$tmp/err"
ok $? "lava-jobs writes the qemu jobs"
printf '%s order=fixed\n' \
	"001-evx-b1-default.yaml variant=default kernel=generic first_run=1 runs=2" \
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

# 1b. The shuffled order, the default, as make experiment draws it (boards/lib/common.sh
# batch_sides): seed 7 gives A B, B A and seed 9 B A, A B in the first block of two batches
# (boards-experiment.t's known orders); 4 batches of 1 run, or 2 batches of 2 runs, each
# variant first in one batch of every block; jobs.txt names the order and the seed.
order_of() { # FOLDER: the variants of its jobs.txt, in order, on one line
	sed 's/^[0-9]*-[^ ]* variant=\([^ ]*\) .*/\1/' "$1/jobs.txt" | tr '\n' ' ' | sed 's/ $//'
}
"$jobs" KERNELS="$tmp/kernels" UPLOAD_URL=http://up.invalid/drop EXPERIMENT="$tmp/evx.exp" \
	DEVICE_TYPE=qemu RUNS=4 SEED=7 OUT="$tmp/s7" 2>"$tmp/err" &&
	"$jobs" KERNELS="$tmp/kernels" UPLOAD_URL=http://up.invalid/drop EXPERIMENT="$tmp/evx.exp" \
		DEVICE_TYPE=qemu RUNS=4 RUNS_PER_JOB=2 SEED=9 OUT="$tmp/s9" 2>>"$tmp/err"
ok $? "lava-jobs writes the shuffled jobs (SEED=7, SEED=9 with 2 runs per job)"
o7=$(order_of "$tmp/s7") o9=$(order_of "$tmp/s9")
is "$o7" "default nohz-off nohz-off default default nohz-off nohz-off default" \
	"SEED=7: batch 1 A B, batch 2 B A (and the next block's draw)"
is "$o9" "nohz-off default default nohz-off" "SEED=9, 2 runs per job: batch 1 B A, batch 2 A B"
is "$(ls "$tmp/s9" | grep -x '00[1-4]-evx-b[13]-[a-z-]*\.yaml' | sed 's/-evx-/ /; s/\.yaml//' |
	tr '\n' ' ')" "001 b1-nohz-off 002 b1-default 003 b3-default 004 b3-nohz-off " \
	"the jobs' names number them in that order (submit in name order)"
[ "$(grep -c ' order=shuffled seed=7$' "$tmp/s7/jobs.txt")" = 8 ] &&
	grep -q 'in order=shuffled seed=9 ' "$tmp/err"
ok $? "jobs.txt names the order and the seed on every job's line, and lava-jobs says it"
"$jobs" KERNELS="$tmp/kernels" UPLOAD_URL=http://up.invalid/drop EXPERIMENT="$tmp/evx.exp" \
	DEVICE_TYPE=qemu RUNS=2 SEED=4294967295 OUT="$tmp/smax" 2>"$tmp/err" &&
	[ "$(grep -c ' order=shuffled seed=4294967295$' "$tmp/smax/jobs.txt")" = 4 ]
ok $? "SEED=4294967295, the largest seed, is taken (ten digits)"
# no SEED: a seed drawn, written down, and the same jobs again from it
"$jobs" KERNELS="$tmp/kernels" UPLOAD_URL=http://up.invalid/drop EXPERIMENT="$tmp/evx.exp" \
	DEVICE_TYPE=qemu RUNS=4 OUT="$tmp/sd" 2>"$tmp/err"
sd=$(sed -n '1s/.* order=shuffled seed=\([0-9]*\)$/\1/p' "$tmp/sd/jobs.txt")
[ -n "$sd" ] && [ "$(grep -c " order=shuffled seed=$sd\$" "$tmp/sd/jobs.txt")" = 8 ] &&
	"$jobs" KERNELS="$tmp/kernels" UPLOAD_URL=http://up.invalid/drop \
		EXPERIMENT="$tmp/evx.exp" DEVICE_TYPE=qemu RUNS=4 SEED="$sd" OUT="$tmp/sd2" \
		2>"$tmp/err" &&
	cmp -s "$tmp/sd/jobs.txt" "$tmp/sd2/jobs.txt"
ok $? "no SEED: one is drawn ($sd) and written down; SEED=$sd gives the same jobs"
cp "$tmp/sd/jobs.txt" "$tmp/sd.before"
"$jobs" KERNELS="$tmp/kernels" UPLOAD_URL=http://up.invalid/drop EXPERIMENT="$tmp/evx.exp" \
	DEVICE_TYPE=qemu RUNS=4 OUT="$tmp/sd" 2>"$tmp/err" &&
	cmp -s "$tmp/sd.before" "$tmp/sd/jobs.txt" &&
	"$jobs" KERNELS="$tmp/kernels" UPLOAD_URL=http://up.invalid/drop EXPERIMENT="$tmp/evx.exp" \
		DEVICE_TYPE=qemu RUNS=4 SEED=9 OUT="$tmp/sd" 2>"$tmp/err" &&
	[ "$(grep -c ' order=shuffled seed=9$' "$tmp/sd/jobs.txt")" = 8 ]
ok $? "written again into the same OUT without SEED: the seed of the jobs it replaces; SEED= wins"
# jobs.txt of a lava-jobs before the order was written (no order= on its lines) is still ours
sed 's/ order=.*//' "$tmp/sd/jobs.txt" >"$tmp/sd/jobs.old" &&
	mv "$tmp/sd/jobs.old" "$tmp/sd/jobs.txt" &&
	gen EXPERIMENT="$tmp/evx.exp" DEVICE_TYPE=qemu RUNS=1 OUT="$tmp/sd" 2>"$tmp/err" &&
	[ "$(ls "$tmp/sd" | wc -l)" = 3 ]
ok $? "the jobs an earlier lava-jobs wrote without order= are replaced as its own"

# 2. hi1215 (tftp, u-boot).
gen EXPERIMENT="$tmp/evx.exp" DEVICE_TYPE=hi1215 RUNS=2 UPLOAD_TOKEN=t0k OUT="$tmp/h" 2>"$tmp/err"
ok $? "lava-jobs writes the hi1215 jobs"
grep -q "extra_kernel_args: 'nohz=off'" "$tmp/h/002-evx-b1-nohz-off.yaml" &&
	grep -q "^  TS_UPLOAD_TOKEN: 't0k'" "$tmp/h/002-evx-b1-nohz-off.yaml"
ok $? "u-boot: boot parameters as extra_kernel_args, the token a secret"

# 3. LAVA's own schema.
if /usr/bin/python3 -c 'import lava_common.schemas, yaml' 2>/dev/null; then
	"$TS_TOP/scripts/lava-validate.py" "$tmp"/q/*.yaml "$tmp"/h/*.yaml "$tmp"/s9/*.yaml \
		>"$tmp/val" 2>&1
	ok $? "every generated job validates with lava_common's schema"
	is "$(grep -c '^ok ' "$tmp/val")" 12 "12 jobs validated"
	sed 's/compression: gz/compression: lz4/' "$tmp/q/001-evx-b1-default.yaml" >"$tmp/bad.yaml"
	! "$TS_TOP/scripts/lava-validate.py" "$tmp/bad.yaml" >"$tmp/val2" 2>&1 &&
		grep -q '^invalid ' "$tmp/val2"
	ok $? "the validator rejects a broken job (an unknown compression)"
else
	skip "lava_common schema" "no lava-common (Debian package lava-common, boards/packages)"
	skip "12 jobs validated" "no lava-common"
	skip "the validator rejects a broken job" "no lava-common"
fi

# 3b. The device dictionaries a lab would hold, rendered with lava-server's own templates (of
# the installed dispatcher's version, scripts/lava-templates.sh) and the jobs' context, then
# lava-run --validate: the dispatcher builds each job's whole pipeline against them. No hi1215
# board is reachable from here: this checks the dictionary and the jobs, not the board. The
# dispatcher's tftp server (in.tftpd, /etc/default/tftpd-hpa), console (telnet) and PDU
# command are stand-ins that do nothing, in a private mount namespace.
tpl=$("$TS_TOP/scripts/lava-templates.sh" 2>"$tmp/tpl.err")
why=""
[ -n "$tpl" ] || why="no lava-server templates: $(cat "$tmp/tpl.err")"
[ -n "$why" ] || command -v lava-run >/dev/null || why="no lava-run (lava-dispatcher)"
[ -n "$why" ] || command -v mkimage >/dev/null || why="no mkimage (u-boot-tools)"
[ -n "$why" ] || [ "$(id -u)" = 0 ] || why="the tftp stand-in needs root (a mount namespace)"
[ -n "$why" ] || command -v unshare >/dev/null || why="no unshare"
if [ -n "$why" ]; then
	for t in 1 2 3 4 5 6; do skip "device dictionaries with lava-server's templates" "$why"; done
else
	for f in vmlinuz b.dtb; do echo x >"$tmp/$f"; done
	echo x | gzip >"$tmp/rd.cpio.gz"
	printf '%s\n' "generic.kernel=file://$tmp/vmlinuz" "generic.ramdisk=file://$tmp/rd.cpio.gz" \
		"generic.dtb=file://$tmp/b.dtb" >"$tmp/kernels-local"
	"$jobs" KERNELS="$tmp/kernels-local" UPLOAD_URL=http://up.invalid/ EXPERIMENT="$tmp/evx.exp" \
		DEVICE_TYPE=hi1215 RUNS=1 ORDER=fixed OUT="$tmp/hv" 2>/dev/null &&
		"$jobs" KERNELS="$tmp/kernels-local" UPLOAD_URL=http://up.invalid/ \
			EXPERIMENT="$tmp/evx.exp" DEVICE_TYPE=qemu RUNS=1 ORDER=fixed OUT="$tmp/qv" \
			2>/dev/null
	ok $? "jobs for both device types with local files (lava-run --validate fetches them)"
	mkdir -p "$tmp/stub" "$tmp/etc-default" "$tmp/tftp"
	for c in in.tftpd telnet pdu-control; do
		printf '#!/bin/sh\nexit 0\n' >"$tmp/stub/$c"
		chmod +x "$tmp/stub/$c"
	done
	cp -a /etc/default/. "$tmp/etc-default/"
	printf 'TFTP_DIRECTORY="%s"\n' "$tmp/tftp" >"$tmp/etc-default/tftpd-hpa"
	validate() { # DEVICE JOB: lava-run --validate, its log in $tmp/v.log
		unshare -m sh -c 'mount --make-rprivate / && mount --bind "$1" /etc/default &&
			PATH="$2:$PATH" lava-run --validate --device "$3" --job-id 1 \
			--output-dir "$4" "$5"' sh "$tmp/etc-default" "$tmp/stub" "$1" "$tmp/vout" "$2" \
			>"$tmp/v.log" 2>&1 &&
			grep -q '"case": "validate", "definition": "lava", "result": "pass"' "$tmp/v.log"
	}
	dict=$TS_TOP/boards/lava/devices
	"$TS_TOP/scripts/lava-device.py" "$dict/hi1215.jinja2" "$tpl" >"$tmp/hi1215.yaml" &&
		/usr/bin/python3 -c 'import sys, yaml
from lava_common.schemas.device import validate
validate(yaml.safe_load(open(sys.argv[1])))' "$tmp/hi1215.yaml"
	ok $? "hi1215.jinja2 renders with lava-server's base-uboot.jinja2 and passes the device schema"
	fails=""
	for j in "$tmp"/hv/*.yaml; do
		validate "$tmp/hi1215.yaml" "$j" || fails="$fails $(basename "$j")"
		! grep -q 'falling back to bootm' "$tmp/v.log" || fails="$fails $(basename "$j"):bootm"
	done
	is "$fails" "" "lava-run --validate builds every hi1215 job against it, booti (no bootm fallback)"
	sed 's/booti_/bootm_/' "$dict/hi1215.jinja2" >"$tmp/bootm.jinja2"
	"$TS_TOP/scripts/lava-device.py" "$tmp/bootm.jinja2" "$tpl" >"$tmp/bootm.yaml" &&
		validate "$tmp/bootm.yaml" "$tmp/hv/001-evx-b1-default.yaml" &&
		grep -q 'No booti parameters available, falling back to bootm' "$tmp/v.log"
	ok $? "(with bootm_* addresses instead, LAVA warns that it falls back to bootm)"
	j=$tmp/qv/001-evx-b1-default.yaml
	"$TS_TOP/scripts/lava-device.py" --job "$j" "$dict/qemu-lab.jinja2" "$tpl" >"$tmp/qemu.yaml" &&
		grep -q -- '- -m 2048$' "$tmp/qemu.yaml" && grep -q "extra: \['-smp 8'\]" "$tmp/qemu.yaml"
	ok $? "a lab's qemu dictionary (stock qemu.jinja2) with the job's context: the board's 2 GiB and 8 CPUs"
	fails=""
	for j in "$tmp"/qv/*.yaml; do
		"$TS_TOP/scripts/lava-device.py" --job "$j" "$dict/qemu-lab.jinja2" "$tpl" \
			>"$tmp/qemu.yaml" && validate "$tmp/qemu.yaml" "$j" || fails="$fails $(basename "$j")"
	done
	is "$fails" "" "lava-run --validate builds every qemu job against it"
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
# (a seed of ten digits was refused, though three in four drawn seeds have ten)
for o in ORDER=random SEED=-1 SEED=4294967296 SEED=12x SEED=012 SEED=00000000004; do
	bad "error: $o: " EXPERIMENT=pingpong-nohz DEVICE_TYPE=qemu KERNELS="$tmp/kernels" \
		UPLOAD_URL=http://up.invalid/ "$o"
done
# built:NAME follows the one rule of names: make bisect NAME=a+b makes built:bisect-a+b-k00,
# which lava-jobs refused ('+'); a name starting with '-' or of 65 characters is refused.
printf '%s\n' "name=plus" "workload=pingpong" "a=built:bisect-a+b-k00" "b=built:bisect-a+b-k07" \
	>"$tmp/plus.exp"
for k in k00 k07; do
	echo "bisect-a+b-$k.kernel=http://lab.invalid/$k"
	echo "bisect-a+b-$k.ramdisk=http://lab.invalid/r"
done >"$tmp/kernels-plus"
"$jobs" EXPERIMENT="$tmp/plus.exp" DEVICE_TYPE=qemu KERNELS="$tmp/kernels-plus" \
	UPLOAD_URL=http://up.invalid/ OUT="$tmp/plus" >"$tmp/out" 2>"$tmp/err" &&
	grep -q 'http://lab.invalid/k07' "$tmp/plus/"*-bisect-a+b-k07.yaml
ok $? "built:bisect-a+b-k00 (make bisect NAME=a+b) is a name lava-jobs takes"
long=$(printf 'x%.0s' $(seq 1 65))
for n in -x "$long"; do
	printf '%s\n' "workload=pingpong" "a=default" "b=built:$n" >"$tmp/badname.exp"
	bad "b: 'built:$n': NAME is not a name: use letters, digits" EXPERIMENT="$tmp/badname.exp" \
		DEVICE_TYPE=qemu KERNELS="$tmp/kernels" UPLOAD_URL=http://up.invalid/
done
# RUNS=00 and a RUNS beyond the shell's arithmetic wrote no job and exited 0 ("[: Illegal
# number"); a leading 0 (08) is no decimal to the shell either
for r in 00 08 99999999999999999999 1000000; do
	bad "RUNS must be a whole number from 1 to 999999, not '$r'" \
		EXPERIMENT=pingpong-nohz DEVICE_TYPE=qemu KERNELS="$tmp/kernels" \
		UPLOAD_URL=http://up.invalid/ RUNS="$r"
done
bad "RUNS_PER_JOB must be a whole number from 1 to 999999, not '0'" \
	EXPERIMENT=pingpong-nohz DEVICE_TYPE=qemu KERNELS="$tmp/kernels" \
	UPLOAD_URL=http://up.invalid/ RUNS_PER_JOB=0
# The experiment's figures went unchecked into the board's command line (iters=1e12, a
# warmup of "5; reboot", callchains=yes that ts-record.sh read as no -g): bounded as record.sh
# bounds them
xbad() { # WANT KEY=VALUE: evx.exp with KEY=VALUE added is refused
	{ grep -v "^${2%%=*}=" "$tmp/evx.exp"; printf '%s\n' "$2"; } >"$tmp/x.exp"
	bad "$1" EXPERIMENT="$tmp/x.exp" DEVICE_TYPE=qemu KERNELS="$tmp/kernels" \
		UPLOAD_URL=http://up.invalid/
}
xbad "x.exp: iters must be a whole number from 1 to 100000000, not '1000000000000'" \
	iters=1000000000000
xbad "x.exp: iters must be a whole number from 1 to 100000000, not '0'" iters=0
xbad "x.exp: warmup must be a whole number from 0 to 100000000, not '5; reboot'" \
	"warmup=5; reboot"
xbad "x.exp: delay_us must be a whole number from 0 to 10000000, not '1e9'" delay_us=1e9
xbad "x.exp: workers must be a whole number from 1 to 4096, not '5000'" workers=5000
xbad "x.exp: duration must be a whole number from 1 to 86400, not '-1'" duration=-1
xbad "x.exp: mmap '16Q' is not a size" mmap=16Q
xbad "x.exp: callchains must be 1, y, yes, 0, n or no" callchains=maybe
xbad "x.exp: recorder must be auto, perf or tickscope" "recorder=perf -a"
xbad "x.exp: events holds a quote or a control character" "events=sched:sched_switch'x"
{ cat "$tmp/evx.exp"; printf '%s\n' callchains=yes warmup=0 mmap=16M; } >"$tmp/y.exp"
gen EXPERIMENT="$tmp/y.exp" DEVICE_TYPE=qemu RUNS=1 OUT="$tmp/y" >/dev/null 2>"$tmp/err" &&
	grep -q -- "--warmup 0 .*--mmap 16M --callchains 1 " "$tmp/y/001-evx-b1-default.yaml"
ok $? "callchains=yes reaches the board as 1 (ts-record.sh's -g), in-range figures as given"
# The device type's board profile was read by kv_get, not as every other script reads one: of
# a key given twice the later was taken, a CRLF's carriage return stayed in the value and a
# typo (QEMU_MEMROY=) was ignored. A copy of boards/ with a broken qemu-aarch64.board.
mkdir -p "$tmp/top"
cp -R "$TS_TOP/boards" "$tmp/top/"
: >"$tmp/top/Makefile"
pb=$tmp/top/boards/qemu-aarch64.board
cp "$pb" "$tmp/pb"
pbad() { # WANT: lava-jobs of the tree in $tmp/top, its profile as made: one line, no YAML
	rm -rf "$tmp/b"
	TS_TOP=$tmp/top "$tmp/top/boards/lava/jobs.sh" EXPERIMENT="$tmp/evx.exp" DEVICE_TYPE=qemu \
		KERNELS="$tmp/kernels" UPLOAD_URL=http://up.invalid/ OUT="$tmp/b" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -ne 0 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -q "$1" "$tmp/err" &&
		[ ! -e "$tmp/b" ]
	ok $? "the board's profile: $(cat "$tmp/err")"
	cp "$tmp/pb" "$pb"
}
echo CPUS=64 >>"$pb"
pbad "qemu-aarch64.board:$(wc -l <"$pb"): CPUS given twice (first on line $(grep -n '^CPUS=' "$pb" | head -1 | cut -d: -f1))"
echo QEMU_MEMROY=4G >>"$pb"
pbad "qemu-aarch64.board:$(wc -l <"$pb"): QEMU_MEMROY is not a profile key"
sed -i 's/$/\r/' "$pb"
pbad "qemu-aarch64.board:1: a carriage return ends the line (CRLF line ends)"
sed -i 's/^QEMU_MEM=.*/QEMU_MEM="2G/' "$pb"
pbad "qemu-aarch64.board:$(grep -n '^QEMU_MEM=' "$pb" | cut -d: -f1): unbalanced quote"
# 5. OUT= a folder of the user's: `make lava-jobs OUT=~/lab` deleted the NNN-*.yaml and jobs.txt
# already there. A re-run replaces only the jobs lava-jobs wrote; a job file or jobs.txt it did
# not write stops it (one line, nothing removed, nothing written); other files stay.
mkdir "$tmp/u"
printf 'my job\n' >"$tmp/u/001-mine.yaml"
printf 'mine\n' >"$tmp/u/notes.txt"
gen EXPERIMENT="$tmp/evx.exp" DEVICE_TYPE=qemu RUNS=1 OUT="$tmp/u" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -ne 0 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
	grep -q "001-mine.yaml is not a job lava-jobs wrote" "$tmp/err" &&
	[ "$(cat "$tmp/u/001-mine.yaml")" = "my job" ] && [ ! -e "$tmp/u/jobs.txt" ] &&
	[ "$(ls "$tmp/u" | wc -l)" -eq 2 ]
ok $? "a job file of the user's in OUT: refused in one line, kept, nothing written"
rm "$tmp/u/001-mine.yaml"
printf 'call the lab on monday\n' >"$tmp/u/jobs.txt"
gen EXPERIMENT="$tmp/evx.exp" DEVICE_TYPE=qemu RUNS=1 OUT="$tmp/u" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc -ne 0 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] &&
	grep -q "holds a jobs.txt that lava-jobs did not write" "$tmp/err" &&
	[ "$(cat "$tmp/u/jobs.txt")" = "call the lab on monday" ]
ok $? "a jobs.txt of the user's in OUT: refused in one line, kept"
rm "$tmp/u/jobs.txt"
gen EXPERIMENT="$tmp/evx.exp" DEVICE_TYPE=qemu RUNS=2 OUT="$tmp/u" >/dev/null 2>"$tmp/err" &&
	[ -f "$tmp/u/004-evx-b2-nohz-off.yaml" ] && [ "$(cat "$tmp/u/notes.txt")" = mine ]
ok $? "a folder with other files: the jobs written beside them, the files kept"
gen EXPERIMENT="$tmp/evx.exp" DEVICE_TYPE=qemu RUNS=1 OUT="$tmp/u" >/dev/null 2>"$tmp/err" &&
	[ ! -e "$tmp/u/004-evx-b2-nohz-off.yaml" ] && [ "$(wc -l <"$tmp/u/jobs.txt")" -eq 2 ] &&
	[ "$(ls "$tmp/u" | wc -l)" -eq 4 ] && [ "$(cat "$tmp/u/notes.txt")" = mine ]
ok $? "a re-run replaces the jobs lava-jobs wrote there (4 jobs, then 2), the user's file kept"
: >"$tmp/ufile"
gen EXPERIMENT="$tmp/evx.exp" DEVICE_TYPE=qemu RUNS=1 OUT="$tmp/ufile" >/dev/null 2>"$tmp/err"
[ $? -ne 0 ] && [ "$(wc -l <"$tmp/err")" -eq 1 ] && grep -q "not a folder" "$tmp/err"
ok $? "OUT= an existing file: refused in one line"
tap_done
