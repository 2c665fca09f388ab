#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Do two tickscope builds print the same bytes? report (text, JSON, TSV), dump (text, TSV,
# JSON) and info on every fixture of tests/fixtures (file, -z and pipe, also read from stdin).
set -eu

usage() {
	echo "usage: scripts/same-output.sh OLD_TICKSCOPE NEW_TICKSCOPE [FILE...]" >&2
	echo "  default FILEs: the decompressed fixtures of tests/fixtures (make check makes them)" >&2
	exit 2
}
[ $# -ge 2 ] || usage
old=$1
new=$2
shift 2
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if [ $# -eq 0 ]; then
	for f in "$top"/.cache/fixtures/x86-*.data "$top"/.cache/shared-fixtures/*.data; do
		[ -f "$f" ] && set -- "$@" "$f"
	done
fi
[ $# -gt 0 ] || { echo "no fixtures: run make check first" >&2; exit 2; }

# The kallsyms a fixture was recorded with: its .meta names it, else NAME's board's.
ksyms_of() {
	name=$(basename "$1" .data)
	meta="$top/tests/fixtures/$name.meta"
	if [ -f "$meta" ]; then
		k=$(sed -n 's/^kallsyms: \(.*\)\.xz$/\1/p' "$meta")
		[ -n "$k" ] && [ -f "$top/.cache/fixtures/$k" ] && echo "$top/.cache/fixtures/$k" && return
	fi
	for k in "${1%.data}.kallsyms" "$(dirname "$1")/a64-6.1-generic.kallsyms"; do
		[ -f "$k" ] && echo "$k" && return
	done
	echo ""
}

# Every output of one build into $2 (exit codes too: bad input must fail the same way).
outputs() {
	bin=$1 dir=$2 f=$3 k=$4
	mkdir -p "$dir/tsv"
	set -- -i "$f"
	[ -n "$k" ] && set -- "$@" --kallsyms "$k"
	for cmd in "report" "report --json" "dump" "dump --format=tsv" "dump --format=json" \
		"dump --format=none" "report --file-order" "info"; do
		# shellcheck disable=SC2086
		out=$(echo "$cmd" | tr ' =' '__')
		# shellcheck disable=SC2086
		"$bin" $cmd "$@" >"$dir/$out.out" 2>"$dir/$out.err" && rc=0 || rc=$?
		echo "$rc" >"$dir/$out.rc"
	done
	"$bin" report "$@" --tsv "$dir/tsv" >/dev/null 2>&1 || true
	# pipe-mode streams also from stdin
	if "$bin" info -i "$f" 2>/dev/null | grep -qi 'pipe'; then
		"$bin" report --json -i - ${k:+--kallsyms "$k"} <"$f" >"$dir/stdin.out" 2>&1 || true
	fi
	# decode-only prints a rate on stderr: not compared
	rm -f "$dir/dump_--format_none.err"
}

n=0
bad=0
for f in "$@"; do
	k=$(ksyms_of "$f")
	outputs "$old" "$tmp/old" "$f" "$k"
	outputs "$new" "$tmp/new" "$f" "$k"
	files=$(find "$tmp/old" -type f | wc -l)
	if diff -r "$tmp/old" "$tmp/new" >"$tmp/diff"; then
		bytes=$(cat "$tmp"/old/*.out "$tmp"/old/tsv/* 2>/dev/null | wc -c)
		echo "same: $(basename "$f"): $files outputs, $bytes bytes"
	else
		echo "DIFFERENT: $(basename "$f")"
		head -20 "$tmp/diff"
		bad=$((bad + 1))
	fi
	n=$((n + 1))
	rm -rf "$tmp/old" "$tmp/new"
done
echo "$n inputs, $bad different"
[ "$bad" -eq 0 ]
