#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# kconfig: one variant on two trees (KSRC=6.1 KSRC_B=6.12): the requests that end differently
# (PREEMPT_RT) and the two final .configs compared; oracle: B's own make listnewconfig.
. "$(dirname "$0")/lib/tap.sh"

command -v jq >/dev/null 2>&1 || skip_all "jq is not installed (make deps installs it)"
. "$TS_TOP/tests/kconfig/lib.sh"
ksrc_b=$(ksrc_of 6.12) || skip_all "$ksrc_b"
o=$TS_TOP/.cache/kconfig-test/two

rc=0
make -s -C "$TS_TOP" kernel-config KSRC="$ksrc" KSRC_B="$ksrc_b" BOARD=qemu-x86 O="$o" \
	REUSE=1 ALLOW_DROPS=1 FRAGMENTS="nohz-full preempt-rt tracing" >"$tmp/out" 2>"$tmp/err" ||
	rc=$?
is "$rc" 0 "KSRC=6.1 KSRC_B=6.12 with preempt-rt, ALLOW_DROPS=1: exit 0 (6.1 is not RT)"
grep -q '^== one variant on two trees: A = Linux 6\.1\.[0-9]* .*, B = Linux 6\.12\.[0-9]* ' \
	"$tmp/out"
ok $? "the header names both kernels"
grep -q '^  PREEMPT_RT=y  *preempt-rt.config:[0-9]*  *A: dropped (n)  B: kept (y)$' "$tmp/out"
ok $? "PREEMPT_RT: dropped on 6.1, kept on 6.12"
grep -q 'A: depends on EXPERT \[=y\] && ARCH_SUPPORTS_RT \[=n\]' "$tmp/out"
ok $? "with A's reason"
n=$(grep -c '^  [A-Z_]*=.* A: .* B: ' "$tmp/out")
is "$n" 1 "no other request ends differently"

# Symbols only in B, counted by hand from the two .configs.
syms() {
	sed -n -e 's/^CONFIG_\([A-Za-z0-9_]*\)=.*/\1/p' \
		-e 's/^# CONFIG_\([A-Za-z0-9_]*\) is not set$/\1/p' "$1" | sort -u
}
syms "$o/.config" >"$tmp/a"
syms "$o-b/.config" >"$tmp/b"
want=$(comm -13 "$tmp/a" "$tmp/b" | wc -l)
grep -q "^  $want only in B's result " "$tmp/out"
ok $? "the count of symbols only in B is the .configs' ($want)"
# B's own make listnewconfig, given A's result, by hand: the count and the names printed.
mkdir -p "$tmp/ln"
cp "$o/.config" "$tmp/ln/.config"
make -s -C "$ksrc_b" O="$tmp/ln" ARCH=x86_64 listnewconfig 2>/dev/null |
	sed -n 's/^CONFIG_\([A-Za-z0-9_]*\)=.*/\1/p' | sort -u >"$tmp/new"
n=$(wc -l <"$tmp/new")
[ "$n" -gt 0 ] && grep -q "^B's make listnewconfig on A's result: $n new prompts: " "$tmp/out"
ok $? "B's make listnewconfig on A's result: $n new prompts, as run by hand"
# Each is new to A's result, or changed type (int BASE_SMALL became a bool in 6.12).
[ -z "$(comm -12 "$tmp/new" "$tmp/a" | grep -vx BASE_SMALL)" ]
ok $? "and none of them is in A's result, but for a type change"
grep -q '^    CPU_IDLE_GOV_HALTPOLL  *n -> y$' "$tmp/out" &&
	grep -A1 '^    CPU_IDLE_GOV_HALTPOLL ' "$tmp/out" | grep -q 'confounder: idle governor'
ok $? "a value that moved between the trees is listed, confounders flagged (haltpoll)"
tap_done
