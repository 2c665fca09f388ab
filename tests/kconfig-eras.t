#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# kconfig across kernel eras, on small model trees (tests/kconfig/eras/): an -rt choice with
# PREEMPT_RT_FULL (4.4-rt), a tree without any RT model and with CONTEXT_TRACKING (4.4), a
# PREEMPT_RT that depends on ARCH_SUPPORTS_RT (5.10), and the 6.13+ bool PREEMPT_RT (6.14).
# Each model is its own Kconfig (written for this test) parsed by the Debian 6.1 tree's
# scripts/kconfig, under that tree's Makefile with the model's version: every fragment gets
# the verdicts and exit code of tests/kconfig/eras/expected.tsv, a symbol of another era is
# asked of its stand-in or is "not-in-era" with its note, and never a bare "unknown symbol".
. "$(dirname "$0")/lib/tap.sh"

command -v jq >/dev/null 2>&1 || skip_all "jq is not installed (make deps installs it)"
. "$TS_TOP/tests/kconfig/lib.sh"
eras=$TS_TOP/tests/kconfig/eras
cache=$TS_TOP/.cache/kconfig-test/eras

# model ERA DIR: the model tree of ERA in DIR: the 6.1 Makefile with the model's version,
# the 6.1 scripts/ (a link: nothing is built there), the model's Kconfig files (each ARCH's
# own symbols in arch/ARCH/Kconfig), a tiny arch/x86/Makefile and the base defconfig.
model() {
	rm -rf "$2"
	mkdir -p "$2/arch/x86/configs" "$2/arch/arm64/configs"
	# shellcheck disable=SC2046 # the version line is four words, split on purpose
	set -- "$1" "$2" $(sed -n 's/^# ts-model-version: //p' "$eras/$1/Kconfig")
	awk -v v="$3" -v p="$4" -v s="$5" -v e="${6:-}" '
		/^VERSION = / { print "VERSION = " v; next }
		/^PATCHLEVEL = / { print "PATCHLEVEL = " p; next }
		/^SUBLEVEL = / { print "SUBLEVEL = " s; next }
		/^EXTRAVERSION =/ { print "EXTRAVERSION = " e; next }
		{ print }' "$ksrc/Makefile" >"$2/Makefile"
	ln -s "$ksrc/scripts" "$2/scripts"
	cp "$eras/$1/Kconfig" "$eras/Kconfig.common" "$eras/Kconfig.ct-old" "$2/"
	cp "$eras/Kconfig.arch-x86" "$2/arch/x86/Kconfig"
	cp "$eras/Kconfig.arch-arm64" "$2/arch/arm64/Kconfig"
	cp "$eras/arch-x86.mk" "$2/arch/x86/Makefile"
	cp "$eras/x86_64_defconfig" "$2/arch/x86/configs/"
	# ARCH=arm64 reads the same model but its own arch/arm64/Kconfig, from arm64's defconfig
	echo 'KBUILD_DEFCONFIG := defconfig' >"$2/arch/arm64/Makefile"
	cp "$eras/x86_64_defconfig" "$2/arch/arm64/configs/defconfig"
}

for era in $(awk -F'\t' '!/^#/ { print $1 }' "$eras/expected.tsv" | uniq); do
	tree=$tmp/tree-$era out=$cache/$era
	model "$era" "$tree"
	ver=$(sed -n 's/^# ts-model-version: //p' "$eras/$era/Kconfig" |
		awk '{ print $1 "." $2 "." $3 $4 }')
	for frag in $(awk -F'\t' -v e="$era" '$1 == e { print $2 }' "$eras/expected.tsv" | uniq); do
		want=$(awk -F'\t' -v e="$era" -v f="$frag" '$1 == e && $2 == f { print $3; exit }' \
			"$eras/expected.tsv")
		rc=0
		"$TS_TOP/kconfig-fragments/kernel-config.sh" --ksrc "$tree" --arch x86_64 \
			--out "$out" --reuse --json --fragment-dir "$TS_TOP/tests/kconfig/fragments" \
			"$frag" >"$tmp/r.json" 2>"$tmp/err" || rc=$?
		is "$rc" "$want" "$ver: $frag: exit $want"
		[ "$rc" -le 1 ] || { sed 's/^/#   /' "$tmp/err" | tail -3; continue; }
		jq -r '.sets[0].requests[] | [.symbol, .verdict, (.asked_as // "-"), (.reason // "")] |
			@tsv' "$tmp/r.json" >"$tmp/got"
		awk -F'\t' -v e="$era" -v f="$frag" '
			NR == FNR { if ($1 == e && $2 == f) { want[$4] = $5 "\t" $6; n++ } next }
			($1 in want) { seen[$1] = 1
				if ($2 "\t" $3 != want[$1]) {
					print "#   " $1 ": got " $2 " (asked as " $3 "), want " want[$1]
					print "#     " $4; bad++ } }
			END { for (s in want) if (!(s in seen)) { print "#   no request " s; bad++ }
				exit bad > 0 || !n }' "$eras/expected.tsv" "$tmp/got" >"$tmp/diag"
		ok $? "$ver: $frag: verdicts and stand-ins as expected"
		cat "$tmp/diag"
		# No bare unknown: no "unknown" verdict, and every stand-in and not-in-era names
		# the era (the tree's Linux version) in its note.
		jq -r --arg v "Linux $ver" '.sets[0].requests[] | select(.verdict == "unknown" or
			((.asked_as != null or .verdict == "not-in-era") and
			 ((.era // "") | contains($v) | not))) | "\(.symbol) \(.verdict): \(.era)"' \
			"$tmp/r.json" >"$tmp/bare"
		[ ! -s "$tmp/bare" ]
		ok $? "$ver: $frag: no unknown symbol without an era note"
		sed 's/^/#   /' "$tmp/bare"
		[ "$rc" = "$want" ] || sed -n '/"failed":true/p' "$tmp/r.json" | head -3 | cut -c1-300 |
			sed 's/^/#   failed: /'
		if [ "$rc" = 1 ]; then
			jq -e '.sets[0] | (.ok | not) and .failures > 0 and
				any(.requests[]; .failed and .reason != null)' "$tmp/r.json" >/dev/null
			ok $? "$ver: $frag: the failure is a purpose not met, with its reason"
		fi
	done
	[ ! -e "$ksrc/.config" ] && [ ! -d "$ksrc/include/config" ] && [ ! -e "$tree/.config" ]
	ok $? "$ver: neither the model tree nor the 6.1 tree is written"
done

# Every fragment and board of kconfig-fragments/ on every model, on x86_64 and arm64 (one
# parse each: --each): the models define what their era has of every symbol the fragments
# use (each ARCH's own in arch/ARCH/Kconfig), so an "unknown" verdict can only be a symbol of
# another era or ARCH that the era table does not explain: there must be none. Every request
# that fails the run has a reason, and a not-in-era one names the era or the ARCH.
all=$(cd "$kf" && ls ./*.config | sed 's|^\./||; s|\.config$||')
for era in $(awk -F'\t' '!/^#/ { print $1 }' "$eras/expected.tsv" | uniq); do
	ver=$(sed -n 's/^# ts-model-version: //p' "$eras/$era/Kconfig" |
		awk '{ print $1 "." $2 "." $3 $4 }')
	for arch in x86_64 arm64; do
		rc=0
		# shellcheck disable=SC2086 # the fragment names, one word each
		"$kf/kernel-config.sh" --ksrc "$tmp/tree-$era" --arch "$arch" \
			--out "$cache/$era-$arch-all" --reuse --each --json $all \
			>"$tmp/all.json" 2>"$tmp/err" || rc=$?
		[ "$rc" -le 1 ] && jq -e --argjson n "$(echo "$all" | wc -w)" '.sets | length == $n' \
			"$tmp/all.json" >/dev/null
		ok $? "$ver $arch: every fragment and board (exit $rc)"
		[ "$rc" -le 1 ] || { sed 's/^/#   /' "$tmp/err" | tail -3; continue; }
		jq -r --arg v "Linux $ver" --arg a "ARCH=$arch" '.sets[] | .fragments as $f |
			.requests[] | select(.verdict == "unknown" or (.failed and .reason == null) or
			(.verdict == "not-in-era" and ((.era // "") | (contains($v) or contains($a)) |
			not))) | "\($f): \(.symbol) \(.verdict): \(.reason // "no reason")"' \
			"$tmp/all.json" | cut -c1-300 >"$tmp/bare"
		[ ! -s "$tmp/bare" ]
		ok $? "$ver $arch: no unknown symbol, every failure with its reason and era"
		sed 's/^/#   /' "$tmp/bare"
		# The vmstat seed's kernel is 4.4 (the backport went to 4.4-stable, asked of v4.4-rt
		# too): there, every fragment that kconfig-fragments/README.md gives to seed 1 (or to
		# both seeds) keeps its purpose on this ARCH (a board fragment on its board's ARCH,
		# boards.tsv), but preempt-rt without the RT patch, which its row says it needs, and
		# vmstat-path on arm64, whose kprobes came in 4.8 (checked below).
		case $era in 4.4*) ;; *) continue ;; esac
		bad=""
		for f in $(awk -F'|' '$5 ~ /^ *(seed 1|both)/' "$kf/README.md" | cut -d'|' -f3 |
			grep -o '`[a-z0-9-]*`' | tr -d '`'); do
			case $f in board-*)
				awk -F'\t' -v f="$f" -v a="$arch" '$4 == f && $2 == a { y = 1 }
					END { exit !y }' "$kf/boards.tsv" || continue ;;
			esac
			[ "$era:$f" = 4.4:preempt-rt ] && continue
			[ "$arch:$f" = arm64:vmstat-path ] && continue
			jq -e --arg f "$f" 'any(.sets[]; .fragments == $f and .ok)' "$tmp/all.json" \
				>/dev/null || bad="$bad $f"
		done
		is "$bad" "" "$ver $arch: the vmstat seed's fragments keep their purpose in its era"
		[ "$arch" = arm64 ] || continue
		# No kprobes on arm64 before 4.8: KPROBES is dropped (nothing selects HAVE_KPROBES),
		# a warning of tracing's but a purpose of vmstat-path's (perf probe needs it);
		# tracing alone still has its tracepoints, through FTRACE_SYSCALLS' TRACING.
		jq -e '.sets[] | select(.fragments == "tracing") | .ok and .failures == 0 and
			any(.requests[]; .symbol == "KPROBES" and .verdict == "dropped" and
				(.failed | not) and (.reason | contains("nothing selects HAVE_KPROBES"))) and
			any(.requests[]; .symbol == "FTRACE_SYSCALLS" and .verdict == "kept") and
			any(.requests[]; .symbol == "TRACEPOINTS" and .verdict == "check-ok") and
			any(.requests[]; .symbol == "EVENT_TRACING" and .verdict == "check-ok")' \
			"$tmp/all.json" >/dev/null
		ok $? "$ver arm64: tracing alone keeps its tracepoints without kprobes"
		jq -e '.sets[] | select(.fragments == "vmstat-path") | (.ok | not) and
			any(.requests[]; .symbol == "KPROBES" and .verdict == "dropped" and .failed)' \
			"$tmp/all.json" >/dev/null
		ok $? "$ver arm64: vmstat-path without kprobes is a purpose not met"
	done
	# the last set is arm64's: the aarch64 board is whole there; on x86_64, ARCH_HISI (of
	# arch/arm64/Kconfig) is not for this architecture, naming the era table's row
	jq -e '.sets[] | select(.fragments == "board-hi1215") | .ok' "$tmp/all.json" >/dev/null
	ok $? "$ver arm64: board-hi1215 delivers its purpose (ARCH_HISI, the era's CPU idle driver)"
	rc=0
	"$kf/kernel-config.sh" --ksrc "$tmp/tree-$era" --arch x86_64 --out "$cache/$era-x86_64-all" \
		--reuse --json board-hi1215 >"$tmp/hisi.json" 2>"$tmp/err" || rc=$?
	jq -e --arg t "ARCH=x86_64, Linux $ver" '.sets[0] | (.ok | not) and
		any(.requests[]; .symbol == "ARCH_HISI" and .verdict == "not-in-era" and
		(.era | startswith("not for this architecture: CONFIG_ARCH_HISI is of arm64 (from 4.4")) and
		(.era | endswith($t)))' "$tmp/hisi.json" >/dev/null
	r=$?
	[ "$rc" = 1 ]
	ok $((r + $?)) "$ver x86_64: board-hi1215 exits 1, ARCH_HISI not for this architecture"
	[ $r = 0 ] || jq -c '.sets[0].requests[] | select(.symbol == "ARCH_HISI")' "$tmp/hisi.json" |
		cut -c1-300 | sed 's/^/#   /'
done

# The era table's Arch column: a board fragment on a tree of another architecture, in an era
# without the board's symbol, is not "not needed" there: exit 1, naming the row's architecture
# and era and the tree's ARCH and version (the same fragment on x86_64 4.4 is OK, above).
# arch_case ARCH FRAGMENT SYMBOL ROW_ARCH FROM: the verdict and note of SYMBOL's request
arch_case() {
	rc=0
	"$TS_TOP/kconfig-fragments/kernel-config.sh" --ksrc "$tmp/tree-4.4" --arch "$1" \
		--out "$cache/4.4-$1" --reuse --json "$2" >"$tmp/r.json" 2>"$tmp/err" || rc=$?
	is "$rc" 1 "4.4 $1: $2 does not fit: exit 1"
	note="not for this architecture: CONFIG_$3 is of $4 (from $5 there; "
	jq -e --arg s "$3" --arg n "$note" --arg t "ARCH=$1, Linux 4.4.155" \
		'.sets[0] | (.ok | not) and any(.requests[]; .symbol == $s and .failed and
		.verdict == "not-in-era" and (.era | startswith($n)) and (.era | endswith($t)))' \
		"$tmp/r.json" >/dev/null
	r=$?
	ok $r "4.4 $1: $2: CONFIG_$3 not for this architecture, naming $4 from $5 and $1 4.4"
	[ $r = 0 ] || jq -c --arg s "$3" '.sets[0].requests[] | select(.symbol == $s)' \
		"$tmp/r.json" | cut -c1-400 | sed 's/^/#   /'
}
arch_case arm64 board-qemu-x86 HALTPOLL_CPUIDLE x86 5.4
arch_case x86_64 board-qemu-aarch64 ARM_PSCI_CPUIDLE arm64 5.4

# A purpose asked again by a later fragment that names other purposes stays a purpose: on 5.10
# PREEMPT_RT is dropped (nothing selects ARCH_SUPPORTS_RT), and purpose-rt's purpose fails the
# run whichever fragment asks for it last (it was a warning of again-rt's, exit 0: the seed-1
# variant nohz-idle + vmstat-path + tracing on 4.4 arm64 lost vmstat-path's KPROBES that way).
for order in "purpose-rt again-rt" "again-rt purpose-rt"; do
	rc=0
	# shellcheck disable=SC2086 # the two fragment names
	"$TS_TOP/kconfig-fragments/kernel-config.sh" --ksrc "$tmp/tree-5.10" --arch x86_64 \
		--out "$cache/5.10" --reuse --json \
		--fragment-dir "$TS_TOP/tests/kconfig/fragments" $order >"$tmp/r.json" 2>"$tmp/err" || rc=$?
	is "$rc" 1 "5.10: $order: exit 1, PREEMPT_RT is purpose-rt's purpose"
	jq -e '.sets[0] | .failures == 1 and .warnings == 0 and any(.requests[];
		.symbol == "PREEMPT_RT" and .verdict == "dropped" and .purpose and .failed)' \
		"$tmp/r.json" >/dev/null
	ok $? "5.10: $order: the dropped PREEMPT_RT is one failure, no warning"
done
"$TS_TOP/kconfig-fragments/kernel-config.sh" --ksrc "$tmp/tree-5.10" --arch x86_64 \
	--out "$cache/5.10" --reuse --fragment-dir "$TS_TOP/tests/kconfig/fragments" \
	purpose-rt again-rt 2>/dev/null | grep -A3 '^dropped  *CONFIG_PREEMPT_RT=y  *again-rt' |
	grep -q 'the purpose of purpose-rt.config: this kernel is not what it asks for'
ok $? "5.10: the text names the fragment whose purpose it is"

# A purpose not met is allowed with --allow-drops (ALLOW_DROPS=1): exit 0, still reported.
rc=0
"$TS_TOP/kconfig-fragments/kernel-config.sh" --ksrc "$tmp/tree-4.4" --arch x86_64 \
	--out "$cache/4.4" --reuse --allow-drops preempt-rt >"$tmp/out" 2>"$tmp/err" || rc=$?
is "$rc" 0 "4.4: preempt-rt with --allow-drops: exit 0"
era_msg='not in this era: CONFIG_PREEMPT_RT appeared in 5.3, this is Linux 4.4.155;'
era_msg="$era_msg this tree has no CONFIG_PREEMPT_RT_FULL either"
grep -q '^not-in-era  *CONFIG_PREEMPT_RT=y ' "$tmp/out" &&
	grep -q "$era_msg" "$tmp/out" &&
	grep -q '; 1 purpose not met (allowed), 0 warnings: OK$' "$tmp/out"
ok $? "and the report names the era, the missing stand-in, and the allowed purpose"
tap_done
