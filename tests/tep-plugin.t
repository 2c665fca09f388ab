#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# plugin_tickscope.so, the libtraceevent plugin, in the real perf 6.1 and trace-cmd. Oracles:
# the host's symbol tables (nm -D of perf and libtraceevent.so.1), the kernel's own print of
# each event (perf script without the plugin: prev_state letters, idle state, target CPU and
# function must say the same), and `tickscope report` on the same file (counts per function
# and the tick's). The fixture is the bundled nohz=off run (a periodic tick on every CPU).
# TS_UPDATE_README=1 rewrites the README's "Used with" outputs from this run.
. "$(dirname "$0")/lib/tap.sh"

TEP=$TS_BUILD/traceevent/plugins
SO=$TEP/plugin_tickscope.so
DLFILTER=$TS_BUILD/tickscope.so
RUN=tests/fixtures/experiment/qemu-aarch64-pingpong-default-vs-nohz-off/nohz-off/run-1
command -v perf >/dev/null 2>&1 || skip_all "perf is not installed"
command -v nm >/dev/null 2>&1 || { echo "Bail out! nm (binutils) is not installed"; exit 1; }
[ -f "$SO" ] || { echo "Bail out! $SO not built"; exit 1; }
tap_tmpdir
T=$TAP_TMP
PERF_BIN=$(command -v perf)
tap_sanitized_perf
mkdir -p "$T/home" "$T/none"

# The plugin where perf and trace-cmd look (TRACEEVENT_PLUGIN_DIR), or nowhere; an empty HOME
# so that no ~/.local/lib/traceevent/plugins of this machine's user takes part.
with() {
	HOME=$T/home TRACEEVENT_PLUGIN_DIR=$TEP "$@"
}
without() {
	HOME=$T/home TRACEEVENT_PLUGIN_DIR=$T/none "$@"
}

# Exports and imports: the loader and unloader only; tep_* only what both hosts export.
got=$(nm -D --defined-only "$SO" | awk '{print $3}' | sort | tr '\n' ' ')
is "$got" "tep_plugin_loader tep_plugin_unloader " "the plugin exports only the loader and unloader"
TEPLIB=$(ldconfig -p 2>/dev/null | awk '/libtraceevent\.so\.1 /{print $NF; exit}')
if [ -f "$TEPLIB" ]; then
	nm -D --defined-only "$PERF_BIN" | awk '{print $3}' | sort -u >"$T/perf.syms"
	nm -D --defined-only "$TEPLIB" | awk '{sub(/@.*/, "", $3); print $3}' | sort -u \
		>"$T/lib.syms"
	nm -D --undefined-only "$SO" | awk '$2 ~ /^(tep_|trace_seq)/ {print $2}' | sort -u \
		>"$T/need"
	comm -23 "$T/need" "$T/perf.syms" >"$T/miss.perf"
	comm -23 "$T/need" "$T/lib.syms" >"$T/miss.lib"
	[ -s "$T/need" ] && [ ! -s "$T/miss.perf" ] && [ ! -s "$T/miss.lib" ]
	ok $? "its $(wc -l <"$T/need") tep_*/trace_seq_* imports are exported by perf and by \
$(basename "$TEPLIB") (missing: $(cat "$T/miss.perf" "$T/miss.lib" | tr '\n' ' '))"
else
	skip "imports against libtraceevent.so.1" "libtraceevent1 is not installed"
fi
if [ "${SANITIZE:-}" = 1 ]; then
	skip "nothing else is imported but libc" "a SANITIZE=1 build imports the sanitizer runtimes"
else
	others=$(nm -D --undefined-only "$SO" | awk '$2 !~ /^(tep_|trace_seq)/ &&
		$2 !~ /@GLIBC_/ && $1 != "w" {print $2}' | tr '\n' ' ')
	is "$others" "" "nothing else is imported but libc"
fi

# The fixture, decompressed.
xz -dc "$TS_TOP/$RUN/perf.data.xz" >"$T/perf.data" && xz -dc "$TS_TOP/$RUN/kallsyms.xz" \
	>"$T/kallsyms" || { echo "Bail out! cannot decompress $RUN"; exit 1; }
cd "$T" || exit 1

# section EVENT FILE: "samples<TAB>text" of one event's part of `perf report -n` output
section() {
	awk -v ev="event '$1'" '
		/^# Samples:/ { on = index($0, ev) > 0; next }
		on && /^ +[0-9.]+% +[0-9]+ / {
			n = $2; sub(/^ +[0-9.]+% +[0-9]+ +/, ""); sub(/ +$/, ""); print n "\t" $0
		}' "$2"
}

with perf report -i perf.data --kallsyms kallsyms -s trace --stdio -n >rep.with 2>rep.with.err
rc1=$?
without perf report -i perf.data --kallsyms kallsyms -s trace --stdio -n >rep.raw 2>rep.raw.err
rc2=$?
"$TICKSCOPE" report -i perf.data --kallsyms kallsyms --tsv tsv >/dev/null 2>cli.err
rc3=$?
is "$rc1 $rc2 $rc3" "0 0 0" "perf report with and without the plugin, tickscope report --tsv"

# Without the plugin each expiry is a line of its own (now= differs): proof the plugin loaded.
section timer:hrtimer_expire_entry rep.raw >raw.hr
n=$(grep -c 'hrtimer=0x.* now=' raw.hr)
[ "$n" -gt 100 ] && ! grep -q 'class=' raw.hr
ok $? "without the plugin perf report groups nothing: $n raw lines of hrtimer=... now=..."
cmp -s rep.with.err rep.raw.err
ok $? "loading and unloading the plugin adds nothing to perf report's stderr"
# The README's other way: the plugin copied into ~/.local/lib/traceevent/plugins, no
# TRACEEVENT_PLUGIN_DIR. perf's own libtraceevent looks there; the output is the one above.
mkdir -p "$T/lhome/.local/lib/traceevent/plugins"
cp "$SO" "$T/lhome/.local/lib/traceevent/plugins/"
HOME=$T/lhome TRACEEVENT_PLUGIN_DIR=$T/none perf report -i perf.data --kallsyms kallsyms \
	-s trace --stdio -n >rep.local 2>/dev/null
# (perf report ends with a tip it picks at random)
grep -v '^# (Tip: ' rep.with >rep.with.notip
grep -v '^# (Tip: ' rep.local >rep.local.notip
cmp -s rep.with.notip rep.local.notip &&
	grep -q ' class=tick function=tick_sched_timer *$' rep.local
ok $? "perf report loads the plugin from ~/.local/lib/traceevent/plugins as from TRACEEVENT_PLUGIN_DIR"
diff rep.with.notip rep.local.notip | head -4 | sed 's/^/#   /'

# perf report's groups against tickscope report's per-function figures. timer_functions.tsv:
# function type tick expiries starts ...; wq_functions.tsv: function watched executions ...
# perf_groups EVENT: "function count" per function, and "class function" pairs in classes.E
perf_groups() {
	section "$1" "${REP:-rep.with}" | awk -F'\t' -v cls="classes.$1" '{
		c = "-"; f = "-"
		if (match($2, /class=[^ ]+/)) c = substr($2, RSTART + 6, RLENGTH - 6)
		if (match($2, /function=[^ ]+/)) f = substr($2, RSTART + 9, RLENGTH - 9)
		n[f] += $1; print c, f > cls
	} END { for (f in n) print f, n[f] }' | sort
}
perf_groups timer:hrtimer_expire_entry >p.hr
awk -F'\t' 'NR > 1 && $2 == "hrtimer" {print $1, $4}' tsv/timer_functions.tsv | sort >c.hr
[ -s c.hr ] && cmp -s p.hr c.hr
ok $? "hrtimer expiries per function: perf report -s trace equals tickscope report" \
	"($(tr '\n' ' ' <p.hr))"
perf_groups timer:hrtimer_start >p.hs
awk -F'\t' 'NR > 1 && $2 == "hrtimer" && $5 > 0 {print $1, $5}' tsv/timer_functions.tsv |
	sort >c.hs
[ -s c.hs ] && cmp -s p.hs c.hs
ok $? "hrtimer starts per function equal too"
tick_perf=$(awk '$1 == "tick" {print $2}' classes.timer:hrtimer_expire_entry | sort -u |
	tr '\n' ' ')
tick_cli=$(awk -F'\t' 'NR > 1 && $2 == "hrtimer" && $3 == 1 {print $1}' \
	tsv/timer_functions.tsv | sort -u | tr '\n' ' ')
is "$tick_perf" "$tick_cli" "class=tick is the function tickscope report marks as the tick"
n_tick=$(section timer:hrtimer_expire_entry rep.with | awk -F'\t' '$2 ~ /^class=tick / {n += $1}
	END {print n + 0}')
n_cli=$(awk -F'\t' 'NR > 1 && $3 == 1 {n += $4} END {print n + 0}' tsv/timer_functions.tsv)
[ "$n_tick" -gt 1000 ]
ok $? "the periodic tick shows: $n_tick expiries of class=tick"
is "$n_tick" "$n_cli" "class=tick's count is tickscope report's tick expiries"
perf_groups timer:timer_expire_entry >p.tl
awk -F'\t' 'NR > 1 && $2 == "timer" {print $1, $4}' tsv/timer_functions.tsv | sort >c.tl
[ -s c.tl ] && cmp -s p.tl c.tl
ok $? "timer_list expiries per function equal ($(wc -l <p.tl) functions)"
perf_groups workqueue:workqueue_execute_start >p.wq
awk -F'\t' 'NR == 1 {for (i = 1; i <= NF; i++) col[$i] = i; next}
	{print $col["function"], $col["executions"]}' tsv/wq_functions.tsv | sort >c.wq
[ -s c.wq ] && cmp -s p.wq c.wq
ok $? "work items per function equal ($(tr '\n' ' ' <p.wq))"
grep -q '^vmstat vmstat_update$' classes.workqueue:workqueue_execute_start &&
	grep -q '^vmstat vmstat_shepherd$' classes.workqueue:workqueue_execute_start
ok $? "vmstat_update and vmstat_shepherd are class=vmstat"

# perf report hands a handler no CPU (perf 6.1 get_trace_output(): the payload alone): every
# wake read as one from CPU 0, "where=remote" for every target but CPU 0. It is "-" there, and
# the wakes per target CPU are the kernel's print's (target_cpu= of perf script's raw lines).
section sched:sched_waking rep.with >p.wk
n=$(grep -vc '	where=- target_cpu=[0-9]*$' p.wk)
awk -F'\t' '{sub(/.*target_cpu=/, "", $2); print $2, $1}' p.wk | sort >p.wk.n
without perf script -i perf.data -F event,trace 2>/dev/null | awk '$1 == "sched:sched_waking:" {
	for (i = 2; i <= NF; i++) if ($i ~ /^target_cpu=/) n[substr($i, 12) + 0]++
} END {for (c in n) print c, n[c]}' | sort >c.wk.n
[ -s p.wk ] && [ "$n" = 0 ] && cmp -s p.wk.n c.wk.n
ok $? "perf report: sched_waking is where=- (no CPU there), wakes per target CPU as perf's" \
	"($n other lines; $(tr '\n' ' ' <p.wk.n))"

# perf script: the same lines, only the handled events' text changed, and each changed text
# says what the kernel's own print says.
with perf script -i perf.data --kallsyms kallsyms >script.with 2>script.with.err
rc1=$?
without perf script -i perf.data --kallsyms kallsyms >script.raw 2>script.raw.err
rc2=$?
is "$rc1 $rc2 $(wc -l <script.with) $(cmp -s script.with.err script.raw.err; echo $?)" \
	"0 0 $(wc -l <script.raw) 0" "perf script: as many lines with the plugin, the same stderr"
HANDLED=' timer:hrtimer_expire_entry: timer:hrtimer_start: timer:hrtimer_cancel:
	timer:timer_expire_entry: timer:tick_stop: workqueue:workqueue_execute_start:
	workqueue:workqueue_queue_work: power:cpu_idle: sched:sched_switch: sched:sched_waking:
	irq:irq_handler_entry: irq:softirq_entry: irq:softirq_exit: irq:softirq_raise:
	ipi:ipi_entry: ipi:ipi_exit: ipi:ipi_raise: vmscan:mm_shrink_slab_start:
	vmscan:mm_shrink_slab_end: '
# compare_script WITH RAW: pairs the two outputs line by line; writes "changed"/"kept" counts
compare_script() {
	paste -d '\n' "$1" "$2" | awk -v handled="$(echo $HANDLED)" '
	function split_line(l, part,   i, n, w) {
		n = split(l, w, " ")
		for (i = 1; i <= n; i++)
			if (w[i] ~ /^[a-z_0-9]+:[a-z_0-9]+:$/)
				break
		part["ev"] = w[i]
		part["head"] = substr(l, 1, index(l, " " w[i] " ") + length(w[i]))
		part["text"] = substr(l, length(part["head"]) + 2)
	}
	# k=v, or "k v" as workqueue events print their function
	function field(t, k,   s) {
		if (!match(t, "(^| )" k "=[^ ]+") && !match(t, "(^| )" k " [^ ]+"))
			return ""
		s = substr(t, RSTART, RLENGTH); sub(/^ /, "", s)
		return substr(s, length(k) + 2)
	}
	function bad(why) {
		if (nbad++ < 5)
			print "#   " why ": " w["text"] " | " r["text"]
	}
	BEGIN { n = split(handled, h, " "); for (i = 1; i <= n; i++) is[h[i]] = 1 }
	NR % 2 { split_line($0, w); next }
	{
		split_line($0, r)
		if (w["head"] != r["head"]) { bad("heads differ"); next }
		if (!is[r["ev"]]) {
			if (w["text"] != r["text"]) bad("an unhandled event changed")
			same[r["ev"]]++
			next
		}
		if (w["text"] == r["text"]) { kept[r["ev"]]++; next }
		changed[r["ev"]]++
		ev = r["ev"]
		if (ev == "sched:sched_switch:" &&
		    field(w["text"], "prev_state") != field(r["text"], "prev_state"))
			bad("prev_state differs")
		if (ev == "sched:sched_switch:" &&
		    (field(w["text"], "next") == "idle") != (field(r["text"], "next_pid") == "0"))
			bad("next idle differs")
		if (ev == "sched:sched_waking:" &&
		    field(w["text"], "target_cpu") + 0 != field(r["text"], "target_cpu") + 0)
			bad("target_cpu differs")
		# the waking CPU is the one of the record, "[003]" in the head; perf passes no time,
		# so a record of CPU 0 cannot be told from one without a CPU (as in perf report): "-"
		if (ev == "sched:sched_waking:" && match(r["head"], /\[[0-9]+\]/)) {
			c = substr(r["head"], RSTART + 1, RLENGTH - 2) + 0
			want = c == 0 ? "-" : c == field(r["text"], "target_cpu") + 0 ? "local" : \
				"remote"
			if (field(w["text"], "where") != want)
				bad("where= disagrees with the CPUs")
		}
		stopped = field(r["text"], "success") == "1"
		if (ev == "timer:tick_stop:" && stopped != (w["text"] == "result=stopped"))
			bad("tick_stop success differs")
		if (ev == "timer:tick_stop:" && field(r["text"], "success") == "0" &&
		    field(w["text"], "dependency") != field(r["text"], "dependency"))
			bad("tick_stop dependency differs")
		if (ev == "power:cpu_idle:" && field(r["text"], "state") == "4294967295" &&
		    w["text"] != "exit")
			bad("idle exit")
		if (ev == "power:cpu_idle:" && field(r["text"], "state") != "4294967295" &&
		    w["text"] != "enter state=" field(r["text"], "state"))
			bad("idle enter")
		if (ev ~ /expire_entry|hrtimer_start|execute_start|queue_work/ &&
		    field(w["text"], "function") != field(r["text"], "function"))
			bad("function differs")
	}
	END {
		for (e in changed) printf "changed %s %d\n", e, changed[e] > "changed"
		for (e in kept) printf "kept %s %d\n", e, kept[e] > "changed"
		exit nbad > 0
	}'
}
compare_script script.with script.raw
ok $? "unhandled events print as before; handled ones agree with the kernel's print"
sort changed | tr '\n' ' ' | sed 's/^/# /'
echo
for e in timer:hrtimer_expire_entry: timer:hrtimer_start: timer:timer_expire_entry: \
	workqueue:workqueue_execute_start: workqueue:workqueue_queue_work: power:cpu_idle: \
	sched:sched_switch: sched:sched_waking:; do
	grep -q "^changed $e " changed && ! grep -q "^kept $e " changed
	ok $? "every $e line is the plugin's"
done
# 6.1's ipi reason is a const char * the kernel's printk table names: the format's own print
grep -q "^kept ipi:ipi_entry: " changed && ! grep -q "^changed ipi:ipi_entry: " changed
ok $? "ipi_entry, whose reason is a kernel pointer here, keeps the format's print"

# The other side of the experiment (default: nohz idle) fires tick_stop, which nohz=off never
# does: its text against the kernel's print, and its counts against tickscope report's.
D=$TS_TOP/tests/fixtures/experiment/qemu-aarch64-pingpong-default-vs-nohz-off/default/run-1
xz -dc "$D/perf.data.xz" >def.data && xz -dc "$D/kallsyms.xz" >def.kallsyms ||
	{ echo "Bail out! cannot decompress $D"; exit 1; }
with perf script -i def.data --kallsyms def.kallsyms >def.with 2>/dev/null
without perf script -i def.data --kallsyms def.kallsyms >def.raw 2>/dev/null
compare_script def.with def.raw
ok $? "default run: handled events, tick_stop among them, agree with the kernel's print"
grep -q "^changed timer:tick_stop: " changed && ! grep -q "^kept timer:tick_stop: " changed
ok $? "default run: every tick_stop line is the plugin's"
with perf report -i def.data --kallsyms def.kallsyms -s trace --stdio -n >def.rep 2>/dev/null
"$TICKSCOPE" report -i def.data --kallsyms def.kallsyms --tsv dtsv >/dev/null 2>&1
got=$(section timer:tick_stop def.rep | awk -F'\t' '{sub(/^result=/, "", $2);
	sub(/ dependency=/, " ", $2); print $2, $1}' | sort | tr '\n' ' ')
want=$(awk -F'\t' 'NR > 1 && $3 > 0 {print ($1 == "ok" ? "stopped" : "refused " $2), $3}' \
	dtsv/tick_stop.tsv | sort | tr '\n' ' ')
[ -n "$want" ]
ok $? "default run: tickscope report counts tick_stop ($want)"
is "$got" "$want" "default run: perf report -s trace's tick_stop groups are those counts"

# The stress-ng ramfs recording (tests/fixtures/aarch64, with callchains): its work items,
# where the expedited grace periods of the shrinker regression show as class=rcu.
RG=$(shared_fixture a64-6.1-generic-stress-ramfs-g.data) &&
	RGK=$(shared_fixture a64-6.1-generic-ramfs-g.kallsyms) ||
	{ echo "Bail out! cannot decompress the ramfs fixture"; exit 1; }
with perf report -i "$RG" --kallsyms "$RGK" -s trace --stdio -n --no-children -g none \
	>rg.rep 2>/dev/null
"$TICKSCOPE" report -i "$RG" --kallsyms "$RGK" --tsv rgtsv >/dev/null 2>&1
REP=rg.rep perf_groups workqueue:workqueue_execute_start >p.rg
awk -F'\t' 'NR == 1 {for (i = 1; i <= NF; i++) col[$i] = i; next}
	{print $col["function"], $col["executions"]}' rgtsv/wq_functions.tsv | sort >c.rg
[ -s c.rg ] && cmp -s p.rg c.rg
ok $? "ramfs run: work items per function equal tickscope report's ($(wc -l <p.rg) functions)"
grep -q '^rcu wait_rcu_exp_gp$' classes.workqueue:workqueue_execute_start
ok $? "ramfs run: wait_rcu_exp_gp, the expedited grace period's work, is class=rcu"

# live_failed NAME: a perf record below failed (record.log): a skip where this machine cannot
# record tracepoints (not root, or no tracefs), else a failure (on CI a skip would hide it)
live_failed() {
	if [ "$(id -u)" != 0 ] || [ ! -r /sys/kernel/tracing/available_events ]; then
		skip "$1" "perf record failed: $(head -1 record.log)"
	else
		ok 1 "$1: perf record failed as root with tracefs: $(head -1 record.log)"
	fi
}

# A recording without the handled events: perf script prints it byte for byte as before.
if perf record -q -o unhandled.data -e sched:sched_process_exec,sched:sched_process_exit \
	-- sh -c 'true' >record.log 2>&1; then
	with perf script -i unhandled.data >u.with 2>&1
	without perf script -i unhandled.data >u.raw 2>&1
	[ -s u.raw ] && cmp -s u.with u.raw
	ok $? "a live recording of unhandled events only is unchanged ($(wc -l <u.raw) lines)"
else
	live_failed "a recording without the handled events"
fi

# hrtimer_cancel names only the hrtimer: the plugin names its function from the last start it
# saw. Live, on this machine (the bundled runs have no cancel): each cancel's function is the
# one the raw print of the last hrtimer_start of that hrtimer says, or "-" (no start seen, or
# the plugin's table slot taken since), never another. A known cancel, whatever else the machine
# does: a sleep killed once it waits in its nanosleep (its wchan: hrtimer_nanosleep or
# do_nanosleep) cancels its started timer.
# shellcheck disable=SC2016
if perf record -q -o cancel.data -a -e timer:hrtimer_start,timer:hrtimer_cancel \
	-- sh -c 'sleep 60 & p=$!
		while kill -0 $p 2>/dev/null; do
			case $(cat /proc/$p/wchan 2>/dev/null) in *nanosleep) break ;; esac
			sleep 0.05
		done
		kill $p; wait $p; sleep 0.5' >record.log 2>&1; then
	with perf script -i cancel.data >c.with 2>/dev/null
	without perf script -i cancel.data >c.raw 2>/dev/null
	paste -d '\n' c.with c.raw | awk '
		function val(t, k) {
			return match(t, k "=[^ ]+") ? substr(t, RSTART + length(k) + 1,
				RLENGTH - length(k) - 1) : ""
		}
		NR % 2 { w = $0; next }
		/timer:hrtimer_start:/ { fn[val($0, "hrtimer")] = val($0, "function") }
		/timer:hrtimer_cancel:/ {
			got = val(w, "function"); want = fn[val($0, "hrtimer")]
			if (got == "-") dash++
			else if (got == want) named++
			else { wrong++; if (wrong < 4) print "#   " got " for " want ": " $0 }
		}
		END { printf "%d %d %d\n", named, dash, wrong > "cancel.counts"; exit wrong > 0 }'
	rc=$?
	read -r named dash wrong <cancel.counts
	[ $rc -eq 0 ] && [ "$named" -gt 0 ]
	ok $? "live hrtimer_cancel: $named named as their last start, $dash unknown, $wrong wrong"
else
	live_failed "live hrtimer_cancel"
fi

# trace-cmd (libtraceevent 1.7): a private tracefs instance of this machine's events, extracted
# and reported with the plugin. trace-cmd record itself needs the function tracer's files.
tracecmd() {
	if [ "${SANITIZE:-}" = 1 ]; then
		LD_PRELOAD="$SAN_PRELOAD" ASAN_OPTIONS="detect_leaks=0" trace-cmd "$@"
	else
		trace-cmd "$@"
	fi
}
TRACEFS=/sys/kernel/tracing
why=""
command -v trace-cmd >/dev/null 2>&1 || why="trace-cmd is not installed (tests/packages)"
[ -z "$why" ] && [ "$(id -u)" != 0 ] && why="tracefs needs root"
if [ -z "$why" ] && [ ! -d "$TRACEFS/instances" ]; then
	mount -t tracefs nodev "$TRACEFS" 2>/dev/null
	[ -d "$TRACEFS/instances" ] || why="tracefs is not mounted at $TRACEFS and cannot be"
fi
INST=tickscope-$$
if [ -z "$why" ] && mkdir "$TRACEFS/instances/$INST" 2>/dev/null; then
	for e in timer/hrtimer_expire_entry timer/hrtimer_start power/cpu_idle sched/sched_switch \
		sched/sched_waking irq/softirq_entry irq/softirq_raise irq/irq_handler_entry; do
		echo 1 >"$TRACEFS/instances/$INST/events/$e/enable" 2>/dev/null
	done
	# the machine's own work (other builds, tests) fires timers and switches meanwhile
	sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i + 1)); done'
	sleep 1
	echo 0 >"$TRACEFS/instances/$INST/tracing_on"
	tracecmd extract -B "$INST" -o tc.dat >tc.log 2>&1 || why="trace-cmd extract failed"
	rmdir "$TRACEFS/instances/$INST" 2>/dev/null
elif [ -z "$why" ]; then
	why="cannot make a tracefs instance in $TRACEFS/instances"
fi
if [ -z "$why" ]; then
	with tracecmd report -i tc.dat >tc.with 2>tc.with.err
	rc1=$?
	without tracecmd report -i tc.dat >tc.raw 2>tc.raw.err
	rc2=$?
	is "$rc1 $rc2 $(wc -l <tc.with) $(cmp -s tc.with.err tc.raw.err; echo $?)" \
		"0 0 $(wc -l <tc.raw) 0" "trace-cmd report: as many lines with the plugin, no warning"
	# function -> class as trace-cmd printed it, against the same rule printed by perf
	grep -o 'hrtimer_expire_entry: class=[^ ]* function=[^ ]*' tc.with |
		awk '{sub(/class=/, "", $2); sub(/function=/, "", $3); print $2, $3}' | sort -u \
		>tc.classes
	grep -o 'hrtimer_expire_entry: .*function=[^ /]*' tc.raw | sed 's/.*function=//' |
		sort | uniq -c | awk '{print $2, $1}' >tc.fn.raw
	grep -o 'hrtimer_expire_entry: class=[^ ]* function=[^ ]*' tc.with |
		sed 's/.*function=//' | sort | uniq -c | awk '{print $2, $1}' >tc.fn.with
	[ -s tc.fn.raw ] && cmp -s tc.fn.raw tc.fn.with
	ok $? "trace-cmd: the same hrtimer expiries per function ($(tr '\n' ' ' <tc.fn.with))"
	grep -q '^tick ' tc.classes
	ok $? "trace-cmd: this machine's tick is class=tick ($(grep '^tick ' tc.classes |
		tr '\n' ' '))"
	sort -k2 -u classes.timer:hrtimer_expire_entry >perf.classes
	sort -k2 tc.classes >tc.classes.k2
	both=$(join -1 2 -2 2 -o 1.1,0,2.1 perf.classes tc.classes.k2 2>&1)
	is "$(echo "$both" | awk '$1 != $3' | head -1)" "" \
		"trace-cmd and perf give the functions both saw the same class ($(echo "$both" |
		awk '{print $2 "=" $1}' | tr '\n' ' '))"
	# softirq and irq handler names against libtraceevent's print of the kernel's format
	paste -d '\n' tc.with tc.raw | awk '
		NR % 2 { w = $0; next }
		/ softirq_(entry|raise): / {
			n++
			if (!match($0, /action=[A-Z_]+/) ||
			    !index(w, "softirq=" substr($0, RSTART + 7, RLENGTH - 7)))
				bad++
		}
		/ irq_handler_entry: / {
			n++
			if (!match($0, /irq=[0-9]+/)) { bad++; next }
			irq = substr($0, RSTART + 4, RLENGTH - 4)
			if (!match($0, /name=[^ ]+/) ||
			    !index(w, "handler=" substr($0, RSTART + 5, RLENGTH - 5) " irq=" irq))
				bad++
		}
		END { printf "%d %d\n", n, bad > "tc.irq"; exit bad > 0 }'
	rc=$?
	read -r n bad <tc.irq
	[ $rc -eq 0 ] && [ "$n" -gt 0 ]
	ok $? "trace-cmd: softirq and irq handler names are the format's ($n events, $bad differ)"
	w=$(grep -c 'sched_switch: *prev_state=' tc.with)
	r=$(grep -c 'sched_switch:' tc.raw)
	is "$w" "$r" "trace-cmd: every sched_switch is the plugin's ($w)"
else
	for t in "trace-cmd report lines" "trace-cmd expiries per function" "trace-cmd tick class" \
		"trace-cmd and perf classes" "trace-cmd irq names" "trace-cmd sched_switch"; do
		skip "$t" "$why"
	done
fi

# The README's "Used with" section: its outputs are this run's.
excerpt_cli() {
	grep -e '^== idle ==$' -e '^  idle exits by cause: ' "$1"
	sed -n '/^== timer ==/,/^  per CPU expiries/p' "$1" | sed '$d'
}
"$TICKSCOPE" report -i perf.data --kallsyms kallsyms >cli.txt 2>&1
perf script -i perf.data --dlfilter "$DLFILTER" --dlarg kallsyms=kallsyms >dl.txt 2>dl.err
excerpt_cli cli.txt >readme.cli
excerpt_cli dl.txt >readme.dl
[ -s readme.cli ] && cmp -s readme.cli readme.dl
ok $? "the dlfilter's timer section is the CLI's"
sed -n "/event 'timer:hrtimer_expire_entry'/,/^\$/p" rep.with | sed '/^$/d; s/ *$//' \
	>readme.perf-report
with perf report -i perf.data --kallsyms kallsyms -s cpu,trace --stdio -n 2>/dev/null |
	sed -n "/event 'timer:hrtimer_expire_entry'/,/^\$/p" | sed '/^$/d; s/ *$//' >readme.perf-report-cpu
# block NAME FILE: the fenced block after FILE's "<!-- tep-plugin.t: NAME -->" line
block() {
	awk -v m="<!-- tep-plugin.t: $1 -->" '$0 == m {on = 1; next}
		on && /^```/ {if (in_blk) exit; in_blk = 1; next} in_blk' "$2"
}
rc=0
for b in cli perf-report perf-report-cpu; do
	block "$b" "$TS_TOP/README.md" >"readme.$b.got"
	cmp -s "readme.$b.got" "readme.$b" || rc=1
done
if [ "${TS_UPDATE_README:-}" = 1 ] && [ $rc -ne 0 ]; then
	# the one place a test writes into the tree, asked for by name
	READMEDIR=$T perl -0pi -e 'for my $k (qw(cli perf-report perf-report-cpu)) {
		open(my $f, "<", "$ENV{READMEDIR}/readme.$k") or die; local $/; my $t = <$f>;
		s/(<!-- tep-plugin.t: \Q$k\E -->\n```\n).*?(```\n)/$1$t$2/s }' "$TS_TOP/README.md"
	diag "TS_UPDATE_README=1: README.md's Used with outputs rewritten"
fi
ok $rc "README's Used with outputs are this test's (TS_UPDATE_README=1 writes them)"
[ $rc -eq 0 ] || for b in cli perf-report perf-report-cpu; do
	diff "readme.$b.got" "readme.$b" | head -10 | sed 's/^/#   /'
done

tap_done
