#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `make lava-collect`: gathers the run folders that LAVA jobs published (archives or folders,
# from any board and job), keeps the comparable runs of each variant, then tickscope compare.
set -eu
TS_PROG=lava-collect
. "$(dirname "$0")/../lib/common.sh"
. "$TS_TOP/boards/lava/lib.sh"

usage() {
	cat <<'USAGE'
Usage: boards/lava/collect.sh VAR=value...  (what `make lava-collect VAR=value...` runs)

  IN         folders holding what the jobs uploaded: *.tar.gz archives (unpacked once) or
             unpacked <experiment>/<variant>/run-<k>/ folders, separated by spaces
  OUT        the collection folder (default results/lava/<experiment>/collect)
  EXPERIMENT the experiment (a name or file, as for lava-jobs): its a= is the baseline and
             only its runs are taken; without it, every run found, 'default' first
  TICKSCOPE  the tickscope binary (default build/tickscope)

A run is set aside, with the reason, when it is not complete, when it belongs to another
experiment or workload, or when it differs from its variant's reference (the values most of
the variant's runs share) in board type (device_type), kernel (kernel_hash: release, build
string and config as the board saw them) or recorded events. The board type must also
agree across variants (events may differ between kernels: compare reports it). A run is
also set aside when compare could not use it (tickscope summary --check): a trace whose
sha256 is not the one its meta.txt records, or, for a run uploaded without its trace, a
summary that is missing, malformed, cut short, of another trace or from another tickscope
version. A run found twice (the same meta.txt) counts once. Writes OUT/runs.tsv (every run:
kept or set aside, why, and whether compare reads its trace or its summary), OUT/compare.txt
and OUT/compare.json; OUT must be new, empty or an earlier collection (it holds unpacked/).
USAGE
}

VARS="IN OUT EXPERIMENT TICKSCOPE"
parse_vars "$@"
[ -n "${V_IN:-}" ] || die "IN= is required: the folder(s) the jobs uploaded into"
check_path IN "$V_IN"
set -f # IN is split on spaces, never globbed
# shellcheck disable=SC2086 # the folder list, split on purpose
set -- $V_IN
set +f
exp="" base=""
if [ -n "${V_EXPERIMENT:-}" ]; then
	ex=$V_EXPERIMENT
	case "$ex" in */*) ;; *) ex=$TS_TOP/boards/lava/experiments/$ex.exp ;; esac
	[ -f "$ex" ] || die "no experiment file $ex"
	exp=$(kv_get "$ex" name)
	[ -n "$exp" ] || exp=$(basename "$ex" .exp)
	variant_parse "$(kv_get "$ex" a)" "$ex: a" || exit 1
	base=$v_name
	check_name "$ex: name" "$exp"
fi
out=${V_OUT:-$TS_TOP/results/lava/${exp:-all}/collect}
check_path OUT "$out"
build_dir
tickscope=${V_TICKSCOPE:-$bdir/tickscope}
# OUT gets unpacked/, found.tsv, runs.tsv, check.*, compare.*: never over the user's own files
if [ -e "$out" ] || [ -L "$out" ]; then
	[ -d "$out" ] || die "OUT '$out' is not a folder"
	[ -d "$out/unpacked" ] || [ -z "$(ls -A "$out")" ] ||
		die "OUT '$out' holds files that no earlier lava-collect wrote (no unpacked/):" \
			"nothing there is touched; name a new or empty folder"
fi
mkdir -p "$out/unpacked"

# Unpack every archive once, each into its own folder: jobs never overwrite each other.
for d in "$@"; do
	[ -d "$d" ] || die "IN: no folder $d"
	for t in "$d"/*.tar.gz; do
		[ -f "$t" ] || continue
		u=$out/unpacked/$(basename "$t" .tar.gz)
		[ -d "$u" ] && continue
		mkdir -p "$u.tmp"
		if tar xzf "$t" -C "$u.tmp" 2>"$out/tar.err"; then
			mv "$u.tmp" "$u"
		else
			rm -rf "$u.tmp"
			why=$(grep -v '^tar: Error' "$out/tar.err" | head -n1)
			msg "set aside $t: not a readable .tar.gz${why:+ ($why)}"
		fi
	done
done
rm -f "$out/tar.err"

# One line per run folder: path, then the meta.txt fields the checks use.
find "$@" "$out/unpacked" -name meta.txt -path '*/run-*/meta.txt' 2>/dev/null | sort -u |
	while read -r m; do
		r=$(dirname "$m")
		printf '%s' "$r"
		for k in variant status experiment workload device_type kernel_hash events lava_job \
			result failure; do
			printf '\t%s' "$(sed -n "s/^$k=//p" "$m" | tail -n1 | tr '\t' ' ')"
		done
		# the same run found twice (OUT inside IN, an archive uploaded twice) is one run
		printf '\t%s\n' "$(sha256sum <"$m" | cut -c1-64)"
	done >"$out/found.tsv"
[ -s "$out/found.tsv" ] || die "no run folders (run-*/meta.txt) in $V_IN"
. "$TS_TOP/boards/lava/collect-check.sh"
