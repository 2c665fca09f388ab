#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Truth of the figures on inputs of unusual shapes (issue 11): lost events counted once as perf
# counts them, and files of the shapes other perf versions and killed recordings leave, made
# from the committed fixtures by tests/fixtures/perfdata.pl.
. "$(dirname "$0")/lib/tap.sh"
. "$TS_TOP/tests/fixtures/fixtures.sh"

[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
command -v perl >/dev/null || { echo "Bail out! perl missing"; exit 1; }
tap_tmpdir
T=$TAP_TMP
PERFDATA="perl $TS_FIXTURES/perfdata.pl"
lost=$(fixture_data x86-lost) || { echo "Bail out! fixture x86-lost missing"; exit 1; }
ks=$(fixture_kallsyms x86-lost) || { echo "Bail out! kallsyms of x86-lost missing"; exit 1; }
tiny=$(fixture_data x86-tiny) || { echo "Bail out! fixture x86-tiny missing"; exit 1; }
tinyp=$(fixture_data x86-tiny-pipe) || { echo "Bail out! fixture x86-tiny-pipe missing"; exit 1; }

# --- 1. Lost events once: LOST and LOST_SAMPLES records count the same samples. ------------
# The oracle is perf report's "Total Lost Samples"; without perf, the LOST_SAMPLES sum that
# info reads (which dump-oracle.t checks against perf where perf exists).
"$TICKSCOPE" info -i "$lost" >"$T/info" 2>&1
want=$(sed -n 's/^lost events: *[0-9]* in LOST records, *\([0-9]*\) in LOST_SAMPLES.*/\1/p' \
	"$T/info")
if command -v perf >/dev/null; then
	want=$(perf report -i "$lost" --stdio 2>/dev/null |
		sed -n 's/^# Total Lost Samples: *\([0-9]*\).*/\1/p')
fi
"$TICKSCOPE" report -i "$lost" --kallsyms "$ks" >"$T/lost.txt" 2>"$T/lost.err"
got=$(sed -n 's/^  LOST \([0-9]*\) events.*/\1/p' "$T/lost.txt")
is "$got" "$want" "x86-lost: the text report's lost events equal perf's Total Lost Samples"
"$TICKSCOPE" report -i "$lost" --kallsyms "$ks" --json >"$T/lost.json" 2>"$T/lost.err"
got=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["trace"]["lost_events"])' \
	"$T/lost.json" 2>/dev/null)
is "$got" "$want" "x86-lost: the JSON trace.lost_events equals perf's Total Lost Samples"
over=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join(k for k, s in d["sections"].items() if s.get("lost_events", 0) > int(sys.argv[2])))' \
	"$T/lost.json" "$want" 2>/dev/null)
is "$over" "" "x86-lost: no section claims more lost events than the whole trace"

tap_done
