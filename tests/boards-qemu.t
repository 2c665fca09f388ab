#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make check-boards: boot the emulated aarch64 board once (generic kernel), check that a real
# aarch64 perf.data comes back complete and decodable, that the package cache is reused, and
# that a hung boot, a panic and a missing results disk each end in a clear error.
. "$(dirname "$0")/lib/tap.sh"
[ "${TS_CHECK_BOARDS:-0}" = 1 ] || skip_all "qemu boots run in 'make check-boards'"
[ "$(id -u)" = 0 ] || skip_all "needs root (apt-get download of arm64 packages)"
command -v qemu-system-aarch64 >/dev/null || skip_all "no qemu-system-aarch64"
command -v perf >/dev/null || skip_all "no perf"
tap_tmpdir
tmp=$TAP_TMP
cd "$TS_TOP" || exit 1

boards/qemu/fetch.sh --arch arm64 --flavour generic >"$tmp/log" 2>&1
rc=$?
ok $rc "fetch the arm64 packages (kernel, busybox-static, linux-perf, stress-ng, libraries)"
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/log"
boards/qemu/fetch.sh --arch arm64 --flavour generic >"$tmp/log" 2>&1 &&
	grep -q 'arm64: 0 package(s) downloaded now' "$tmp/log"
ok $? "a second fetch downloads nothing"

# Two fetches of one cache at once (two experiments): the second waits for the first's lock.
# The test holds the lock; the fetch must say it waits, and finish once the lock is dropped.
lock=${TS_CACHE:-$TS_TOP/.cache/boards}/.fetch-arm64.lock
mkfifo "$tmp/hold"
flock "$lock" sh -c 'read -r x <"$1"' sh "$tmp/hold" &
holder=$!
until [ -s "$tmp/held" ]; do # the holder has the lock once a try-lock fails
	flock -n "$lock" true || echo held >"$tmp/held"
done
boards/qemu/fetch.sh --arch arm64 --flavour generic >"$tmp/log2" 2>&1 &
fetcher=$!
i=0
until grep -q 'waiting for another fetch of the arm64 cache' "$tmp/log2" ||
	! kill -0 $fetcher 2>/dev/null || [ $i -ge "$TS_HANG_GUARD" ]; do
	sleep 1
	i=$((i + 1))
done
grep -q 'waiting for another fetch of the arm64 cache' "$tmp/log2"
ok $? "a fetch waits while another holds the arm64 cache's lock"
echo go >"$tmp/hold"
wait $holder
wait $fetcher
rc=$?
ok $rc "it finishes once the lock is dropped"
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/log2"

# A run whose trace lost one half of an entry/exit pair (under TCG with the host loaded, a
# tracepoint stays off for a whole run now and then: 2 runs in 50, tests/experiment-qemu.t) is
# refused by the recorder; RETRIES=2 records it again, as a LAVA job does, and says so.
refusals() {
	sed -n 's/^refused_attempts=//p; s/^refused_reason=/: /p' "$1/meta.txt" 2>/dev/null | tr -d '\n'
}
t0=$(date +%s)
make --no-print-directory -s BUILD="$TS_BUILD" record BOARD=qemu-aarch64 VARIANT=generic \
	WORKLOAD=pingpong-cross RUNS=1 ITERS=1000 RETRIES=2 RESULTS="$tmp/r" >"$tmp/log" 2>&1
rc=$?
ok $rc "make record BOARD=qemu-aarch64 VARIANT=generic ($(($(date +%s) - t0))s)"
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/log"
grep -q '^\[ *[0-9]*s\] ts-guest: up after' "$tmp/log" && grep -q '^\[ *[0-9]*s\] ts-record: run 1' "$tmp/log"
ok $? "progress lines while booting and recording"
grep 'reached /init' "$tmp/log" | sed 's/^/# /'

d=$tmp/r/qemu-aarch64/generic/pingpong-cross/run-1
[ -z "$(refusals "$d")" ] || diag "run 1 recorded again; attempts refused: $(refusals "$d")"
is "$(tail -n1 "$d/meta.txt" 2>/dev/null)" "status=complete" "the run folder is complete"
for f in perf.data kallsyms workload.out kconfig nohz.txt events.txt console.log; do
	[ -s "$d/$f" ] || echo "# missing $f"
done
perf report -i "$d/perf.data" --header-only >"$tmp/hdr" 2>&1
grep -q '^# arch : aarch64' "$tmp/hdr" && grep -q '^# os release : 6\.1\..*arm64' "$tmp/hdr" &&
	grep -q '^# nrcpus online : 8' "$tmp/hdr"
ok $? "perf report --header-only: aarch64, Debian's arm64 6.1 kernel, 8 CPUs"
perf report -i "$d/perf.data" --stats >"$tmp/stats" 2>&1
sw=$(awk '/^sched:sched_switch stats:/ { getline; print $3 }' "$tmp/stats")
[ "${sw:-0}" -gt 100 ]
ok $? "perf report --stats decodes it: ${sw:-0} sched_switch samples"
# Another kernel's file: only the saved kallsyms can name the timer functions.
perf script -i "$d/perf.data" --kallsyms "$d/kallsyms" 2>/dev/null |
	grep -m1 -q 'hrtimer_expire_entry:.*function=tick_sched_timer'
ok $? "perf script with the saved kallsyms names hrtimer functions (tick_sched_timer)"
grep -q '^chosen timer:hrtimer_init (instead of timer:hrtimer_setup' "$d/events.txt" &&
	grep -q '^missing rcu:rcu_grace_period (needs CONFIG_RCU_TRACE)' "$d/events.txt"
ok $? "events picked for 6.1: hrtimer_init for hrtimer_setup, rcu_grace_period stated missing"
grep -q '^AF_UNIX sock stream latency: [0-9.]* microseconds$' "$d/workload.out" &&
	grep -q '^qemu_accel=tcg$' "$d/meta.txt" && grep -q '^guest_kernel=generic$' "$d/meta.txt"
ok $? "the workload ran in the guest; meta.txt says how (tcg, generic kernel)"
# check-boards builds tickscope first: a missing binary is a failure, not a skip.
"$TICKSCOPE" info "$d/perf.data" >"$tmp/info" 2>&1
ok $? "tickscope info reads the aarch64 recording"
"$TICKSCOPE" report --json "$d/perf.data" 2>&1 | grep -q '"exits":{[^}]*"ipi":[0-9]'
ok $? "tickscope report counts idle exits by IPI on arm64 (a count, not null)"
grep -q '^chosen ipi:ipi_entry$' "$d/events.txt"
ok $? "arm64 records IPI arrivals (ipi:ipi_entry), which idle exits by IPI need"

# The same board recording with the static aarch64 tickscope instead of perf (for boards whose
# perf is missing or broken): the whole dump oracle holds on its file.
t0=$(date +%s)
make --no-print-directory -s BUILD="$TS_BUILD" record BOARD=qemu-aarch64 VARIANT=generic \
	WORKLOAD=pingpong-cross RUNS=1 ITERS=1000 RECORDER=tickscope RETRIES=2 RESULTS="$tmp/rt" \
	>"$tmp/log" 2>&1
rc=$?
ok $rc "make record BOARD=qemu-aarch64 RECORDER=tickscope ($(($(date +%s) - t0))s)"
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/log"
dt=$tmp/rt/qemu-aarch64/generic/pingpong-cross/run-1
grep -qx 'recorder=tickscope' "$dt/meta.txt" &&
	grep -q 'tickscope record -o perf.data' "$dt/perf-cmd.txt"
ok $? "meta.txt and perf-cmd.txt say the static tickscope recorded it"
. "$TS_TOP/tests/fixtures/fixtures.sh"
ORACLE_TMP=$tmp
oracle_check "qemu-aarch64 tickscope record" "$dt/perf.data" "$dt/kallsyms"

# Faults end in clear errors and leave no output folder behind.
wl=$TS_BUILD/workloads-arm64
echo 'echo never reached' >"$tmp/job-ok.sh"
boards/qemu/boot.sh --board qemu-aarch64 --workloads "$wl" --job "$tmp/job-ok.sh" \
	--out "$tmp/o1" --boot-timeout 1 >"$tmp/log" 2>&1
rc=$?
[ $rc -ne 0 ] && grep -q 'boot hung: the guest did not reach /init within 1s' "$tmp/log" &&
	[ ! -e "$tmp/o1" ] && [ ! -e "$tmp/o1.tmp" ]
ok $? "a boot that hangs ends in a timeout error"
echo 'echo c >/proc/sysrq-trigger' >"$tmp/job-panic.sh"
boards/qemu/boot.sh --board qemu-aarch64 --workloads "$wl" --job "$tmp/job-panic.sh" \
	--out "$tmp/o2" >"$tmp/log" 2>&1
rc=$?
[ $rc -ne 0 ] && grep -q 'the guest kernel panicked' "$tmp/log" && [ ! -e "$tmp/o2" ]
ok $? "a guest panic is reported as a panic"
echo 'poweroff -f' >"$tmp/job-off.sh"
boards/qemu/boot.sh --board qemu-aarch64 --workloads "$wl" --job "$tmp/job-off.sh" \
	--out "$tmp/o3" >"$tmp/log" 2>&1
rc=$?
[ $rc -ne 0 ] && grep -q 'before the guest wrote its results' "$tmp/log" && [ ! -e "$tmp/o3" ]
ok $? "a guest that stops without writing results is an error"
sed -e 's/^NAME=.*/NAME=qemu-aarch64-nodisk/' -e 's/^GUEST_MODULES=.*/GUEST_MODULES=virtio_mmio/' \
	boards/qemu-aarch64.board >"$tmp/qemu-aarch64-nodisk.board"
boards/qemu/boot.sh --board "$tmp/qemu-aarch64-nodisk.board" --workloads "$wl" \
	--job "$tmp/job-ok.sh" --out "$tmp/o4" >"$tmp/log" 2>&1
rc=$?
[ $rc -ne 0 ] && grep -q 'no /dev/vda' "$tmp/log" && [ ! -e "$tmp/o4" ]
ok $? "a results disk that does not appear is an error"
rm -f "$TS_TOP/.cache/boards/initramfs/qemu-aarch64-nodisk-generic.cpio.gz"
tap_done
