#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# kconfig: every fragment and the known cases of design.md, validated on x86_64 and arm64
# against Debian's 6.1 and 6.12 trees; verdicts and reasons must match
# tests/kconfig/expected-<arch>.tsv (6.1) and, for 6.12, expected-<arch>-6.12.tsv's changes.
. "$(dirname "$0")/lib/tap.sh"

exp=$TS_TOP/tests/kconfig
command -v jq >/dev/null 2>&1 || skip_all "jq is not installed (make deps installs it)"
. "$TS_TOP/tests/kconfig/lib.sh"
# The base defconfig and the checker are built once per arch and reused (--reuse checks that
# the tree, arch and checker sources did not change).
cache=$TS_TOP/.cache/kconfig-test

frags=$(cd "$kf" && ls ./*.config | sed 's|^\./||; s|\.config$||')
known="rcu-nocb-alone sched-tracer shrinker-debug-nodebugfs memcg-no-cgroups unknown-symbol"
known="$known rcu-trace-effective preempt-voluntary+preempt-full tracing+vmstat-path drm-m+i915-y"
known="$known modules-off-m bug-off-no-expert"

# The sets that must report a failure: boards of the other arch, and the known drops.
fail_x86_64="board-hi1215 board-qemu-aarch64 rcu-nocb-alone shrinker-debug-nodebugfs"
fail_x86_64="$fail_x86_64 memcg-no-cgroups unknown-symbol drm-m+i915-y modules-off-m bug-off-no-expert"
fail_arm64="board-qemu-x86 board-x86-host rcu-nocb-alone sched-tracer"
fail_arm64="$fail_arm64 shrinker-debug-nodebugfs"
fail_arm64="$fail_arm64 memcg-no-cgroups unknown-symbol rcu-trace-effective drm-m+i915-y"
fail_arm64="$fail_arm64 modules-off-m bug-off-no-expert"

# check_tree VER KSRC: both arches at once (one parse of the tree's Kconfig each, olddefconfig
# in-process per set; tests/kconfig-make.t checks that this equals the tree's own make
# olddefconfig).
# CPU seconds used by finished children (from `times`, run in this shell, not a subshell):
# wall time depends on what else the machine runs.
cpu_s() {
	awk 'NR == 2 { split($1, u, "m"); split($2, s, "m")
		print int(u[1] * 60 + u[2] + s[1] * 60 + s[2]) }' "$1"
}

check_tree() {
	ver=$1 ksrc=$2 cache=$TS_TOP/.cache/kconfig-test/$1
	times >"$tmp/times0"
	t0=$(date +%s) c0=$(cpu_s "$tmp/times0")
	for arch in x86_64 arm64; do
		(
			rc=0
			"$kf/kernel-config.sh" --each --reuse --json --arch "$arch" --ksrc "$ksrc" \
				--out "$cache/$arch" --fragment-dir "$exp/fragments" $frags $known \
				>"$tmp/$ver-$arch.json" 2>"$tmp/$ver-$arch.err" || rc=$?
			echo $rc >"$tmp/$ver-$arch.rc"
		) &
	done
	wait
	times >"$tmp/times1"
	t1=$(date +%s) c1=$(cpu_s "$tmp/times1")
	for arch in x86_64 arm64; do
		rc=$(cat "$tmp/$ver-$arch.rc")
		is "$rc" 1 "$ver $arch: exit 1 (some sets drop symbols on purpose)"
		[ "$rc" -le 1 ] || sed 's/^/# /' "$tmp/$ver-$arch.err"
		jq -e '.schema == "tickscope-kconfig" and .version == 1' "$tmp/$ver-$arch.json" >/dev/null
		ok $? "$ver $arch: JSON report with schema and version"

		jq -r '.sets[] | .fragments as $s | .requests[] |
			[$s, (.fragment | sub("\\.config$"; "")), .symbol, .requested, .verdict,
			 (.reason // "")] | @tsv' "$tmp/$ver-$arch.json" >"$tmp/$ver-$arch.actual"
		# The 6.1 table, with the rows that a newer tree changes replaced by its own table's.
		over=$exp/expected-$arch-$ver.tsv
		[ -f "$over" ] || over=/dev/null
		awk -F'\t' '/^#/ { next } NR == FNR { o[$1 SUBSEP $2 SUBSEP $3 SUBSEP $4] = $0; print
			next } !(($1 SUBSEP $2 SUBSEP $3 SUBSEP $4) in o)' "$over" "$exp/expected-$arch.tsv" \
			>"$tmp/$ver-$arch.expected"

		# Every fragment of kconfig-fragments/ is in the expected table.
		missing=
		for f in $frags; do
			awk -F'\t' -v f="$f" '$1 == f { found = 1 } END { exit !found }' \
				"$tmp/$ver-$arch.expected" || missing="$missing $f"
		done
		is "$missing" "" "$ver $arch: the expected table covers every fragment"

		# Per set: each expected row has its verdict and reason; no request is left unexpected.
		for set in $frags $known; do
			awk -F'\t' -v set="$set" '
				NR == FNR { if ($1 == set) { key = $2 SUBSEP $3 SUBSEP $4
					want[key] = $5; sub_[key] = $6; n++ } next }
				$1 == set { key = $2 SUBSEP $3 SUBSEP $4; seen[key] = 1
					if (!(key in want)) {
						print "#   unexpected request: " $2 " " $3 "=" $4 " " $5; bad++
					} else if ($5 != want[key]) {
						print "#   " $3 "=" $4 ": got " $5 ", want " want[key] ": " $6; bad++
					} else if (index($6, sub_[key]) == 0) {
						print "#   " $3 ": reason \"" $6 "\" lacks \"" sub_[key] "\""; bad++
					} }
				END { for (k in want) if (!(k in seen)) {
						split(k, p, SUBSEP); print "#   missing request: " p[2]; bad++ }
					if (!n) { print "#   no expected rows"; bad++ }
					exit bad > 0 }' "$tmp/$ver-$arch.expected" "$tmp/$ver-$arch.actual" >"$tmp/diag"
			r=$?
			ok $r "$ver $arch: $set: verdicts and reasons as expected"
			cat "$tmp/diag"
		done

		# Which sets fail, and the expected drop that does not.
		eval "want_fail=\$fail_$arch"
		# PREEMPT_RT, the purpose of preempt-rt, is dropped before 6.12: the set fails.
		[ "$ver" != 6.1 ] || want_fail=$(echo $want_fail | sed 's/board-x86-host /&preempt-rt /;
			s/board-qemu-aarch64 /&preempt-rt /')
		got_fail=$(jq -r '.sets[] | select(.ok | not) | .fragments' "$tmp/$ver-$arch.json" | tr '\n' ' ')
		# shellcheck disable=SC2154 # want_fail is set by the eval above
		is "$(echo $got_fail)" "$(echo $want_fail)" "$ver $arch: exactly the expected sets fail"
		if [ "$ver" = 6.1 ]; then
			jq -e '.sets[] | select(.fragments == "preempt-rt") | (.ok | not) and
				.failures == 1 and (.requests[] | select(.symbol == "PREEMPT_RT") |
				.expected and .xfail_before == "6.12" and .purpose and .failed)' \
				"$tmp/$ver-$arch.json" >/dev/null
			ok $? "$ver $arch: PREEMPT_RT, dropped as expected before 6.12, is the purpose: FAIL"
			case $arch in x86_64) was=PREEMPT_VOLUNTARY ;; arm64) was=PREEMPT ;; esac
			want="choice \"Preemption Model\" reset from $was to PREEMPT_NONE: the requested"
			jq -r '.sets[] | select(.fragments == "preempt-rt") | .side_effects[]' \
				"$tmp/$ver-$arch.json" | grep -qF "$want PREEMPT_RT"
			ok $? "$ver $arch: preempt-rt reports the silent reset of the preemption choice"
			final=PREEMPT_NONE
		else
			jq -e '.sets[] | select(.fragments == "preempt-rt") | .ok and
				all(.side_effects[]; test("Preemption Model") | not) and
				(.requests[] | select(.symbol == "PREEMPT_RT") |
				.verdict == "kept" and (.expected | not))' "$tmp/$ver-$arch.json" >/dev/null
			ok $? "$ver $arch: PREEMPT_RT is kept (ARCH_SUPPORTS_RT is in mainline from 6.12)"
			final=PREEMPT_RT
		fi
		if jq -r '.sets[] | select(.fragments == "rcu-trace-effective") | .side_effects[]' \
			"$tmp/$ver-$arch.json" | grep -q 'RCU_TRACE=y .* is kept but ineffective'; then
			got=yes
		else
			got=no
		fi
		case $arch in arm64) want=yes ;; *) want=no ;; esac
		is "$got" "$want" \
			"$ver $arch: an ineffective RCU_TRACE is a side effect only where TRACEPOINTS is off"
		[ -s "$cache/$arch/sets/preempt-rt.config" ] && grep -q "^CONFIG_$final=y" \
			"$cache/$arch/sets/preempt-rt.config"
		ok $? "$ver $arch: each set's final .config is written (preempt-rt ends with $final=y)"
	done
	# Speed is measured by make bench (scripts/bench.sh), never asserted here: on a shared
	# machine the same run took 44 and over 60 CPU seconds.
	diag "validating every fragment on $ver for x86_64 and arm64 took $((t1 - t0)) s" \
		"($((c1 - c0)) s of CPU)"
	[ ! -e "$ksrc/.config" ] && [ ! -d "$ksrc/include/config" ]
	ok $? "$ver: the kernel tree stays pristine"
}

for ver in 6.1 6.12; do
	if tree=$(ksrc_of $ver); then
		check_tree $ver "$tree"
	else
		skip "$ver: every fragment on both arches" "$tree"
	fi
done
tap_done
