#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The probes section names the symbol each kprobe sat on, against perf script: on an aarch64
# recording whose kernel has only refresh_cpu_vm_stats.constprop.0 (the board probed it by its
# base name, kprobes.txt says so), perf script's __probe_ip (and the return probe's
# __probe_func), looked up in the recording boot's kallsyms by this test's own awk, is the
# symbol the report names: "refresh_cpu_vm_stats (probed as refresh_cpu_vm_stats.constprop.0)"
# in text, "probed" in JSON; quiet_vmstat, probed by its own name, gets no such line. The
# calls perf script counts are the section's entries and returns. Without symbols, "probed" is
# null and the text says nothing of it.
. "$(dirname "$0")/lib/tap.sh"

command -v perf >/dev/null || skip_all "perf not installed (Debian package linux-perf)"
command -v jq >/dev/null || skip_all "jq not installed (Debian package jq)"
[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
tap_tmpdir

name=a64-6.1-built-vmstat-probes
data=$(shared_fixture "$name.data") || { echo "Bail out! no fixture $name.data.xz"; exit 1; }
ksyms=$(shared_fixture "$name.kallsyms") || { echo "Bail out! no $name.kallsyms.xz"; exit 1; }
kprobes=$TS_TOP/tests/fixtures/aarch64/$name.kprobes.txt

perf script -i "$data" -F event,trace 2>"$TAP_TMP/perf.err" | grep '^ *probe:' >"$TAP_TMP/perf.txt"
# "F ADDRESS" per probe event: the kprobe's (ADDR), the return probe's (FUNC <- RET)
sed -n 's/^ *probe:\([A-Za-z0-9_.]*\): (\([0-9a-f]*\).*/\1 \2/p' "$TAP_TMP/perf.txt" |
	sed 's/__return / /' | sort -u >"$TAP_TMP/addrs"

# resolve ADDR against kallsyms: the text symbol with the greatest address not above it. The
# addresses are 16 lowercase hex digits on both sides, compared as strings (awk's numbers lose
# 64-bit addresses); the offset from the low 32 bits.
resolve() {
	awk -v want="$1" '
	function hex(s,  i, v) {
		v = 0
		for (i = 1; i <= length(s); i++)
			v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1
		return v
	}
	length(want) == 16 && length($1) == 16 && $2 ~ /^[tT]$/ && $1 "" <= want "" &&
	$1 "" >= best "" { best = $1; sym = $3 }
	END {
		if (sym == "") exit 1
		off = hex(substr(want, 9)) - hex(substr(best, 9))
		if (off < 0) off += 4294967296
		if (off) printf "%s+%#x\n", sym, off; else print sym
	}
	' "$ksyms"
}

"$TICKSCOPE" report -i "$data" --kallsyms "$ksyms" >"$TAP_TMP/report.txt" 2>"$TAP_TMP/report.err"
ok $? "report with the recording boot's kallsyms"
"$TICKSCOPE" report -i "$data" --kallsyms "$ksyms" --json >"$TAP_TMP/report.json" 2>>"$TAP_TMP/report.err"
ok $? "report --json"

is "$(cut -d' ' -f1 "$TAP_TMP/addrs" | sort -u | tr '\n' ' ')" "quiet_vmstat refresh_cpu_vm_stats " \
	"perf script: two probed functions"
is "$(cut -d' ' -f1 "$TAP_TMP/addrs" | uniq -d)" "" \
	"perf script: one address per function (entry and return agree)"

for fn in quiet_vmstat refresh_cpu_vm_stats; do
	addr=$(sed -n "s/^$fn //p" "$TAP_TMP/addrs")
	sym=$(resolve "$addr")
	ok $? "$fn: perf's address $addr is in kallsyms ($sym)"
	# the board's own record of what it probed (ts-record.sh's kprobes.txt)
	is "$(sed -n "s/^added p:probe\/$fn //p" "$kprobes")" "$sym" \
		"$fn: kprobes.txt names the same symbol"
	is "$(jq -r --arg f "$fn" '.sections.probes.functions[] | select(.function == $f) |
		.probed' "$TAP_TMP/report.json")" "$sym" "$fn: JSON probed is $sym"
	entries=$(grep -c "^ *probe:$fn: " "$TAP_TMP/perf.txt")
	returns=$(grep -c "^ *probe:${fn}__return: " "$TAP_TMP/perf.txt")
	is "$(jq -r --arg f "$fn" '.sections.probes.functions[] | select(.function == $f) |
		"\(.entries) \(.returns)"' "$TAP_TMP/report.json")" "$entries $returns" \
		"$fn: entries and returns as perf script counts them ($entries, $returns)"
	if [ "$sym" = "$fn" ]; then
		! grep -q "^  $fn (probed as" "$TAP_TMP/report.txt"
		ok $? "$fn: probed by its own name, the text says nothing more"
	else
		grep -qxF "  $fn (probed as $sym)" "$TAP_TMP/report.txt"
		ok $? "text: '$fn (probed as $sym)'"
	fi
done
is "$(resolve "$(sed -n 's/^refresh_cpu_vm_stats //p' "$TAP_TMP/addrs")")" \
	"refresh_cpu_vm_stats.constprop.0" "the oracle itself: the clone, as the board probed it"

"$TICKSCOPE" report -i "$data" --json 2>/dev/null >"$TAP_TMP/nosyms.json"
is "$(jq -r '[.sections.probes.functions[].probed] | map(tostring) | join(" ")' \
	"$TAP_TMP/nosyms.json")" "null null" "without symbols: probed is null"
"$TICKSCOPE" report -i "$data" 2>/dev/null >"$TAP_TMP/nosyms.txt"
! grep -q 'probed as' "$TAP_TMP/nosyms.txt"
ok $? "without symbols: the text names no probed symbol"

# A uprobe pair, perf probe -x libc's group probe_libc: (x86-uprobe-malloc, recorded here with
# malloc and malloc%return): paired as probe:'s are, against perf script's own pairs per task.
. "$TS_TOP/tests/fixtures/fixtures.sh"
up=$(fixture_data x86-uprobe-malloc) || { echo "Bail out! fixture x86-uprobe-malloc"; exit 1; }
perf script -i "$up" -F tid,time,event --ns 2>/dev/null | awk '
	{ t = $2; sub(/:$/, "", t); split(t, a, "."); ns = a[1] * 1000000000 + a[2]
	  ev = $3; sub(/:$/, "", ev) }
	ev == "probe_libc:malloc" { open[$1] = ns; e++ }
	ev == "probe_libc:malloc__return" { r++
		if ($1 in open) { d = ns - open[$1]; delete open[$1]; n++; s += d
			if (!mn || d < mn) mn = d; if (d > mx) mx = d } }
	END { printf "%d %d %d %d %d %d\n", e, r, n, s, mn, mx }' >"$TAP_TMP/up.perf"
"$TICKSCOPE" report -i "$up" --json 2>"$TAP_TMP/up.err" >"$TAP_TMP/up.json"
ok $? "report --json of the uprobe recording"
want=$(cat "$TAP_TMP/up.perf")
is "$(jq -r '.sections.probes.functions[] | select(.function == "probe_libc:malloc") |
	.duration as $d | "\(.entries) \(.returns) \($d.count) \($d.sum_ns) \($d.min_ns)" +
	" \($d.max_ns)"' "$TAP_TMP/up.json")" "$want" \
	"probe_libc:malloc: entries, returns, pairs, total, min, max as perf script's ($want)"
"$TICKSCOPE" report -i "$up" 2>/dev/null | grep -q '^  probe_libc:malloc  *all  *240 '
ok $? "text: probe_libc:malloc's row, 240 calls"

# The section's events, first and last event are the recording's (the probes have no event
# kind of their own: they were [] and 0): perf script's probe events per name, first and last.
perf script -i "$up" -F time,event --ns 2>/dev/null | awk '
	{ t = $1; sub(/:$/, "", t); sub(/\./, "", t); ev = $2; sub(/:$/, "", ev) }
	ev ~ /^probe_libc:/ { if (!(ev in n)) o[++k] = ev; n[ev]++; if (!f) f = t; l = t }
	END { for (i = 1; i <= k; i++) printf "%s %d\n", o[i], n[o[i]]; printf "%s %s\n", f, l }' \
	>"$TAP_TMP/up.events"
want=$(cat "$TAP_TMP/up.events")
is "$(jq -r '.sections.probes | (.events[] | "\(.name) \(.count)"), "\(.first_ns) \(.last_ns)"' \
	"$TAP_TMP/up.json")" "$want" "JSON: the probes' events, first_ns and last_ns as perf script's"
"$TICKSCOPE" report -i "$up" 2>/dev/null | awk '/^== probes/ { getline; print; exit }' \
	>"$TAP_TMP/up.text"
is "$(cat "$TAP_TMP/up.text")" \
	"  events: $(sed '$d' "$TAP_TMP/up.events" | sed 's/^probe_libc://' | paste -sd, - |
		sed 's/,/, /g')" "text: the same events and counts"

tap_done
