# SPDX-License-Identifier: GPL-2.0-only
# The checks and the comparison of `make lava-collect` (sourced by boards/lava/collect.sh, which
# wrote $out/found.tsv and sets exp, base, out, tickscope).

# Keep or set aside each run (runs.tsv: decision, variant, job, run folder, reason, and for a
# kept run what compare reads: trace or summary). The
# reference of a value is what most complete runs share (of the variant, for the kernel).
awk -F'\t' -v OFS='\t' -v wexp="$exp" '
function top(arr, key,    k, best, n) {
	n = -1
	for (k in arr) if (index(k, key SUBSEP) == 1 && arr[k] > n) { n = arr[k]; best = k }
	return substr(best, length(key) + 2)
}
function short(h) { return length(h) > 12 ? substr(h, 1, 12) : h }
NR == FNR {
	if ($12 in once) next
	once[$12]
	if ($3 != "complete" || (wexp != "" && $4 != wexp)) next
	cnt["w" SUBSEP $5]++; cnt["d" SUBSEP $6]++
	cnt["k" $2 SUBSEP $7]++; cnt["e" $2 SUBSEP $8]++
	next
}
{
	why = ""
	if ($12 in first)
		why = "a copy of " first[$12] " (the same meta.txt): counted once"
	else if ($12 != "")
		first[$12] = $1
	if (why != "")
		;
	else if ($3 != "complete")
		why = "incomplete (status=" ($3 == "" ? "none" : $3) ($11 != "" ? ": " $11 : "") ")"
	else if (wexp != "" && $4 != wexp)
		why = "another experiment (" $4 ")"
	else if ($5 != top(cnt, "w"))
		why = "workload " $5 ", the others ran " top(cnt, "w")
	else if ($6 != top(cnt, "d"))
		why = "board type " $6 ", the others ran on " top(cnt, "d")
	else if ($8 != top(cnt, "e" $2))
		why = "other events than variant " $2 "'\''s other runs (" $8 ")"
	else if ($7 != top(cnt, "k" $2))
		why = "kernel " short($7) " differs from the one of variant " $2 "'\''s other runs (" \
			short(top(cnt, "k" $2)) ")"
	print (why == "" ? "kept" : "set-aside"), $2, $9, $1, why
}' "$out/found.tsv" "$out/found.tsv" >"$out/runs.tsv.tmp"

# Each kept run as compare will take it (tickscope summary --check, nothing decoded): its trace,
# whose sha256 must be the one meta.txt records, or its summary alone, which must name that
# trace and come from this tickscope. A bad one is set aside with the reason, not compared.
[ -f "$tickscope" ] && [ -x "$tickscope" ] || die "no $tickscope (make all)"
awk -F'\t' '$1 == "kept" { print $4 }' "$out/runs.tsv.tmp" |
	xargs -r "$tickscope" summary --check >"$out/check.tsv" 2>"$out/check.err" || true
awk -F'\t' -v OFS='\t' 'NR == FNR { v[$2] = $1; why[$2] = $3; next }
$1 == "kept" && v[$4] == "bad" { $1 = "set-aside"; $5 = why[$4] }
$1 == "kept" && v[$4] == "" { $1 = "set-aside"; $5 = "tickscope summary --check said nothing of it" }
{ print $0, ($1 == "kept" ? why[$4] : "") }' "$out/check.tsv" "$out/runs.tsv.tmp" >"$out/runs.tsv"
rm -f "$out/runs.tsv.tmp"

awk -F'\t' '$1 == "set-aside" { printf "lava-collect: set aside %s (variant %s, job %s): %s\n",
	$4, $2, $3, $5 }' "$out/runs.tsv" >&2
variants=$(awk -F'\t' '$1 == "kept" { print $2 }' "$out/runs.tsv" | sort -u |
	awk -v b="${base:-default}" '$0 == b { print; next } { rest = rest $0 "\n" }
		END { printf "%s", rest }')
kept=$(awk -F'\t' '$1 == "kept"' "$out/runs.tsv" | wc -l)
aside=$(awk -F'\t' '$1 == "set-aside"' "$out/runs.tsv" | wc -l)
msg "$kept run(s) kept, $aside set aside (reasons in $out/runs.tsv); variants:" $variants
[ -n "$base" ] && ! echo "$variants" | grep -qx "$base" &&
	die "no comparable run of the baseline variant $base"
[ "$(echo "$variants" | grep -c .)" -ge 2 ] ||
	die "fewer than two variants with comparable runs: nothing to compare"

# tickscope compare A/run.. -- B/run..: the kept runs of each variant, baseline first.
set --
names=""
for v in $variants; do
	[ -z "$names" ] || set -- "$@" --
	names="$names${names:+,}$v"
	for r in $(awk -F'\t' -v v="$v" '$1 == "kept" && $2 == v { print $4 }' "$out/runs.tsv"); do
		set -- "$@" "$r"
	done
done
msg "compare reads $(awk -F'\t' '$1 == "kept" && $6 == "summary"' "$out/runs.tsv" | wc -l)" \
	"run(s) from their summaries alone, $(awk -F'\t' '$1 == "kept" && $6 == "trace"' \
	"$out/runs.tsv" | wc -l) from their traces"
"$tickscope" compare --names "$names" "$@" >"$out/compare.txt" 2>"$out/compare.log" ||
	{ cat "$out/compare.log" >&2; die "tickscope compare failed"; }
"$tickscope" compare --json --names "$names" "$@" >"$out/compare.json" 2>>"$out/compare.log" ||
	{ cat "$out/compare.log" >&2; die "tickscope compare --json failed"; }
sed -n '1,12p' "$out/compare.txt" >&2
msg "done: $out/compare.txt, $out/compare.json, $out/runs.tsv"
