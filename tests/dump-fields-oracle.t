#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# dump's TSV and JSON fields against perf's own reading of them: perf script -s with
# tests/oracle/perf_fields.py prints every sample's fields (perf's libtraceevent) in format
# order; the TSV fields column and the JSON "fields" object must say the same, sample by
# sample, on every fixture. Numbers may differ only in how a signed field is shown (perf's
# Python gives an int field's -1 as 4294967295): equal modulo 2^32 or 2^64. The memo of
# printed fields (analysis/common/memo.c) must never print one sample's fields for another's.
. "$(dirname "$0")/lib/tap.sh"
. "$TS_TOP/tests/fixtures/fixtures.sh"

command -v perf >/dev/null || skip_all "perf not installed (Debian package linux-perf)"
command -v python3 >/dev/null || skip_all "no python3"
[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
tap_tmpdir
T=$TAP_TMP
py="$TS_TOP/tests/oracle/perf_fields.py"

names=$(fixture_names)
[ -n "$names" ] || { echo "Bail out! no fixtures in $TS_FIXTURES"; exit 1; }
n0=$(echo "$names" | head -1)
perf script -i "$(fixture_data "$n0")" -s "$py" >/dev/null 2>"$T/py.err" ||
	skip_all "perf script has no Python scripting: $(head -1 "$T/py.err")"

# same PERF_TXT TS_TXT: line by line, tokens equal or numbers equal modulo 2^32 / 2^64
same() {
	python3 - "$1" "$2" <<'PY'
import sys

def num(s):
    try:
        return int(s)
    except ValueError:
        return None

def same_line(a, b):
    if a == b:
        return True
    ta, tb = a.split(" "), b.split(" ")
    if len(ta) != len(tb):
        return False
    for x, y in zip(ta, tb):
        if x == y:
            continue
        kx, _, vx = x.partition("=")
        ky, _, vy = y.partition("=")
        nx, ny = num(vx), num(vy)
        if kx != ky or nx is None or ny is None:
            return False
        if (nx - ny) % (1 << 32) and (nx - ny) % (1 << 64):
            return False
    return True

p = open(sys.argv[1], encoding="latin-1").read().splitlines()
t = open(sys.argv[2], encoding="latin-1").read().splitlines()
if len(p) != len(t):
    print("# %d lines from perf, %d from dump" % (len(p), len(t)))
    sys.exit(1)
bad = [i for i in range(len(p)) if not same_line(p[i], t[i])]
for i in bad[:3]:
    print("# line %d: perf: %s" % (i + 1, p[i]))
    print("# line %d: dump: %s" % (i + 1, t[i]))
sys.exit(1 if bad or not p else 0)
PY
}

for n in $names; do
	f=$(fixture_data "$n") || { ok 1 "$n: decompress"; continue; }
	# perf's samples of a leader-sampled group's member are none of the file's (fixtures.sh)
	perf script -i "$f" -s "$py" 2>/dev/null |
		awk -F'\t' -v ns="$(fixture_meta "$n" not_sampled)" '$1 != ns' >"$T/perf.txt"
	"$TICKSCOPE" dump --format=tsv -i "$f" 2>/dev/null | tail -n +2 | cut -f5- >"$T/tsv.txt"
	same "$T/perf.txt" "$T/tsv.txt"
	ok $? "$n: dump --format=tsv fields equal perf's, sample by sample"
	"$TICKSCOPE" dump --format=json -i "$f" 2>/dev/null | python3 -c '
import json, sys
for line in sys.stdin:
    o = json.loads(line)
    out = []
    for k, v in o["fields"].items():
        if isinstance(v, list):
            v = ",".join(str(x) for x in v)
        elif isinstance(v, str):
            v = v.replace("\t", " ").replace("\n", " ")
        out.append("%s=%s" % (k, "-" if v is None else v))
    sys.stdout.write("%s\t%s\n" % (o["event"], " ".join(out)))
' >"$T/json.txt"
	same "$T/perf.txt" "$T/json.txt"
	ok $? "$n: dump --format=json fields equal perf's, sample by sample"
done
tap_done
