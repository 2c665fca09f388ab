#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# docs/compare-tsv.md and docs/compare-json.md against what compare writes for the bundled
# ping-pong A/B, both ways: every documented TSV file has the documented columns in order and
# every file written is documented; every key of the JSON document, of its headline and its
# mechanisms, of a variant, a metric and an explanation is a row of the doc's table for it, and
# every row's key is in the document.
. "$(dirname "$0")/lib/tap.sh"

[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
command -v perl >/dev/null || skip_all "perl not installed"
command -v jq >/dev/null || skip_all "jq not installed (make deps installs it)"
tap_tmpdir
T=$TAP_TMP
cp -a "$TS_TOP/tests/fixtures/boards/x86-host/ab" "$T/ab"
"$TICKSCOPE" compare "$T/ab/pingpong-same" "$T/ab/pingpong-cross" --tsv "$T/tsv" >/dev/null \
	2>"$T/err"
ok $? "compare --tsv of the bundled ping-pong A/B"
"$TICKSCOPE" compare "$T/ab/pingpong-same" "$T/ab/pingpong-cross" --json >"$T/c.json" 2>"$T/err"
ok $? "compare --json of the same"

# the TSV table: | `file.tsv` | `col col ...` | ...
doc=$TS_TOP/docs/compare-tsv.md
sed -n 's/^| `\([a-z_]*\.tsv\)` | `\([^`]*\)` |.*/\1 \2/p' "$doc" >"$T/tsv-doc"
[ -s "$T/tsv-doc" ]
ok $? "docs/compare-tsv.md has a table of files ($(wc -l <"$T/tsv-doc"))"
while read -r f cols; do
	is "$(head -1 "$T/tsv/$f" 2>/dev/null | tr '\t' ' ')" "$cols" "$f: the documented columns"
done <"$T/tsv-doc"
is "$(cd "$T/tsv" && ls | tr '\n' ' ')" \
	"$(cut -d' ' -f1 "$T/tsv-doc" | LC_ALL=C sort | tr '\n' ' ')" \
	"compare --tsv writes the documented files, and no other"

# The JSON tables: the keys a section's rows name (`a`, `b`; `x[].y`, `.z` under a prefix)
keys() {
	perl -e '
		my ($doc, $sec, $prefix) = @ARGV;
		open(my $fh, "<", $doc) or die "$doc: $!\n";
		my $in = $sec eq "" ? 1 : 0;
		my ($tables, $row, %k) = (0, 0);
		while (<$fh>) {
			if (/^## /) { $in = /^## `\Q$sec\E`$/ ? 1 : 0; next }
			# a section'"'"'s first table only (metrics[] has its cells'"'"' after it)
			$tables++ if $in && $row && !/^\|/;
			$row = /^\|/;
			next unless $in && !$tables && /^\| (`[^|]*`)[^|]*\|/;
			my $last = "";
			for my $t ($1 =~ /`([a-z_.\[\]]+)`/g) {
				$t = ($last =~ s/\.[^.]*$//r) . $t if $t =~ /^\./;
				$last = $t;
				if ($prefix eq "") { $k{$t =~ s/\[\]$//r} = 1 if $t !~ /\./ }
				elsif ($t =~ /^\Q$prefix\E\.([a-z_]+)$/) { $k{$1} = 1 }
			}
		}
		print join(" ", sort keys %k), "\n";' "$TS_TOP/docs/compare-json.md" "$@"
}
jkeys() { jq -r "$1 | keys[]" "$T/c.json" | LC_ALL=C sort | tr '\n' ' ' | sed 's/ $//'; }
is "$(jkeys .)" "$(keys '' '')" "compare --json: the top-level keys are the doc's first table"
is "$(jkeys .headline)" "$(keys headline '')" "headline: its keys are the doc's"
is "$(jkeys '.headline.mechanisms[0]')" "$(keys headline 'mechanisms[]')" \
	"headline.mechanisms[]: its keys are the doc's"
is "$(jkeys '.variants[0]')" "$(keys 'variants[]' '')" "variants[]: its keys are the doc's"
is "$(jkeys '.metrics[0]')" "$(keys 'metrics[]' '')" \
	"metrics[]: its keys are the doc's (first table)"
is "$(jkeys '.explanations[0]')" "$(keys 'explanations[]' '')" \
	"explanations[]: its keys are the doc's"

tap_done
