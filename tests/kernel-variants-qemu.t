#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make check-kernel-variants: build hz-periodic and nohz-idle kernels for qemu-aarch64 (make
# kernel), record the ping-pong on both interleaved and check compare's answer; then the
# shrinker patch variant against nohz-idle on stress-ng ramfs, the shrinker case three ways (with
# our fix), and the vmstat case three ways (qemu-aarch64, then qemu-x86).
# Slow; not in CI.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/kernel-variants.sh"
[ "${TS_CHECK_KERNEL_VARIANTS:-0}" = 1 ] ||
	skip_all "kernel builds run in 'make check-kernel-variants'"
[ "$(id -u)" = 0 ] || skip_all "needs root (apt-get download of arm64 packages)"
command -v qemu-system-aarch64 >/dev/null || skip_all "no qemu-system-aarch64"
command -v aarch64-linux-gnu-gcc >/dev/null || skip_all "no aarch64-linux-gnu-gcc"
[ -r /usr/src/linux-source-6.1.tar.xz ] || skip_all "no linux-source-6.1"
[ -x "$TICKSCOPE" ] || skip_all "no $TICKSCOPE (make all)"
runs=${TS_KV_RUNS:-8}
# The experiment stays in results/ (resumable, and what tests/fixtures/kernel-variants/ holds).
results=${TS_KV_RESULTS:-$TS_TOP/results}
mkdir -p "$results/experiments"

# hz-periodic against nohz-idle (TS_KV_TICK=0 leaves it out)
if [ "${TS_KV_TICK:-1}" = 1 ]; then
	name=qemu-aarch64-pingpong-nohz-idle-vs-hz-periodic
	exp=$results/experiments/$name
	log=$results/experiments/$name.log
	t0=$(date +%s)
	"$TS_TOP/boards/experiment.sh" BOARD=qemu-aarch64 WORKLOAD=pingpong A=nohz-idle \
		B=hz-periodic RUNS="$runs" ITERS=5000 WARMUP=500 NAME=$name RESULTS="$results" \
		TICKSCOPE="$TICKSCOPE" CONFIG=/dev/null >"$log" 2>&1
	rc=$?
	el=$(($(date +%s) - t0))
	ok $rc "make experiment A=nohz-idle B=hz-periodic RUNS=$runs (${el}s; $log)"
	[ $rc -eq 0 ] || tail -n 30 "$log" | sed 's/^/# /'
	grep -E '^(kernel|experiment): ' "$log" | grep -E 'built in|reusing|\] .* run [0-9]+:' |
		sed 's/^/# /'
	sed -n '1,14p; /^What changed/,/^$/p' "$exp/compare.txt" 2>/dev/null | sed 's/^/# /'

	for v in nohz-idle hz-periodic; do
		grep -q '^guest_kernel=built' "$exp/$v/run-1/meta.txt" &&
			grep -q '^built_config_sha256=' "$exp/$v/variant.txt"
		ok $? "$v: the runs booted the built kernel, whose record is in variant.txt"
	done
	ca=$(sed -n 's/^built_config_sha256=//p' "$exp/nohz-idle/variant.txt")
	cb=$(sed -n 's/^built_config_sha256=//p' "$exp/hz-periodic/variant.txt")
	[ -n "$ca" ] && [ "$ca" != "$cb" ]
	ok $? "the two kernels have different configs"
	kv_tick_answer "$exp" nohz-idle hz-periodic "$runs"
fi

# The shrinker patch variant against its baseline (make kernel reuses the nohz-idle config and
# ccache), stress-ng ramfs with callchains. Under TCG the runs of one variant differ up to 5x in
# bogo-ops/s (2026-12-01: 237-1341 and 132-581): with 10 a side the fall was not significant
# (p 0.075), with 20 it was (p 0.0022). TS_KV_SHRINKER=0 leaves it out.
if [ "${TS_KV_SHRINKER:-1}" = 1 ]; then
	sruns=${TS_KV_SHRINKER_RUNS:-20}
	sname=qemu-aarch64-stress-ramfs-nohz-idle-vs-shrinker-srcu
	slog=$results/experiments/$sname.log
	t0=$(date +%s)
	"$TS_TOP/boards/experiment.sh" BOARD=qemu-aarch64 WORKLOAD=stress-ramfs A=nohz-idle \
		B=shrinker-srcu RUNS="$sruns" WORKERS=2 DURATION=5 CALLCHAINS=1 NAME=$sname \
		RESULTS="$results" TICKSCOPE="$TICKSCOPE" CONFIG=/dev/null >"$slog" 2>&1
	rc=$?
	ok $rc "make experiment A=nohz-idle B=shrinker-srcu RUNS=$sruns ($(($(date +%s) - t0))s; $slog)"
	[ $rc -eq 0 ] || tail -n 30 "$slog" | sed 's/^/# /'
	sed -n '1,30p' "$results/experiments/$sname/compare.txt" 2>/dev/null | sed 's/^/# /'
	kv_shrinker_answer "$results/experiments/$sname" nohz-idle shrinker-srcu "$sruns"
fi

# The shrinker case three ways: the baseline, the SRCU patch and our fix on top of it
# (boards/patches/shrinker-fix), synchronize_srcu probed (make qemu-aarch64-shrinker3_defconfig).
# TS_KV_SHRINKER3=0 leaves it out.
if [ "${TS_KV_SHRINKER3:-1}" = 1 ]; then
	tname=qemu-aarch64-stress-ramfs-nohz-idle-vs-shrinker-srcu-and-fix
	tlog=$results/experiments/$tname.log
	t0=$(date +%s)
	"$TS_TOP/boards/experiment.sh" BOARD=qemu-aarch64 WORKLOAD=stress-ramfs A=nohz-idle \
		B=shrinker-srcu C=shrinker-fix RUNS="$runs" WORKERS=2 DURATION=5 CALLCHAINS=1 \
		PROBES=synchronize_srcu REPRODUCES=shrinker-srcu NAME=$tname RESULTS="$results" \
		TICKSCOPE="$TICKSCOPE" CONFIG=/dev/null >"$tlog" 2>&1
	rc=$?
	ok $rc "make experiment the shrinker case three ways, RUNS=$runs ($(($(date +%s) - t0))s; $tlog)"
	[ $rc -eq 0 ] || tail -n 30 "$tlog" | sed 's/^/# /'
	sed -n '1,20p' "$results/experiments/$tname/compare.txt" 2>/dev/null | sed 's/^/# /'
	kv_shrinker3_answer "$results/experiments/$tname" nohz-idle shrinker-srcu shrinker-fix "$runs"
fi

# The vmstat case three ways (boards/patches/vmstat-44-*, stock nohz-idle), ping-pong free to
# move with quiet_vmstat probed, then pinned on one CPU as the control. The mechanism is
# asserted; the round trip only reported (tests/lib/kernel-variants.sh).
# vmstat_experiment BOARD WORKLOAD NAME [SETTING...]: record it with the settings that make
# BOARD-vmstat_defconfig && make experiment records (so either resumes the other's runs), check
# they are the committed fixture's, then the answers of the code.
vmstat_experiment() {
	vlog=$results/experiments/$3.log
	t0=$(date +%s)
	"$TS_TOP/boards/experiment.sh" BOARD=$1 WORKLOAD=$2 A=built:vmstat-44-before \
		A_FRAGMENTS="nohz-idle tracing" A_PATCHES=boards/patches/vmstat-44-before \
		B=built:vmstat-44-after B_FRAGMENTS="nohz-idle tracing" \
		B_PATCHES=boards/patches/vmstat-44-after C=built:nohz-idle \
		C_FRAGMENTS="nohz-idle tracing" ITERS=20000 WORKERS=9 DURATION=10 CALLCHAINS=n \
		RUNS="$runs" REPRODUCES=vmstat-44 PROBES="quiet_vmstat refresh_cpu_vm_stats" \
		NAME=$3 RESULTS="$results" TICKSCOPE="$TICKSCOPE" CONFIG=/dev/null $4 $5 \
		>"$vlog" 2>&1
	rc=$?
	el=$(($(date +%s) - t0))
	ok $rc "make experiment vmstat three ways, $1 $2, RUNS=$runs (${el}s; $vlog)"
	[ $rc -eq 0 ] || tail -n 30 "$vlog" | sed 's/^/# /'
	cmp -s "$results/experiments/$3/settings.txt" \
		"$TS_TOP/tests/fixtures/kernel-variants/$3/settings.txt"
	ok $? "$3: the settings of the committed fixture"
	sed -n '1,14p' "$results/experiments/$3/compare.txt" 2>/dev/null | sed 's/^/# /'
	kv_vmstat_answer "$results/experiments/$3" vmstat-44-before vmstat-44-after nohz-idle "$runs"
}
# qemu-aarch64 (TS_KV_VMSTAT=0 leaves it out): same-CPU round trips take 1.3-18 ms under TCG,
# 2000 of them fit the boot timeout.
if [ "${TS_KV_VMSTAT:-1}" = 1 ]; then
	v=vmstat-44-before-vs-vmstat-44-after-vs-nohz-idle
	vmstat_experiment qemu-aarch64 pingpong qemu-aarch64-pingpong-$v
	vmstat_experiment qemu-aarch64 pingpong-same qemu-aarch64-pingpong-same-$v ITERS=2000 \
		WARMUP=200
fi
# The x86 guest (make qemu-x86-vmstat_defconfig and qemu-x86-vmstat-same_defconfig: the seed's
# 8 vCPUs), 20000 round trips each: TCG on this host, which has no vmx (18-59 s a recording,
# 2026-12-05), KVM where usable. TS_KV_VMSTAT_X86=0 leaves it out.
if [ "${TS_KV_VMSTAT_X86:-1}" = 1 ] && ! command -v qemu-system-x86_64 >/dev/null; then
	skip "vmstat three ways on qemu-x86" "no qemu-system-x86_64"
elif [ "${TS_KV_VMSTAT_X86:-1}" = 1 ]; then
	v=vmstat-44-before-vs-after-vs-nohz-idle
	vmstat_experiment qemu-x86 pingpong qemu-x86-pingpong-$v
	vmstat_experiment qemu-x86 pingpong-same qemu-x86-pingpong-same-$v
fi
tap_done
