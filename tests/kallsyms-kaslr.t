#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# kallsyms of another boot of the same kernel: with KASLR the kernel sits elsewhere. perf
# moves the symbols by the difference of the reference symbol (_text) against the address in
# its kernel map record, and so must we. A copy of a fixture's kallsyms moved by 32 MiB must
# give perf script's own output (which moves it) and the same report as the original, and
# the report must say it moved. The reports' table may come from perf's build-id cache. The
# running kernel's, read by a user who sees no addresses, is left out (needs root to record).
. "$(dirname "$0")/lib/tap.sh"
. "$TS_TOP/tests/fixtures/fixtures.sh"

command -v jq >/dev/null || skip_all "jq not installed (analysis/packages)"
command -v python3 >/dev/null || skip_all "python3 not installed"
command -v perf >/dev/null || skip_all "perf not installed (scripts/packages)"
[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
tap_tmpdir
ORACLE_TMP=$TAP_TMP

n=x86-ramfs-callchain
f=$(fixture_data $n) || { echo "Bail out! fixture $n"; exit 1; }
k=$(fixture_kallsyms $n) || { echo "Bail out! kallsyms of $n"; exit 1; }

# Every kernel line 32 MiB up; module lines ("name<TAB>[mod]") as they were.
moved=$TAP_TMP/moved.kallsyms
perl -ne 'no warnings; if (/\t/ || !/^([0-9a-f]+)( .*)$/s) { print; next }
	printf "%016x%s", hex($1) + 0x2000000, $2' "$k" >"$moved"
ok "$([ "$(wc -l <"$moved")" -eq "$(wc -l <"$k")" ] &&
	! cmp -s "$k" "$moved"; echo $?)" "a moved copy of $n's kallsyms"

"$TICKSCOPE" info -i "$f" >"$TAP_TMP/info" 2>&1
ok "$(grep -Eq '^kernel map: +_text at 0x' "$TAP_TMP/info"; echo $?)" \
	"info shows perf's kernel map record: $(grep '^kernel map' "$TAP_TMP/info")"

# The dump oracle with the moved file: perf moves it, so the names are the original ones.
perf script -i "$f" -F comm,tid,cpu,time,event,trace --ns --kallsyms "$moved" \
	>"$TAP_TMP/perf.txt" 2>"$TAP_TMP/perf.err"
ok $? "perf script with the moved kallsyms"
grep -q 'function=tick_nohz_handler' "$TAP_TMP/perf.txt"
ok $? "perf names the functions from the moved copy"
"$TICKSCOPE" dump -i "$f" --kallsyms "$moved" >"$TAP_TMP/dump.txt" 2>"$TAP_TMP/err"
ok $? "dump with the moved kallsyms"
[ -s "$TAP_TMP/perf.txt" ] && cmp -s "$TAP_TMP/perf.txt" "$TAP_TMP/dump.txt"
ok $? "dump equals perf script byte for byte with the moved kallsyms ($(wc -l <"$TAP_TMP/perf.txt") lines)"

# zstd data: the same, through the decompressed stream.
z=$(fixture_data x86-ramfs-zstd) || { echo "Bail out! fixture x86-ramfs-zstd"; exit 1; }
if [ "$(fixture_meta x86-ramfs-zstd kallsyms)" = "$(fixture_meta $n kallsyms)" ]; then
	oracle_perf_script "$z" "$moved" >"$TAP_TMP/zperf.txt"
	"$TICKSCOPE" dump -i "$z" --kallsyms "$moved" >"$TAP_TMP/zdump.txt" 2>"$TAP_TMP/err"
	_rc=$?
	[ $_rc -eq 0 ] && [ -s "$TAP_TMP/zperf.txt" ] && cmp -s "$TAP_TMP/zperf.txt" "$TAP_TMP/zdump.txt"
	ok $? "zstd: dump (exit $_rc) equals perf script with the moved kallsyms"
	ok "$(grep -q 'function=[a-z_]' "$TAP_TMP/zdump.txt"; echo $?)" "zstd: functions named"
else
	ok 1 "x86-ramfs-zstd was recorded in another boot than $n: no moved kallsyms for it"
fi

# The report: the same document as with the recording boot's kallsyms, but for the input's
# kallsyms fields; the shift is stated.
"$TICKSCOPE" report -i "$f" --kallsyms "$k" --json >"$TAP_TMP/orig.json" 2>&1
ok $? "report with the original kallsyms"
"$TICKSCOPE" report -i "$f" --kallsyms "$moved" --json >"$TAP_TMP/moved.json" 2>&1
ok $? "report with the moved kallsyms"
is "$(jq '.input.kallsyms_shift' "$TAP_TMP/moved.json")" "-33554432" "the shift is -32 MiB"
is "$(jq '.input.kallsyms_shift' "$TAP_TMP/orig.json")" "0" "no shift for the recording boot's"
# A report without its kallsyms fields, sorted, every number as written: jq 1.6 reads numbers
# as doubles, so two addresses above 2^53 that differ in their last digits compared equal.
# It fails on a document that is not JSON: two broken reports must not compare equal.
strip() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]), parse_float=lambda s: "float " + s,
	parse_int=lambda s: "int " + s)
for k in ("kallsyms", "kallsyms_shift"):
	d["input"].pop(k, None)
json.dump(d, sys.stdout, sort_keys=True, indent=1)' "$1"
}
strip "$TAP_TMP/orig.json" >"$TAP_TMP/a" && strip "$TAP_TMP/moved.json" >"$TAP_TMP/b" &&
	jq -e '.sections.sched.status == "present"' "$TAP_TMP/orig.json" >/dev/null &&
	cmp -s "$TAP_TMP/a" "$TAP_TMP/b"
ok $? "the moved kallsyms give the same report"
is "$(jq -r '.sections.timer.functions[] | select(.tick == 1) | .function' \
	"$TAP_TMP/moved.json" | head -1)" "tick_nohz_handler" "timer functions are named"
"$TICKSCOPE" report -i "$f" --kallsyms "$moved" >"$TAP_TMP/moved.txt" 2>&1
ok "$(sed -n 3p "$TAP_TMP/moved.txt" | grep -q 'another boot: kernel moved -0x2000000'
	echo $?)" "the text header says the symbols moved"

# perf's build-id cache: the reports take the copy saved for the file's kernel build id.
id=$(sed -n 's/^kernel build id: //p' "$TAP_TMP/info")
mkdir -p "$TAP_TMP/debug/[kernel.kallsyms]/$id"
cp "$moved" "$TAP_TMP/debug/[kernel.kallsyms]/$id/kallsyms"
PERF_BUILDID_DIR=$TAP_TMP/debug "$TICKSCOPE" report -i "$f" --json >"$TAP_TMP/cache.json" 2>&1
ok $? "report without --kallsyms, PERF_BUILDID_DIR holding the file's kernel"
is "$(jq -r '.input.kallsyms' "$TAP_TMP/cache.json")" \
	"$TAP_TMP/debug/[kernel.kallsyms]/$id/kallsyms" "the table comes from the build-id cache"
strip "$TAP_TMP/cache.json" >"$TAP_TMP/c" && [ -s "$TAP_TMP/a" ] && cmp -s "$TAP_TMP/a" "$TAP_TMP/c"
ok $? "and gives the same report, moved into place"
# The running kernel's kallsyms read by a user without the right to see addresses
# (kptr_restrict, no CAP_SYSLOG): every address 0. Used, it named every function wrongly
# (_einittext+0x...) with exit 0. It must be left out, said once, and each function shown by
# its address, as without a kallsyms. Oracle: root's report of the same live trace.
ev=timer:hrtimer_expire_entry,timer:hrtimer_expire_exit,sched:sched_switch
why=""
if [ "$(id -u)" != 0 ]; then
	why="needs root to record"
elif ! command -v setpriv >/dev/null; then
	why="setpriv not installed (util-linux)"
elif ! grep -qx timer:hrtimer_expire_entry /sys/kernel/tracing/available_events 2>/dev/null &&
	! { mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null &&
		grep -qx timer:hrtimer_expire_entry /sys/kernel/tracing/available_events; }; then
	why="no tracefs with timer:hrtimer_expire_entry"
elif ! setpriv --reuid=65534 --regid=65534 --clear-groups head -n1 /proc/kallsyms |
	grep -q '^0* '; then
	why="a user sees the kernel's addresses here (kptr_restrict 0, perf_event_paranoid <= 1)"
fi
if [ -n "$why" ]; then
	for t in "a user's report: exit 0, one warning" "no kallsyms named" \
		"each function by its address"; do
		skip "$t" "$why"
	done
else
	chmod 755 "$TAP_TMP"
	"$TICKSCOPE" record -a -o "$TAP_TMP/live.data" -e "$ev" -- sleep 0.3 >/dev/null 2>&1
	chmod 644 "$TAP_TMP/live.data"
	HOME=$TAP_TMP TS_KSYMS_CACHE=off "$TICKSCOPE" report --json "$TAP_TMP/live.data" \
		>"$TAP_TMP/root.json" 2>/dev/null
	(cd / && setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/nonexistent \
		TS_KSYMS_CACHE=off "$TICKSCOPE" report --json "$TAP_TMP/live.data" \
		>"$TAP_TMP/user.json" 2>"$TAP_TMP/user.err")
	is "$?:$(cat "$TAP_TMP/user.err")" "0:tickscope: warning: /proc/kallsyms: every address in"\
" it is 0: a kallsyms read without the right to see addresses (kptr_restrict; read it as root):"\
" not used, functions left as addresses" "a user's report: exit 0, one warning"
	is "$(jq -r .input.kallsyms "$TAP_TMP/root.json"):$(jq -r .input.kallsyms \
		"$TAP_TMP/user.json")" "/proc/kallsyms:null" "root's names /proc/kallsyms, the user's none"
	fn='.sections.timer.functions[] | "\(.function_addr) \(.expiries) \(.function)"'
	jq -r "$fn" "$TAP_TMP/root.json" | sed 's/ [^ ]*$//' >"$TAP_TMP/root.fn"
	jq -r "$fn" "$TAP_TMP/user.json" >"$TAP_TMP/user.fn"
	[ "$(jq -r "$fn" "$TAP_TMP/root.json" | grep -c ' null$')" = 0 ] &&
		[ -s "$TAP_TMP/root.fn" ] && [ "$(grep -vc ' null$' "$TAP_TMP/user.fn")" = 0 ] &&
		sed 's/ null$//' "$TAP_TMP/user.fn" | cmp -s - "$TAP_TMP/root.fn"
	ok $? "each of root's $(wc -l <"$TAP_TMP/root.fn") named functions: the user's by its"\
" address, with the same expiries"
fi

tap_done
