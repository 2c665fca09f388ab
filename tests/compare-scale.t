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

# p-values beyond a double (issue 33): 1,000 runs a side, the fixture's runs repeated, separate
# some metrics so far that p is below 1e-300. The oracle: each metric's U test recomputed here
# from runs.tsv (midranks, the tie and continuity corrections, the normal tail's logarithm);
# where it is clearly below 1e-300 the JSON and the TSV say 1e-300 (p_floor: a bound), the text
# p<1e-300; where it is clearly above, the JSON's p is it (within 10%); no p-value is 0.
for v in v00 v01; do
	set -- "$T/$v"/run-*
	i=1
	mkdir "$T/k$v"
	while [ $i -le 1000 ]; do
		k=$(((i - 1) % $# + 1))
		eval "run=\${$k}"
		mkdir "$T/k$v/run-$i"
		ln "$run"/* "$T/k$v/run-$i/"
		i=$((i + 1))
	done
done
"$TICKSCOPE" compare --allow-mismatch --json "$T/kv00" "$T/kv01" >"$T/k.json" 2>"$T/k.err" &&
	"$TICKSCOPE" compare --allow-mismatch --tsv "$T/ktsv" "$T/kv00" "$T/kv01" >/dev/null 2>&1 &&
	"$TICKSCOPE" compare --allow-mismatch "$T/kv00" "$T/kv01" >"$T/k.txt" 2>&1
ok $? "2 x 1,000 runs compared: JSON, TSV, text ($(head -1 "$T/k.err"))"
python3 - "$T/k.json" "$T/ktsv" "$T/k.txt" >"$T/p.txt" 2>&1 <<'PY'
import csv, json, math, os, sys
doc = json.load(open(sys.argv[1]))
def table(name):
    with open(os.path.join(sys.argv[2], name), newline='') as f:
        r = list(csv.reader(f, delimiter='\t'))
    return [dict(zip(r[0], x)) for x in r[1:]]
vals = {}
for r in table('runs.tsv'):
    if r['value'] != '-':
        vals.setdefault(r['metric'], {}).setdefault(r['variant'], []).append(float(r['value']))
tsv_p = {r['metric']: r['p'] for r in table('metrics.tsv') if r['variant'] == 'kv01'}
def log10_p(a, b):
    """two-sided normal-approximation p of the U test, as log10 (None: all tied)"""
    pool = sorted([(x, 0) for x in a] + [(x, 1) for x in b])
    n, na, nb, ranks, ties, i = len(pool), len(a), len(b), [0.0] * len(pool), 0.0, 0
    while i < n:
        j = i
        while j < n and pool[j][0] == pool[i][0]:
            j += 1
        for k in range(i, j):
            ranks[k] = (i + j + 1) / 2
        ties += (j - i) ** 3 - (j - i)
        i = j
    ra = sum(r for r, (x, g) in zip(ranks, pool) if g == 0)
    u = ra - na * (na + 1) / 2
    var = na * nb / 12 * ((n + 1) - ties / (n * (n - 1)))
    if var <= 0:
        return None
    z = max(abs(u - na * nb / 2) - 0.5, 0) / math.sqrt(var)
    x = z / math.sqrt(2)
    if x < 20:
        return math.log10(max(math.erfc(x), 1e-320))
    # erfc(x) ~ exp(-x^2) / (x sqrt(pi)) (1 - 1/(2x^2) + 3/(4x^4))
    return (-x * x - math.log(x * math.sqrt(math.pi)) +
            math.log(1 - 1 / (2 * x * x) + 3 / (4 * x ** 4))) / math.log(10)
bad, below, above = [], 0, 0
if doc.get('p_floor') != 1e-300 or doc.get('version') != 8:
    bad.append('p_floor %r version %r' % (doc.get('p_floor'), doc.get('version')))
for m in doc['metrics']:
    x = m['variants'][1]
    v = vals.get(m['name'], {})
    if x.get('p') is None or len(v.get('kv00', [])) != 1000 or len(v.get('kv01', [])) != 1000:
        continue
    lp = log10_p(v['kv00'], v['kv01'])
    if lp is None:
        continue
    if lp < -305:
        below += 1
        if x['p'] != 1e-300 or tsv_p.get(m['name']) != '1e-300':
            bad.append('%s: log10 p %.1f, JSON %r, TSV %r' % (m['name'], lp, x['p'],
                                                             tsv_p.get(m['name'])))
    elif -295 < lp < -3:
        above += 1
        if not x['p'] > 1e-300 or abs(math.log10(x['p']) - lp) > 0.05:
            bad.append('%s: log10 p %.2f, JSON %r' % (m['name'], lp, x['p']))
def walk(o, path):
    if isinstance(o, dict):
        for k, w in o.items():
            if k in ('p', 'p_adjusted', 'min_p', 'welch_p') and w == 0:
                bad.append('%s.%s is 0' % (path, k))
            walk(w, path + '.' + k)
    elif isinstance(o, list):
        for i, w in enumerate(o):
            walk(w, '%s[%d]' % (path, i))
walk(doc, '')
for r in table('metrics.tsv') + table('changes.tsv'):
    for k in ('p', 'p_adjusted'):
        if r.get(k) not in (None, '-') and float(r[k]) == 0:
            bad.append('TSV %s %s is 0' % (r['metric'], k))
text = open(sys.argv[3]).read()
if below and 'p<1e-300' not in text:
    bad.append('the text has no p<1e-300')
if 'p=0 ' in text or 'p=0\n' in text or 'p=0)' in text:
    bad.append('the text prints p=0')
if below < 3 or above < 3:
    bad.append('only %d metrics below the floor and %d above' % (below, above))
print('%d metrics below 1e-300, %d above; %s' % (below, above, '; '.join(bad[:4]) or 'agree'))
sys.exit(1 if bad else 0)
PY
ok $? "p-values beyond a double are the bound 1e-300 in JSON and TSV, p<1e-300 in text: $(head -1 "$T/p.txt")"
tap_done
