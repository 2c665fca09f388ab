#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A damaged record type: a SAMPLE of x86-tiny whose type is flipped to one of the kernel
# records the reader skips (MMAP, SWITCH, KSYMBOL, ...) must not lose the sample without a word.
# The oracle is perf script on the same file: where perf fails, tickscope dump fails with one
# line naming the file, the offset and the record type; where tickscope reads on, it prints
# exactly the samples perf script prints. Real recordings with such records (the fixtures) still
# read: dump-oracle.t compares them with perf script line by line. A damaged attr type: the
# samples dump does not decode are counted and said, never dropped silently.
. "$(dirname "$0")/lib/tap.sh"
. "$TS_TOP/tests/fixtures/fixtures.sh"

command -v perf >/dev/null || skip_all "perf not installed (Debian package linux-perf)"
command -v perl >/dev/null || skip_all "perl missing"
[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
tap_tmpdir
T=$TAP_TMP
PERFDATA="perl $TS_FIXTURES/perfdata.pl"
mkdir -p "$TS_FIXTURE_CACHE"
ks=$T/one-line.kallsyms
echo "ffffffff81000000 T _text" >"$ks"

tiny=$(fixture_data x86-tiny) || { echo "Bail out! fixture x86-tiny missing"; exit 1; }
$PERFDATA layout "$tiny" >"$T/layout" || { echo "Bail out! cannot parse $tiny"; exit 1; }
# the attrs' first id, for flips whose trailer names a real event (perf reads those on)
id0=$(od -An -tu8 -j "$(awk '$1 == "attr_0_ids_offset" { print $4 }' "$T/layout")" -N 8 \
	"$tiny" | tr -d ' ')

# flip OFF SIZE TYPE ID: the sample at OFF as a record of TYPE, its trailer's id set to ID
# (- keeps it); prints "perf_rc perf_lines ts_rc ts_lines" and leaves stderr in $T/ts.err
flip() {
	$PERFDATA patch "$tiny" "$T/f.data" "$1" 4 "$3" || return 1
	if [ "$4" != - ]; then
		# the trailer is tid, time, id, cpu (sample_type IP|TID|TIME|ID|CPU|PERIOD|RAW)
		$PERFDATA patch "$T/f.data" "$T/g.data" $(($1 + $2 - 16)) 8 "$4" || return 1
		mv "$T/g.data" "$T/f.data"
	fi
	perf script -i "$T/f.data" --kallsyms "$ks" >"$T/perf.out" 2>/dev/null
	prc=$?
	"$TICKSCOPE" dump -i "$T/f.data" --kallsyms "$ks" >"$T/ts.out" 2>"$T/ts.err"
	trc=$?
	echo "$prc $(wc -l <"$T/perf.out") $trc $(wc -l <"$T/ts.out")"
}

# types the reader skips; 20 TEXT_POKE, 21 AUX_OUTPUT_HW_ID, 30 a type no kernel writes yet
TYPES="1 5 6 8 10 11 12 14 15 16 17 18 19 20 21 30"
awk '$1 == "rec" && $3 == 9 { print $2, $4 }' "$T/layout" | head -4 >"$T/samples"
[ -s "$T/samples" ] || { echo "Bail out! no samples in $tiny's layout"; exit 1; }
: >"$T/bad"
n=0 perf_failed=0 ts_failed=0
while read -r off size; do
	for t in $TYPES; do
		for id in - "$id0"; do
			set -- $(flip "$off" "$size" "$t" "$id")
			[ $# -eq 4 ] || { echo "cannot patch the sample at $off" >>"$T/bad" && continue; }
			n=$((n + 1))
			[ "$1" -ne 0 ] && perf_failed=$((perf_failed + 1))
			[ "$3" -ne 0 ] && ts_failed=$((ts_failed + 1))
			what="sample at $off as type $t, id $id: perf rc $1 ($2 lines), dump rc $3 ($4 lines)"
			# a type no kernel writes yet: its layout unknown, dump warns of it and reads
			# on (a newer kernel's records must not stop it); perf may stop there
			if [ "$3" -eq 0 ] && grep -q \
				"offset $(printf '%#x' "$off"): record type $t is unknown" "$T/ts.err"; then
				:
			elif [ "$1" -ne 0 ] && [ "$3" -eq 0 ]; then
				echo "perf fails, dump reads on: $what" >>"$T/bad"
			elif [ "$3" -eq 0 ] && [ "$2" -ne "$4" ]; then
				echo "dump reads on, but its lines are not perf's: $what" >>"$T/bad"
			elif [ "$3" -ne 0 ] && [ "$(wc -l <"$T/ts.err")" -ne 1 ] &&
				! grep -q 'is unknown to this reader' "$T/ts.err"; then
				echo "not one line: $what: $(tr '\n' '|' <"$T/ts.err")" >>"$T/bad"
			elif [ "$3" -ne 0 ] &&
				! grep -q "f\.data: offset $(printf '%#x' "$off"): .*(type $t)" "$T/ts.err"
			then
				echo "the line does not name file, offset and type: $what: $(tail -1 \
					"$T/ts.err")" >>"$T/bad"
			fi
		done
	done
done <"$T/samples"
ok "$(wc -l <"$T/bad")" "flipped sample types: where perf fails dump fails, naming file, offset" \
	"and type; where dump reads on it prints perf's samples ($n flips)"
sed -n '1,10s/^/#   /p' "$T/bad"
diag "perf script failed on $perf_failed of $n flips, tickscope dump on $ts_failed"
# the point of the checks: with a real id in the trailer perf reads every flip on (and loses
# the sample); dump must see more of them than perf does
[ "$ts_failed" -gt "$perf_failed" ]
ok $? "dump finds flips perf reads on: the fixed part, the name's NUL, the trailer's cpu"

# The case the defect was found on: the first sample as MMAP, its trailer's id 140 (raw data)
set -- $(awk '$1 == "rec" && $3 == 9 { print $2, $4; exit }' "$T/layout")
set -- $(flip "$1" "$2" 1 -) "$1"
[ "$1" -ne 0 ] && [ "$3" -ne 0 ]
ok $? "first sample as MMAP: perf script and dump both fail (rc $1 and $3)"
grep -q "offset $(printf '%#x' "$5"): MMAP record (type 1): the id of its sample_id trailer" \
	"$T/ts.err"
ok $? "first sample as MMAP: $(head -1 "$T/ts.err")"

# A damaged attr type: the first attr (sched:sched_switch) as a software event and as a type
# no kernel has. perf script prints its samples as samples of that type; dump prints the
# others and says how many of it were not decoded; the two add up to info's count and perf's.
ao=$(awk '$1 == "attrs_offset" { print $4 }' "$T/layout")
for t in 1 99; do
	$PERFDATA patch "$tiny" "$T/a.data" "$ao" 4 $t
	perf script -i "$T/a.data" --kallsyms "$ks" >"$T/perf.out" 2>/dev/null
	p_all=$(wc -l <"$T/perf.out")
	p_sw=$(grep -c ' sched:sched_switch: ' "$T/perf.out")
	"$TICKSCOPE" dump -i "$T/a.data" --kallsyms "$ks" >"$T/ts.out" 2>"$T/ts.err"
	rc=$?
	t_all=$(wc -l <"$T/ts.out")
	info=$("$TICKSCOPE" info -i "$T/a.data" 2>/dev/null | awk '$1 == "samples:" { print $2 }')
	w="samples of attr 0 (sched:sched_switch, type $t) not decoded: not a tracepoint"
	nd=$(sed -n "s/.*a\.data: \([0-9]*\) $w\$/\1/p" "$T/ts.err")
	what="attr 0 as type $t: dump exits 0, says $p_sw of its samples (perf's) were not"
	is "$rc ${nd:-none} $((t_all + ${nd:-0}))" "0 $p_sw $p_all" \
		"$what decoded, prints the rest of perf's $p_all"
	is "$info" "$p_all" "attr 0 as type $t: info counts perf's $p_all samples"
done
"$TICKSCOPE" dump -i "$tiny" --kallsyms "$ks" >/dev/null 2>"$T/ts.err"
grep -q 'not decoded' "$T/ts.err"
ok $((!$?)) "the intact fixture: no sample said to be not decoded"

tap_done
