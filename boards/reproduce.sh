#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The reproduction verdict of an experiment whose experiment.txt says reproduces=CASE: the
# seed's change (boards/seeds/CASE.case, from the seed's own benchmark outputs) beside the one
# measured between the case's variant pair, said plainly.
set -eu
TS_PROG=reproduce
. "$(dirname "$0")/lib/common.sh"

usage() {
	cat <<'USAGE'
Usage: boards/reproduce.sh EXPERIMENT_DIR [CASE]

EXPERIMENT_DIR is a make experiment folder (experiment.txt, compare.json or compare.json.xz).
CASE (default: experiment.txt's reproduces=) names boards/seeds/CASE.case: the variant pair
that stands for the seed's change and, per workload, the seed's before and after benchmark
outputs. Prints, for the experiment's workload:
  the seed:  each seed measurement's change of the benchmark figure (after against before)
  here:      the change between the pair's medians, its p-value and significance (compare.json)
  verdict:   reproduced, not reproduced (no significant change / the opposite direction), or,
             where the seed saw no change (within 5%), whether here there is none either
Exit 0 with a verdict, 1 on bad input, 2 when the experiment declares no case.
USAGE
}
case "${1:-}" in -h | --help) usage; exit 0 ;; '') usage >&2; exit 1 ;; esac
exp=$1
[ -f "$exp/experiment.txt" ] || die "$exp: no experiment.txt"
case_name=${2:-$(sed -n 's/^reproduces=//p' "$exp/experiment.txt" | tail -n1)}
[ -n "$case_name" ] || { msg "$exp/experiment.txt declares no reproduces="; exit 2; }
cf=$TS_TOP/boards/seeds/$case_name.case
[ -f "$cf" ] || die "no case file boards/seeds/$case_name.case"
command -v jq >/dev/null || die "jq is not installed (make deps)"
workload=$(sed -n 's/^workload=//p' "$exp/experiment.txt" | tail -n1)
set -- $(sed -n 's/^pair //p' "$cf")
pa=${1:-} pb=${2:-}
[ -n "$pb" ] || die "$cf: no 'pair A B' line"

# figure PARSER FILE: the benchmark figure of one seed output.
figure() {
	case "$1" in
	lat_unix) sed -n 's/.*AF_UNIX sock stream latency: \([0-9.]*\) microseconds.*/\1/p' "$2" ;;
	stress-ng-real) awk '$0 ~ /\] ramfs [0-9]/ { print $(NF - 1) }' "$2" ;;
	*) die "$cf: unknown parser '$1'" ;;
	esac | tail -n1
}
pct() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%+.1f", (b - a) / a * 100 }'
}

seeds=$(awk -v w="$workload" '$1 == "seed" && $2 == w' "$cf")
[ -n "$seeds" ] || die "$cf has no seed measurement of workload $workload"
seed_txt="" seed_dir=0 unit=""
while read -r _ _ label parser before after; do
	b=$(figure "$parser" "$TS_TOP/$before") a=$(figure "$parser" "$TS_TOP/$after")
	[ -n "$b" ] && [ -n "$a" ] || die "$cf: no figure in $before or $after ($parser)"
	c=$(pct "$b" "$a")
	seed_txt="$seed_txt${seed_txt:+, }$c% ($label: $b -> $a)"
	# the seed's direction: +1 up, -1 down, 0 within 5%
	d=$(awk -v c="$c" 'BEGIN { print (c > 5) ? 1 : (c < -5) ? -1 : 0 }')
	[ "$d" = 0 ] || seed_dir=$d
done <<EOF2
$seeds
EOF2

cj=$exp/compare.json
if [ ! -f "$cj" ] && [ -f "$cj.xz" ]; then
	cj=$(mktemp)
	trap 'rm -f "$cj"' EXIT
	xz -dc "$exp/compare.json.xz" >"$cj"
fi
[ -f "$cj" ] || die "$exp: no compare.json"
here=$(jq -r --arg a "$pa" --arg b "$pb" '[.metrics[] | select(.family == "result")][0] |
	(.variants[] | select(.variant == $a)) as $va |
	(.variants[] | select(.variant == $b)) as $vb |
	"\(.name) \(.unit) \(.direction) \($va.median) \($vb.median) \($vb.p)" +
	" \($vb.significant) \($va.n) \($vb.n)"' \
	"$cj" 2>/dev/null) || true
[ -n "$here" ] || die "$cj: no benchmark result of both $pa and $pb"
set -- $here
name=$1 unit=$2 ma=$4 mb=$5 p=$6 sig=$7 na=$8 nb=$9
c=$(pct "$ma" "$mb")
here_dir=$(awk -v c="$c" 'BEGIN { print (c > 0) ? 1 : -1 }')
if [ "$sig" != true ]; then
	if [ "$seed_dir" = 0 ]; then
		verdict="agrees: the seed saw no change, and here the change is not significant"
	else
		verdict="not reproduced: no significant change here"
	fi
elif [ "$seed_dir" = 0 ]; then
	verdict="differs: the seed saw no change, here a significant one"
elif [ "$seed_dir" = "$here_dir" ]; then
	verdict="reproduced: the seed's direction, significant"
else
	verdict="not reproduced: a significant change the opposite way"
fi
echo "Reproduction of $case_name ($workload, $name; boards/seeds/$case_name.case):"
echo "  the seed: $seed_txt"
echo "  here:     $c% ($pa -> $pb, medians $ma -> $mb $unit, $na and $nb runs)," \
	"p=$p$( [ "$sig" = true ] && echo ", significant" || echo ", not significant")"
echo "  verdict:  $verdict"
