#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The ping-pong workload: native, static and arm64 builds exist; on x86 it prints lat_unix's
# line in every pin mode, really pins, injects the configured delay and refuses bad options.
# ts-record.sh reads each workload's result as a plain decimal only, and fails the run otherwise.
. "$(dirname "$0")/lib/tap.sh"
pp=$TS_BUILD/workloads/pingpong
pps=$TS_BUILD/workloads-static/pingpong
ppa=$TS_BUILD/workloads-arm64/pingpong
tap_tmpdir
tmp=$TAP_TMP
line_re='^AF_UNIX sock stream latency: [0-9][0-9]*\.[0-9][0-9][0-9][0-9] microseconds$'

[ -x "$pp" ]
ok $? "native pingpong is built ($pp)"
[ -x "$pps" ] && ! readelf -d "$pps" 2>/dev/null | grep -q NEEDED
ok $? "static x86 pingpong is built, with no shared libraries"
readelf -h "$ppa" 2>/dev/null | grep -q 'Machine: *AArch64' && ! readelf -d "$ppa" | grep -q NEEDED
ok $? "arm64 pingpong is built statically for AArch64 (aarch64-linux-gnu-gcc)"

"$pp" --help >"$tmp/help"
[ $? -eq 0 ] && grep -q -- '--pin MODE' "$tmp/help" && grep -q -- '--delay-us' "$tmp/help"
ok $? "--help documents the options"

# The CPUs this test may run on (tap_cpus_allowed): not always the machine's online ones, nor
# 0 and 1. A and B: the first two of them.
allowed=$(tap_cpus_allowed)
ncpu=$(echo "$allowed" | grep -c .)
A=$(echo "$allowed" | sed -n 1p) B=$(echo "$allowed" | sed -n 2p)
for bin in "$pp" "$pps"; do
	for mode in none same cross; do
		if [ "$mode" = cross ] && [ "$ncpu" -lt 2 ]; then
			ok 0 "# SKIP $mode needs two CPUs"
			continue
		fi
		"$bin" --pin "$mode" --iterations 2000 --warmup 100 >"$tmp/out" 2>"$tmp/err"
		rc=$?
		[ $rc -eq 0 ] && [ "$(wc -l <"$tmp/out")" -eq 1 ] && grep -q "$line_re" "$tmp/out" &&
			grep -q "pin=$mode " "$tmp/err"
		ok $? "$(basename "$(dirname "$bin")")/pingpong --pin $mode prints the lat_unix line"
		[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/out" "$tmp/err"
	done
done

# --cpus alone picks the mode.
"$pp" --cpus "$A" --iterations 100 2>"$tmp/err" >/dev/null &&
	grep -q "pin=same cpus=$A,$A" "$tmp/err"
ok $? "--cpus A means same-CPU pinning"
if [ "$ncpu" -ge 2 ]; then
	"$pp" --cpus "$B,$A" --iterations 100 2>"$tmp/err" >/dev/null &&
		grep -q "pin=cross cpus=$B,$A" "$tmp/err"
	ok $? "--cpus A,B means cross-CPU pinning"

	# The two tasks really sit on the two CPUs: read their affinity while they run, once the
	# echo task has pinned itself. It does so before its first read: its second voluntary
	# switch is a read's (the first may be the migration's wait), as is every one after.
	"$pp" --pin cross --cpus "$A,$B" --iterations 100000000 >/dev/null 2>&1 &
	pid=$!
	child=""
	while kill -0 $pid 2>/dev/null; do
		child=$(grep -l "^PPid:[[:space:]]*$pid\$" /proc/[0-9]*/status 2>/dev/null |
			head -n1)
		v=$(sed -n 's/^voluntary_ctxt_switches:[[:space:]]*//p' "$child" 2>/dev/null)
		[ "${v:-0}" -lt 2 ] || break
		sleep 0.1
	done
	a=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/$pid/status)
	b=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "$child" 2>/dev/null)
	cname=$(sed -n 's/^Name:[[:space:]]*//p' "$child" 2>/dev/null)
	kill $pid 2>/dev/null
	wait $pid 2>/dev/null
	is "$a/$b/$cname" "$A/$B/pingpong-echo" \
		"cross: the pinger on CPU $A, pingpong-echo on CPU $B"
fi

# The injected delay: each round trip contains at least one burn of DELAY_US. A burn ends by
# the clock, so a loaded machine makes round trips longer (they wait to run) but not the CPU
# time it takes: 210 burns of 300 us, at least 300 us a round trip of the wall clock, under ten
# times that of CPU (a burn in the wrong unit would take 1000 times that).
cpu=$( ("$pp" --pin same --iterations 200 --warmup 10 --delay-us 300 >"$tmp/out" 2>/dev/null
	times) | awk 'NR == 2 { gsub(/[ms]/, " "); print ($1 * 60 + $2 + $3 * 60 + $4) * 1e6 }')
lat=$(sed -n 's/^AF_UNIX sock stream latency: \([0-9.]*\) microseconds$/\1/p' "$tmp/out")
awk -v l="${lat:-0}" -v c="$cpu" 'BEGIN { exit !(l >= 300 && c != "" && c < 210 * 3000) }'
ok $? "--delay-us 300: >= 300 us a round trip (${lat:-no}), < 3 ms of CPU each (${cpu:-?} in all)"

for bad in "--pin bogus" "--pin cross --cpus 0,0" "--pin none --cpus 0" "--iterations 0" \
	"--cpus 0,x" "--delay-us -1" "extra" "--cpus 4095"; do
	"$pp" $bad >"$tmp/out" 2>"$tmp/err"
	rc=$?
	[ $rc -eq 2 ] && [ ! -s "$tmp/out" ] && grep -q '^pingpong: ' "$tmp/err"
	ok $? "refused with status 2: pingpong $bad"
done

# ts-record.sh's result: the plain decimal the workload printed, or a failed run naming its line.
rec=$TS_TOP/boards/target/ts-record.sh
# result WORKLOAD TEXT: "exit stdout" of ts-record.sh --result on a file holding TEXT
result() {
	case "$1" in stress-ramfs) _f=$tmp/stress-ng.yaml ;; *) _f=$tmp/workload.out ;; esac
	printf '%s\n' "$2" >"$_f"
	_o=$("$rec" --workload "$1" --result "$_f" 2>&1)
	echo "$? $_o"
}
y='    bogo-ops-per-second-real-time:'
is "$(result stress-ramfs "$y 12345.678900")" "0 12345.678900" "stress-ng's %f figure is the result"
for v in 1.5e+06 nan -3.0 "" "12.5 ops" "1.2.3" .5; do
	is "$(result stress-ramfs "$y $v")" \
		"1 the workload's result is not a plain decimal: stress-ng.yaml says '${y#    } $v'" \
		"stress-ng's '$v' is a failed run naming the line, not a result"
done
is "$(result stress-ramfs "    bogo-ops: 12")" "0 " \
	"no result line: no result (the run fails for that)"
l='AF_UNIX sock stream latency:'
is "$(result pingpong-cross "$l 17.2503 microseconds")" "0 17.2503" \
	"pingpong's figure is the result"
for v in nan 1e+03 inf ""; do
	is "$(result pingpong "$l $v microseconds")" \
		"1 the workload's result is not a plain decimal: workload.out says '$l $v microseconds'" \
		"pingpong's '$v' is a failed run naming the line, not a result"
done
# the first run of every committed set: what ts-record.sh reads from its files is the result its
# meta.txt holds (all 494 runs took 50 CPU-s at load 16: forks are dear on this VM)
bad=$(find "$TS_TOP/tests/fixtures" -path '*/run-1/meta.txt' | sort | while read -r m; do
	r=$(dirname "$m") w=$(sed -n 's/^workload=//p' "$m") want=$(sed -n 's/^result=//p' "$m")
	case "$w" in
	stress-ramfs) f=$r/stress-ng.yaml ;;
	pingpong*) f=$r/workload.out ;;
	*) continue ;;
	esac
	[ -r "$f" ] || continue
	got=$("$rec" --workload "$w" --result "$f" 2>&1)
	[ "$got" = "$want" ] || echo "${r#"$TS_TOP"/}: '$got' for '$want'"
done | head -n 3)
n=$(find "$TS_TOP/tests/fixtures" -path '*/run-1/meta.txt' | xargs grep -l '^result=' | wc -l)
is "$bad" "" "the result of each of the $n committed sets' first runs is read back as it was"
tap_done
