#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The committed board fixtures: every set has 3 complete runs with the decode kit, each file
# stays small, and the perf.data files decode with the right arch and kernel.
. "$(dirname "$0")/lib/tap.sh"
command -v perf >/dev/null && command -v xz >/dev/null || skip_all "needs perf and xz"
fx=$TS_TOP/tests/fixtures/boards
tap_tmpdir
tmp=$TAP_TMP

sets="qemu-aarch64/generic/pingpong:aarch64:6.1.0-57-arm64
qemu-aarch64/generic/stress-ramfs:aarch64:6.1.0-57-arm64
qemu-aarch64/rt/pingpong:aarch64:6.1.0-57-rt-arm64
qemu-aarch64/rt/stress-ramfs:aarch64:6.1.0-57-rt-arm64
qemu-x86/generic/pingpong:x86_64:6.1.0-57-amd64
qemu-x86/rt/pingpong:x86_64:6.1.0-57-rt-amd64
x86-host/live/pingpong:x86_64:
x86-host/live/pingpong-cross:x86_64:"

big=$(find "$fx" -type f -size +4M | tr '\n' ' ')
is "$big" "" "no fixture file is over 4 MB"
total=$(du -sk "$fx" | cut -f1)
[ "$total" -lt 25600 ]
ok $? "the fixtures stay under 25 MB ($total KiB)"

for line in $sets; do
	set=${line%%:*}
	rest=${line#*:}
	arch=${rest%%:*}
	kernel=${rest#*:}
	miss=""
	for k in 1 2 3; do
		r=$fx/$set/run-$k
		for f in perf.data.xz kallsyms.xz kconfig.xz meta.txt events.txt workload.out nohz.txt \
			uname.txt perf-cmd.txt; do
			[ -s "$r/$f" ] || miss="$miss run-$k/$f"
		done
		tail -n1 "$r/meta.txt" 2>/dev/null | grep -qx status=complete || miss="$miss run-$k:status"
		grep -q '^result=[0-9][0-9.]*$' "$r/meta.txt" 2>/dev/null || miss="$miss run-$k:result"
	done
	is "$miss" "" "$set: 3 complete runs with the decode kit"
	xz -dc "$fx/$set/run-1/perf.data.xz" >"$tmp/p.data" 2>/dev/null
	perf report -i "$tmp/p.data" --header-only 2>/dev/null >"$tmp/hdr"
	grep -q "^# arch : $arch\$" "$tmp/hdr" &&
		{ [ -z "$kernel" ] || grep -q "^# os release : $kernel\$" "$tmp/hdr"; }
	ok $? "$set: perf.data is $arch${kernel:+, $kernel}"
	sw=$(perf report -i "$tmp/p.data" --stats 2>/dev/null |
		awk '/^sched:sched_switch stats:/ { getline; print $3 }')
	[ "${sw:-0}" -gt 100 ]
	ok $? "$set: decodes (${sw:-0} sched_switch samples)"
done

# The recorder refuses a run whose trace has one half of an entry/exit pair without a sample
# while the other half has many (damaged/: perf report --stats of a real run, the oracle).
dm=$fx/damaged
out=$("$TS_TOP/boards/target/ts-record.sh" --broken-pairs "$dm/hrtimer-entry-off.perf-stats.txt" \
	--events "$(cat "$dm/events")" --cpus 8)
rc=$?
is "$rc $out" "1 timer:hrtimer_expire_entry: 0 samples while timer:hrtimer_expire_exit had 42722" \
	"ts-record.sh refuses a trace without hrtimer_expire_entry and 42722 hrtimer_expire_exit"
out=$("$TS_TOP/boards/target/ts-record.sh" --broken-pairs "$dm/healthy.perf-stats.txt" \
	--events "$(cat "$dm/events")" --cpus 8)
is "$? $out" "0 " "ts-record.sh passes the run recorded before it in the same experiment"
# an event not recorded is no half of a pair: without hrtimer_expire_entry in the list
out=$("$TS_TOP/boards/target/ts-record.sh" --broken-pairs "$dm/hrtimer-entry-off.perf-stats.txt" \
	--events "$(sed 's/timer:hrtimer_expire_entry,//' "$dm/events")" --cpus 8)
is "$? $out" "0 " "an event the run did not record is not refused for"

# The same check on every committed run that kept its perf-stats.txt: the runs it refuses are
# exactly those a fixture README lists as "Damaged run: `EXPERIMENT/VARIANT/run-N`", so that
# none is used unknowingly and no README names a healthy run.
top=$TS_TOP/tests/fixtures
got=$(find "$top" -name perf-stats.txt | sort | while read -r ps; do
	r=$(dirname "$ps")
	ev=$(awk '$1 == "chosen" { printf "%s%s", s, $2; s = "," }' "$r/events.txt")
	cpus=$(sed -n 's/^cpus_online=0-\([0-9]*\)$/\1/p' "$r/meta.txt")
	"$TS_TOP/boards/target/ts-record.sh" --broken-pairs "$ps" --events "$ev" \
		--cpus $((${cpus:-0} + 1)) >/dev/null 2>&1 || echo "${r#"$top"/*/}"
done | sort | tr '\n' ' ')
want=$(sed -n 's/^- Damaged run: `\([^`]*\)`.*/\1/p' "$top"/*/README.md | sort | tr '\n' ' ')
n=$(find "$top" -name perf-stats.txt | wc -l)
is "$got" "$want" \
	"of the $n committed runs, those with one half of a pair silent are the READMEs' damaged runs"
tap_done
