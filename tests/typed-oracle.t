#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The typed path against perf: every field the models read from decode.c's typed events
# (fill_event(), num(): signed 4-byte fields such as workqueue_queue_work's cpu=-1, __data_loc
# strings, the RT kernels' layouts) equals the value perf script prints for the same sample, on
# every committed fixture and the aarch64 board fixtures (generic and PREEMPT_RT).
# tests/oracle/typed_dump prints the typed events; dump-oracle.t covers the printed text.
. "$(dirname "$0")/lib/tap.sh"
. "$TS_TOP/tests/fixtures/fixtures.sh"

TYPED=$TS_BUILD/tests/oracle/typed_dump
command -v perf >/dev/null 2>&1 || skip_all "perf is not installed (Debian package linux-perf)"
[ -x "$TYPED" ] || { echo "Bail out! $TYPED not built (make check-build-extra)"; exit 1; }
tap_tmpdir
T=$TAP_TMP

# perf's trace text in typed_dump's words: "work struct 0x..:" is work=, "function f" is
# function=f, target_cpu loses perf's zero padding, prev_state becomes its class (R, S, D, O).
perf_norm() {
	sed -e 's/  */ /g' -e 's/^ //' \
		-e 's/work struct[= ]\(0x[0-9a-f]*\):\{0,1\}/work=\1/' \
		-e 's/ function \([^ =]*\)/ function=\1/' \
		-e 's/target_cpu=0*\([0-9]\)/target_cpu=\1/' \
		-e 's/prev_state=R[^ ]*/prev_state=R/' -e 's/prev_state=S[^ ]*/prev_state=S/' \
		-e 's/prev_state=D[^ ]*/prev_state=D/' -e 's/prev_state=[^RSD ][^ ]*/prev_state=O/' \
		-e 's/\(rcu:rcu_utilization: \)/\1s=/'
}

# typed NAME FILE [KALLSYMS]
typed() {
	"$TYPED" "$2" ${3:+"$3"} >"$T/typed" 2>"$T/typed.err"
	_rc=$?
	[ "${3:-}" != none ] || set -- "$1" "$2"
	ok $_rc "$1: typed_dump runs"
	[ $_rc -eq 0 ] || { head -3 "$T/typed.err" | sed 's/^/#   /'; return; }
	cut -f1 "$T/typed" | awk '{ print $3 }' | sort -u >"$T/events"
	perf script -i "$2" ${3:+--kallsyms "$3"} -F cpu,time,event,trace --ns 2>/dev/null |
		perf_norm | awk 'NR == FNR { want[$1] = 1; next } want[$3]' "$T/events" - \
		>"$T/perf"
	# line by line: the same sample, and every typed key=value among perf's words
	awk -F'\t' 'NR == FNR { p[FNR] = $0; np = FNR; next }
		{
			n++
			split(p[FNR], w, " ")
			pre = w[1] " " w[2] " " w[3]
			if (pre != $1) { bad++; if (bad <= 5) print "# line " FNR ": ours " $1 ", perf " pre; next }
			text = " " substr(p[FNR], length(pre) + 2) " "
			for (i = 2; i <= NF; i++) {
				fields++
				if (!index(text, " " $i " ")) {
					bad++
					if (bad <= 5) print "# line " FNR " " $1 " " $i ": perf has" text
				}
			}
			split($1, e, " "); seen[e[3]] = 1
		}
		END {
			for (k in seen) kinds++
			if (n != np) { bad++; print "# " n " typed events, " np " perf lines" }
			print n + 0, fields + 0, kinds + 0, bad + 0
		}' "$T/perf" "$T/typed" >"$T/res"
	grep '^#' "$T/res"
	set -- "$1" $(grep -v '^#' "$T/res")
	[ "$2" -gt 0 ] && [ "$5" -eq 0 ]
	ok $? "$1: $3 typed fields of $2 events ($4 kinds) equal perf script's"
}

n=0
for n in $(fixture_names); do
	f=$(fixture_data "$n") || { ok 1 "$n: fixture decompresses"; continue; }
	# perf script resolves no function names in a pipe-mode file
	if oracle_is_pipe "$f"; then
		typed "$n (pipe)" "$f" none
	else
		typed "$n" "$f" "$(fixture_kallsyms "$n" || true)"
	fi
done
[ "$n" != 0 ]
ok $? "the committed fixtures were found (the last: $n)"

for d in qemu-aarch64/generic/stress-ramfs qemu-aarch64/rt/stress-ramfs qemu-aarch64/rt/pingpong \
	qemu-x86/rt/pingpong; do
	b=$TS_FIXTURES/boards/$d/run-1
	n=board-$(echo "$d" | tr / -)-1
	f=$(unxz_cached "$b/perf.data.xz" "$TS_FIXTURE_CACHE/$n.data") &&
		k=$(unxz_cached "$b/kallsyms.xz" "$TS_FIXTURE_CACHE/$n.kallsyms")
	if [ $? -ne 0 ]; then
		ok 1 "$n: fixture decompresses"
		continue
	fi
	typed "$n" "$f" "$k"
done

k=$(shared_fixture a64-6.1-generic.kallsyms) || k=""
for n in a64-6.1-generic-stress-ramfs a64-6.1-generic-perf-bench-pipe; do
	if f=$(shared_fixture "$n.data"); then
		typed "$n" "$f" "$k"
	else
		ok 1 "$n: fixture present in tests/fixtures/aarch64"
	fi
done

# The negative 4-byte signed field the fixtures hold (unbound work: cpu=-1).
grep -q 'workqueue_queue_work:.*	cpu=-1' "$T/typed" 2>/dev/null ||
	for n in x86-pingpong-cross; do
		"$TYPED" "$(fixture_data $n)" >"$T/typed" 2>/dev/null
	done
grep -q 'workqueue_queue_work:.*	cpu=-1' "$T/typed"
ok $? "a negative 4-byte signed field (workqueue_queue_work cpu=-1) is decoded and compared"

tap_done
