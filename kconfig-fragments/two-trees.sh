#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `make kernel-config KSRC=A KSRC_B=B`: one variant on two kernel trees, and where the two results
# differ: the requests that end differently, and the two final .configs compared line by line.
set -eu
here=$(cd "$(dirname "$0")" && pwd)

usage() {
	cat <<USAGE
usage: $0 --ksrc A --ksrc-b B [kernel-config.sh options] FRAGMENT...
Run kernel-config.sh with the same options and fragments on tree A (into --out, default
out/kernel-<board>) and on tree B (into <out>-b), then print where the two results differ:
every request whose verdict or final value differs, and the two final .configs compared as
scripts/diffconfig does: symbols only one tree defines (B's are what 'make listnewconfig' would
ask about), and symbols both define with another value (a moved default, a new select...).
Exit: the worse of the two runs' exits (0, 1 a drop, 2 usage, 3 tree).
USAGE
}

ksrc='' ksrc_b='' out='' board='' arch=''
n=$#
while [ $n -gt 0 ]; do
	a=$1
	shift
	n=$((n - 1))
	case "$a" in
	-h | --help) usage; exit 0 ;;
	--ksrc) ksrc=$1; shift; n=$((n - 1)) ;;
	--ksrc-b) ksrc_b=$1; shift; n=$((n - 1)) ;;
	--out) out=$1; shift; n=$((n - 1)) ;;
	--board) board=$1; set -- "$@" "$a" "$1"; shift; n=$((n - 1)) ;;
	--arch) arch=$1; set -- "$@" "$a" "$1"; shift; n=$((n - 1)) ;;
	--json | --diff | --each) echo "two-trees: $a is not supported with KSRC_B" >&2; exit 2 ;;
	*) set -- "$@" "$a" ;;
	esac
done
[ -n "$ksrc_b" ] || { usage >&2; exit 2; }
out=${out:-$(dirname "$here")/out/kernel-${board:-${arch:-x}}}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tickscope-two.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

rc_a=0 rc_b=0
"$here/kernel-config.sh" ${ksrc:+--ksrc "$ksrc"} --out "$out" --json "$@" >"$tmp/a.json" ||
	rc_a=$?
"$here/kernel-config.sh" --ksrc "$ksrc_b" --out "$out-b" --json "$@" >"$tmp/b.json" || rc_b=$?
[ $rc_a -le 1 ] && [ $rc_b -le 1 ] || exit $((rc_a > rc_b ? rc_a : rc_b))
va=$(jq -r .kernelversion "$tmp/a.json") vb=$(jq -r .kernelversion "$tmp/b.json")
echo "== one variant on two trees: A = Linux $va ($out), B = Linux $vb ($out-b)"
echo "   fragments: $(jq -r '.sets[0].fragments' "$tmp/a.json"), base $(jq -r .base "$tmp/a.json")"

# The requests, side by side: "fragment:line CONFIG_X=v verdict final".
req='.sets[0].requests[] | "\(.fragment):\(.line)\t\(.symbol)=\(.requested)\t\(.verdict)" +
	"\t\(.final // "-")\t\(.reason // "")"'
jq -r "$req" "$tmp/a.json" >"$tmp/a.req"
jq -r "$req" "$tmp/b.json" >"$tmp/b.req"
echo "requests that end differently:"
paste "$tmp/a.req" "$tmp/b.req" | awk -F'\t' '
	$3 != $8 || $4 != $9 {
		printf "  %-36s %-22s A: %s (%s)  B: %s (%s)\n", $2, $1, $3, $4, $8, $9
		if ($5 != "" && $3 != "kept") printf "  %36s A: %s\n", "", $5
		if ($10 != "" && $8 != "kept") printf "  %36s B: %s\n", "", $10
		n++ }
	END { if (!n) print "  none: every request has the same verdict and value on both" }'

# The two final .configs, as scripts/diffconfig A B reads them.
cfg() {
	sed -n -e 's/^CONFIG_\([A-Za-z0-9_]*\)=\(.*\)/\1 \2/p' \
		-e 's/^# CONFIG_\([A-Za-z0-9_]*\) is not set$/\1 n/p' "$1" | sort -k1,1 -u
}
cfg "$out/.config" >"$tmp/a.cfg"
cfg "$out-b/.config" >"$tmp/b.cfg"
join -a1 -a2 -e - -o 0,1.2,2.2 "$tmp/a.cfg" "$tmp/b.cfg" | awk '$2 != $3' >"$tmp/ab"
only_a=$(awk '$3 == "-"' "$tmp/ab" | wc -l)
only_b=$(awk '$2 == "-"' "$tmp/ab" | wc -l)
both=$(awk '$2 != "-" && $3 != "-"' "$tmp/ab" | wc -l)
echo "the two final .configs: $((only_a + only_b + both)) lines differ (as scripts/diffconfig A B)"
echo "  $only_b only in B's result (defined by B's Kconfig only, or hidden in A's result):" \
	"$(awk '$2 == "-" { printf "%s%s=%s", n++ ? " " : "", $1, $3 }' "$tmp/ab" | cut -c1-200)"
echo "  $only_a only in A's result (gone from B's Kconfig, or hidden in B's result):" \
	"$(awk '$3 == "-" { printf "%s%s=%s", n++ ? " " : "", $1, $2 }' "$tmp/ab" | cut -c1-200)"
echo "  $both defined on both with another value (a moved default, a new select or dependency):"
# With the confounders of confounders.tsv flagged, as in the diff against the base.
awk -F'\t' 'NR == FNR { if (!/^#/ && NF == 2) note[$1] = $2; next }
	{ split($0, f, " ") }
	f[2] != "-" && f[3] != "-" { printf "    %-40s %s -> %s\n", f[1], f[2], f[3]
		if (f[1] in note) printf "    %-40s confounder: %s\n", "", note[f[1]] }' \
	"$here/confounders.tsv" "$tmp/ab"

# What B's own make listnewconfig asks about when given A's result: the new prompts.
arch=$(jq -r .arch "$tmp/a.json") cross=
[ "$arch" = arm64 ] && command -v aarch64-linux-gnu-gcc >/dev/null 2>&1 &&
	cross=aarch64-linux-gnu-
mkdir -p "$tmp/ln"
cp "$out/.config" "$tmp/ln/.config"
bsrc=$(readlink -f "$out-b/source" 2>/dev/null || echo "$ksrc_b")
if make -s -C "$bsrc" O="$tmp/ln" ARCH="$arch" CROSS_COMPILE="$cross" listnewconfig \
	>"$tmp/new" 2>/dev/null; then
	echo "B's make listnewconfig on A's result: $(grep -c '^CONFIG_' "$tmp/new") new prompts:" \
		"$(sed -n 's/^CONFIG_//p' "$tmp/new" | tr '\n' ' ' | cut -c1-200)"
else
	echo "B's make listnewconfig on A's result: failed"
fi
exit $((rc_a > rc_b ? rc_a : rc_b))
