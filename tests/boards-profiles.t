#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# boards/*.board: every profile parses and is complete, fragments exist, the kernel side
# (kconfig-fragments/boards.tsv) agrees, and malformed profiles are refused. Scripts have --help.
. "$(dirname "$0")/lib/tap.sh"
TS_PROG=test
. "$TS_TOP/boards/lib/common.sh"
tap_tmpdir
tmp=$TAP_TMP

is "$(profile_list | LC_ALL=C sort | tr '\n' ' ')" "hi1215 qemu-aarch64 qemu-aarch64-6.12 qemu-x86 x86-host " \
	"the five board profiles"

for b in $(profile_list); do
	(
		profile_load "$b" && profile_check
	) 2>"$tmp/err"
	ok $? "$b: parses and is complete"
	[ -s "$tmp/err" ] && sed 's/^/# /' "$tmp/err"
	(
		profile_load "$b" 2>/dev/null
		bad=0
		n=0
		for f in $P_FRAGMENTS ${P_FRAGMENTS_rt:-}; do
			n=$((n + 1))
			if [ ! -f "$TS_TOP/kconfig-fragments/$f.config" ]; then
				echo "# $b: no kconfig-fragments/$f.config"
				bad=1
			fi
		done
		[ "$n" -gt 0 ] || echo "# $b: names no fragment"
		[ "$n" -gt 0 ] && exit $bad
	)
	ok $? "$b: it names fragments, and they exist in kconfig-fragments/"
	tsv=$TS_TOP/kconfig-fragments/boards.tsv
	if [ ! -f "$tsv" ]; then
		ok 1 "$b: kconfig-fragments/boards.tsv exists"
	else
		(
			profile_load "$b" 2>/dev/null
			row=$(awk -v b="$b" '$1 == b' "$tsv")
			cross=$(echo "$row" | awk '{ print $5 }')
			[ "$cross" = - ] && cross=""
			[ -n "$row" ] && [ "$(echo "$row" | awk '{ print $2 }')" = "$P_ARCH" ] &&
				[ "$(echo "$row" | awk '{ print $3 }')" = "$P_DEFCONFIG" ] &&
				[ "$cross" = "$P_CROSS_COMPILE" ]
		)
		ok $? "$b: arch, defconfig and CROSS_COMPILE agree with kconfig-fragments/boards.tsv"
	fi
done

(
	profile_load qemu-aarch64 >/dev/null 2>&1
	[ "$P_CPUS" = 8 ] && [ "$P_ARCH" = arm64 ] && [ "$P_QEMU_CPU" = cortex-a57 ] &&
		[ "$P_KERNEL_META_rt" = linux-image-rt-arm64 ]
)
ok $? "qemu-aarch64: 8 cortex-a57 vCPUs, an -rt kernel"
# Another Debian kernel on the same board: only the name and the kernel packages differ.
keys() { grep -v '^#' "$TS_TOP/boards/$1.board" | grep -Ev '^(NAME|DESCRIPTION|KERNEL_META_[a-z]+)='; }
keys qemu-aarch64 >"$tmp/k1"
keys qemu-aarch64-6.12 >"$tmp/k2"
diff "$tmp/k1" "$tmp/k2" | sed 's/^/# /'
cmp -s "$tmp/k1" "$tmp/k2" &&
	grep -qx 'KERNEL_META_generic=linux-image-6.12-arm64' "$TS_TOP/boards/qemu-aarch64-6.12.board" &&
	grep -qx 'KERNEL_META_rt=linux-image-6.12-rt-arm64' "$TS_TOP/boards/qemu-aarch64-6.12.board"
ok $? "qemu-aarch64-6.12: qemu-aarch64 with Debian's 6.12 kernel packages, nothing else changed"
(
	profile_load hi1215 >/dev/null 2>&1
	[ "$P_TRANSPORT" = ssh ] && [ "$P_CPUS" = 8 ] && [ -n "$P_SSH_TARGET" ]
)
ok $? "hi1215: 8 CPUs over ssh"
(
	profile_load qemu-x86 >/dev/null 2>&1
	[ "$P_CPUS" = 8 ] && [ "$P_ARCH" = x86_64 ]
)
ok $? "qemu-x86: 8 x86_64 vCPUs"

# Malformed profiles.
cp "$TS_TOP/boards/qemu-x86.board" "$tmp/nokey.board"
sed -i 's/^NAME=.*/NAME=nokey/; /^QEMU_CONSOLE=/d' "$tmp/nokey.board"
(profile_load "$tmp/nokey.board" && profile_check) 2>"$tmp/err"
[ $? -ne 0 ] && grep -q 'missing QEMU_CONSOLE' "$tmp/err"
ok $? "a profile without a required key is refused, naming the key"
printf 'NAME=junk\nthis is not a key\n' >"$tmp/junk.board"
profile_load "$tmp/junk.board" 2>"$tmp/err"
[ $? -ne 0 ] && grep -q 'junk.board:2: expected KEY=value' "$tmp/err"
ok $? "a malformed line is refused with file:line"
cp "$TS_TOP/boards/hi1215.board" "$tmp/pin.board"
sed -i 's/^NAME=.*/NAME=pin/; s/^PIN_CROSS=.*/PIN_CROSS=1,8/' "$tmp/pin.board"
(profile_load "$tmp/pin.board" && profile_check) 2>"$tmp/err"
[ $? -ne 0 ] && grep -q "pinned CPU '8'" "$tmp/err"
ok $? "a pinned CPU outside the board is refused"
# a key twice: the later value was taken without a word (lava-jobs' reader took it too)
cp "$TS_TOP/boards/qemu-x86.board" "$tmp/twice.board"
sed -i 's/^NAME=.*/NAME=twice/' "$tmp/twice.board"
cpus=$(grep -n '^CPUS=' "$tmp/twice.board" | cut -d: -f1)
echo 'CPUS=64' >>"$tmp/twice.board"
last=$(wc -l <"$tmp/twice.board")
(profile_load "$tmp/twice.board" && profile_check) 2>"$tmp/err"
[ $? -ne 0 ] && [ "$(wc -l <"$tmp/err")" = 1 ] &&
	grep -q "twice.board:$last: CPUS given twice (first on line $cpus): one value a key" "$tmp/err"
ok $? "a key given twice is refused in one line naming both lines ($(cat "$tmp/err"))"
# CRLF: the carriage return was part of every value (ARCH=arm64\r "must be arm64 or x86_64")
sed 's/$/\r/' "$TS_TOP/boards/x86-host.board" >"$tmp/x86-host.board"
(profile_load "$tmp/x86-host.board" && profile_check) 2>"$tmp/err"
[ $? -ne 0 ] && [ "$(wc -l <"$tmp/err")" = 1 ] &&
	grep -q "x86-host.board:1: a carriage return ends the line (CRLF line ends)" "$tmp/err"
ok $? "a profile with CRLF line ends is refused in one line ($(cat "$tmp/err"))"
cp "$TS_TOP/boards/x86-host.board" "$tmp/x86-host.board"
(profile_load "$tmp/x86-host.board" && profile_check) 2>"$tmp/err"
ok $? "the same profile with LF line ends loads ($(cat "$tmp/err"))"
# a key no script reads (a typo: QEMU_MEMROY=) was ignored without a word, the default taken
sed 's/^QEMU_MEM=/QEMU_MEMROY=/' "$TS_TOP/boards/qemu-x86.board" >"$tmp/qemu-x86.board"
ln=$(grep -n '^QEMU_MEMROY=' "$tmp/qemu-x86.board" | cut -d: -f1)
(profile_load "$tmp/qemu-x86.board" && profile_check) 2>"$tmp/err"
[ $? -ne 0 ] && [ "$(wc -l <"$tmp/err")" = 1 ] &&
	grep -q "qemu-x86.board:$ln: QEMU_MEMROY is not a profile key (a typo?)" "$tmp/err"
ok $? "an unknown key is refused in one line naming file, line and key ($(cat "$tmp/err"))"
printf 'NAME=q\nDESCRIPTION="it'"'"'s $(echo owned) `x`"\n' >"$tmp/q.board"
(profile_load "$tmp/q.board" && [ "$P_DESCRIPTION" = "it's \$(echo owned) \`x\`" ]) 2>/dev/null
ok $? "values are taken literally, never executed"

for s in boards/record.sh boards/experiment.sh boards/target/ts-record.sh boards/qemu/fetch.sh \
	boards/qemu/mkinitramfs.sh boards/qemu/boot.sh boards/kernel/kernel.sh \
	boards/gen-kconfig-experiment.sh; do
	"$TS_TOP/$s" --help >"$tmp/help" 2>&1 && grep -q '^Usage:' "$tmp/help"
	ok $? "$s --help"
done

# RUNS of make record, experiment and bisect: a count from 1 (bisect: 2) to 999999 without a
# leading 0. RUNS=00 recorded nothing after making the run folder, record RUNS=0 said it in two
# lines, and a RUNS beyond the shell's arithmetic ("[: Illegal number") started recording.
for r in 0 00 08 12x 99999999999999999999 1000000; do
	for s in "record.sh BOARD=x86-host WORKLOAD=pingpong VARIANT=v" \
		"experiment.sh BOARD=qemu-aarch64 A=default B=boot:nohz=off" \
		"bisect.sh PATCHES=tests/fixtures/bisect"; do
		min=1
		case $s in bisect*) min=2 ;; esac
		# shellcheck disable=SC2086 # the script and its variables, split on purpose
		(cd "$TS_TOP" && boards/$s RUNS="$r" RESULTS="$tmp/rr") >"$tmp/out" 2>"$tmp/err"
		rc=$?
		is "$rc $(wc -l <"$tmp/err") $(grep -c "error: RUNS must be a whole number from $min to 999999, not '$r'$" \
			"$tmp/err") $([ -e "$tmp/rr" ] && echo written)" "1 1 1 " \
			"${s%% *} RUNS=$r: one line, exit 1, nothing written"
	done
done
is "$(check_count X 2 2 && echo ok)" ok "check_count: the minimum itself passes"
is "$(check_count X 999999 1 && echo ok)" ok "check_count: 999999 passes"
# ITERS, WARMUP (and the workload's other figures) of make record: bounded before anything
# boots. ITERS=0 or ITERS=99999999999999999999 passed, to fail on the board after its boot.
for v in "ITERS 0 1 100000000" "ITERS 99999999999999999999 1 100000000" \
	"ITERS 100000001 1 100000000" "ITERS 1e4 1 100000000" "ITERS 010 1 100000000" \
	"WARMUP -1 0 100000000" "WARMUP 100000001 0 100000000" "DELAY_US 10000001 0 10000000" \
	"WORKERS 0 1 4096" "DURATION 86401 1 86400" "RETRIES 11 0 10" "RETRIES -1 0 10"; do
	# shellcheck disable=SC2086 # the name, value and bounds, split on purpose
	set -- $v
	(cd "$TS_TOP" && boards/record.sh BOARD=x86-host WORKLOAD=pingpong VARIANT=v RUNS=1 \
		"$1=$2" RESULTS="$tmp/ri") >"$tmp/out" 2>"$tmp/err"
	rc=$?
	is "$rc $(wc -l <"$tmp/err") $(grep -c "error: $1 must be a whole number from $3 to $4, not '$2'$" \
		"$tmp/err") $([ -e "$tmp/ri" ] && echo written)" "1 1 1 " \
		"record.sh $1=$2: one line, exit 1, nothing written"
done
is "$(check_range X 100000000 1 100000000 && check_range X 0 0 5 && echo ok)" ok \
	"check_range: both ends pass"

# RESULTS= that a file stands in: mkdir's own line came first, then ours (two lines).
echo mine >"$tmp/afile"
for s in "record.sh BOARD=x86-host WORKLOAD=pingpong VARIANT=v RUNS=1" \
	"experiment.sh BOARD=qemu-aarch64 A=default B=boot:nohz=off RUNS=1"; do
	# shellcheck disable=SC2086 # the script and its variables, split on purpose
	(cd "$TS_TOP" && MAKE=false boards/$s RESULTS="$tmp/afile/r") >"$tmp/out" 2>"$tmp/err"
	rc=$?
	is "$rc $(wc -l <"$tmp/err") $(grep -c "error: cannot create $tmp/afile/r/.* (cannot create directory .*$tmp/afile.*: Not a directory)$" \
		"$tmp/err") $(cat "$tmp/afile")" "1 1 1 mine" \
		"${s%% *} RESULTS= under a file: one line naming it, exit 1, the file kept"
done

# A re-run that fails keeps the earlier runs: make record removed every earlier run folder of
# ours before building the workloads, so a re-run that stopped there (or failed or was stopped
# while recording: boards-record.t) lost the user's earlier runs.
d=$tmp/rk/x86-host/v/pingpong
mkdir -p "$d/run-1" "$d/run-2.failed"
printf 'format=tickscope-run-1\nresult=1\nstatus=complete\n' >"$d/run-1/meta.txt"
echo earlier >"$d/run-1/perf.data"
echo tickscope-run >"$d/run-2.failed/.tickscope-run"
(cd "$TS_TOP" && MAKE=false boards/record.sh BOARD=x86-host WORKLOAD=pingpong VARIANT=v RUNS=2 \
	RESULTS="$tmp/rk") >"$tmp/out" 2>"$tmp/err"
rc=$?
is "$rc $(cat "$d/run-1/perf.data" 2>&1) $([ -d "$d/run-2.failed" ] && echo kept)" "1 earlier kept" \
	"record.sh whose build fails: exit 1, the earlier run folders kept"
is "$(ls -A "$d" | tr '\n' ' ')" "run-1 run-2.failed " "and nothing else is left in the folder"
grep -q 'error: make workloads failed' "$tmp/err"
ok $? "it says what failed"

# boards/target/ts-record.sh by hand on an --out that holds runs: it removed run-<k> before
# recording, so a run that failed or was stopped lost the earlier one; and it had no trap, so a
# stop left the kprobes it had added in the kernel. Here with a perf that only runs the workload
# (failing or stopping on demand) and a tracefs whose kprobe_events is a file: what the script
# asked the kernel, in order.
if [ "$(id -u)" != 0 ]; then
	for t in fails stopped kprobes says bad-probe completes huge-runs out-under-file \
		damaged-kept damaged-retried; do
		skip "ts-record.sh: $t" "ts-record.sh needs root (it records system-wide)"
	done
else
	b=$tmp/board
	mkdir -p "$b/tracefs" "$b/bin" "$b/out/run-1"
	printf 'sched:sched_switch\ntimer:hrtimer_expire_entry\ntimer:hrtimer_expire_exit\n' \
		>"$b/tracefs/available_events"
	: >"$b/tracefs/kprobe_events"
	cat >"$b/bin/perf" <<'PERF'
#!/bin/sh
case "$1" in
version) echo "perf version 6.1.test" ;;
report)
	# TS_TEST_STATS: a damaged run's perf report --stats, given once (then removed)
	if [ -n "${TS_TEST_STATS:-}" ] && [ -f "$TS_TEST_STATS" ]; then
		cat "$TS_TEST_STATS"
		rm -f "$TS_TEST_STATS"
	else
		echo "          SAMPLE events:        100"
	fi
	;;
record)
	while [ $# -gt 0 ] && [ "$1" != -- ]; do shift; done
	shift
	case "${TS_TEST_PERF:-}" in
	fail) exit 1 ;;
	stop) : >"$TS_TEST_STARTED"; exec sleep 1000 ;;
	esac
	echo data >perf.data
	"$@"
	;;
esac
PERF
	printf '#!/bin/sh\necho "AF_UNIX sock stream latency: 12.5 microseconds"\n' >"$b/bin/pingpong"
	chmod +x "$b/bin/perf" "$b/bin/pingpong"
	echo tickscope-run >"$b/out/run-1/.tickscope-run"
	echo earlier >"$b/out/run-1/perf.data"
	ts_rec() {
		"$TS_TOP/boards/target/ts-record.sh" --out "$b/out" --workload pingpong \
			--recorder perf --perf "$b/bin/perf" --pingpong "$b/bin/pingpong" \
			--tracefs "$b/tracefs" --events sched:sched_switch "$@"
	}
	TS_TEST_PERF=fail ts_rec >"$tmp/out" 2>"$tmp/err"
	rc=$?
	is "$rc $(cat "$b/out/run-1/perf.data") $(tail -n 1 "$b/out/run-1.failed/meta.txt" 2>&1)" \
		"1 earlier failure=perf/workload exited with status 1 (see perf-record.log, workload.out)" \
		"ts-record.sh: a run that fails is run-1.failed, the earlier run-1 kept"
	# stopped (a TERM to its process group, as make's or ssh's end sends) while recording,
	# with probes: the half run and the kprobes it added go, the earlier run stays
	TS_TEST_PERF=stop TS_TEST_STARTED=$b/started setsid "$TS_TOP/boards/target/ts-record.sh" \
		--out "$b/out" --workload pingpong --recorder perf --perf "$b/bin/perf" \
		--pingpong "$b/bin/pingpong" --tracefs "$b/tracefs" --events sched:sched_switch \
		--probes "do_nanosleep vfs_read" >"$tmp/out" 2>"$tmp/err" &
	pid=$!
	while [ ! -e "$b/started" ] && kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
	kill -TERM "-$pid"
	wait "$pid"
	rc=$?
	is "$rc $(cat "$b/out/run-1/perf.data") $(ls -A "$b/out" | tr '\n' ' ')" \
		"143 earlier kprobes.txt run-1 run-1.failed " \
		"stopped while recording: exit 143, the earlier run-1 kept, no run-1.partial left"
	awk '/^[pr]:/ { split($1, e, ":"); add[e[2]]++; n++ }
		/^-:/ { split($1, e, ":"); if (add[e[2]]) { add[e[2]]--; n-- } }
		END { exit !(NR == 8 && n == 0) }' "$b/tracefs/kprobe_events"
	ok $? "and each of the 4 kprobes it added is removed again"
	[ -s "$tmp/err" ] && [ "$(tail -n 1 "$tmp/err")" = \
		"ts-record: stopped by SIGTERM: $b/out/run-1.partial removed; the kprobes added removed" ]
	ok $? "it says so in its last line"
	: >"$b/tracefs/kprobe_events"
	ts_rec --probes "do_nanosleep bad-name" >"$tmp/out" 2>"$tmp/err"
	is "$? $(wc -c <"$b/tracefs/kprobe_events") $(cat "$tmp/err")" \
		"1 0 ts-record: error: --probes: 'bad-name' is not a function name" \
		"a bad probe name after a good one: one line, exit 1, no kprobe added"
	ts_rec >"$tmp/out" 2>"$tmp/err"
	is "$? $(cat "$b/out/run-1/perf.data") $(ls -A "$b/out" | tr '\n' ' ')" \
		"0 data run-1 " "a run that completes replaces the earlier run-1 and run-1.failed"
	# a count beyond the shell's arithmetic said "[: Illegal number" and then that it was
	# below 1; --out under a file gave mkdir's line and then ours
	ts_rec --runs 99999999999999999999 >"$tmp/out" 2>"$tmp/err"
	is "$? $(cat "$tmp/err")" "1 ts-record: error: '99999999999999999999' is too large" \
		"--runs 99999999999999999999: one line, exit 1"
	ts_rec --out "$tmp/afile/r" >"$tmp/out" 2>"$tmp/err"
	is "$? $(grep -v '^ts-record: recorder:' "$tmp/err") $(cat "$tmp/afile")" \
		"1 ts-record: error: cannot create $tmp/afile/r (Not a directory) mine" \
		"--out under a file: one line naming it, exit 1, the file kept"
	# A trace of which one half of a pair never reached perf (damaged/: perf report --stats
	# of a real run of the emulated board) is refused; with --retries the run is recorded
	# again, and the run kept says what was refused (a LAVA job passes --retries 2).
	dmg=$TS_TOP/tests/fixtures/boards/damaged/hrtimer-entry-off.perf-stats.txt
	pair=sched:sched_switch,timer:hrtimer_expire_entry,timer:hrtimer_expire_exit
	why="damaged trace: timer:hrtimer_expire_entry: 0 samples while timer:hrtimer_expire_exit"
	why="$why had 42722: the event never reached perf (see perf-stats.txt)"
	cp "$dmg" "$b/stats"
	TS_TEST_STATS=$b/stats ts_rec --events "$pair" >"$tmp/out" 2>"$tmp/err"
	is "$? $(cat "$b/out/run-1/perf.data") $(sed -n 's/^failure=//p' "$b/out/run-1.failed/meta.txt")" \
		"1 data $why" "without --retries a damaged trace is refused: run-1.failed says why"
	cp "$dmg" "$b/stats"
	TS_TEST_STATS=$b/stats ts_rec --events "$pair" --retries 1 >"$tmp/out" 2>"$tmp/err"
	is "$? $(sed -n 's/^refused_attempts=//p; s/^refused_reason=//p; s/^status=//p' \
		"$b/out/run-1/meta.txt" | tr '\n' '|') $(ls -A "$b/out" | tr '\n' ' ')" \
		"0 1|$why|complete| run-1 " \
		"--retries 1: recorded again, complete, its meta.txt keeps the refusal"
fi
tap_done
