#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# compare at the farm's scale (issue 33): more than 8 variants in one compare, each against the
# baseline as when compared alone, and the limits said in one line. The runs are the committed
# kernel-variants experiment's summary-only runs (scripts/unpack-summaries.sh).
. "$(dirname "$0")/lib/tap.sh"
command -v xz >/dev/null || skip_all "no xz"
command -v python3 >/dev/null || skip_all "no python3"
[ -x "$TICKSCOPE" ] || skip_all "no $TICKSCOPE (make all)"
tap_tmpdir
T=$TAP_TMP
fx=$TS_TOP/tests/fixtures/kernel-variants/qemu-aarch64-pingpong-nohz-idle-vs-hz-periodic

"$TS_TOP/scripts/unpack-summaries.sh" "$fx" "$T/src" >/dev/null
# v00..v16: even ones are nohz-idle's runs, odd ones hz-periodic's
i=0
while [ $i -le 16 ]; do
	from=nohz-idle
	[ $((i % 2)) = 1 ] && from=hz-periodic
	cp -r "$T/src/$from" "$T/v$(printf %02d $i)"
	i=$((i + 1))
done
vs() { # vs N: the first N variant folders
	k=0
	while [ $k -lt "$1" ]; do
		printf '%s ' "$T/v$(printf %02d $k)"
		k=$((k + 1))
	done
}

# shellcheck disable=SC2046
"$TICKSCOPE" compare --allow-mismatch --tsv "$T/ten" $(vs 10) >/dev/null 2>"$T/ten.err"
ok $? "10 variants in one compare ($(head -1 "$T/ten.err"))"
"$TICKSCOPE" compare --allow-mismatch --tsv "$T/two" "$T/v00" "$T/v09" >/dev/null 2>&1
ok $? "v09 against v00 alone"
# the ten-variant tables' v09 rows are the two-variant tables': the same tests on the same runs
# (the p adjustment is per variant); metrics, runs, decomposition and changes are compared
python3 - "$T/ten" "$T/two" >"$T/diff.txt" 2>&1 <<'PY'
import csv, os, sys
ten, two = sys.argv[1], sys.argv[2]
def rows(d, name):
    with open(os.path.join(d, name), newline='') as f:
        return list(csv.reader(f, delimiter='\t'))
bad = seen = 0
for name in sorted(os.listdir(two)):
    a, b = rows(ten, name), rows(two, name)
    if not a or not b:
        continue
    ha, hb = a[0], b[0]
    if 'variant' not in ha:
        continue
    ia, ib = ha.index('variant'), hb.index('variant')
    pa = [tuple(r[i] for i in range(len(r)) if i != ia) for r in a[1:] if r[ia] == 'v09']
    pb = [tuple(r[i] for i in range(len(r)) if i != ib) for r in b[1:] if r[ib] == 'v09']
    if [ha[i] for i in range(len(ha)) if i != ia] != [hb[i] for i in range(len(hb)) if i != ib]:
        print(name, 'columns differ'); bad += 1; continue
    if pa != pb:
        print(name, len(pa), len(pb), 'v09 rows differ'); bad += 1
    elif not pa:
        print(name, 'no v09 rows'); bad += 1
    seen += 1
if seen < 4:
    print('only', seen, 'tables with a variant column'); bad += 1
sys.exit(1 if bad else 0)
PY
ok $? "the 10-variant compare's v09 rows are v09 against v00 alone ($(head -3 "$T/diff.txt" | tr '\n' ' '))"

# shellcheck disable=SC2046
"$TICKSCOPE" compare --allow-mismatch $(vs 17) >/dev/null 2>"$T/17.err"
rc=$?
[ $rc != 0 ] && [ "$(wc -l <"$T/17.err")" = 1 ] && grep -q 'at most 16 variants' "$T/17.err"
ok $? "17 variants: refused in one line (exit $rc: $(cat "$T/17.err"))"
# shellcheck disable=SC2046
"$TICKSCOPE" compare --allow-mismatch --plots "$T/plots" $(vs 9) >/dev/null 2>"$T/9p.err"
rc=$?
[ $rc != 0 ] && grep -q 'at most 8 variants' "$T/9p.err" && [ ! -e "$T/plots" ]
ok $? "--plots of 9 variants: refused, nothing written (exit $rc: $(head -1 "$T/9p.err"))"
tap_done
