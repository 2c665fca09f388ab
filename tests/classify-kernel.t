#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The class rules' tables (analysis/model/classify.c) against the kernel's own source, Debian's
# linux-source-6.1: softirq names (kernel/softirq.c's softirq_to_name), tick_stop dependency
# bits (include/linux/tick.h's TICK_DEP_BIT_*) and sched_switch's prev_state letters
# (include/trace/events/sched.h's print flags, with include/linux/sched.h's values). The few
# files are extracted once into the git-ignored .cache/ (the whole tarball is read: about a
# minute on a loaded machine).
. "$(dirname "$0")/lib/tap.sh"

BIN=$TS_BUILD/tests/classify.t
TARBALL=/usr/src/linux-source-6.1.tar.xz
[ -x "$BIN" ] || { echo "Bail out! $BIN not built"; exit 1; }
[ -r "$TARBALL" ] || skip_all "$TARBALL is missing (package linux-source-6.1)"
tap_tmpdir
T=$TAP_TMP
FILES="kernel/softirq.c include/linux/tick.h include/linux/sched.h include/trace/events/sched.h"
CACHE=$TS_TOP/.cache/linux-source-6.1-classes
if [ ! -f "$CACHE/.extracted" ]; then
	mkdir -p "$CACHE.tmp.$$" &&
		tar -xJf "$TARBALL" -C "$CACHE.tmp.$$" --strip-components=1 \
			$(for f in $FILES; do echo "linux-source-6.1/$f"; done) &&
		touch "$CACHE.tmp.$$/.extracted" && rm -rf "$CACHE" && mv "$CACHE.tmp.$$" "$CACHE"
	rc=$?
	rm -rf "$CACHE.tmp.$$"
	[ $rc -eq 0 ] || { echo "Bail out! cannot extract $FILES from $TARBALL"; exit 1; }
fi
K=$CACHE

"$BIN" --dump >"$T/ours"
ok $? "classify.t --dump"

# softirq_to_name[] = { "HI", "TIMER", ... };
awk '/softirq_to_name\[NR_SOFTIRQS\] = \{/ {on = 1; next} on && /\};/ {exit}
	on { while (match($0, /"[A-Z_]+"/)) { print "softirq", n++, substr($0, RSTART + 1,
		RLENGTH - 2); $0 = substr($0, RSTART + RLENGTH) } }' "$K/kernel/softirq.c" >"$T/k.softirq"
grep '^softirq ' "$T/ours" >"$T/o.softirq"
[ -s "$T/k.softirq" ] && cmp -s "$T/k.softirq" "$T/o.softirq"
ok $? "softirq vectors are softirq_to_name's ($(wc -l <"$T/k.softirq") names)"

# TICK_DEP_BIT_POSIX_TIMER = 0,
awk '/^[ \t]*TICK_DEP_BIT_[A-Z_]+[ \t]*=[ \t]*[0-9]+/ {
	sub(/^[ \t]*TICK_DEP_BIT_/, ""); sub(/,.*/, ""); split($0, w, /[ \t]*=[ \t]*/)
	print "tick_dep", w[2], w[1] }' "$K/include/linux/tick.h" | sort -n -k2 >"$T/k.dep"
grep '^tick_dep ' "$T/ours" >"$T/o.dep"
[ -s "$T/k.dep" ] && cmp -s "$T/k.dep" "$T/o.dep"
ok $? "tick_stop dependencies are TICK_DEP_BIT_*'s ($(wc -l <"$T/k.dep") bits)"

# { TASK_INTERRUPTIBLE, "S" }, with #define TASK_INTERRUPTIBLE 0x00000001
awk 'FNR == NR && /^#define [A-Z_]+[ \t]+0x[0-9a-f]+/ { v[$2] = $3; next }
	FNR != NR && /\{ *[A-Z_]+, *"[A-Za-z]" *\}/ {
		match($0, /\{ *[A-Z_]+,/); name = substr($0, RSTART + 1, RLENGTH - 2)
		gsub(/ /, "", name)
		match($0, /"[A-Za-z]"/); l = substr($0, RSTART + 1, 1)
		h = v[name]; sub(/^0x0*/, "", h)
		if (name in v) printf "state 0x%s %s\n", h, l
	}' "$K/include/linux/sched.h" "$K/include/trace/events/sched.h" 2>"$T/awk.err" |
	sort -u >"$T/k.state"
grep '^state ' "$T/ours" | sort -u >"$T/o.state"
[ -s "$T/k.state" ] && cmp -s "$T/k.state" "$T/o.state"
rc=$?
ok $rc "prev_state letters are sched_switch's print flags ($(tr '\n' ' ' <"$T/k.state"))"
[ $rc -eq 0 ] || diff "$T/k.state" "$T/o.state" | sed 's/^/#   /'

tap_done
