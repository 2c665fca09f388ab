#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The perf oracle over every fixture: tickscope dump equals perf script (-F comm,tid,cpu,time,
# event,trace --ns) byte for byte, and tickscope info's event counts equal
# perf's. x86 fixtures are committed under tests/fixtures/, board recordings under
# tests/fixtures/boards/; the original aarch64 ones from tests/fixtures/aarch64/.
. "$(dirname "$0")/lib/tap.sh"
. "$TS_TOP/tests/fixtures/fixtures.sh"

command -v perf >/dev/null || skip_all "perf not installed (Debian package linux-perf)"
[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
tap_tmpdir
ORACLE_TMP=$TAP_TMP

names=$(fixture_names)
[ -n "$names" ] || { echo "Bail out! no fixtures in $TS_FIXTURES"; exit 1; }
for n in $names; do
	f=$(fixture_data "$n") || { ok 1 "$n: decompress"; continue; }
	k=$(fixture_kallsyms "$n") || { ok 1 "$n: kallsyms named in $n.meta"; continue; }
	ORACLE_NOT_SAMPLED=$(fixture_meta "$n" not_sampled)
	oracle_check "$n" "$f" "$k"
	want=$(fixture_meta "$n" samples)
	is "$(oracle_perf_total "$f")" "$want" "$n: perf counts the samples recorded in $n.meta"
done
ORACLE_NOT_SAMPLED=""

# Pipe mode through a real pipe (stdin), not only a pipe-format file.
np=0
for n in $names; do
	[ "$(fixture_meta "$n" kind)" = pipe ] || continue
	np=$((np + 1))
	f=$(fixture_data "$n")
	k=$(fixture_kallsyms "$n")
	perf script -i - -F comm,tid,cpu,time,event,trace --ns --kallsyms "$k" <"$f" 2>/dev/null \
		>"$ORACLE_TMP/perf-stdin.txt"
	"$TICKSCOPE" dump -i - --kallsyms "$k" <"$f" 2>"$ORACLE_TMP/stdin.err" \
		>"$ORACLE_TMP/ts-stdin.txt"
	if [ -s "$ORACLE_TMP/perf-stdin.txt" ] &&
		cmp -s "$ORACLE_TMP/perf-stdin.txt" "$ORACLE_TMP/ts-stdin.txt"; then
		ok 0 "$n: dump from stdin equals perf script from stdin"
	else
		ok 1 "$n: dump from stdin equals perf script from stdin"
		sed -n '1,5s/^/#   stderr: /p' "$ORACLE_TMP/stdin.err"
		diff "$ORACLE_TMP/perf-stdin.txt" "$ORACLE_TMP/ts-stdin.txt" | head -20 |
			sed 's/^/#   /'
	fi
done
[ "$np" -gt 0 ]
ok $? "pipe-mode fixtures were found ($np)"

# The shared aarch64 recordings, compared with the kallsyms of their boot.
k=$(shared_fixture a64-6.1-generic.kallsyms)
if [ -z "$k" ]; then
	ok 1 "aarch64 fixtures present in tests/fixtures/aarch64"
else
	for n in a64-6.1-generic-stress-ramfs a64-6.1-generic-perf-bench-pipe; do
		f=$(shared_fixture "$n.data") || { ok 1 "$n: present"; continue; }
		oracle_check "$n" "$f" "$k"
	done
fi

# The board recordings (first run of each set): aarch64 and x86 guests, generic and PREEMPT_RT,
# whose formats move every payload field (common_preempt_lazy_count on RT).
nb=0
for d in "$TS_FIXTURES"/boards/*/*/*/run-1; do
	[ -d "$d" ] || continue
	nb=$((nb + 1))
	n=board-$(echo "$d" | sed 's|.*/boards/||; s|/run-1$||; s|/|-|g')
	f=$(unxz_cached "$d/perf.data.xz" "$TS_FIXTURE_CACHE/$n.data") || { ok 1 "$n: decompress"; continue; }
	k=$(unxz_cached "$d/kallsyms.xz" "$TS_FIXTURE_CACHE/$n.kallsyms") || { ok 1 "$n: kallsyms"; continue; }
	oracle_check "$n" "$f" "$k"
done
[ "$nb" -ge 6 ]
ok $? "the board fixtures were found ($nb sets)"

# The attrs as perfs of other eras wrote them: perf_event_attr of 64 bytes (VER0, perf 3.x and
# 4.x on old kernels), 72, 80, 96, 104, 112 and 120 (VER6, perf 5.x-6.x), the header's attr
# size with them. A real re-layout of fixtures' attrs (perfdata.pl attrsize); perf script on
# the very file is the oracle.
for c in x86-tiny:64,72,80,96,104,112,120 x86-tiny-group:64,72,80,96,104,112,120 \
	x86-ramfs-callchain:64; do
	n=${c%%:*}
	f=$(fixture_data "$n") || { ok 1 "$n: decompress"; continue; }
	k=$(fixture_kallsyms "$n") || { ok 1 "$n: kallsyms named in $n.meta"; continue; }
	ORACLE_NOT_SAMPLED=$(fixture_meta "$n" not_sampled)
	for sz in $(echo "${c#*:}" | tr ',' ' '); do
		perl "$TS_FIXTURES/perfdata.pl" attrsize "$f" "$TAP_TMP/attr$sz.data" "$sz"
		ok $? "$n: its attrs re-laid as $sz bytes"
		is "$(od -An -tu8 -j 16 -N 8 "$TAP_TMP/attr$sz.data" | tr -d ' ')" $((sz + 16)) \
			"$n: the header's attr size is $((sz + 16))"
		oracle_check "$n with $sz-byte attrs" "$TAP_TMP/attr$sz.data" "$k"
		rm -f "$TAP_TMP/attr$sz.data"
	done
done
ORACLE_NOT_SAMPLED=""

tap_done
