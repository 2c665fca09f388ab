#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Facts from the files themselves: with no meta.txt, compare takes the CPU model (cpudesc,
# cpuid), CPU count, architecture and kernel release from each perf.data header, as
# `perf report --header-only` prints them (the oracle), carries them in the run's summary,
# and compares them: a differing CPU is a confounder. The tick on idle CPUs is inferred from
# timer:tick_stop (perf script counts the oracle's events). A fact unknown on a side is "not
# checked" with why, never "none found".
. "$(dirname "$0")/lib/tap.sh"
command -v jq >/dev/null || skip_all "jq not installed (analysis/packages)"
command -v xz >/dev/null || skip_all "xz not installed (analysis/packages)"
[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
tap_tmpdir
T=$TAP_TMP
fx=$TS_TOP/tests/fixtures
cp "$fx/aarch64/a64-6.1-generic-pingpong-irq.data.xz" "$T/a.data.xz"
cp "$fx/aarch64/a64-6.1-generic-pingpong-irq.log" "$T/a.log"
cp "$fx/x86-pingpong-irq.data.xz" "$T/x.data.xz"
cp "$fx/x86-pingpong-irq.log" "$T/x.log"
in="--comm pingpong --bench $T/a.log $T/a.data.xz -- --bench $T/x.log $T/x.data.xz"

# shellcheck disable=SC2086
"$TICKSCOPE" compare --json $in >"$T/c.json" 2>"$T/err"
ok $? "compare an aarch64 recording with an x86 one, perf.data files alone"
is "$(jq -r .version "$T/c.json")" 8 "the JSON is version 8 (3: the facts from the files; 4: p-values as bounds; 5: measured, why_null; 6: CIs of quantities that cannot go below 0; 7: what defines the benchmark; 8: the benchmark's timing against the trace)"

# 1. The header's facts, as perf report --header-only prints them.
facts() { # JSON VARIANT: arch|nr_cpus|cpu|release of its first run
	jq -r --arg v "$2" '.variants[] | select(.name == $v) | .runs[0].facts |
		"\(.arch)|\(.nr_cpus)|\(.cpu)|\(.release)"' "$1"
}
hdr() { # DATA.xz: the same from perf report --header-only
	xz -dc "$1" >"$T/h.data"
	perf report -i "$T/h.data" --header-only 2>/dev/null | awk -F' : ' '
		/^# arch :/ { a = $2 } /^# nrcpus online :/ { on = $2 } /^# nrcpus avail :/ { av = $2 }
		/^# cpudesc :/ { d = $2 } /^# cpuid :/ { id = $2 } /^# os release :/ { r = $2 }
		END { cpu = d != "" && id != "" ? d " (" id ")" : d id
			printf "%s|%s online of %s|%s|%s\n", a, on, av, cpu, r }'
}
if command -v perf >/dev/null; then
	is "$(facts "$T/c.json" A)" "$(hdr "$T/a.data.xz")" "aarch64: facts are perf report --header-only's"
	is "$(facts "$T/c.json" B)" "$(hdr "$T/x.data.xz")" "x86: facts are perf report --header-only's"
else
	skip "facts are perf report --header-only's" "no perf"
	skip "facts are perf report --header-only's" "no perf"
fi
is "$(jq -r '.variants[0].runs[0].facts.kernel' "$T/c.json")" \
	"$(jq -r '.variants[0].runs[0].facts.release' "$T/c.json")" \
	"with no meta.txt the kernel is the header's release"

# 2. Compared: the CPU, its count and the architecture differ, as confounders.
# shellcheck disable=SC2086
"$TICKSCOPE" compare $in >"$T/c.txt" 2>>"$T/err"
sed -n '/^Confounders/,/^$/p' "$T/c.txt" >"$T/conf"
grep -q '^  ! arch differs: A aarch64 vs B x86_64$' "$T/conf" &&
	grep -q '^  ! nr_cpus differs: A 8 online of 8 vs B 2 online of 2$' "$T/conf" &&
	grep -q '^  ! cpu differs: A 0x00000000410fd070 vs B .*(AuthenticAMD,25,17,1)$' "$T/conf"
rc=$?
ok $rc "arch, CPU count and CPU model differ: confounders"
[ $rc = 0 ] || diag "$(cat "$T/conf")"

# 3. The tick on idle CPUs, inferred from timer:tick_stop.
if command -v perf >/dev/null; then
	for f in a x; do
		xz -dc "$T/$f.data.xz" >"$T/h.data"
		n=$(perf script -i "$T/h.data" -F event,trace 2>/dev/null |
			grep -c 'timer:tick_stop: success=1')
		eval "ok_$f=$n"
	done
	[ "$ok_a" -gt 0 ] && [ "$ok_x" = 0 ]
	ok $? "perf script: tick_stop succeeded $ok_a times on aarch64, $ok_x on x86"
else
	skip "perf script: tick_stop counts" "no perf"
fi
is "$(jq -r '[.variants[].runs[0].facts.nohz | sub(" .*"; "")] | join(" ")' "$T/c.json")" \
	"idle off" "the tick: stops when idle (aarch64), never stopped (x86)"
grep -q '^  \* the tick on idle CPUs (inferred from each run.s trace): A idle .*, B off ' "$T/c.txt"
ok $? "a kernel difference, said as such"

# 4. The summary carries them: from the cache, the same facts.
s=$(summary_cache_file "$T/a.data.xz" .tsum)
grep -q '^fact	cpu	0x00000000410fd070$' "$s"
ok $? "the summary holds the header's facts (fact lines)"
# shellcheck disable=SC2086
"$TICKSCOPE" compare --json $in >"$T/c2.json" 2>>"$T/err"
is "$(jq -c '[.variants[].runs[0].facts]' "$T/c2.json")" \
	"$(jq -c '[.variants[].runs[0].facts]' "$T/c.json")" "from the cache: the same facts"
sed -i 's/^fact	cpu	.*/fact	cpu	one	two/' "$s"
# shellcheck disable=SC2086
"$TICKSCOPE" compare --json $in >"$T/c3.json" 2>>"$T/err"
is "$(jq -c '[.variants[].runs[0].facts]' "$T/c3.json")" \
	"$(jq -c '[.variants[].runs[0].facts]' "$T/c.json")" \
	"a malformed fact line is no cache: the trace is read again"

# 5. Summaries older than format 13 carry none: not checked, with why; never "none found".
kv=$fx/kernel-variants/qemu-aarch64-pingpong-nohz-idle-vs-hz-periodic
"$TICKSCOPE" compare "$kv/nohz-idle" "$kv/hz-periodic" >"$T/k.txt" 2>>"$T/err"
ok $? "compare the built-kernel fixture (format 10 summaries)"
sed -n '/^Confounders/,/^$/p' "$T/k.txt" >"$T/kconf"
grep -q '^  ! not checked: arch, nr_cpus, cpu unknown for nohz-idle (' "$T/kconf" &&
	grep -q '^  ! not checked: arch, nr_cpus, cpu unknown for hz-periodic (' "$T/kconf" &&
	! grep -q 'none found' "$T/kconf"
ok $? "facts the summaries do not carry are not checked, never none found"
grep -q '^  \* the tick on idle CPUs (inferred from each run.s trace): nohz-idle idle .*, hz-periodic periodic (the kernel has no timer:tick_stop' \
	"$T/k.txt"
ok $? "nohz-idle stops the tick, hz-periodic's kernel has no tick_stop (CONFIG_HZ_PERIODIC)"
xz -dc "$kv/hz-periodic/kernel.config.xz" | grep -qx 'CONFIG_HZ_PERIODIC=y'
ok $? "  and its kernel config says HZ_PERIODIC"
# 6. The preemption model where no config says: ktimers threads (sched.threads.ktimers.count
# in the run's summary, counted from perf's COMM records) exist only on PREEMPT_RT kernels.
rt=$fx/debian-variants/qemu-aarch64-stress-ramfs-default-vs-rt
for v in default rt; do
	mkdir -p "$T/p"
	cp -r "$rt/$v" "$T/p/$v"
	for n in "$T/p/$v"/run-*/nohz.txt; do
		sed -i '/^CONFIG_PREEMPT/d' "$n"
	done
done
"$TICKSCOPE" compare "$T/p/default" "$T/p/rt" >"$T/p.txt" 2>>"$T/err"
ok $? "compare the -rt fixture with the preemption model taken out of its configs"
grep -q '^  rt: kernel 6.1.0-57-rt-arm64, PREEMPT_RT (inferred: the trace names ktimers threads' \
	"$T/p.txt" && grep -q '^  default: kernel 6.1.0-57-arm64$' "$T/p.txt"
ok $? "PREEMPT_RT inferred for rt from its ktimers threads; nothing said of the generic kernel"
xz -dc "$rt/rt/run-1/perf.data.tsum.xz" | grep -q '^m	sched.threads.ktimers.count	count	0	0	[1-9]' &&
	! xz -dc "$rt/default/run-1/perf.data.tsum.xz" | grep -q '^m	sched.threads.ktimers.count'
ok $? "  the summaries: ktimers threads in rt's run, none in default's"
grep -q '^CONFIG_PREEMPT_RT=y' "$rt/rt/run-1/nohz.txt"
ok $? "  and the rt run's own config says PREEMPT_RT"
tap_done
