#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# unpack-summaries.sh SRC DST: copy an experiment folder whose runs hold only their summaries
# (run-N/perf.data.tsum.xz, as the built-kernel fixtures under tests/fixtures/kernel-variants/
# do) to DST, decompressed so that `tickscope compare` reads them. Runs whose meta.txt predates
# perf_data_sha256 get the trace's sha256 and size from the summary's own second line ("trace
# SHA256 SIZE", written from the trace when the run was recorded): what ties a summary to its
# trace. Writes nothing outside DST.
set -eu
[ $# = 2 ] || { echo "usage: $0 SRC DST" >&2; exit 2; }
src=$1 dst=$2
[ -d "$src" ] || { echo "$0: $src: not a folder" >&2; exit 1; }
[ ! -e "$dst" ] || { echo "$0: $dst exists" >&2; exit 1; }
cp -a "$src" "$dst"
for t in "$dst"/*/run-*/perf.data.tsum.xz; do
	[ -f "$t" ] || continue
	m=$(dirname "$t")/meta.txt
	# cp -a keeps links: a meta.txt linked to a file outside SRC was appended to there
	for f in "$t" "$m"; do
		[ ! -L "$f" ] || { echo "$0: ${f#"$dst"/}: a symbolic link (not followed)" >&2; exit 1; }
	done
	xz -d "$t"
	grep -q '^perf_data_sha256=' "$m" ||
		sed -n '2s/^trace\t\([0-9a-f]*\)\t\([0-9]*\)$/perf_data_sha256=\1\nperf_data_size=\2/p' \
			"${t%.xz}" >>"$m"
done
