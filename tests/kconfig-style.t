#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# kconfig: every fragment follows the kernel conventions: "# Help:" first, an SPDX line,
# "#" sections in sorted order, settings sorted within a section, "# CONFIG_X is not set" for off.
. "$(dirname "$0")/lib/tap.sh"
tap_tmpdir

for f in "$TS_TOP"/kconfig-fragments/*.config; do
	name=$(basename "$f")
	head -1 "$f" | grep -q '^# Help: [A-Za-z]'
	ok $? "$name: the first line is '# Help: ...'"
	sed -n 2p "$f" | grep -qx '# SPDX-License-Identifier: GPL-2.0-only'
	ok $? "$name: the second line is the SPDX line"
	# Section titles are the lines between two bare "#" lines.
	awk 'prev == "#" && /^# / && !/^# CONFIG_/ && getline nxt > 0 && nxt == "#" {
			print substr($0, 3) }
		{ prev = $0 }' "$f" >"$TAP_TMP/sections"
	LC_ALL=C sort -f -c "$TAP_TMP/sections" 2>/dev/null
	ok $? "$name: sections in sorted order"
	[ -s "$TAP_TMP/sections" ]
	ok $? "$name: has at least one section"
	# Settings, section by section.
	awk '/^#$/ { n++ } /^CONFIG_/ { sub(/^CONFIG_/, ""); sub(/=.*/, ""); print n "\t" $0 }
		/^# CONFIG_.* is not set$/ { print n "\t" $2 }' "$f" | sed 's/\tCONFIG_/\t/' |
		awk -F'\t' 'prev_n == $1 && $2 < prev { bad = 1; print "#   " prev " before " $2 }
			{ prev_n = $1; prev = $2 } END { exit bad }'
	ok $? "$name: settings sorted within each section"
	grep -vqE '^(#.*|CONFIG_[A-Za-z0-9_]+=.+|)$' "$f"
	[ $? -ne 0 ]
	ok $? "$name: only comments, settings and blank lines"
	grep -qE '^CONFIG_[A-Za-z0-9_]+=n$' "$f"
	[ $? -ne 0 ]
	ok $? "$name: off is written '# CONFIG_X is not set', never =n"
done
tap_done
