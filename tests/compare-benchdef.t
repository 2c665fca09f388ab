#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# When a fact that defines the benchmark (the workload command, its pinning) differs between
# the variants, compare says so in the headline's second line, in the shortest form (the words
# that differ), and says whether the kernels are the same; with the same kernel, that the A/B
# is not a kernel A/B (docs/compare.md, "The headline", item 2).
# The oracle is what the committed runs ran: the command perf record started (perf-cmd.txt,
# `-- sh -c 'exec CMD >workload.out'`), and which kernel they ran, the build id of
# [kernel.kallsyms] that `perf buildid-list` reads from each perf.data and the cmdline.txt
# files. tests/fixtures/boards/x86-host/ab: pingpong-same (--pin same --cpus 1),
# pingpong-cross (--pin cross --cpus 0,1), pingpong-delay (cross, --delay-us 50), one kernel.
. "$(dirname "$0")/lib/tap.sh"
command -v jq >/dev/null || skip_all "jq not installed (analysis/packages)"
command -v xz >/dev/null || skip_all "xz not installed (analysis/packages)"
[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
tap_tmpdir
T=$TAP_TMP
ab=$TS_TOP/tests/fixtures/boards/x86-host/ab
for v in pingpong-same pingpong-cross pingpong-delay; do
	cp -a "$ab/$v" "$T/$v"
done

# The oracle's words: the command of a run from perf-cmd.txt, without its path and its pinning
# options, one word a line; and its pinning, "pin=X cpus=Y".
ran() { # RUN: the command perf record ran
	sed -n "s/.*-- sh -c 'exec \(.*\) >workload.out 2>&1'\$/\1/p" "$1/perf-cmd.txt"
}
words() { # RUN: the workload's words without its path and --pin/--cpus, one a line
	ran "$1" | tr ' ' '\n' | awk 'NR == 1 { sub(".*/", "") } skip { skip = 0; next }
		$0 == "--pin" || $0 == "--cpus" { skip = 1; next } { print }'
}
pinning() { # RUN: "pin=X cpus=Y" from the command
	ran "$1" | awk '{ for (i = 1; i < NF; i++) { if ($i == "--pin") p = $(i + 1)
		if ($i == "--cpus") c = $(i + 1) } print "pin=" p " cpus=" c }'
}
only() { # RUN-A RUN-B: the words of B's command that A's lacks (one line)
	words "$1" >"$T/wa"
	words "$2" >"$T/wb"
	diff "$T/wa" "$T/wb" | sed -n 's/^> //p' | tr '\n' ' ' | sed 's/ $//'
}

# the oracle's facts: every run of a variant ran one command, and the commands differ as said
for v in pingpong-same pingpong-cross pingpong-delay; do
	n=$(for r in "$T/$v"/run-*; do ran "$r"; done | sort -u | wc -l)
	is "$n" 1 "oracle: every run of $v ran one command (perf-cmd.txt)"
done
is "$(only "$T/pingpong-cross/run-1" "$T/pingpong-delay/run-1")" "--delay-us 50" \
	"oracle: pingpong-delay's command adds --delay-us 50 to pingpong-cross's"
is "$(only "$T/pingpong-delay/run-1" "$T/pingpong-cross/run-1")" "" \
	"oracle: pingpong-cross's command adds nothing to pingpong-delay's"
same_pin=$(pinning "$T/pingpong-same/run-1")
cross_pin=$(pinning "$T/pingpong-cross/run-1")
is "$same_pin -> $cross_pin" "pin=same cpus=1 -> pin=cross cpus=0,1" \
	"oracle: the pinnings of pingpong-same and pingpong-cross"

# the kernel: one build id in every run's perf.data, one command line
if command -v perf >/dev/null; then
	for r in "$T"/*/run-*; do
		xz -dc "$r/perf.data.xz" >"$T/p.data"
		perf buildid-list -i "$T/p.data" 2>/dev/null | awk '$2 == "[kernel.kallsyms]" { print $1 }'
	done | sort | uniq -c >"$T/ids"
	is "$(wc -l <"$T/ids")" 1 "oracle: one kernel build id in all 26 runs (perf buildid-list)"
	bid=$(awk '{ print $2 }' "$T/ids")
else
	skip "oracle: one kernel build id in all 26 runs" "no perf"
	bid=
fi
is "$(cat "$T"/*/run-*/cmdline.txt | sort -u | wc -l)" 1 "oracle: one kernel command line"
rel=$(sed -n 's/^kernel=//p' "$T/pingpong-same/run-1/meta.txt")

cmp_pair() { # A B: the text and the JSON into $T/A-B.txt, .json
	"$TICKSCOPE" compare "$T/$1" "$T/$2" >"$T/$1-$2.txt" 2>"$T/err" &&
		"$TICKSCOPE" compare --json "$T/$1" "$T/$2" >"$T/$1-$2.json" 2>>"$T/err"
}
line2() { # A B: the text's second line
	sed -n 2p "$T/$1-$2.txt"
}

# 1. cross against delay, both ways: the workload alone differs, the kernel is the same
for pair in "pingpong-cross pingpong-delay" "pingpong-delay pingpong-cross"; do
	# shellcheck disable=SC2086
	set -- $pair
	cmp_pair "$1" "$2"
	ok $? "compare $1 $2"
	want="  not a kernel A/B: the benchmark differs (workload $(only "$T/pingpong-cross/run-1" "$T/pingpong-delay/run-1") in pingpong-delay only) and the kernel is the same ($rel, build id $(printf %.12s "$bid"), one command line); what follows is what the benchmark's change did"
	if [ -n "$bid" ]; then
		is "$(line2 "$1" "$2")" "$want" "$1 vs $2: the second line says it is not a kernel A/B, naming --delay-us 50"
	else
		skip "$1 vs $2: the second line" "no perf for the oracle's build id"
	fi
	head -n1 "$T/$1-$2.txt" | grep -q "^$2 vs $1: latency"
	ok $? "$1 vs $2: the benchmark's line stays first"
	is "$(jq -c '.headline | [.benchmark_differs, .kernel_ab]' "$T/$1-$2.json")" \
		'[[{"fact":"workload","a":"'"$([ "$1" = pingpong-cross ] || echo "--delay-us 50")"'","b":"'"$([ "$1" = pingpong-delay ] || echo "--delay-us 50")"'"}],false]' \
		"$1 vs $2: the JSON's headline says the workload's words and kernel_ab false"
	is "$(jq -r '.headline.lines[1]' "$T/$1-$2.json")" "$(line2 "$1" "$2")" \
		"$1 vs $2: the JSON's lines[1] is the text's"
	# the mechanisms are still said: the headline goes on past the benchmark line
	[ "$(jq '.headline.lines | length' "$T/$1-$2.json")" -gt 2 ]
	ok $? "$1 vs $2: the lines after it (components, mechanisms) are still there"
done

# 2. same against delay: the workload and the pinning differ
cmp_pair pingpong-same pingpong-delay
ok $? "compare pingpong-same pingpong-delay"
line2 pingpong-same pingpong-delay | grep -qF "(workload --delay-us 50 in pingpong-delay only; pinning $same_pin -> $(pinning "$T/pingpong-delay/run-1"))"
ok $? "same vs delay: the line names both, the pinning as the commands' options say"
is "$(jq -c '[.headline.benchmark_differs[].fact]' "$T/pingpong-same-pingpong-delay.json")" \
	'["workload","pinning"]' "same vs delay: the JSON names both facts"
# the confounders below still say it, in full
grep -q '^  ! workload differs: ' "$T/pingpong-same-pingpong-delay.txt" &&
	grep -q '^  ! pinning differs: ' "$T/pingpong-same-pingpong-delay.txt"
ok $? "same vs delay: the confounders still list both facts"

# 3. same against cross: the pinning alone
cmp_pair pingpong-cross pingpong-same
ok $? "compare pingpong-cross pingpong-same"
line2 pingpong-cross pingpong-same |
	grep -qF "not a kernel A/B: the benchmark differs (pinning $cross_pin -> $same_pin) and"
ok $? "cross vs same: the pinning alone, cross's first"

# 4. nothing defining differs: an A/A of pingpong-same's runs, 1-5 against 6-10: no line
mkdir -p "$T/aa1" "$T/aa2"
for k in 1 2 3 4 5; do
	cp -a "$T/pingpong-same/run-$k" "$T/aa1/"
	cp -a "$T/pingpong-same/run-$((k + 5))" "$T/aa2/"
done
cmp_pair aa1 aa2
ok $? "compare an A/A split of pingpong-same"
grep -q 'kernel A/B\|benchmark differs' "$T/aa1-aa2.txt"
ok $((!$?)) "A/A: no benchmark line, the same kernel said nowhere"
is "$(jq -c '.headline | [.benchmark_differs, .kernel_ab]' "$T/aa1-aa2.json")" '[[],false]' \
	"A/A: the JSON's benchmark_differs is empty (kernel_ab false: one kernel)"

# 5. a kernel A/B of one workload (boot parameters, the committed threadirqs experiment)
kp=$TS_TOP/tests/fixtures/kernel-params/qemu-aarch64-pingpong-default-vs-threadirqs
cp -a "$kp/default" "$T/kd"
cp -a "$kp/threadirqs" "$T/kt"
cmp_pair kd kt
ok $? "compare the threadirqs experiment"
grep -q 'kernel A/B\|benchmark differs' "$T/kd-kt.txt"
ok $((!$?)) "threadirqs: one workload, no benchmark line"
is "$(jq -c '.headline | [.benchmark_differs, .kernel_ab, .kernel]' "$T/kd-kt.json")" \
	'[[],true,"boot parameters"]' "threadirqs: kernel_ab true, by the boot parameters"

# 6. the workload and the kernel's command line differ (cmdline.txt edited, the oracle): both
cp -a "$T/pingpong-delay" "$T/delay-quiet"
for r in "$T"/delay-quiet/run-*; do
	sed -i 's/$/ quiet/' "$r/cmdline.txt"
done
cmp_pair pingpong-cross delay-quiet
ok $? "compare pingpong-cross with pingpong-delay booted quiet"
is "$(line2 pingpong-cross delay-quiet)" "  the benchmark differs too, not only the kernel (workload --delay-us 50 in delay-quiet only; the kernels differ in their command line): what follows mixes both" \
	"the kernels differ too: said, with what"

# 7. a side without cmdline.txt: whether the kernels differ is not known, said with why
cp -a "$T/pingpong-delay" "$T/delay-nocmd"
rm "$T"/delay-nocmd/run-*/cmdline.txt
cmp_pair pingpong-cross delay-nocmd
ok $? "compare pingpong-cross with pingpong-delay without cmdline.txt"
line2 pingpong-cross delay-nocmd | grep -q "^  the benchmark differs (workload --delay-us 50 in delay-nocmd only); whether the kernels do too is not known (.*cmdline.txt.*)$"
ok $? "no command line: not known, and why"
is "$(jq -c '.headline.kernel_ab' "$T/pingpong-cross-delay-nocmd.json")" null \
	"no command line: kernel_ab null"
tap_done
