#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# perf.data shapes the fixtures do not have, recorded here in a second or so each, against perf
# itself: tickscope dump against perf script (the oracle of dump-oracle.t, fixtures.sh), info's
# per-event, total and lost counts against perf report --stats / -D, dump's TSV and JSON
# against its text (one record per line, the same time, cpu, tid and event), and, where the
# shape has sched events system-wide, report against perf sched timehist (report-oracle.t's
# rule). The shapes: event mixes (irq, timer, workqueue, raw_syscalls, syscalls, kmem, ipi,
# signal, task, tlb, rseq, x86_fpu, block, writeback: their __data_loc strings and arrays,
# cpumasks, char[] arrays, negative values, %pS, enums, __print_symbolic and
# __print_flags), -g and --call-graph dwarf in file and pipe mode,
# software events mixed with tracepoints (other sample_types), -c 1 and -F, --sample-cpu, -T,
# -d, --no-inherit, -p, -a -C 0, -k CLOCK_MONOTONIC, --switch-output pieces, -z, perf inject,
# --namespaces and --all-cgroups, perf sched record, perf trace record, a tracepoint given
# twice, a filter and --exclude-perf (not every hit: not recorded; perf's options in clusters,
# abbreviated, and a workload's own), -s (PERF_SAMPLE_READ), a leader-sampled group ({a,b}:S),
# event modifiers
# (:k, and :u on a kernel tracepoint, which the kernel never samples: not recorded), the same
# tracepoint twice with other hits (:u, --filter on either), -c 2, and -c 2 --no-period and
# -F 100 (not every hit: not recorded), and --threads' folder, which tickscope refuses in one
# line.
# Needs root, tracefs and perf; without them it skips with the reason.
. "$(dirname "$0")/lib/tap.sh"
. "$TS_TOP/tests/fixtures/fixtures.sh"

tap_need_tracing sched:sched_switch
[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
command -v jq >/dev/null || skip_all "jq is not installed (make deps installs it)"

tap_tmpdir
ORACLE_TMP=$TAP_TMP
T=$TAP_TMP
cp /proc/kallsyms "$T/kallsyms" # the same boot: the running kernel's symbols are the right ones
K=$T/kallsyms

if [ -x "$TS_BUILD/workloads/pingpong" ]; then
	W="$TS_BUILD/workloads/pingpong --pin none --iterations 300 --warmup 10"
else
	W="perf bench sched pipe -l 300"
fi
diag "workload: $W"

# have EVENT...: the events the kernel offers among these, comma-separated (empty if none)
have() {
	_h=""
	for _e in "$@"; do
		grep -qx "$_e" "$TRACEFS/available_events" && _h="$_h,$_e"
	done
	echo "${_h#,}"
}

# record LABEL ARGS...: runs ARGS (a perf command writing $T/LABEL.data), one TAP point
record() {
	_l=$1
	shift
	rm -f "$T/$_l.data"*
	"$@" >"$T/$_l.log" 2>&1
	_rc=$?
	ok $_rc "$_l: $*"
	[ $_rc -eq 0 ] || sed -n '1,5s/^/#   /p' "$T/$_l.log"
	return $_rc
}

# formats LABEL FILE: dump's TSV and JSON hold the text's records, in its order: one line each
# (after the TSV's header), with the same time, cpu, tid and event
formats() {
	awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^\[[0-9]+\]$/) break
		c = substr($i, 2, length($i) - 2) + 0; t = $(i + 1); sub(/:$/, "", t); sub(/\./, "", t)
		sub(/^0+/, "", t); e = $(i + 2); sub(/:$/, "", e); print t, c, $(i - 1), e }' \
		"$ORACLE_TMP/ts.txt" >"$T/text.key"
	"$TICKSCOPE" dump -i "$2" --kallsyms "$K" --format tsv 2>/dev/null |
		awk -F'\t' 'NR > 1 { print $1, $2, $3, $5 }' >"$T/tsv.key"
	"$TICKSCOPE" dump -i "$2" --kallsyms "$K" --format json 2>/dev/null |
		jq -r '"\(.time) \(.cpu) \(.tid) \(.event)"' >"$T/json.key" 2>"$T/jq.err"
	_j=$?
	cmp -s "$T/text.key" "$T/tsv.key"
	ok $? "$1: dump --format tsv: $(wc -l <"$T/tsv.key") rows, the text's time, cpu, tid, event"
	[ $_j -eq 0 ] && cmp -s "$T/text.key" "$T/json.key"
	ok $? "$1: dump --format json: $(wc -l <"$T/json.key") objects jq reads, the text's keys"
}

# shape LABEL FILE: the whole oracle on a recording of tracepoints only
shape() {
	oracle_check "$1" "$2" "$K"
	formats "$1" "$2"
}

ev=$(have irq:irq_handler_entry irq:irq_handler_exit irq:softirq_entry irq:softirq_exit \
	irq:softirq_raise timer:timer_start timer:timer_cancel timer:hrtimer_start \
	timer:hrtimer_expire_entry timer:tick_stop workqueue:workqueue_queue_work \
	workqueue:workqueue_activate_work workqueue:workqueue_execute_start \
	workqueue:workqueue_execute_end)
if record irq-timer-wq perf record -e "$ev" -a -o "$T/irq-timer-wq.data" -- sleep 0.3; then
	shape irq-timer-wq "$T/irq-timer-wq.data"
fi

# other systems: ipi cpumasks (__bitmask), signal, task renames, tlb, rseq, x86_fpu, block
# (rwbs char[] arrays, __data_loc cmd), writeback (__print_flags of inode states)
ev=$(grep -E '^(ipi|signal|task|tlb|rseq|x86_fpu|block|writeback):' "$TRACEFS/available_events" |
	tr '\n' , | sed 's/,$//')
if [ -n "$ev" ]; then
	record systems perf record -e "$ev" -a -o "$T/systems.data" -- sh -c \
		"dd if=/dev/zero of='$T/dd' bs=64k count=8 conv=fsync 2>/dev/null; sleep 0.1" &&
		shape systems "$T/systems.data"
	rm -f "$T/dd"
else
	skip "systems: dump equals perf script" "the kernel has none of the ipi, signal, task, ... events"
fi

# raw_syscalls (an array, args[6]) of one task and its children
record raw-syscalls perf record -e 'raw_syscalls:*' -o "$T/raw-syscalls.data" -- $W &&
	shape raw-syscalls "$T/raw-syscalls.data"

ev=$(have syscalls:sys_enter_openat syscalls:sys_exit_openat syscalls:sys_enter_read \
	syscalls:sys_enter_execve syscalls:sys_enter_mmap syscalls:sys_exit_mmap)
if [ -n "$ev" ]; then
	record syscalls perf record -e "$ev" -o "$T/syscalls.data" -- ls / &&
		shape syscalls "$T/syscalls.data"
else
	skip "syscalls: dump equals perf script" "the kernel has no syscalls:* events"
fi

# kmem: gfp flags (__print_flags), migrate types (__print_symbolic), %pS call sites
record kmem perf record -e 'kmem:*' -a -o "$T/kmem.data" -- sleep 0.05 &&
	shape kmem "$T/kmem.data"

if record sched-g perf record -e 'sched:*' -g -a -o "$T/sched-g.data" -- $W; then
	shape sched-g "$T/sched-g.data"
	oracle_timehist_check sched-g "$T/sched-g.data"
fi
record dwarf perf record -e sched:sched_switch,sched:sched_waking --call-graph dwarf,1024 \
	-o "$T/dwarf.data" -- $W && shape dwarf "$T/dwarf.data"
# pipe mode with callchains: perf script prints the chains unless -G (fixtures.sh)
record pipe-g sh -c "perf record -g -e 'sched:*' -a -o - -- $W >'$T/pipe-g.data'" &&
	shape pipe-g "$T/pipe-g.data"
record pipe-dwarf sh -c "perf record --call-graph dwarf,1024 -e sched:sched_switch \
-o - -- $W >'$T/pipe-dwarf.data'" && shape pipe-dwarf "$T/pipe-dwarf.data"
record pipe-z sh -c "perf record -z -e 'sched:*,irq:*' -a -o - -- $W >'$T/pipe-z.data'" &&
	shape pipe-z "$T/pipe-z.data"
if record file-z perf record -z -e 'sched:*,kmem:kmalloc' -a -o "$T/file-z.data" -- $W; then
	shape file-z "$T/file-z.data"
	oracle_timehist_check file-z "$T/file-z.data"
fi

# Software events among the tracepoints (another sample_type per attr). dump prints the
# tracepoint samples only, and says how many of the others it left: its text is perf script's
# without their lines; info counts them all, as perf report --stats.
mixed() { # LABEL FILE
	perf script -i "$2" -F trace:comm,tid,cpu,time,event,trace --ns -G --kallsyms "$K" \
		2>/dev/null | grep -E '^ *[^ ].* +-?[0-9]+ \[[0-9]+\] +[0-9.]+: +[^ :]+:[^ :]+: ' \
		>"$T/perf-tp.txt"
	"$TICKSCOPE" dump -i "$2" --kallsyms "$K" >"$T/ts.txt" 2>"$T/ts.err"
	ok $? "$1: tickscope dump runs"
	[ -s "$T/perf-tp.txt" ] && cmp -s "$T/perf-tp.txt" "$T/ts.txt"
	ok $? "$1: dump equals perf script's tracepoint lines ($(wc -l <"$T/ts.txt") lines)"
	_n=$(perf report -i "$2" --stats 2>/dev/null | awk '/^cpu-clock stats:$/ { c = 1; next }
		c && /SAMPLE events:/ { print $3; exit }')
	_w="${_n:-none} samples of attr [0-9]* (cpu-clock, type 1) not decoded: not a tracepoint"
	grep -q "warning: .*: $_w" "$T/ts.err"
	ok $? "$1: dump says its ${_n:-none} cpu-clock samples are not decoded: not a tracepoint"
	ts_run info "$2" "$K"
	oracle_perf_counts "$2" >"$T/perf.counts"
	oracle_info_counts "$T/info.out" >"$T/info.counts"
	grep -q ' cpu-clock$' "$T/perf.counts" && cmp -s "$T/perf.counts" "$T/info.counts"
	ok $? "$1: info per-event counts, cpu-clock's too, equal perf report --stats"
}
record cpu-clock-a perf record -e cpu-clock,sched:sched_switch,sched:sched_waking -a \
	-o "$T/cpu-clock-a.data" -- $W && mixed cpu-clock-a "$T/cpu-clock-a.data"
# Without -a cpu-clock has no CPU in its samples and perf script prints nothing when `cpu`
# is asked of every type: perf's tracepoint lines come from -F trace:... (the others then
# print in another form, which the filter drops).
record cpu-clock-F perf record -F 999 -e cpu-clock,sched:sched_switch \
	-o "$T/cpu-clock-F.data" -- $W && mixed cpu-clock-F "$T/cpu-clock-F.data"
record cpu-clock-c1 perf record -c 1 -e sched:sched_switch,cpu-clock \
	-o "$T/cpu-clock-c1.data" -- $W && mixed cpu-clock-c1 "$T/cpu-clock-c1.data"

record sample-cpu perf record --sample-cpu -T -d -e sched:sched_switch,sched:sched_waking \
	-e kmem:kmalloc -o "$T/sample-cpu.data" -- $W && shape sample-cpu "$T/sample-cpu.data"
record no-inherit perf record --no-inherit -e 'sched:*' -o "$T/no-inherit.data" -- $W &&
	shape no-inherit "$T/no-inherit.data"
sh -c 'while :; do sleep 0.01; done' &
loop=$!
record pid perf record -e 'sched:*,timer:*' -p $loop -o "$T/pid.data" -- sleep 0.5 &&
	shape pid "$T/pid.data"
kill $loop
# the workload on CPU 0, so that CPU 0 has tasks switched in often even on an idle machine
if record cpu0 perf record -e 'sched:*,irq:*' -a -C 0 -o "$T/cpu0.data" -- taskset -c 0 $W; then
	shape cpu0 "$T/cpu0.data"
	oracle_timehist_check cpu0 "$T/cpu0.data"
fi
if record monotonic perf record -k CLOCK_MONOTONIC -e 'sched:*' -a -o "$T/monotonic.data" \
	-- $W; then
	shape monotonic "$T/monotonic.data"
	oracle_timehist_check monotonic "$T/monotonic.data"
fi

# --switch-output: every piece with samples is a whole perf.data; the workload three times
# fills more than one 100K piece even on an idle machine (about 1.2 MB here)
if record switch-output perf record --switch-output=100K -e 'sched:*,irq:*' -a \
	-o "$T/switch-output.data" -- sh -c "$W >/dev/null; $W >/dev/null; $W >/dev/null"; then
	np=0
	for f in "$T"/switch-output.data.*; do
		[ "$(oracle_perf_total "$f")" -gt 0 ] || continue
		np=$((np + 1))
		oracle_check "switch-output piece $np" "$f" "$K"
	done
	[ $np -ge 2 ]
	ok $? "switch-output: $np pieces with samples"
fi

# perf inject: file to file as is, and with build ids (-b)
if [ -f "$T/sched-g.data" ]; then
	record inject perf inject -i "$T/sched-g.data" -o "$T/inject.data" &&
		shape inject "$T/inject.data"
	record inject-b perf inject -b -i "$T/sched-g.data" -o "$T/inject-b.data" &&
		shape inject-b "$T/inject-b.data"
fi

# extra record types: NAMESPACES, CGROUP
if record namespaces perf record --namespaces --all-cgroups -e 'sched:*' -a \
	-o "$T/namespaces.data" -- $W; then
	shape namespaces "$T/namespaces.data"
	oracle_timehist_check namespaces "$T/namespaces.data"
fi
if record sched-record perf sched record -o "$T/sched-record.data" -- $W; then
	shape sched-record "$T/sched-record.data"
	oracle_timehist_check sched-record "$T/sched-record.data"
fi
if perf trace -h 2>&1 | grep -q 'perf trace'; then
	record trace-record perf trace record -o "$T/trace-record.data" -- ls / &&
		shape trace-record "$T/trace-record.data"
else
	skip "trace-record: dump equals perf script" "perf has no trace command"
fi

# perf record --threads writes a folder (data, data.N): refused in one line naming it
rm -rf "$T/threads.data"
if perf record --threads -e sched:sched_switch -a -o "$T/threads.data" -- sleep 0.1 \
	>"$T/threads.log" 2>&1 && [ -d "$T/threads.data" ]; then
	"$TICKSCOPE" dump -i "$T/threads.data" >"$T/ts.txt" 2>"$T/ts.err"
	_rc=$?
	[ $_rc -eq 1 ] && [ ! -s "$T/ts.txt" ] && [ "$(wc -l <"$T/ts.err")" -eq 1 ] &&
		grep -q 'threads.data: a folder (perf record --threads or --kcore' "$T/ts.err"
	ok $? "threads: dump refuses perf record --threads' folder in one line (exit $_rc)"
	rm -rf "$T/threads.data"
else
	skip "threads: dump refuses the folder" "perf record --threads did not write a folder"
fi

# A filter on a tracepoint given once: the kernel writes only the hits that pass, and no record
# says so (no twin's count to compare with); only perf's command line (HEADER_CMDLINE) does. The
# report analysed the subset as every hit, silently (here sched_switch without the idle task's
# switches). Such a tracepoint is now not recorded, said in one line; the others are analysed.
if record filter perf record -e sched:sched_switch --filter 'prev_pid != 0' \
	-e sched:sched_waking -a -o "$T/filter.data" -- $W; then
	shape filter "$T/filter.data"
	"$TICKSCOPE" report -i "$T/filter.data" --kallsyms "$K" >"$T/filter.txt" 2>"$T/filter.err"
	grep -q 'sched_switch\* (not recorded), sched_waking [1-9]' "$T/filter.txt"
	ok $? "filter: the report has sched_switch as not recorded, and analyses sched_waking"
	[ "$(grep -c 'attr 0 (sched:sched_switch) was recorded through a filter' \
		"$T/filter.err")" -eq 1 ] && [ "$(grep -c 'through a filter' "$T/filter.err")" -eq 1 ]
	ok $? "filter: the report says why, in one line"
	# the plugin reads the file's saved command line too: the same report, and one line why
	perf script -i "$T/filter.data" --dlfilter "$TS_BUILD/tickscope.so" \
		--dlarg kallsyms="$K" >"$T/filter-plugin.txt" 2>"$T/filter-plugin.err"
	grep -q 'sched_switch\* (not recorded), sched_waking [1-9]' "$T/filter-plugin.txt" &&
		[ "$(grep -c 'recorded through a filter' "$T/filter-plugin.err")" -eq 1 ]
	ok $? "filter: so has the plugin's report, and it says why in one line"
fi
# --exclude-perf is a filter too (common_pid != perf's pid), on every event of the -e before it
if record exclude-perf perf record -e sched:sched_switch,sched:sched_waking --exclude-perf \
	-e sched:sched_wakeup -a -o "$T/exclude-perf.data" -- $W; then
	"$TICKSCOPE" report -i "$T/exclude-perf.data" --kallsyms "$K" 2>/dev/null |
		grep -q 'sched_switch\* (not recorded), sched_waking (not recorded), sched_wakeup [1-9]'
	ok $? "exclude-perf: the report has the excluded -e's events as not recorded, not the next"
fi
# perf's command line read as perf's parser reads it: an option cluster (-ae), a list with a
# blank after its comma (perf filters both events), --fi for --filter and --ev for --event;
# and a workload given without -- whose own words (here sh's $0, --exclude-perf) are not perf's
if record filter-words perf record -ae 'sched:sched_switch, sched:sched_waking' \
	--fi 'common_pid != 0' --ev sched:sched_wakeup -o "$T/filter-words.data" -- $W; then
	"$TICKSCOPE" report -i "$T/filter-words.data" --kallsyms "$K" 2>/dev/null |
		grep -q 'sched_switch\* (not recorded), sched_waking (not recorded), sched_wakeup [1-9]'
	ok $? "filter-words: -ae with a blank in its list, --fi: both filtered, not --ev's event"
	perf script -i "$T/filter-words.data" --dlfilter "$TS_BUILD/tickscope.so" \
		--dlarg kallsyms="$K" 2>/dev/null |
		grep -q 'sched_switch\* (not recorded), sched_waking (not recorded), sched_wakeup [1-9]'
	ok $? "filter-words: so has the plugin's report (it reads the file's command line too)"
fi
if record workload-words perf record -e sched:sched_switch,sched:sched_waking -a \
	-o "$T/workload-words.data" sh -c "$W" --exclude-perf; then
	"$TICKSCOPE" report -i "$T/workload-words.data" --kallsyms "$K" 2>"$T/workload-words.err" |
		grep -q 'sched_switch\* [1-9][0-9]*, sched_waking [1-9]' &&
		! grep -q 'through a filter' "$T/workload-words.err"
	ok $? "workload-words: the workload's --exclude-perf is not perf's: both events analysed"
fi
record sample-read perf record -s -e sched:sched_switch,sched:sched_waking \
	-o "$T/sample-read.data" -- $W && shape sample-read "$T/sample-read.data"

# The same tracepoint twice: perf script prints each hit twice, and so does dump; the report
# counts each hit once, as perf sched timehist, and says why.
if record twice perf record -e sched:sched_switch -e sched:sched_switch -e sched:sched_waking \
	-a -o "$T/twice.data" -- $W; then
	shape twice "$T/twice.data"
	oracle_timehist_check twice "$T/twice.data"
	"$TICKSCOPE" report -i "$T/twice.data" >/dev/null 2>"$T/twice.err"
	grep -q 'warning: .*: attr 1 (sched:sched_switch) records the same tracepoint as attr 0' \
		"$T/twice.err"
	ok $? "twice: report says attr 1 repeats attr 0's tracepoint"
fi

# A leader-sampled group: the member is never sampled; perf script prints a line for it at
# each leader sample where its count moved, with the leader's payload. dump prints the
# leader's samples, says the member is not sampled, and the report has it as not recorded.
if record group perf record -e '{sched:sched_switch,sched:sched_wakeup}:S' -a \
	-o "$T/group.data" -- $W; then
	oracle_perf_script "$T/group.data" "$K" | grep -v ' sched:sched_wakeup: ' >"$T/perf-lead.txt"
	"$TICKSCOPE" dump -i "$T/group.data" --kallsyms "$K" >"$T/ts.txt" 2>"$T/ts.err"
	[ -s "$T/perf-lead.txt" ] && cmp -s "$T/perf-lead.txt" "$T/ts.txt"
	ok $? "group: dump equals perf script's leader lines ($(wc -l <"$T/ts.txt"))"
	grep -q 'attr 1 (sched:sched_wakeup) is not sampled, only counted in its group leader' \
		"$T/ts.err"
	ok $? "group: dump says the member is not sampled"
	"$TICKSCOPE" report -i "$T/group.data" 2>/dev/null | grep -q 'sched_wakeup (not recorded)'
	ok $? "group: the report has sched_wakeup as not recorded"
fi

# Event modifiers: :k records as before; :u (exclude_kernel) on a kernel tracepoint opens, and
# the kernel then never samples it (it fires in kernel mode). Its events are not recorded, not
# none: a report of "0 wakes" from it would be wrong. The kernel's answer is the oracle: perf
# evlist -v shows the flag, perf report --stats no sample of it.
if record modifiers perf record -e sched:sched_switch:k -e sched:sched_waking:u -a \
	-o "$T/modifiers.data" -- $W; then
	shape modifiers "$T/modifiers.data"
	oracle_timehist_check modifiers "$T/modifiers.data"
	perf evlist -v -i "$T/modifiers.data" 2>/dev/null |
		grep -q '^sched:sched_waking: .*exclude_kernel: 1' &&
		! perf report --stats -i "$T/modifiers.data" 2>/dev/null |
			grep -q '^sched:sched_waking stats:'
	ok $? "modifiers: perf says sched_waking:u excludes the kernel and has no sample"
	"$TICKSCOPE" report -i "$T/modifiers.data" --kallsyms "$K" >"$T/mod.txt" 2>"$T/mod.err"
	grep -q 'sched_switch\* [1-9][0-9]*, sched_waking (not recorded)' "$T/mod.txt"
	ok $? "modifiers: the report has sched_waking as not recorded, not as no events"
	grep -q 'warning: .*: attr 1 (sched:sched_waking) was recorded with exclude_kernel' \
		"$T/mod.err"
	ok $? "modifiers: the report says why (exclude_kernel, the :u modifier)"
	perf script -i "$T/modifiers.data" --dlfilter "$TS_BUILD/tickscope.so" \
		--dlarg kallsyms="$K" 2>/dev/null | grep -q 'sched_waking (not recorded)'
	ok $? "modifiers: so has the plugin's report"
fi
# The same tracepoint twice, the first with :u: not the same hits. The second attr's samples
# were dropped as repeats of the first's (none): "sched_switch (recorded, no events)".
if record twice-u perf record -e sched:sched_switch:u -e sched:sched_switch \
	-e sched:sched_waking -a -o "$T/twice-u.data" -- $W; then
	shape twice-u "$T/twice-u.data" # perf sched timehist reads none: it takes attr 0
	n=$(perf report --stats -i "$T/twice-u.data" 2>/dev/null |
		sed -n '/^sched:sched_switch stats:/{n;s/^ *SAMPLE events: *\([0-9]*\).*/\1/p}')
	"$TICKSCOPE" report -i "$T/twice-u.data" --kallsyms "$K" 2>/dev/null |
		grep -q "sched_switch\* ${n:-none}, sched_waking [1-9]"
	ok $? "twice-u: the report analyses the second attr's $n sched_switch samples"
fi
# The same tracepoint twice, one filtered: the filter is in no record; the counts differ, and
# the warning says that they are not the same hits. The analyses take the first attr: filtered,
# its figures were the filter's subset, said only in a warning; now refused in one line. The
# filter on the second leaves the first every hit: analysed, the warning said.
if record twice-filter perf record -e sched:sched_switch --filter 'prev_pid == 0' \
	-e sched:sched_switch -e sched:sched_waking -a -o "$T/twice-filter.data" -- $W; then
	shape twice-filter "$T/twice-filter.data"
	"$TICKSCOPE" report -i "$T/twice-filter.data" >"$T/twice-filter.out" 2>"$T/twice-filter.err"
	_rc=$?
	grep -q "attr 1 (sched:sched_switch) repeats attr 0's tracepoint, not its hits" \
		"$T/twice-filter.err"
	ok $? "twice-filter: the report says attr 1 repeats attr 0's tracepoint, not its hits"
	_e="^tickscope: $T/twice-filter.data: attr 0 (sched:sched_switch) has [0-9]* samples and"
	_e="$_e attr 1, the same tracepoint, [0-9]* (a --filter on attr 0, or lost events?)"
	[ $_rc -eq 1 ] && [ ! -s "$T/twice-filter.out" ] &&
		[ "$(grep -v ': warning: ' "$T/twice-filter.err" | grep -c "$_e")" -eq 1 ] &&
		[ "$(grep -vc ': warning: ' "$T/twice-filter.err")" -eq 1 ]
	ok $? "twice-filter: the report of the filtered attr's subset is refused in one line"
	perf script -i "$T/twice-filter.data" --dlfilter "$TS_BUILD/tickscope.so" \
		--dlarg kallsyms="$K" >"$T/twice-filter.pout" 2>"$T/twice-filter.perr"
	_rc=$?
	[ $_rc -ne 0 ] && [ ! -s "$T/twice-filter.pout" ] &&
		[ "$(grep -c "^tickscope.so: ${_e#^tickscope: }" "$T/twice-filter.perr")" -eq 1 ] &&
		[ "$(wc -l <"$T/twice-filter.perr")" -eq 1 ]
	ok $? "twice-filter: so is the plugin's, in the same line (exit $_rc)"
fi
if record twice-filter2 perf record -e sched:sched_switch -e sched:sched_switch \
	--filter 'prev_pid == 0' -e sched:sched_waking -a -o "$T/twice-filter2.data" -- $W; then
	n=$(perf report --stats -i "$T/twice-filter2.data" 2>/dev/null |
		sed -n '/^sched:sched_switch stats:/{n;s/^ *SAMPLE events: *\([0-9]*\).*/\1/p;q}')
	"$TICKSCOPE" report -i "$T/twice-filter2.data" --kallsyms "$K" 2>/dev/null |
		grep -q "sched_switch\* ${n:-none}, sched_waking [1-9]"
	ok $? "twice-filter2: the report analyses the first, unfiltered attr's $n samples"
	# the plugin too; the filtered attr's samples (none when no CPU went idle) are not called
	# "the same hits again"
	perf script -i "$T/twice-filter2.data" --dlfilter "$TS_BUILD/tickscope.so" \
		--dlarg kallsyms="$K" >"$T/twice-filter2.pout" 2>"$T/twice-filter2.perr"
	grep -q "sched_switch\* ${n:-none}, sched_waking [1-9]" "$T/twice-filter2.pout" &&
		! grep -q 'the same hits again' "$T/twice-filter2.perr"
	ok $? "twice-filter2: so does the plugin, and it does not call the filtered attr's hits repeats"
fi
# not_recorded NAME WHY: the report of $T/NAME.data has sched_switch and sched_waking as not
# recorded and says WHY once for each; so has the plugin's report
not_recorded() {
	"$TICKSCOPE" report -i "$T/$1.data" --kallsyms "$K" >"$T/$1.txt" 2>"$T/$1.err"
	grep -q 'sched_switch\* (not recorded), sched_waking (not recorded)' "$T/$1.txt"
	ok $? "$1: the report has sched_switch and sched_waking as not recorded"
	[ "$(grep -cF "$2" "$T/$1.err")" -eq 2 ]
	ok $? "$1: the report says why, once for each event"
	perf script -i "$T/$1.data" --dlfilter "$TS_BUILD/tickscope.so" \
		--dlarg kallsyms="$K" >"$T/$1-plugin.txt" 2>"$T/$1-plugin.err"
	grep -q 'sched_switch\* (not recorded)' "$T/$1-plugin.txt" &&
		grep -q 'sampled 1 hit in N (perf record -c N --no-period, or -F N) are left out' \
			"$T/$1-plugin.err"
	ok $? "$1: so has the plugin's report, and it says why"
}
# -c 2: with PERF_SAMPLE_PERIOD (perf's default) the kernel still samples every hit of a
# tracepoint, each sample's period 1: analysed as with -c 1 (perf sched timehist agrees).
# With --no-period it samples every second hit: the analyses, which need every hit (a
# switch-out without its switch-in), were computed from half of them, silently. Such a
# tracepoint is now not recorded, said in one line; dump prints its samples as perf script.
if record c2 perf record -c 2 -e sched:sched_switch,sched:sched_waking -a -o "$T/c2.data" \
	-- $W; then
	shape c2 "$T/c2.data"
	oracle_timehist_check c2 "$T/c2.data"
fi
if record c2-np perf record -c 2 --no-period -e sched:sched_switch,sched:sched_waking -a \
	-o "$T/c2-np.data" -- $W; then
	shape c2-np "$T/c2-np.data"
	perf evlist -v -i "$T/c2-np.data" 2>/dev/null | grep '^sched:sched_switch:' |
		grep -q 'sample_freq }: 2, sample_type: IP|TID|TIME|CPU|RAW|IDENTIFIER,'
	ok $? "c2-np: perf says sched_switch has period 2 and no PERF_SAMPLE_PERIOD"
	not_recorded c2-np 'is sampled 1 hit in 2 (perf record -c 2 --no-period)'
fi
# -F N on a tracepoint: the kernel samples 1 hit in N, N moved to hold the rate, each sample's
# period the hits it stands for (perf script's period field, the oracle). The analyses were
# computed from those samples as if they were every hit, silently (348 samples for 25,854
# switches at -F 100 here). Such a tracepoint is now not recorded, said in one line.
if record F100 perf record -F 100 -e sched:sched_switch,sched:sched_waking -a \
	-o "$T/F100.data" -- $W; then
	shape F100 "$T/F100.data"
	# perf prints the period before the event, whatever the order -F gives
	perf script -i "$T/F100.data" -F event,period 2>/dev/null |
		awk '$2 ~ /sched_switch/ { n++; h += $1 } END { print n + 0, h + 0 }' >"$T/F100.n"
	read -r n h <"$T/F100.n"
	[ "$h" -gt "$n" ]
	ok $? "F100: perf script's periods say sched_switch's $n samples stand for $h hits"
	not_recorded F100 'is sampled at 100 Hz (perf record -F 100)'
fi

rm -f "$T"/*.data "$T"/*.data.*
tap_done
