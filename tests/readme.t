#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The README's facts a new user relies on, held against the tree: the packages make demo
# installs, where the binary is, the fragment lines the kernel-config excerpt cites, and the
# report excerpt and the figures told after it, from the bundled recordings
# (tests/lib/doc-check.pl excerpt). The compare excerpt ("What it says") is checked by
# tests/compare.t.
. "$(dirname "$0")/lib/tap.sh"
. "$TS_TOP/tests/fixtures/fixtures.sh"

[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
command -v perl >/dev/null || skip_all "perl not installed"
tap_tmpdir
T=$TAP_TMP
readme=$TS_TOP/README.md

# make demo's row names every package of scripts/packages, and says how many
pk=$(grep -v '^#' "$TS_TOP/scripts/packages" | grep -c .)
row=$(grep '^| `make demo` | `scripts/packages` |' "$readme")
miss=""
for p in $(grep -v '^#' "$TS_TOP/scripts/packages"); do
	case $row in *"$p"*) ;; *) miss="$miss $p" ;; esac
done
is "$miss" "" "make demo's row in the README names every package of scripts/packages"
case $row in *"| $pk packages"*) ok 0 "and says how many: $pk" ;;
*) ok 1 "and says how many: $pk (the row: $(echo "$row" | cut -d'|' -f4))" ;; esac

grep -q '`build/tickscope`' "$readme"
ok $? "the README says where the built binary is (build/tickscope)"

# every "NAME.config:N" the README cites is line N of that fragment, and sets the symbol the
# README's line names
bad=""
grep -o '^[a-z ]*CONFIG_[A-Z0-9_]*=[a-z0-9]* *[a-z0-9-]*\.config:[0-9]*' "$readme" |
	sed 's/^[a-z ]*\(CONFIG_[A-Z0-9_]*\)=[a-z0-9]* *\([a-z0-9-]*\.config\):\([0-9]*\)/\1 \2 \3/' \
	>"$T/cites"
while read -r sym frag line; do
	got=$(sed -n "${line}p" "$TS_TOP/kconfig-fragments/$frag" 2>/dev/null)
	case $got in "$sym="* | "# $sym is not set") ;; *) bad="$bad $frag:$line($sym; has '$got')" ;; esac
done <"$T/cites"
is "$bad" "" "the kernel-config excerpt's $(wc -l <"$T/cites") fragment lines are where it says"

# the report excerpt, from the bundled pinned-to-two-CPUs ping-pong
xz -dc "$TS_TOP/tests/fixtures/x86-pingpong-cross.data.xz" >"$T/pingpong-cross.data" &&
	xz -dc "$TS_TOP/tests/fixtures/x86-b0ab7601.kallsyms.xz" >"$T/x86.kallsyms"
ok $? "the bundled ping-pong recordings decompress"
cmd='tickscope report pingpong-cross.data --kallsyms x86.kallsyms --top 4'
(cd "$T" && "$TICKSCOPE" ${cmd#tickscope } >"$T/cross.txt" 2>&1)
ok $? "$cmd"
perl "$TS_TOP/tests/lib/doc-check.pl" excerpt "$readme" "$cmd" "$T/cross.txt" >"$T/v"
ok $? "doc-check.pl excerpt runs"
while IFS='	' read -r v t p; do
	[ "$v" = ok ]
	ok $? "README: $t is the real output${p:+ ($p)}"
done <"$T/v"

# the story told after it: unpinned all same-CPU at a 1.6 us p50, pinned 61% cross-CPU idle
xz -dc "$TS_TOP/tests/fixtures/x86-pingpong-none.data.xz" >"$T/none.data"
"$TICKSCOPE" report "$T/none.data" --kallsyms "$T/x86.kallsyms" >"$T/none.txt" 2>&1
share() { awk -v c="$2" '$0 ~ "^  " c " " { print $4, $6; exit }' "$1"; }
same=$(share "$T/none.txt" 'same-CPU busy')
idle=$(share "$T/cross.txt" 'cross-CPU idle')
claim=$(grep -o 'wakes are [0-9.]*% same-CPU with a [0-9.]* µs wake-delivery p50' "$readme" |
	sed 's/wakes are \([0-9.]*\)% same-CPU with a \([0-9.]*\) .*/\1.0% \2/')
is "$claim" "$same" "unpinned: the README's same-CPU share and p50 are the report's"
claim=$(grep -o '[0-9]*% of them land on an idle CPU and need an IPI, with a [0-9.]* µs p50' \
	"$readme" | sed 's/\([0-9]*\)% .* \([0-9.]*\) µs p50/\1 \2/')
is "$claim" "$(echo "$idle" | awk '{ printf "%d %s", $1 + 0.5, $2 }')" \
	"pinned: the README's cross-CPU idle share and p50 are the report's"
tap_done
