#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make record on the live x86 host: one short run makes a complete, decodable result folder;
# the experiment .config fills unset values; lost events are reported; a failing run is never
# left looking complete. The ssh transport is tested against a real sshd in boards-ssh.t.
. "$(dirname "$0")/lib/tap.sh"
[ "$(id -u)" = 0 ] || skip_all "recording needs root"
command -v perf >/dev/null || skip_all "no perf"
[ -r /sys/kernel/tracing/available_events ] || mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
[ -r /sys/kernel/tracing/available_events ] || skip_all "no tracefs"
# the x86-host profile pins to CPUs 0 and 1 (PIN_SAME, PIN_CROSS): both must be ours to run on
[ "$(tap_cpus_allowed | grep -cx '[01]')" = 2 ] ||
	skip_all "the x86-host profile pins runs to CPUs 0 and 1; this test may run on" \
		"$(tap_cpus_allowed | tr '\n' ' ')"
tap_tmpdir
tmp=$TAP_TMP
cd "$TS_TOP" || exit 1
mk() {
	make --no-print-directory -s BUILD="$TS_BUILD" "$@"
}

mk record BOARD=x86-host WORKLOAD=pingpong-cross VARIANT=t RUNS=2 ITERS=2000 \
	RESULTS="$tmp/r" >"$tmp/log" 2>&1
rc=$?
ok $rc "make record BOARD=x86-host WORKLOAD=pingpong-cross RUNS=2"
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/log"
d=$tmp/r/x86-host/t/pingpong-cross/run-1
miss=""
for f in perf.data workload.out kallsyms uname.txt cmdline.txt kconfig nohz.txt perf-cmd.txt \
	perf-record.log perf-stats.txt events.txt meta.txt; do
	[ -s "$d/$f" ] || miss="$miss $f"
done
is "$miss" "" "the run folder holds every file"
is "$(tail -n1 "$d/meta.txt")" "status=complete" "meta.txt ends with status=complete"
grep -q '^AF_UNIX sock stream latency: [0-9.]* microseconds$' "$d/workload.out" &&
	grep -q '^result=[0-9][0-9.]*$' "$d/meta.txt"
ok $? "the workload's line is saved and its number is in meta.txt"
grep -q "^nohz_full=" "$d/nohz.txt" && grep -q "^isolated=" "$d/nohz.txt"
ok $? "nohz_full/isolcpus state saved"
# VARIANT=t declares no fragments and no boot arguments: a label, not a mismatch against the
# profile's fragments, and make record says so
is "$(sed -n 's/^variant_check=//p' "$d/meta.txt")" label \
	"a variant that is only a label: variant_check=label"
is "$(grep -c "variant 't' is a label" "$tmp/log")" 1 \
	"make record says once, not once a run, that the variant is a label"
grep -q "variant 't' is a label: .*2 run(s); give FRAGMENTS= or BOOT_ARGS= to have it checked" \
	"$tmp/log"
ok $? "and how many runs that is, and what to give to have it checked"
grep -q "perf record -o perf.data .* -a -e .*sched:sched_switch" "$d/perf-cmd.txt"
ok $? "the exact perf command is saved"

# Events: chosen from available_events, each wanted one either chosen or stated missing.
bad=$(grep -cvE '^(chosen|missing) ' "$d/events.txt")
is "$bad" "0" "events.txt: every line is chosen or missing"
if grep -qx 'timer:hrtimer_setup' /sys/kernel/tracing/available_events; then
	want=timer:hrtimer_setup
else
	want=timer:hrtimer_init
fi
grep -q "^chosen $want" "$d/events.txt"
ok $? "the hrtimer init event this kernel has ($want) was chosen"
if grep -qx 'rcu:rcu_grace_period' /sys/kernel/tracing/available_events; then
	grep -q '^chosen rcu:rcu_grace_period' "$d/events.txt"
else
	grep -q '^missing rcu:rcu_grace_period (needs CONFIG_RCU_TRACE)' "$d/events.txt"
fi
ok $? "rcu_grace_period only when the kernel has it, else stated missing"
for e in irq:irq_handler_entry irq:irq_handler_exit irq:softirq_entry irq:softirq_exit \
	irq_vectors:local_timer_entry irq_vectors:local_timer_exit; do
	if grep -qx "$e" /sys/kernel/tracing/available_events; then
		grep -q "^chosen $e\$" "$d/events.txt"
	else
		grep -q "^missing $e " "$d/events.txt"
	fi
	ok $? "$e chosen when the kernel has it, else stated missing"
done

# Decodable: perf reads it back with the events we asked for, names resolve with kallsyms.
perf report -i "$d/perf.data" --stats >"$tmp/stats" 2>&1
sw=$(awk '/^sched:sched_switch stats:/ { getline; print $3 }' "$tmp/stats")
[ "${sw:-0}" -gt 100 ]
ok $? "perf report --stats shows sched:sched_switch samples (${sw:-0})"
grep -q '^power:cpu_idle stats:' "$tmp/stats" || grep -q '^timer:hrtimer_start stats:' "$tmp/stats"
ok $? "perf report --stats shows the timer/idle events"
! grep -q '^0000000000000000 ' "$d/kallsyms" && grep -q ' [tT] hrtimer_start_range_ns$' "$d/kallsyms" &&
	grep -q '^kallsyms=ok$' "$d/meta.txt"
ok $? "kallsyms saved with real addresses"
perf script -i "$d/perf.data" --kallsyms "$d/kallsyms" 2>/dev/null |
	grep -m1 'hrtimer_expire_entry:.*function=[a-z_]' >"$tmp/fn"
ok $? "perf script decodes it with the saved kallsyms (hrtimer function names)"
# Which interrupts come in a short run is the machine's business: the oracle is perf script's
# count of each handler, system vector and softirq, and the default events must record them.
grep -q '^chosen irq:softirq_entry$' "$d/events.txt" &&
	grep -q '^chosen irq:irq_handler_entry$' "$d/events.txt"
ok $? "the default events record hard IRQ and softirq entries"
perf script -i "$d/perf.data" -F event,trace 2>/dev/null | awk '
	$1 == "irq:softirq_entry:" { sub(/.*action=/, ""); sub(/]$/, ""); n["softirq " $1]++ }
	$1 == "irq:irq_handler_entry:" { sub(/.*name=/, ""); n["irq " $1]++ }
	$1 ~ /^irq_vectors:.*_entry:$/ { v = $1; sub(/^irq_vectors:/, "", v); sub(/_entry:$/, "", v)
		n["vector " v]++ }
	END { for (k in n) print k, n[k] }' | sort >"$tmp/irq.want"
"$TICKSCOPE" report -i "$d/perf.data" --kallsyms "$d/kallsyms" --json >"$tmp/r.json" 2>&1
jq -r '.sections.irq | select(.status == "present") | .sources[] |
	select(.type == "irq" or .type == "vector" or .type == "softirq") |
	"\(.type) \(.name) \(.count)"' "$tmp/r.json" 2>/dev/null | sort >"$tmp/irq.got"
# The section counts contexts that closed; an entry whose exit the trace lacks (open at its
# end, ended by a context switch, ...) is in its "unpaired" counts instead. So: the same
# sources, none counted above perf script's entries, and over every kind (the timer callbacks
# too) perf script's entries are the closed contexts plus the unpaired entries, exactly.
perf script -i "$d/perf.data" -F event 2>/dev/null | grep -cE \
	'^ *(irq:(irq_handler|softirq)_entry|irq_vectors:.*_entry|timer:(hr)?timer_expire_entry):' \
	>"$tmp/irq.want.all"
jq -r '.sections.irq | [(.sources | map(.count) | add),
	(.unpaired | .closed_by_outer + .dropped_lost + .too_deep + .open_at_end +
	 .dropped_switch + .dropped_reentry)] | "\(.[0]) \(.[1])"' "$tmp/r.json" >"$tmp/irq.got.all"
read -r closed unpaired <"$tmp/irq.got.all"
diag "entries in perf script $(cat "$tmp/irq.want.all"), closed $closed, unpaired $unpaired"
[ -s "$tmp/irq.want" ] && [ -s "$tmp/irq.got" ] &&
	awk 'NR == FNR { w[$1 " " $2] = $3; next }
		{ k = $1 " " $2; if (!(k in w) || $3 > w[k]) bad++ }
		END { exit bad > 0 }' "$tmp/irq.want" "$tmp/irq.got" &&
	[ "$(cat "$tmp/irq.want.all")" = "$((closed + unpaired))" ]
ok $? "the irq section counts each handler, vector and softirq as perf script does (entries = closed + unpaired)"
diff "$tmp/irq.want" "$tmp/irq.got" | sed 's/^/# /' | head -20
perf report -i "$d/perf.data" --header-only 2>/dev/null | grep -q '^# arch : x86_64'
ok $? "perf.data header: arch x86_64"
"$TICKSCOPE" info "$d/perf.data" >"$tmp/info" 2>&1
ok $? "tickscope info reads the recording"

# stress-ng ramfs: the YAML metrics and --metrics-brief output are kept.
mk record BOARD=x86-host WORKLOAD=stress-ramfs VARIANT=t RUNS=1 WORKERS=1 DURATION=1 \
	RESULTS="$tmp/r" >"$tmp/log" 2>&1
ok $? "make record WORKLOAD=stress-ramfs"
d=$tmp/r/x86-host/t/stress-ramfs/run-1
grep -q 'bogo-ops-per-second-real-time' "$d/stress-ng.yaml" && grep -q 'ramfs' "$d/workload.out" &&
	grep -q '^result=[0-9][0-9.]*$' "$d/meta.txt"
ok $? "stress-ramfs: YAML metrics, metrics-brief output and the ops/s in meta.txt"

# The experiment .config fills what the command line does not give; the command line wins.
cat >"$tmp/config" <<'CONF'
CONFIG_TS_BOARD="x86-host"
CONFIG_TS_VARIANT="fromconfig"
CONFIG_TS_WORKLOAD="pingpong-cross"
CONFIG_TS_RUNS=2
CONFIG_TS_PINGPONG_ITERS=321
CONFIG_TS_FRAGMENTS="board-x86-host tracing nohz-full"
# CONFIG_TS_CALLCHAINS is not set
CONF
mk record CONFIG="$tmp/config" WORKLOAD=pingpong-same RESULTS="$tmp/r" >"$tmp/log" 2>&1
ok $? "make record with an experiment .config"
d=$tmp/r/x86-host/fromconfig/pingpong-same
[ -d "$d/run-1" ] && [ -d "$d/run-2" ] && [ ! -e "$d/run-3" ] &&
	grep -q -- '--iterations 321 .*--pin same' "$d/run-2/meta.txt" &&
	grep -q '^fragments=board-x86-host tracing nohz-full$' "$d/run-1/meta.txt"
ok $? ".config gave board, variant, runs, iterations, fragments; WORKLOAD= won"

# Lost events: a 1-page buffer loses some; the run says so and hints at MMAP.
mk record BOARD=x86-host WORKLOAD=pingpong-cross VARIANT=lost RUNS=1 ITERS=20000 MMAP=1 \
	RESULTS="$tmp/r" >"$tmp/log" 2>&1
lc=$(sed -n 's/^lost_chunks=//p' "$tmp/r/x86-host/lost/pingpong-cross/run-1/meta.txt")
[ "${lc:-0}" -gt 0 ] && grep -q 'raise MMAP' "$tmp/log" && grep -q 'perf record -m' "$tmp/log"
ok $? "lost events are counted ($lc chunks) and reported with a hint to raise -m"

# A failing run is kept as run-<k>.failed and make record fails.
sed 's/^NAME=.*/NAME=badpin/; s/^PIN_CROSS=.*/PIN_CROSS=0,4000/' boards/x86-host.board \
	>"$tmp/badpin.board"
mk record BOARD="$tmp/badpin.board" WORKLOAD=pingpong-cross VARIANT=t RUNS=1 \
	RESULTS="$tmp/r" >"$tmp/log" 2>&1
rc=$?
d=$tmp/r/badpin/t/pingpong-cross
[ $rc -ne 0 ] && [ -d "$d/run-1.failed" ] && [ ! -e "$d/run-1" ] &&
	grep -q '^status=failed' "$d/run-1.failed/meta.txt" && grep -q 'FAILED' "$tmp/log"
ok $? "a failed workload gives run-1.failed, status=failed and a failing make record"

# Only run folders of ours are replaced: a user's run-* entries are left alone, and one where a
# run goes is refused before anything is written or removed.
d=$tmp/r/x86-host/own/pingpong-cross
mkdir -p "$d/run-notes" "$d/run-9" "$d/run-5" "$d/run-3.partial"
echo mine >"$d/run-notes/keep.txt"
echo mine >"$d/run-9/keep.txt"
echo mine >"$d/run-1"
printf 'format=tickscope-run-1\nboard=x86-host\n' >"$d/run-5/meta.txt"
echo tickscope-run >"$d/run-3.partial/.tickscope-run"
mk record BOARD=x86-host WORKLOAD=pingpong-cross VARIANT=own RUNS=1 ITERS=2000 \
	RESULTS="$tmp/r" >"$tmp/log" 2>&1
rc=$?
[ $rc -ne 0 ] && [ "$(cat "$d/run-1")" = mine ] && [ -d "$d/run-5" ] && [ -d "$d/run-3.partial" ] &&
	[ "$(grep -c "^record: " "$tmp/log")" = 1 ] &&
	grep -q "run-1 is not a run folder of ours" "$tmp/log"
ok $? "a file of the user's at run-1 is refused in one line, nothing touched"
rm "$d/run-1"
mk record BOARD=x86-host WORKLOAD=pingpong-cross VARIANT=own RUNS=1 ITERS=2000 \
	RESULTS="$tmp/r" >"$tmp/log" 2>&1
ok $? "make record beside the user's run-* folders"
[ ! -e "$d/run-5" ] && [ ! -e "$d/run-3.partial" ] && [ -f "$d/run-1/.tickscope-run" ] &&
	[ "$(cat "$d/run-notes/keep.txt" "$d/run-9/keep.txt")" = "$(printf 'mine\nmine')" ] &&
	grep -q 'replacing 2 earlier run folder' "$tmp/log" &&
	grep -q 'leaving 2 run-\* entr' "$tmp/log"
ok $? "runs of ours (marked, or an older meta.txt) replaced; the user's run-notes, run-9 kept"

# A re-run that fails, or is stopped, keeps the earlier runs: make record removed them before
# recording, so a failed re-run (a workload that fails, a board that went away, Ctrl-C) lost
# every earlier run of that board, variant and workload.
d=$tmp/r/x86-host/t/pingpong-cross
sums() {
	(cd "$d" && sha256sum run-1/perf.data run-2/perf.data run-1/meta.txt run-2/meta.txt)
}
sums >"$tmp/sums.before"
sed 's/^PIN_CROSS=.*/PIN_CROSS=0,4000/' boards/x86-host.board >"$tmp/x86-host.board"
mk record BOARD="$tmp/x86-host.board" WORKLOAD=pingpong-cross VARIANT=t RUNS=2 ITERS=2000 \
	RESULTS="$tmp/r" >"$tmp/log" 2>&1
rc=$?
sums >"$tmp/sums.after"
[ $rc -ne 0 ] && cmp -s "$tmp/sums.before" "$tmp/sums.after" && [ ! -e "$d/run-1.failed" ]
ok $? "a re-run that fails: exit $rc, the earlier run-1 and run-2 kept byte for byte"
set -- "$d"/failed-*/run-1.failed/meta.txt
[ -f "$1" ] && grep -q '^status=failed' "$1" &&
	grep -q "the 2 earlier run folder(s) in $d are kept as they were; this recording's are in $d/failed-" \
		"$tmp/log" && [ -z "$(ls -A "$d" | grep '^\.recording')" ]
ok $? "its own runs are kept in failed-<time>/, and it says where"
rm -rf "$d"/failed-*
# stopped while recording run 1: the signal reaches the whole process group, as Ctrl-C does
(cd "$TS_TOP" && exec setsid make --no-print-directory -s BUILD="$TS_BUILD" record \
	BOARD=x86-host WORKLOAD=pingpong-cross VARIANT=t RUNS=2 ITERS=1000000 \
	RESULTS="$tmp/r") >"$tmp/log" 2>&1 &
pid=$!
n=0
until [ -n "$(find "$d" -path '*/.recording.*/run-1.partial/perf.data' 2>/dev/null)" ] ||
	! kill -0 "$pid" 2>/dev/null; do
	sleep 1
	n=$((n + 1))
done
kill -TERM "-$pid"
wait "$pid"
rc=$?
# make stops at once ("wait: No child processes"); record.sh and ts-record.sh clean up after
# perf has written its last buffers: the check is of what is left when they have all ended
while pgrep -g "$pid" >/dev/null; do
	sleep 0.2
done
sums >"$tmp/sums.after"
left=$(ls -A "$d" | tr '\n' ' ')
[ $rc -ne 0 ] && cmp -s "$tmp/sums.before" "$tmp/sums.after" &&
	[ "$left" = "run-1 run-2 " ]
ok $? "a re-run stopped while recording (after ${n}s): exit $rc, the earlier runs kept, left: $left"
ls -A "$d" | sed 's/^/# /'

tap_done
