# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=sh
# What the tests of an A/B whose cause is known share (compare-injected.t,
# compare-kernel-mech.t): compare run on the fixture's two variants, the per-run figures it
# gives, and the loop that hands each run's perf.data and kallsyms, unpacked, to the test's own
# perf oracle. Each test keeps its oracle and its checks. Source it after tests/lib/tap.sh and
# tap_tmpdir; every file it writes is in $TAP_TMP.

# ab_compare FIXTURE A B: `compare FIXTURE/A FIXTURE/B` into $TAP_TMP/c.txt, and with --json
# into $TAP_TMP/c.json; two tests: both exit 0, and nothing is written into FIXTURE.
ab_compare() {
	touch "$TAP_TMP/stamp"
	"$TICKSCOPE" compare "$1/$2" "$1/$3" >"$TAP_TMP/c.txt" 2>"$TAP_TMP/err" &&
		"$TICKSCOPE" compare --json "$1/$2" "$1/$3" >"$TAP_TMP/c.json" 2>>"$TAP_TMP/err"
	ok $? "compare $2 $3: exit 0"
	diag "$(sed '/^tickscope compare/q' "$TAP_TMP/c.txt")"
	[ -z "$(find "$1" -newer "$TAP_TMP/stamp")" ]
	ok $? "compare writes nothing into the fixture"
}

# ab_runs METRIC VARIANT_INDEX: compare's value of METRIC in each run of the variant (0 for A,
# 1 for B), one a line, "null" where it has none
ab_runs() {
	jq -r --arg m "$1" --argjson v "$2" \
		'.metrics[] | select(.name == $m) | .variants[$v].values[] | if . == null then "null" else . end' \
		"$TAP_TMP/c.json"
}

# ab_ops RUN_DIR: the round trips of the ping-pong run (--iterations plus --warmup, meta.txt)
ab_ops() {
	echo $(($(sed -n 's/.*--iterations \([0-9]*\).*/\1/p' "$1/meta.txt") +
		$(sed -n 's/.*--warmup \([0-9]*\).*/\1/p' "$1/meta.txt")))
}

# ab_perf_runs VARIANT_DIR ORACLE OUT: for run-1, run-2, ... of VARIANT_DIR, in that order (the
# order of compare's values), ORACLE PERF_DATA KALLSYMS on the run's files unpacked; its line
# for each run goes to OUT, one a line. A run that cannot be unpacked bails out.
ab_perf_runs() {
	: >"$3"
	_ab_k=1
	while [ -d "$1/run-$_ab_k" ]; do
		if ! xz -dc "$1/run-$_ab_k/perf.data.xz" >"$TAP_TMP/p.data" ||
			! xz -dc "$1/run-$_ab_k/kallsyms.xz" >"$TAP_TMP/k"; then
			echo "Bail out! $1/run-$_ab_k: perf.data.xz or kallsyms.xz does not unpack"
			exit 1
		fi
		"$2" "$TAP_TMP/p.data" "$TAP_TMP/k" >>"$3"
		_ab_k=$((_ab_k + 1))
	done
	[ "$_ab_k" -gt 1 ] || { echo "Bail out! $1: no run-1"; exit 1; }
}

# ab_committed FIXTURE: one test, the fixture's committed compare.txt (README.md's excerpt) is
# what this tickscope says
ab_committed() {
	cmp -s "$1/compare.txt" "$TAP_TMP/c.txt"
	ok $? "the committed compare.txt is what this tickscope says"
}
