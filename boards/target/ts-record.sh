#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The board side of `make record`: runs on the machine being measured (this host, an ssh board,
# or an emulated guest under busybox sh). Picks events from what the kernel offers, records N
# runs of one workload with perf, and saves everything needed to decode them later.
set -u

usage() {
	cat <<'USAGE'
Usage: ts-record.sh --out DIR --workload W [OPTION]...

Records runs DIR/run-<k>/ (k = FIRST..FIRST+RUNS-1). Each run folder holds:
  perf.data         perf record -a of the workload
  workload.out      the workload's stdout and stderr (stress-ng: also stress-ng.yaml)
  kallsyms          /proc/kallsyms of this boot (perf 6.1 stores none in perf.data)
  uname.txt cmdline.txt kconfig nohz.txt perf-cmd.txt perf-record.log perf-stats.txt
  events.txt        the events chosen, alternatives taken, and missing ones, with reasons
  meta.txt          key=value summary; its last line is status=complete (or failed);
                    perf_data_size= and perf_data_sha256= name the trace
  perf.data.tsum perf.data.tplot summary.log
                    with --summary 1: the run's summary and chart data for tickscope
                    compare, computed here by tickscope summary --charts
A run is written as run-<k>.partial and renamed only when complete. Its first file is
.tickscope-run, which marks the folder as a run of ours (so is a meta.txt starting
format=tickscope-run-1, from before the mark): only such a folder is ever replaced. Anything
else at run-<k>, run-<k>.partial, run-<k>.failed or .run-<k>.earlier is refused before
anything is recorded. An earlier run-<k> is replaced only once the new run is complete: a run
that fails is kept as run-<k>.failed beside it. Stopped by a signal (Ctrl-C, TERM, HUP), the
script removes the run it was recording and the kprobes it added, and exits 128+signal.

Workloads (W):
  pingpong          AF_UNIX ping-pong, tasks free to move
  pingpong-same     both tasks pinned to --pin-same CPU
  pingpong-cross    pinned to the two CPUs of --pin-cross
  pingpong-delay    like pingpong-cross, the echo task burns --delay-us on CPU per message
  stress-ramfs      stress-ng --ramfs WORKERS --timeout DURATION --times --verify
                    --metrics-brief --yaml stress-ng.yaml
Options:
  --out DIR            results folder of this board/variant/workload (created)
  --runs N             repetitions (default 1)     --first-run K   first run number (1)
  --board B --variant V  labels written to meta.txt
  --events SPEC        events to want: names separated by spaces or commas; A|B takes the
                       first that exists; globs (rcu:*) are kept if anything matches.
                       Default: the tickscope set (sched, power, timer, ipi, workqueue,
                       rcu, vmscan shrinker events)
  --probes "F..."      kernel functions to time: a kprobe probe:F and a return probe
                       probe:F__return each (perf probe's names), made through tracefs's
                       kprobe_events, recorded with the events and removed afterwards;
                       F is found by name in /proc/kallsyms, or as a clone F.* (F.constprop.0)
                       one the kernel refuses is written to events.txt as missing
  --tracefs DIR        where tracefs is mounted (default: /sys/kernel/tracing, else
                       /sys/kernel/debug/tracing, else mounted at /sys/kernel/tracing)
  --mmap PAGES         perf record -m (default 8M)     --callchains 0|1 (default 0)
  --perf PATH          perf binary (default perf)      --stress-ng PATH (default stress-ng)
  --recorder R         auto (default): perf if a probe recording with it works, else
                       tickscope record; or perf, or tickscope. meta.txt says which
                       (recorder=) and why (recorder_reason=)
  --tickscope PATH     tickscope binary (default: tickscope next to this script, or in PATH)
  --retries N          record a run refused as a damaged trace (below) again, up to N
                       more times (default 0); a run kept after a retry says how many
                       attempts were refused and why (refused_attempts=, refused_reason=
                       in meta.txt). A run that fails for any other reason is not retried
  --summary 0|1        1: compute each complete run's summary here (tickscope summary
                       --charts), so that it can travel without perf.data; meta.txt says
                       summary=ok or why not, and summary_s= how long it took (default 0)
  --pingpong PATH      pingpong binary (default pingpong next to this script, or in PATH)
  --iters N            ping-pong iterations (10000)    --warmup N (1000)
  --delay-us N         pingpong-delay injected delay (50)
  --pin-same C         (0)                             --pin-cross A,B (0,1)
  --workers N          stress-ng ramfs workers (2)     --duration S stress-ng seconds (5)
  --note KEY=VALUE      an extra meta.txt line (repeatable), e.g. transport=qemu
  --broken-pairs FILE  only check FILE, a run's perf-stats.txt (perf report --stats), with
                       --events the run's events (meta.txt events=) and --cpus N: print the
                       entry/exit pairs it refuses the run for (below), exit 1 if any
  --result FILE        only read FILE, the output of --workload W as a run keeps it
                       (workload.out of pingpong*, stress-ng.yaml of stress-ramfs): print
                       the result meta.txt would record; exit 1 after the line failure=
                       would say if it is not a plain decimal (1.5e+06, nan, -1), and
                       print nothing when FILE has no result line
  --help

A run whose trace has no sample of one half of an entry/exit pair (hrtimer, timer, irq,
softirq, workqueue, shrinker) while the other half has more than 2 per CPU is refused
(status=failed, failure= names the pair): the event never reached perf, so every figure
built on it would be missing or wrong. Seen on the emulated board with its host loaded:
0 hrtimer_expire_entry against 42722 hrtimer_expire_exit in one run of 34.
Progress lines on stderr start with 'ts-record:'.
USAGE
}

TS_DEFAULT_EVENTS="sched:sched_switch sched:sched_wakeup sched:sched_wakeup_new sched:sched_waking
sched:sched_migrate_task sched:sched_process_fork sched:sched_process_exit
sched:sched_wake_idle_without_ipi
power:cpu_idle
timer:hrtimer_setup|timer:hrtimer_init timer:hrtimer_start timer:hrtimer_cancel
timer:hrtimer_expire_entry timer:hrtimer_expire_exit
timer:timer_init timer:timer_start timer:timer_cancel timer:timer_expire_entry timer:timer_expire_exit
timer:tick_stop timer:timer_base_idle
ipi:ipi_send_cpu|ipi:ipi_raise
ipi:ipi_entry|irq_vectors:reschedule_entry irq_vectors:call_function_single_entry
irq:irq_handler_entry irq:irq_handler_exit irq:softirq_entry irq:softirq_exit
irq_vectors:local_timer_entry irq_vectors:local_timer_exit irq_vectors:reschedule_exit
irq_vectors:call_function_single_exit irq_vectors:call_function_entry irq_vectors:call_function_exit
workqueue:workqueue_queue_work workqueue:workqueue_activate_work
workqueue:workqueue_execute_start workqueue:workqueue_execute_end
rcu:rcu_utilization rcu:rcu_grace_period
vmscan:mm_shrink_slab_start vmscan:mm_shrink_slab_end"

# Named events tickscope's analyses use: stated missing even when asked for through a glob.
TS_WATCH_EVENTS="sched:sched_switch sched:sched_waking sched:sched_wakeup power:cpu_idle
timer:hrtimer_setup|timer:hrtimer_init timer:hrtimer_expire_entry timer:tick_stop
timer:timer_expire_entry workqueue:workqueue_execute_start rcu:rcu_grace_period
vmscan:mm_shrink_slab_start irq:irq_handler_entry irq:softirq_entry"

glob_re() {
	echo "$1" | sed 's/[.]/\\./g; s/[*]/.*/g'
}

say() {
	echo "ts-record: $*" >&2
}

fail() {
	echo "ts-record: error: $*" >&2
	exit 1
}

here=$(cd "$(dirname "$0")" && pwd)
out="" workload="" runs=1 first=1 board=unknown variant=unknown events=""
mmap=8M callchains=0 perf=perf stressng=stress-ng pingpong=""
iters=10000 warmup=1000 delay_us=50 pin_same=0 pin_cross=0,1 workers=2 duration=5
notes="" recorder=auto tickscope="" summary=0 probes="" broken_file="" cpus="" tracefs=""
retries=0 refused=0 refused_why="" result_file=""
nl='
'
while [ $# -gt 0 ]; do
	case "$1" in
	--help | -h) usage; exit 0 ;;
	esac
	[ $# -ge 2 ] || fail "$1 needs a value"
	case "$1" in
	--out) out=$2 ;;
	--workload) workload=$2 ;;
	--runs) runs=$2 ;;
	--first-run) first=$2 ;;
	--board) board=$2 ;;
	--variant) variant=$2 ;;
	--events) events=$2 ;;
	--probes) probes=$2 ;;
	--tracefs) tracefs=$2 ;;
	--mmap) mmap=$2 ;;
	--callchains) callchains=$2 ;;
	--perf) perf=$2 ;;
	--recorder) recorder=$2 ;;
	--tickscope) tickscope=$2 ;;
	--summary) summary=$2 ;;
	--retries) retries=$2 ;;
	--stress-ng) stressng=$2 ;;
	--pingpong) pingpong=$2 ;;
	--iters) iters=$2 ;;
	--warmup) warmup=$2 ;;
	--delay-us) delay_us=$2 ;;
	--pin-same) pin_same=$2 ;;
	--pin-cross) pin_cross=$2 ;;
	--workers) workers=$2 ;;
	--duration) duration=$2 ;;
	--broken-pairs) broken_file=$2 ;;
	--result) result_file=$2 ;;
	--cpus) cpus=$2 ;;
	--note)
		case "$2" in
		[a-z]*=*) notes="$notes$2$nl" ;;
		*) fail "--note wants KEY=VALUE" ;;
		esac
		;;
	*) usage >&2; fail "unknown argument '$1'" ;;
	esac
	shift 2
done

# broken_pairs STATS NCPU EVENTS: the entry/exit pairs among the comma list EVENTS whose one
# half has no sample in STATS (perf report --stats) while the other half has more than 2 per
# CPU (an entry in flight when the recording started leaves at most one exit per CPU without
# it, one more at its end): one line each.
broken_pairs() {
	awk -v lim=$((2 * $2)) -v evs=",$3," '
		/ stats:$/ { ev = $1; next }
		ev != "" && /SAMPLE events:/ { n[ev] = $3; ev = ""; next }
		END {
			np = split("timer:hrtimer_expire_entry timer:hrtimer_expire_exit " \
				"timer:timer_expire_entry timer:timer_expire_exit " \
				"irq:irq_handler_entry irq:irq_handler_exit irq:softirq_entry " \
				"irq:softirq_exit workqueue:workqueue_execute_start " \
				"workqueue:workqueue_execute_end vmscan:mm_shrink_slab_start " \
				"vmscan:mm_shrink_slab_end", p, " ")
			for (i = 1; i < np; i += 2)
				for (k = 0; k < 2; k++) {
					a = p[i + k]
					b = p[i + 1 - k]
					if (index(evs, "," a ",") && index(evs, "," b ",") &&
					    n[a] + 0 == 0 && n[b] + 0 > lim)
						printf "%s: 0 samples while %s had %d\n", a, b, n[b]
				}
		}' "$1"
}
# workload_result WORKLOAD FILE: the benchmark's figure in FILE into result (and its unit),
# only when it is a plain decimal, as stress-ng's "%f" and pingpong's "%.4f" print it; a
# result line holding anything else (an exponent, nan, a sign, nothing) is no figure to keep
# or to cut down to one ("1.5e+06" is not 1.5): result_why then names what the workload printed.
# No result line at all leaves both empty.
workload_result() {
	result="" unit="" result_why="" _line=""
	case "$1" in
	pingpong*)
		_line=$(sed -n '/^AF_UNIX sock stream latency:/{p;q;}' "$2" 2>/dev/null)
		_v=$(printf '%s\n' "$_line" |
			sed -n 's/^AF_UNIX sock stream latency: \(.*\) microseconds$/\1/p')
		unit=us_per_round_trip
		;;
	stress-ramfs)
		_line=$(sed -n '/^ *bogo-ops-per-second-real-time:/{p;q;}' "$2" 2>/dev/null)
		_v=$(printf '%s\n' "$_line" | sed 's/^ *bogo-ops-per-second-real-time: *//; s/ *$//')
		unit=bogo_ops_per_s_real_time
		;;
	esac
	[ -n "$_line" ] || return 0
	if printf '%s\n' "$_v" | grep -Eq '^[0-9]+(\.[0-9]+)?$'; then
		result=$_v
	else
		result_why="the workload's result is not a plain decimal: $(basename "$2") says '$(
			printf '%s' "$_line" | sed 's/^ *//' | cut -c 1-100)'"
	fi
}
if [ -n "$result_file" ]; then
	[ -r "$result_file" ] || fail "--result: cannot read $result_file"
	case "$workload" in
	pingpong* | stress-ramfs) ;;
	*) fail "--result needs --workload pingpong* or stress-ramfs" ;;
	esac
	workload_result "$workload" "$result_file"
	[ -z "$result_why" ] || { echo "$result_why"; exit 1; }
	[ -z "$result" ] || echo "$result"
	exit 0
fi
if [ -n "$broken_file" ]; then
	[ -r "$broken_file" ] || fail "--broken-pairs: cannot read $broken_file"
	case "$cpus" in '' | *[!0-9]*) fail "--broken-pairs needs --cpus N" ;; esac
	[ -n "$events" ] || fail "--broken-pairs needs --events (the run's events)"
	b=$(broken_pairs "$broken_file" "$cpus" "$events")
	[ -z "$b" ] || { echo "$b"; exit 1; }
	exit 0
fi
[ -n "$out" ] || fail "--out is required"
[ -n "$workload" ] || fail "--workload is required"
for n in "$runs" "$first" "$iters" "$warmup" "$delay_us" "$workers" "$duration" "$retries"; do
	case "$n" in '' | *[!0-9]*) fail "'$n' is not a number" ;; ??????????*) fail "'$n' is too large" ;; esac
done
[ "$runs" -ge 1 ] || fail "--runs must be at least 1"
case "$summary" in 0 | 1) ;; *) fail "--summary: 0 or 1" ;; esac
for _f in $probes; do
	case "$_f" in
	*[!A-Za-z0-9_.]*) fail "--probes: '$_f' is not a function name" ;;
	esac
done
[ "$(id -u)" = 0 ] || fail "recording system-wide tracepoints needs root"
[ -n "$events" ] || events=$TS_DEFAULT_EVENTS

# Find pingpong: the option, next to this script, or in PATH.
if [ -z "$pingpong" ]; then
	if [ -x "$here/pingpong" ]; then pingpong=$here/pingpong; else pingpong=pingpong; fi
fi

# The workload runs inside the run folder: make relative paths absolute.
abspath() {
	case "$1" in
	/*) echo "$1" ;;
	*/*) echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")" ;;
	*) command -v "$1" || echo "$1" ;;
	esac
}
if [ -z "$tickscope" ]; then
	if [ -x "$here/tickscope" ]; then tickscope=$here/tickscope; else tickscope=tickscope; fi
fi
pingpong=$(abspath "$pingpong")
tickscope=$(abspath "$tickscope")
stressng=$(abspath "$stressng")
perf=$(abspath "$perf")

case "$workload" in
pingpong) wl_cmd="$pingpong --iterations $iters --warmup $warmup --pin none" ;;
pingpong-same) wl_cmd="$pingpong --iterations $iters --warmup $warmup --pin same --cpus $pin_same" ;;
pingpong-cross) wl_cmd="$pingpong --iterations $iters --warmup $warmup --pin cross --cpus $pin_cross" ;;
pingpong-delay)
	wl_cmd="$pingpong --iterations $iters --warmup $warmup --pin cross --cpus $pin_cross"
	wl_cmd="$wl_cmd --delay-us $delay_us"
	;;
stress-ramfs)
	wl_cmd="$stressng --ramfs $workers --timeout ${duration}s --times --verify --metrics-brief"
	wl_cmd="$wl_cmd --yaml stress-ng.yaml"
	;;
*) fail "unknown workload '$workload' (pingpong, pingpong-same, pingpong-cross, pingpong-delay, stress-ramfs)" ;;
esac
set -- $wl_cmd
command -v "$1" >/dev/null 2>&1 || fail "workload binary '$1' not found"
case "$recorder" in auto | perf | tickscope) ;; *) fail "--recorder: auto, perf or tickscope" ;; esac

# tracefs: where the kernel lists its events.
if [ -n "$tracefs" ]; then
	[ -r "$tracefs/available_events" ] || fail "--tracefs $tracefs: no available_events there"
fi
for d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
	[ -z "$tracefs" ] || break
	[ -r "$d/available_events" ] && { tracefs=$d; break; }
done
if [ -z "$tracefs" ]; then
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null
	[ -r /sys/kernel/tracing/available_events ] && tracefs=/sys/kernel/tracing
fi
[ -n "$tracefs" ] || fail "no tracefs: mount -t tracefs nodev /sys/kernel/tracing"

# The recorder: perf when it can record here, else tickscope record (a static binary for boards
# whose perf is missing or does not match the kernel).
perf_works() {
	command -v "$perf" >/dev/null 2>&1 || { recorder_reason="no perf binary '$perf'"; return 1; }
	_p=$(mktemp -d)
	"$perf" record -q -o "$_p/probe.data" -a -e sched:sched_switch -- true >"$_p/log" 2>&1
	_rc=$?
	recorder_reason="perf record fails here: $(tail -n 1 "$_p/log")"
	rm -rf "$_p"
	[ $_rc -eq 0 ] && recorder_reason="perf records here"
	return $_rc
}
recorder_reason="asked for (--recorder $recorder)"
case "$recorder" in
auto)
	if perf_works; then
		recorder=perf
	else
		recorder=tickscope
	fi
	;;
esac
if [ "$recorder" = tickscope ]; then
	command -v "$tickscope" >/dev/null 2>&1 ||
		fail "no way to record: $recorder_reason, and no tickscope binary '$tickscope'"
else
	command -v "$perf" >/dev/null 2>&1 || fail "perf binary '$perf' not found"
fi
say "recorder: $recorder ($recorder_reason)"

# Why an event can be missing, for the ones we know; version notes name the booted kernel.
krel=$(uname -r 2>/dev/null || echo unknown)
missing_reason() {
	case "$1" in
	rcu:rcu_grace_period | rcu:rcu_*) echo "needs CONFIG_RCU_TRACE" ;;
	timer:hrtimer_setup) echo "this kernel ($krel) calls it hrtimer_init" ;;
	timer:timer_base_idle) echo "not in this kernel ($krel): newer kernels only" ;;
	ipi:ipi_send_cpu)
		echo "not in this kernel ($krel): newer kernels only; older arm/arm64 ones have ipi_raise"
		;;
	ipi:ipi_entry) echo "arm and arm64 only; x86 has irq_vectors:*_entry" ;;
	irq_vectors:local_timer_*) echo "x86 only; arm and arm64's timer is a hard IRQ (irq:irq_handler_*)" ;;
	irq_vectors:*) echo "x86 only; arm and arm64 have ipi:ipi_entry" ;;
	ipi:*) echo "no generic IPI tracepoints on this arch/kernel" ;;
	vmscan:*) echo "needs CONFIG_MEMCG/vmscan tracepoints" ;;
	sched:sched_wake_idle_without_ipi) echo "not in this kernel ($krel): added in v3.16" ;;
	probe:*) echo "the kprobe was refused (see kprobes.txt)" ;;
	*) echo "not in available_events" ;;
	esac
}

# Turn the event spec into the perf -e list: writes $events_file, sets ev_list/ev_missing.
pick_events() {
	avail=$tracefs/available_events
	ev_list="" ev_missing=""
	: >"$1"
	for tok in $(echo "$events" | tr ',' ' '); do
		chosen=""
		for alt in $(echo "$tok" | tr '|' ' '); do
			case "$alt" in
			*'*'*)
				re=$(glob_re "$alt")
				grep -qx "$re" "$avail" && chosen=$alt
				;;
			*) grep -qx "$alt" "$avail" && chosen=$alt ;;
			esac
			[ -n "$chosen" ] && break
		done
		if [ -z "$chosen" ]; then
			first_alt=${tok%%|*}
			echo "missing $tok ($(missing_reason "$first_alt"))" >>"$1"
			ev_missing="$ev_missing${ev_missing:+,}$tok"
		elif [ "$chosen" != "${chosen#*\*}" ]; then
			echo "chosen $chosen = $(grep -x "$(glob_re "$chosen")" "$avail" | tr '\n' ' ')" >>"$1"
			ev_list="$ev_list${ev_list:+,}$chosen"
		elif [ "$chosen" != "$tok" ] && [ "$chosen" != "${tok%%|*}" ]; then
			echo "chosen $chosen (instead of ${tok%%|*}: $(missing_reason "${tok%%|*}"))" >>"$1"
			ev_list="$ev_list${ev_list:+,}$chosen"
		else
			echo "chosen $chosen" >>"$1"
			ev_list="$ev_list${ev_list:+,}$chosen"
		fi
	done
	# Globs hide what they did not match: state the events the analyses care about.
	for tok in $TS_WATCH_EVENTS; do
		first_alt=${tok%%|*}
		grep -qE "[ =]$first_alt( |\$)" "$1" && continue
		covered=""
		for g in $(echo "$ev_list" | tr ',' ' '); do
			case "$g" in *'*'*) echo "$first_alt" | grep -qx "$(glob_re "$g")" && covered=$g ;; esac
		done
		[ -n "$covered" ] || continue
		for alt in $(echo "$tok" | tr '|' ' '); do
			grep -qx "$alt" "$avail" && continue 2
		done
		echo "missing $tok ($(missing_reason "$first_alt"); $covered has no match)" >>"$1"
		ev_missing="$ev_missing${ev_missing:+,}$tok"
	done
	[ -n "$ev_list" ]
}

save_kconfig() {
	if [ -r /proc/config.gz ]; then
		gzip -dc /proc/config.gz >"$1" && return 0
	fi
	if [ -r "/boot/config-$(uname -r)" ]; then
		cp "/boot/config-$(uname -r)" "$1" && return 0
	fi
	echo "# no kernel config readable (/proc/config.gz, /boot/config-$(uname -r))" >"$1"
	return 1
}

save_nohz() {
	{
		for f in nohz_full isolated online possible; do
			v=$(cat /sys/devices/system/cpu/$f 2>/dev/null) || v="(absent)"
			echo "$f=$v"
		done
		echo "cmdline_tick_args=$(tr ' ' '\n' </proc/cmdline |
			grep -E '^(nohz|nohz_full|isolcpus|rcu_nocbs|irqaffinity|skew_tick)=' |
			tr '\n' ' ')"
		grep -E '^CONFIG_(HZ|NO_HZ[A-Z_]*|HZ_PERIODIC|PREEMPT[A-Z_]*|RCU_TRACE)=' "$2" 2>/dev/null
	} >"$1"
}

save_kallsyms() {
	old=$(cat /proc/sys/kernel/kptr_restrict 2>/dev/null)
	echo 0 >/proc/sys/kernel/kptr_restrict 2>/dev/null
	cat /proc/kallsyms >"$1"
	[ -n "$old" ] && echo "$old" >/proc/sys/kernel/kptr_restrict 2>/dev/null
	# All-zero addresses mean kptr_restrict won: the file cannot resolve anything.
	! head -n 1 "$1" | grep -q '^0000000000000000 '
}

uptime_s() {
	cut -d' ' -f1 /proc/uptime
}

# meta KEY VALUE: one line of meta.txt.
meta() {
	echo "$1=$2" >>"$rdir/meta.txt"
}

# A command as results record it: the workload by its name, not by this machine's path to it.
shown() {
	printf '%s\n' "$1" | sed "s|$(dirname "$pingpong")/||g"
}

# The run's summary and chart data, next to its perf.data (tickscope summary --charts): what
# compare reads, so that only they need to leave the board. A failure is said, not fatal: the
# trace is still there to send.
summarise() {
	_s0=$(uptime_s)
	if ! command -v "$tickscope" >/dev/null 2>&1; then
		_sm="failed: no tickscope binary '$tickscope'"
	elif "$tickscope" summary --charts "$rdir" >"$rdir/summary.log" 2>&1; then
		_sm=ok
	else
		_sm="failed: $(tail -n 1 "$rdir/summary.log" | sed 's/^tickscope: //')"
	fi
	meta summary "$_sm"
	meta summary_s "$(awk -v a="$_s0" -v b="$(uptime_s)" 'BEGIN { printf "%.2f", b - a }')"
	[ "$_sm" = ok ] || say "run $k: no summary: ${_sm#failed: }"
}

record_one() {
	k=$1
	final=$out/run-$k
	earlier=""
	[ ! -d "$final" ] || earlier=1
	rdir=$final.partial
	rm -rf "$rdir"
	recording=$rdir
	mkdir "$rdir" || fail "cannot create $rdir"
	echo tickscope-run >"$rdir/.tickscope-run" || fail "cannot write in $rdir"
	: >"$rdir/meta.txt"

	uname -a >"$rdir/uname.txt"
	cat /proc/cmdline >"$rdir/cmdline.txt"
	kc=ok
	save_kconfig "$rdir/kconfig" || kc=missing
	save_nohz "$rdir/nohz.txt" "$rdir/kconfig"
	pick_events "$rdir/events.txt" || fail "none of the wanted events exist on this kernel"
	[ ! -f "$out/kprobes.txt" ] || cp "$out/kprobes.txt" "$rdir/kprobes.txt"
	ks=ok
	save_kallsyms "$rdir/kallsyms" || ks=restricted

	g=""
	[ "$callchains" = 1 ] && g="-g"
	rec=$perf
	[ "$recorder" = tickscope ] && rec="$tickscope"
	pcmd="$rec record -o perf.data -m $mmap $g -a -e $ev_list -- sh -c 'exec $wl_cmd >workload.out 2>&1'"
	shown "cd run-$k && $pcmd" >"$rdir/perf-cmd.txt"
	say "run $k/$((first + runs - 1)): $workload on $board/$variant ($(echo "$ev_list" | tr ',' '\n' | wc -l) events)"
	t0=$(uptime_s)
	(cd "$rdir" && $rec record -o perf.data -m "$mmap" $g -a -e "$ev_list" -- \
		sh -c "exec $wl_cmd >workload.out 2>&1") >"$rdir/perf-record.log" 2>&1
	st=$?
	t1=$(uptime_s)
	if [ "$recorder" = tickscope ]; then
		# tickscope info: "samples: N" and "lost events: A in LOST records, B in
		# LOST_SAMPLES records" (events lost, where perf --stats counts LOST records)
		(cd "$rdir" && "$tickscope" info perf.data) >"$rdir/perf-stats.txt" 2>&1
		pst=$?
		samples=$(sed -n 's/^samples: *\([0-9]*\).*/\1/p' "$rdir/perf-stats.txt")
		lost=$(sed -n 's/^lost events: *\([0-9]*\) in LOST.*/\1/p' "$rdir/perf-stats.txt")
		lost_samples=$(sed -n 's/.* \([0-9]*\) in LOST_SAMPLES.*/\1/p' "$rdir/perf-stats.txt")
	else
		# perf returns the workload's status; a failed workload ends the run as failed.
		(cd "$rdir" && $perf report -i perf.data --stats) >"$rdir/perf-stats.txt" 2>&1
		pst=$?
		# perf --stats: the aggregated block counts LOST records (ring-buffer overruns,
		# "chunks"); the per-event blocks after it count the samples each event lost.
		lost=$(sed -n 's/^ *LOST events: *\([0-9]*\).*/\1/p' "$rdir/perf-stats.txt" | head -n1)
		lost_samples=$(awk '/ stats:$/ { ev = 1 }
			ev && /LOST_SAMPLES events:/ { n += $3 } END { print n + 0 }' "$rdir/perf-stats.txt")
		samples=$(sed -n 's/^ *SAMPLE events: *\([0-9]*\).*/\1/p' "$rdir/perf-stats.txt" | head -n1)
	fi
	# perf --stats counts each event's samples: a pair with one half empty is refused below
	broken=""
	if [ "$recorder" = perf ] && [ "$pst" = 0 ]; then
		ncpu=$(grep -c '^processor' /proc/cpuinfo)
		broken=$(broken_pairs "$rdir/perf-stats.txt" "$ncpu" "$ev_list" | head -n 1)
	fi
	case "$workload" in
	stress-ramfs) workload_result "$workload" "$rdir/stress-ng.yaml" ;;
	*) workload_result "$workload" "$rdir/workload.out" ;;
	esac

	meta format tickscope-run-1
	meta board "$board"
	meta variant "$variant"
	meta workload "$workload"
	meta run "$k"
	meta runs "$runs"
	meta date_utc "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
	meta arch "$(uname -m)"
	meta kernel "$(uname -r)"
	meta cpus_online "$(cat /sys/devices/system/cpu/online)"
	meta nohz_full "$(sed -n 's/^nohz_full=//p' "$rdir/nohz.txt")"
	meta isolated "$(sed -n 's/^isolated=//p' "$rdir/nohz.txt")"
	meta recorder "$recorder"
	meta recorder_reason "$recorder_reason"
	if [ "$recorder" = tickscope ]; then
		meta perf_version "$("$tickscope" --version 2>/dev/null)"
	else
		meta perf_version "$($perf version 2>/dev/null | sed 's/^perf version //')"
	fi
	meta perf_mmap "$mmap"
	meta callchains "$callchains"
	meta events "$ev_list"
	meta events_missing "$ev_missing"
	meta probes "$probes"
	meta workload_cmd "$(shown "$wl_cmd")"
	meta workload_status "$st"
	meta result "$result"
	meta result_unit "$unit"
	meta samples "${samples:-0}"
	meta lost_chunks "${lost:-0}"
	meta lost_samples "${lost_samples:-0}"
	meta kallsyms "$ks"
	meta kconfig "$kc"
	# The trace's name: a summary that travels without it must name the same one.
	psize=- psha=-
	if [ -f "$rdir/perf.data" ]; then
		psize=$(wc -c <"$rdir/perf.data" | tr -d ' ')
		command -v sha256sum >/dev/null 2>&1 &&
			psha=$(sha256sum <"$rdir/perf.data" | cut -d' ' -f1)
	fi
	meta perf_data_size "$psize"
	meta perf_data_sha256 "$psha"
	printf '%s' "$notes" >>"$rdir/meta.txt"
	meta elapsed_s "$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')"
	if [ "$refused" != 0 ]; then
		meta refused_attempts "$refused"
		meta refused_reason "$refused_why"
	fi

	if [ -n "$ev_missing" ]; then
		say "run $k: missing events: $ev_missing (see events.txt)"
	fi
	if [ "${lost:-0}" != 0 ] || [ "${lost_samples:-0}" != 0 ]; then
		say "run $k: WARNING: perf lost ${lost:-0} chunk(s) / ${lost_samples:-0} sample(s):" \
			"raise the buffer: perf record -m (now $mmap; make record MMAP=...)"
	fi
	why=""
	[ "$st" = 0 ] || why="perf/workload exited with status $st (see perf-record.log, workload.out)"
	[ -z "$why" ] && [ ! -s "$rdir/perf.data" ] && why="no perf.data written"
	[ -z "$why" ] && [ "$pst" != 0 ] && why="perf report --stats cannot read perf.data"
	[ -z "$why" ] && [ -n "$result_why" ] && why=$result_why
	[ -z "$why" ] && [ -z "$result" ] && why="the workload printed no result (see workload.out)"
	[ -z "$why" ] && [ -n "$broken" ] &&
		why="damaged trace: $broken: the event never reached perf (see perf-stats.txt)"
	if [ -n "$why" ]; then
		meta status failed
		meta failure "$why"
		rm -rf "$final.failed"
		mv "$rdir" "$final.failed" || fail "cannot rename $rdir to $final.failed"
		recording=""
		say "run $k: FAILED: $why${earlier:+; the earlier run-$k is kept}"
		case "$why" in "damaged trace: "*) return 2 ;; esac
		return 1
	fi
	[ "$summary" = 0 ] || summarise
	meta status complete
	# the earlier run (of ours: checked at the start) goes only now, and comes back if the
	# new one cannot take its place
	old=$out/.run-$k.earlier
	rm -rf "$old"
	if [ -d "$final" ]; then
		mv "$final" "$old" || fail "cannot move the earlier $final aside; the new run is $rdir"
	fi
	if ! mv "$rdir" "$final"; then
		[ ! -d "$old" ] || mv "$old" "$final"
		fail "cannot rename $rdir to $final"
	fi
	recording=""
	rm -rf "$old" "$final.failed"
	say "run $k: done in $(sed -n 's/^elapsed_s=//p' "$final/meta.txt") s," \
		"result $result $unit, ${samples:-0} samples, lost ${lost:-0} chunk(s)"
}

# probe_symbol F: the text symbol of F in /proc/kallsyms: F itself, else the first F.* (gcc's
# clones: refresh_cpu_vm_stats is refresh_cpu_vm_stats.constprop.0 in Debian's 6.1), else F
# (the kernel then refuses it). The events keep F's name; kprobes.txt says the symbol probed.
probe_symbol() {
	[ -r /proc/kallsyms ] || { echo "$1"; return 0; }
	awk -v f="$1" '$2 ~ /^[tTwW]$/ && $3 == f { print f; found = 1; exit }
		$2 ~ /^[tTwW]$/ && !alt && index($3, f ".") == 1 { alt = $3 }
		END { if (!found) print (alt != "" ? alt : f) }' /proc/kallsyms
}

# setup_probes: a kprobe and a return probe for each --probes function, through tracefs
# (no perf probe needed on the board); their events join the wanted ones. kprobes.txt says
# what the kernel answered. cleanup_probes removes the ones added again (at the end, on an
# error, or when stopped).
setup_probes() {
	[ -n "$probes" ] || return 0
	_kp=$tracefs/kprobe_events
	[ -w "$_kp" ] || { say "no $_kp: the kernel has no CONFIG_KPROBE_EVENTS; probes dropped"; }
	for _f in $probes; do
		_s=$(probe_symbol "$_f")
		for _d in "p:probe/$_f $_s" "r:probe/${_f}__return $_s"; do
			if [ -w "$_kp" ] && echo "$_d" >>"$_kp" 2>/dev/null; then
				echo "added $_d" >>"$out/kprobes.txt"
				added_probes="$added_probes ${_d%% *}"
			else
				echo "refused $_d" >>"$out/kprobes.txt"
			fi
		done
		events="$events probe:$_f probe:${_f}__return"
	done
}
added_probes=""
cleanup_probes() {
	for _d in $added_probes; do
		echo "-:${_d#*:}" >>"$tracefs/kprobe_events" 2>/dev/null
	done
	added_probes=""
	return 0
}

# run_is_ours ENTRY: ENTRY is a run folder this script wrote (the mark, or the meta.txt of a run
# recorded before the mark): the only kind it replaces.
run_is_ours() {
	[ -d "$1" ] && [ ! -L "$1" ] || return 1
	[ -f "$1/.tickscope-run" ] && return 0
	[ -f "$1/meta.txt" ] && [ "$(head -n 1 "$1/meta.txt")" = format=tickscope-run-1 ]
}

case "$out" in -*) out=./$out ;; esac
[ ! -e "$out" ] || [ -d "$out" ] || fail "--out $out is not a folder"
_e=$(mkdir -p "$out" 2>&1) || fail "cannot create $out (${_e##*: })"
out=$(cd "$out" && pwd)
k=$first
while [ "$k" -lt $((first + runs)) ]; do
	for e in "$out/run-$k" "$out/run-$k.partial" "$out/run-$k.failed" "$out/.run-$k.earlier"; do
		{ [ -e "$e" ] || [ -L "$e" ]; } && ! run_is_ours "$e" &&
			fail "$e is not a run folder of ours (no .tickscope-run): nothing is" \
				"touched; move it or record elsewhere"
	done
	k=$((k + 1))
done
# a stop (Ctrl-C, kill) removes the run being recorded and the kprobes added: nothing of
# ours is left in the kernel, and no half run stands where a complete one may have been
recording="" old="" final=""
stop() {
	trap - INT TERM HUP EXIT
	_m=""
	[ -z "$recording" ] || { rm -rf "$recording"; _m=": $recording removed"; }
	# stopped between moving the earlier run aside and the new one in: the earlier comes back
	[ -z "$old" ] || [ ! -d "$old" ] || [ -e "$final" ] || mv "$old" "$final"
	[ -z "$added_probes" ] || _m="$_m; the kprobes added removed"
	cleanup_probes
	say "stopped by SIG$1$_m"
	exit "$2"
}
trap 'stop INT 130' INT
trap 'stop TERM 143' TERM
trap 'stop HUP 129' HUP
trap cleanup_probes EXIT
rm -f "$out/kprobes.txt"
setup_probes
rc=0
k=$first
while [ "$k" -lt $((first + runs)) ]; do
	# A damaged trace (an event of a pair never reached perf: the emulated board loses one
	# now and then when its host is loaded) says nothing of the kernel under test: with
	# --retries the run is recorded again, and its meta.txt keeps the refusals.
	refused=0 refused_why=""
	while :; do
		r=0
		record_one "$k" || r=$?
		[ "$r" = 2 ] && [ "$refused" -lt "$retries" ] || break
		refused=$((refused + 1))
		refused_why=$(sed -n 's/^failure=//p' "$out/run-$k.failed/meta.txt")
		say "run $k: recording it again (attempt $((refused + 1)) of $((retries + 1)))"
	done
	[ "$r" = 0 ] || rc=1
	k=$((k + 1))
done
exit $rc
