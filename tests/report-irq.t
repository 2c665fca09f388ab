#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The irq section and compare's split of run time against perf script: on every fixture that
# recorded irq:irq_handler_entry or irq:softirq_entry (x86, and aarch64 where the tick is the
# arch_timer hard IRQ), per hard IRQ handler, system vector,
# softirq and timer function the entry/exit pairs and their summed durations equal what an awk
# over perf script pairs per CPU; the time covered by any interrupt context, per CPU and per
# task it interrupted, equals the section's disjoint hardirq + softirq time; and compare's
# task.path.run.own + hardirq + softirq equal task.path.run exactly. A fixture without the irq
# events gives null with the reason, never 0.
. "$(dirname "$0")/lib/tap.sh"
. "$TS_TOP/tests/fixtures/fixtures.sh"

command -v perf >/dev/null || skip_all "perf not installed (Debian package linux-perf)"
command -v jq >/dev/null || skip_all "jq not installed (Debian package jq)"
[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
tap_tmpdir

# perf script lines "tid [cpu] sec.ns: event: fields" -> per source "KEY<TAB>count<TAB>sum_ns",
# pairing each exit with the open entry of its source on its CPU (a source does not nest in
# itself: a second entry means the first one's exit was not recorded, as at the trace's start
# while perf enables its events, and no interrupt context spans a sched_switch); "cover" lines:
# ns covered by any open context, per interrupted tid (the outermost entry's), paired the same
# way.
oracle() {
	awk '
	function ns(s,  a) { sub(/:$/, "", s); split(s, a, "."); return a[1] * 1000000000 + a[2] }
	function val(f) { sub(/^[^=]*=/, "", f); return f }
	function enter(k, key) {
		if (k in open) { open[k] = t; return } # its exit was not recorded
		open[k] = t; keyof[k] = key
		if (depth[cpu]++ == 0) { since[cpu] = t; owner[cpu] = tid }
	}
	function leave(k) {
		if (!(k in open)) return
		cnt[keyof[k]]++; sum[keyof[k]] += t - open[k]; delete open[k]
		if (--depth[cpu] == 0) cover[owner[cpu]] += t - since[cpu]
	}
	{
		tid = $1; cpu = $2; t = ns($3); ev = $4; sub(/:$/, "", ev)
	}
	ev == "sched:sched_switch" { # no interrupt context spans a switch: what is open ended
		for (k in open) {
			split(k, kp, SUBSEP)
			if (kp[1] == cpu) delete open[k]
		}
		if (depth[cpu] > 0) cover[owner[cpu]] += t - since[cpu]
		depth[cpu] = 0
		next
	}
	ev == "irq:irq_handler_entry" {
		n = $0; sub(/.* name=/, "", n)
		enter(cpu SUBSEP "irq" SUBSEP val($5), "irq " val($5) " " n); next
	}
	ev == "irq:irq_handler_exit" { leave(cpu SUBSEP "irq" SUBSEP val($5)); next }
	ev == "irq:softirq_entry" {
		a = $6; sub(/^\[action=/, "", a); sub(/\]$/, "", a)
		enter(cpu SUBSEP "softirq" SUBSEP val($5), "softirq " a); next
	}
	ev == "irq:softirq_exit" { leave(cpu SUBSEP "softirq" SUBSEP val($5)); next }
	ev ~ /^irq_vectors:.*_entry$/ {
		v = ev; sub(/^irq_vectors:/, "", v); sub(/_entry$/, "", v)
		enter(cpu SUBSEP "vector" SUBSEP v, "vector " v); next
	}
	ev ~ /^irq_vectors:.*_exit$/ {
		v = ev; sub(/^irq_vectors:/, "", v); sub(/_exit$/, "", v)
		leave(cpu SUBSEP "vector" SUBSEP v); next
	}
	ev == "timer:hrtimer_expire_entry" || ev == "timer:timer_expire_entry" {
		ty = ev ~ /hrtimer/ ? "hrtimer" : "timer"
		enter(cpu SUBSEP ty SUBSEP val($5), ty " " val($6)); next
	}
	ev == "timer:hrtimer_expire_exit" || ev == "timer:timer_expire_exit" {
		leave(cpu SUBSEP (ev ~ /hrtimer/ ? "hrtimer" : "timer") SUBSEP val($5)); next
	}
	END {
		for (k in cnt) printf "%s\t%d\t%.0f\n", k, cnt[k], sum[k]
		for (p in cover) printf "cover %s\t%.0f\n", p, cover[p] >"/dev/stderr"
	}' "$1" 2>"$2" | sort
}

# check NAME DATA KALLSYMS LOG ARCH: every check on one recording with irq events
check() {
	n=$1 f=$2 k=$3 log=$4 arch=$5
	perf script -i "$f" ${k:+--kallsyms "$k"} -F tid,cpu,time,event,trace --ns 2>/dev/null |
		grep -E ' ((irq|irq_vectors|timer):[a-z_]*(entry|exit)|sched:sched_switch):' \
			>"$TAP_TMP/perf"
	grep -qE ' irq:(irq_handler|softirq)_entry:' "$TAP_TMP/perf" || return 0
	n_checked=$((n_checked + 1))
	"$TICKSCOPE" report -i "$f" ${k:+--kallsyms "$k"} --json >"$TAP_TMP/r.json" 2>"$TAP_TMP/err"
	ok $? "$n: report runs"
	oracle "$TAP_TMP/perf" "$TAP_TMP/perf.cover" >"$TAP_TMP/perf.src"
	jq -r '.sections.irq.sources[] |
		(if .type == "irq" then "irq \(.num) \(.name)"
		 elif .type == "hrtimer" or .type == "timer" then "\(.type) \(.function)"
		 else "\(.type) \(.name)" end) + "\t\(.count)\t\(.duration.sum_ns)"' \
		"$TAP_TMP/r.json" | sort >"$TAP_TMP/our.src"
	[ -s "$TAP_TMP/perf.src" ] && cmp -s "$TAP_TMP/perf.src" "$TAP_TMP/our.src"
	ok $? "$n: count and summed duration per handler, vector, softirq and timer function equal perf script's ($(wc -l <"$TAP_TMP/perf.src") sources)" ||
		diff "$TAP_TMP/perf.src" "$TAP_TMP/our.src" | head -10 | sed 's/^/# /'
	# x86's tick is the local_timer vector; arm64's the arch_timer hard IRQ
	for ty in irq softirq hrtimer $([ "$arch" = x86 ] && echo vector); do
		grep -q "^$ty " "$TAP_TMP/perf.src"
		ok $? "$n: the recording has $ty contexts (so the check above covers them)"
	done
	is "$(jq '.sections.irq.unpaired | .closed_by_outer + .dropped_lost + .too_deep + .open_at_end' \
		"$TAP_TMP/r.json")" 0 \
		"$n: no context closed by another, dropped or open at the end (the awk would differ)"
	# covered time, per interrupted task and in all, against the disjoint split
	sed 's/^cover //' "$TAP_TMP/perf.cover" | awk -F'\t' '$2 > 0' | sort >"$TAP_TMP/perf.tasks"
	jq -r '.sections.irq.tasks[] | select(.hardirq_ns + .softirq_ns > 0) |
		"\(.tid)\t\(.hardirq_ns + .softirq_ns)"' "$TAP_TMP/r.json" | sort >"$TAP_TMP/our.tasks"
	[ -s "$TAP_TMP/perf.tasks" ] && cmp -s "$TAP_TMP/perf.tasks" "$TAP_TMP/our.tasks"
	ok $? "$n: per task, hardirq + softirq time equal the time perf script's contexts covered ($(wc -l <"$TAP_TMP/perf.tasks") tasks)" ||
		diff "$TAP_TMP/perf.tasks" "$TAP_TMP/our.tasks" | head -6 | sed 's/^/# /'
	is "$(awk -F'\t' '{ s += $2 } END { printf "%.0f", s }' "$TAP_TMP/perf.tasks")" \
		"$(jq '.sections.irq.time_ns.hardirq + .sections.irq.time_ns.softirq' "$TAP_TMP/r.json")" \
		"$n: all CPUs' hardirq + softirq time is the time covered"

	# compare: the run time's split adds up, on a run folder made of the recording
	rm -rf "$TAP_TMP/v"
	for v in A B; do
		mkdir -p "$TAP_TMP/v/$v/run-1"
		ln -s "$f" "$TAP_TMP/v/$v/run-1/perf.data"
		[ -z "$k" ] || ln -s "$k" "$TAP_TMP/v/$v/run-1/kallsyms"
		cp "$log" "$TAP_TMP/v/$v/run-1/workload.out"
	done
	"$TICKSCOPE" compare --no-cache --comm pingpong --json "$TAP_TMP/v/A" "$TAP_TMP/v/B" \
		>"$TAP_TMP/c.json" 2>"$TAP_TMP/c.err"
	ok $? "$n: compare runs"
	jq -r '[.metrics[] | {key: .name, value: .variants[0].values[0]}] | from_entries |
		"\(."task.path.run.per_op") \(."task.path.run.own.per_op")" +
		" \(."task.path.run.hardirq.per_op") \(."task.path.run.softirq.per_op")" +
		" \(."task.path.run.timers.per_op") \(."task.path.run.tick.per_op")"' \
		"$TAP_TMP/c.json" >"$TAP_TMP/split"
	read -r run own hard soft timers tick <"$TAP_TMP/split"
	awk -v r="$run" -v o="$own" -v h="$hard" -v s="$soft" \
		'BEGIN { d = r - o - h - s; exit !(r > 0 && h > 0 && s > 0 && d * d < 1e-12 * r * r) }'
	ok $? "$n: own + hardirq + softirq = run per op ($own + $hard + $soft = $run ns)"
	awk -v h="$hard" -v s="$soft" -v t="$timers" -v k="$tick" \
		'BEGIN { exit !(k > 0 && k <= t && t <= h + s) }'
	ok $? "$n: tick <= timers <= hardirq + softirq ($tick <= $timers <= $hard + $soft)"
}

n_checked=0
for n in $(fixture_names); do
	f=$(fixture_data "$n") || { ok 1 "$n: fixture"; continue; }
	k=$(fixture_kallsyms "$n") || k=""
	check "$n" "$f" "$k" "$TS_FIXTURES/$n.log" x86
done
n=a64-6.1-generic-pingpong-irq
if f=$(shared_fixture $n.data) && k=$(shared_fixture $n.kallsyms); then
	check "$n" "$f" "$k" "$TS_FIXTURES/aarch64/$n.log" arm64
else
	ok 1 "$n: fixture"
fi
[ "$n_checked" -gt 0 ]
ok $? "fixtures with irq events checked: $n_checked"

# Without the irq events: null, with the event that is missing (the run's summary keeps why).
n=x86-pingpong-none
f=$(fixture_data $n) || { echo "Bail out! fixture $n"; exit 1; }
rm -rf "$TAP_TMP/v"
mkdir -p "$TAP_TMP/v/run-1"
ln -s "$f" "$TAP_TMP/v/run-1/perf.data"
cp "$TS_FIXTURES/$n.log" "$TAP_TMP/v/run-1/workload.out"
"$TICKSCOPE" summary --comm pingpong "$TAP_TMP/v/run-1" >/dev/null 2>"$TAP_TMP/s.err"
ok $? "$n: tickscope summary runs"
for p in own hardirq softirq timers tick; do
	is "$(awk -F'\t' -v m="task.path.run.$p.per_op" '$1 == "m" && $2 == m { print $6 "|" $7 }' \
		"$TAP_TMP/v/run-1/perf.data.tsum")" \
		"nan|irq:irq_handler_entry not recorded: the run time's interrupt part is not known" \
		"$n: task.path.run.$p.per_op is null: irq:irq_handler_entry not recorded"
done
tap_done
