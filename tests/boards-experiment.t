#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make experiment without a board: a stand-in recorder replays a real recorded experiment
# (tests/fixtures/experiment/), to check the folder layout, the interleaved order (fixed, and
# shuffled by a seed), the resume
# after a failed recording, the settings guard, and tickscope compare's answer on those runs.
. "$(dirname "$0")/lib/tap.sh"
command -v xz >/dev/null || skip_all "no xz"
[ -x "$TICKSCOPE" ] || skip_all "no $TICKSCOPE (make all)"
tap_tmpdir
tmp=$TAP_TMP
fx=$TS_TOP/tests/fixtures/experiment/qemu-aarch64-pingpong-default-vs-nohz-off
exp=$tmp/r/experiments/qemu-aarch64-pingpong-default-vs-nohz-off
export REPLAY_FROM="$fx" REPLAY_LOG="$tmp/calls"

# ORDER=fixed: A B in every batch, the order most checks below name; the shuffle has its own
experiment() {
	"$TS_TOP/boards/experiment.sh" BOARD=qemu-aarch64 WORKLOAD=pingpong A=default ORDER=fixed \
		B=boot:nohz=off RUNS=2 ITERS=1000 WARMUP=100 RESULTS="$tmp/r" TICKSCOPE="$TICKSCOPE" \
		CONFIG=/dev/null \
		RECORD="$TS_TOP/tests/fixtures/experiment/replay-record.sh" "$@"
}

# 1. The third recording fails (as a panicked guest would): the experiment stops there.
REPLAY_FAIL_AT=3 experiment >"$tmp/log1" 2>&1
rc=$?
[ $rc -ne 0 ] && grep -q 'recording default run 2 failed.*re-run to resume' "$tmp/log1"
ok $? "a failed recording stops the experiment and says how to resume (exit $rc)"
awk '{ print $2, $3, $6 }' "$exp/order.txt" >"$tmp/order1"
printf '%s\n' "batch=1 variant=default status=complete" "batch=1 variant=nohz-off status=complete" \
	"batch=2 variant=default status=failed" | cmp -s - "$tmp/order1"
ok $? "order.txt: A, B of batch 1, then the failed A of batch 2"
[ -d "$exp/default/run-1" ] && [ -d "$exp/nohz-off/run-1" ] && [ ! -e "$exp/default/run-2" ] &&
	[ ! -e "$exp/.rec" ]
ok $? "only complete runs are kept"

# 2. Re-running resumes: only the two missing recordings are made.
experiment >"$tmp/log2" 2>&1
rc=$?
ok $rc "the re-run completes"
[ $rc -eq 0 ] || sed 's/^/# /' "$tmp/log2"
sed -n '4,$p' "$tmp/calls" | cut -d' ' -f1-2 >"$tmp/calls2"
printf '%s\n' "default run=2" "nohz-off run=2" | cmp -s - "$tmp/calls2"
ok $? "it records only default run 2 then nohz-off run 2"
grep -q '2 of 4 recorded already' "$tmp/log2" &&
	grep -q '^experiment: \[3/4\] batch 2/2, A=default run 2: recording (2 recording(s) to go,'\
' about .* left)' "$tmp/log2"
ok $? "progress lines name the step, the variant, the run and the time left"
grep 'status=complete' "$exp/order.txt" | awk '{ print $2, $3 }' | tr '\n' ' ' >"$tmp/order2"
is "$(cat "$tmp/order2")" \
	"batch=1 variant=default batch=1 variant=nohz-off batch=2 variant=default"\
" batch=2 variant=nohz-off " \
	"the complete runs were recorded interleaved, A B A B"
grep -q 'boot_args=nohz=off guest_kernel=generic' "$tmp/calls" &&
	! grep '^default' "$tmp/calls" | grep -qv 'boot_args= guest_kernel=generic$'
ok $? "make record got BOOT_ARGS=nohz=off for B only, the generic kernel for both"

# 3. The layout.
for f in experiment.txt settings.txt order.txt default/variant.txt nohz-off/variant.txt \
	compare.txt compare.json compare.html; do
	[ -s "$exp/$f" ] || echo "# missing $f"
done
ls "$exp"/plots/*.svg >/dev/null 2>&1
ok $? "experiment.txt, order.txt, variant.txt, compare.txt/.json/.html and plots/*.svg exist"
grep -qx 'boot_args=nohz=off' "$exp/nohz-off/variant.txt" &&
	grep -q '^run-2.cmdline=.* nohz=off' "$exp/nohz-off/variant.txt" &&
	grep -q '^run-1.kernel=6\.1\.0-.*-arm64$' "$exp/default/variant.txt" &&
	grep -q '^run-1.kconfig_sha256=[0-9a-f]\{64\}$' "$exp/default/variant.txt" &&
	! grep -q 'nohz=off' "$exp/default/variant.txt"
ok $? "variant.txt: boot parameters, the booted cmdline, kernel version and config hash"

# Each run's summary, written as the run completed (as a LAVA board writes it): meta.txt says
# so before its last line, and compare from the summaries alone (the traces removed) gives the
# numbers compare decoded from the traces.
bad=""
for r in "$exp"/default/run-* "$exp"/nohz-off/run-*; do
	ls "$r"/*.tsum >/dev/null 2>&1 && grep -qx 'summary=ok' "$r/meta.txt" &&
		[ "$(tail -n 1 "$r/meta.txt")" = status=complete ] || bad="$bad ${r#"$exp"/}"
done
is "$bad" "" "every run has its summary, said in meta.txt before status=complete"
if command -v jq >/dev/null; then
	mkdir -p "$tmp/sum"
	cp -r "$exp/default" "$exp/nohz-off" "$tmp/sum/" && rm -f "$tmp/sum"/*/run-*/perf.data.xz &&
		TS_SUMMARY_CACHE=off "$TICKSCOPE" compare --json "$tmp/sum/default" \
			"$tmp/sum/nohz-off" >"$tmp/sum.json" 2>"$tmp/sum.err" &&
		jq -S '[.metrics[] | [.name, [.variants[] | .values]]]' "$exp/compare.json" \
			>"$tmp/m.traces" &&
		jq -S '[.metrics[] | [.name, [.variants[] | .values]]]' "$tmp/sum.json" >"$tmp/m.sums" &&
		[ -s "$tmp/m.traces" ] && cmp -s "$tmp/m.traces" "$tmp/m.sums"
	ok $? "compare from the experiment's summaries alone: every metric's run values as from the traces"
	sed 's/^/#   /' "$tmp/sum.err" | head -3
else
	skip "compare from the experiment's summaries alone" "jq is not installed (make deps)"
fi

# 4. A third run reuses everything; other settings under the same name are refused.
experiment >"$tmp/log3" 2>&1 && [ "$(wc -l <"$tmp/calls")" = 5 ] &&
	grep -q '4 of 4 recorded already' "$tmp/log3"
ok $? "a complete experiment re-runs compare only"

# A complete run without its summary gets one on the next run, and meta.txt says so. That was
# sed -i on meta.txt, then an append: on a full disk sed failed and the append went on (a second
# status=complete line; or, had sed got through, meta.txt without its status=complete, and the
# run recorded again over the trace); a meta.txt that is a symlink to a user's file was replaced
# by a copy. Now meta.txt is written beside it and renamed, or left as it was.
r=$exp/default/run-1
if [ "$(id -u)" = 0 ] && mkdir -p "$tmp/keep" && cp -a "$r/." "$tmp/keep/" &&
	rm -f "$tmp/keep"/*.tsum "$tmp/keep"/*.tplot && mount -t tmpfs -o size=1m tmpfs "$r"; then
	trap 'umount "$r" 2>/dev/null; rm -rf "$tmp"' EXIT
	cp -a "$tmp/keep/." "$r/"
	cp "$r/meta.txt" "$tmp/meta.before"
	n=$(wc -l <"$tmp/calls")
	dd if=/dev/zero of="$r/fill" bs=4k count=1024 2>/dev/null
	experiment >"$tmp/logf" 2>&1
	rc=$?
	cmp -s "$tmp/meta.before" "$r/meta.txt" && [ "$(wc -l <"$tmp/calls")" = "$n" ] &&
		[ ! -e "$r/.meta.txt.new" ] &&
		grep -q "WARNING: $r/meta.txt: cannot write the new one (disk full?): left as it is" \
			"$tmp/logf"
	ok $? "a run folder on a full disk: meta.txt as it was, the run kept, said (exit $rc)"
	umount "$r"
	trap 'rm -rf "$tmp"' EXIT
else
	skip "a run folder on a full disk" "mounting a tmpfs needs root"
fi
r=$exp/nohz-off/run-1
mkdir -p "$tmp/tsum" && mv "$r"/*.tsum "$r"/*.tplot "$tmp/tsum/" && mv "$r/meta.txt" "$tmp/user-meta" &&
	ln -s "$tmp/user-meta" "$r/meta.txt" && cp "$tmp/user-meta" "$tmp/meta.before"
experiment >"$tmp/logl" 2>&1
rc=$?
[ -L "$r/meta.txt" ] && cmp -s "$tmp/meta.before" "$tmp/user-meta" &&
	grep -q "WARNING: $r/meta.txt is a symlink: left as it is" "$tmp/logl"
ok $? "meta.txt a symlink to a user's file: the file and the link left as they were (exit $rc)"
rm -f "$r/meta.txt" "$r"/*.tsum "$r"/*.tplot
mv "$tmp/user-meta" "$r/meta.txt" && mv "$tmp/tsum"/* "$r/"
experiment ITERS=5000 >"$tmp/log4" 2>&1
[ $? -ne 0 ] && grep -q 'recorded with other settings' "$tmp/log4" &&
	grep -q 'iters=5000' "$tmp/log4"
ok $? "other settings under the same NAME are refused, with the difference"
experiment B=nosuch >"$tmp/log5" 2>&1
[ $? -ne 0 ] && grep -q "unknown variant 'nosuch'" "$tmp/log5"
ok $? "an unknown variant is an error naming it"
experiment BOARD=x86-host >"$tmp/log6" 2>&1
[ $? -ne 0 ] && grep -q 'cannot boot a variant' "$tmp/log6"
ok $? "a board that cannot boot a variant is refused"

# The shipped variant files: a known kernel and boot parameters with the fragment they stand
# for; another Debian kernel through a twin board profile; or a kernel built by make kernel from
# existing fragments (and a patch series that exists).
for f in "$TS_TOP"/boards/variants/*.variant; do
	k=$(sed -n 's/^KERNEL=//p' "$f") a=$(sed -n 's/^BOOT_ARGS=//p' "$f")
	g=$(sed -n 's/^FRAGMENT=//p' "$f") b=$(sed -n 's/^BOARD=//p' "$f")
	if [ "$k" = built ]; then
		fr=$(sed -n 's/^FRAGMENTS="\(.*\)"$/\1/p' "$f") pa=$(sed -n 's/^PATCHES=//p' "$f")
		r=0
		for g in $fr; do [ -f "$TS_TOP/kconfig-fragments/$g.config" ] || r=1; done
		[ -n "$fr" ] && [ $r = 0 ] && { [ -z "$pa" ] || [ -s "$TS_TOP/$pa/series" ]; } &&
			grep -q '^DESCRIPTION=' "$f"
		ok $? "${f##*/}: a built kernel from $fr${pa:+ + $pa}"
		continue
	fi
	if [ -n "$b" ]; then
		case "$k" in generic | rt) ;; *) false ;; esac && [ "$a" = '""' ] &&
			[ -f "$TS_TOP/boards/$b.board" ] && grep -q '^DESCRIPTION=' "$f"
		ok $? "${f##*/}: KERNEL $k of board $b, no boot parameters"
		continue
	fi
	# a parameter with a config twin names its fragment; one without (threadirqs) names none
	case "$k" in generic | rt) ;; *) false ;; esac && [ -n "$a" ] && [ "$a" != '""' ] &&
		{ [ -z "$g" ] || [ -f "$TS_TOP/kconfig-fragments/$g.config" ]; } &&
		grep -q '^DESCRIPTION=' "$f"
	ok $? "${f##*/}: KERNEL $k, BOOT_ARGS $a${g:+, stands for $g.config}"
done
# A variant's board must be the experiment's but for its kernel packages.
"$TS_TOP/boards/experiment.sh" BOARD=qemu-x86 A=default B=debian-6.12 RESULTS="$tmp/twin" \
	RECORD=false >"$tmp/twin.log" 2>&1
[ $? -ne 0 ] && grep -q 'differs from qemu-x86 in more than its kernel packages' "$tmp/twin.log"
ok $? "a variant booting another machine's profile is refused (debian-6.12 on qemu-x86)"

# 5. The experiment .config drives it (boards/Kconfig.experiment): the variants, workload and
# settings of configs/qemu-aarch64-nohz-off_defconfig, the command line winning; make record is
# given CONFIG=/dev/null so that it fills nothing from a .config (the stand-in checks).
# kernel_call DEFCONFIG_TEXT [VAR=value...]: the make kernel call the .config's built variant
# asks for (a stand-in builder logs it and fails, so nothing is built).
printf '#!/bin/sh\necho "$*" >>"%s"\nexit 1\n' "$tmp/mk.log" >"$tmp/make-kernel"
chmod +x "$tmp/make-kernel"
kernel_call() {
	printf '%s\n' "$1" >"$tmp/k_defconfig"
	shift
	rm -f "$tmp/mk.log"
	(cd "$TS_TOP" && KCONFIG_CONFIG="$tmp/k.config" kconfig-conf -s \
		--defconfig="$tmp/k_defconfig" Kconfig >/dev/null 2>&1)
	"$TS_TOP/boards/experiment.sh" CONFIG="$tmp/k.config" RESULTS="$tmp/k" RECORD=false \
		MAKE_KERNEL="$tmp/make-kernel" "$@" >"$tmp/k.log" 2>&1 && return 1
	cat "$tmp/mk.log"
}
if command -v kconfig-conf >/dev/null; then
	make -s -C "$TS_TOP" qemu-aarch64-nohz-off_defconfig TS_EXPERIMENT="$tmp/nohz.config" \
		>"$tmp/kc.log" 2>&1
	ok $? "make qemu-aarch64-nohz-off_defconfig"
	REPLAY_LOG="$tmp/calls-config" "$TS_TOP/boards/experiment.sh" CONFIG="$tmp/nohz.config" \
		RUNS=2 ITERS=1000 WARMUP=100 RESULTS="$tmp/c" TICKSCOPE="$TICKSCOPE" \
		RECORD="$TS_TOP/tests/fixtures/experiment/replay-record.sh" >"$tmp/config.log" 2>&1
	ok $? "make experiment from the .config alone (A, B, board and workload from it)"
	cx=$tmp/c/experiments/qemu-aarch64-pingpong-default-vs-nohz-off
	printf '%s\n' board=qemu-aarch64 workload=pingpong a=default b=boot:nohz=off iters=1000 \
		warmup=100 workers=9 duration=10 callchains=n | cmp -s - "$cx/settings.txt"
	ok $? "its settings: the .config's variants, workload and defaults, the command line's ITERS"
	grep -c ' status=complete ' "$cx/order.txt" | grep -qx 4
	ok $? "RUNS=2 on the command line wins over the .config's 8"
	is "$(kernel_call "$(cat "$TS_TOP/configs/qemu-aarch64-kernel-variants_defconfig")")" \
		"--board qemu-aarch64 --variant nohz-idle --fragments nohz-idle tracing" \
		"qemu-aarch64-kernel-variants_defconfig: A is make kernel VARIANT=nohz-idle"
	srcu="--patches boards/patches/shrinker-srcu" nt=" nohz-idle tracing"
	is "$(kernel_call "$(cat "$TS_TOP/configs/qemu-aarch64-shrinker_defconfig")" A=default)" \
		"--board qemu-aarch64 --variant shrinker-srcu --fragments nohz-idle tracing $srcu" \
		"qemu-aarch64-shrinker_defconfig: B is the nohz-idle kernel with the shrinker patch"
	is "$(kernel_call "CONFIG_TS_BOARD_QEMU_AARCH64=y
CONFIG_TS_EXP_B_PATCHED=y" A=default)" \
		"--board qemu-aarch64 --variant nohz-idle-tracing+shrinker-srcu --fragments$nt $srcu" \
		"a patched variant without a name: named after its fragments and series"
	grep -q 'variant nohz-idle-tracing+shrinker-srcu: make kernel failed' "$tmp/k.log"
	ok $? "a failed make kernel stops the experiment, naming the variant"
else
	skip "the experiment .config" "no kconfig-conf (kconfig-frontends-nox)" 8
fi

# 7. A third variant C (make experiment C=...): A B C in every batch, all compared against A.
fx3=$tmp/fx3
cp -rL "$fx" "$fx3" && cp -r "$fx3/default" "$fx3/preempt-none" &&
	sed -i 's/^boot_args=.*/boot_args=preempt=none/' "$fx3"/preempt-none/run-*/meta.txt &&
	for c in "$fx3"/preempt-none/run-*/cmdline.txt; do
		# the stand-in C booted with its argument, as make record's check wants to see
		printf '%s preempt=none\n' "$(cat "$c")" >"$c.new" && mv "$c.new" "$c"
	done
REPLAY_FROM=$fx3 REPLAY_LOG=$tmp/calls3 "$TS_TOP/boards/experiment.sh" BOARD=qemu-aarch64 \
	WORKLOAD=pingpong A=default B=boot:nohz=off C=preempt-none RUNS=2 ITERS=1000 WARMUP=100 \
	ORDER=fixed \
	RESULTS="$tmp/r3" TICKSCOPE="$TICKSCOPE" CONFIG=/dev/null REPRODUCES=vmstat-44 \
	RECORD="$TS_TOP/tests/fixtures/experiment/replay-record.sh" >"$tmp/log3way" 2>&1
rc=$?
e3=$tmp/r3/experiments/qemu-aarch64-pingpong-default-vs-nohz-off-vs-preempt-none
is "$rc $(cut -d' ' -f1 "$tmp/calls3" | tr '\n' ' ')" \
	"1 default nohz-off preempt-none default nohz-off preempt-none " \
	"three variants: A B C interleaved in each batch (exit 1: the verdict below)"
grep -qx 'c=preempt-none' "$e3/settings.txt" && grep -qx 'variant_c=preempt-none' \
	"$e3/experiment.txt" && grep -qx 'reproduces=vmstat-44' "$e3/experiment.txt" &&
	[ -s "$e3/preempt-none/variant.txt" ]
ok $? "experiment.txt and settings.txt name C and the case; C has its variant.txt"
grep -q 'vs nohz-off (2 runs)' "$e3/compare.txt" && grep -q 'vs preempt-none (2 runs)' \
	"$e3/compare.txt"
ok $? "compare.txt compares B and C against A"
# the pair of vmstat-44 is not in this experiment: the verdict refuses, and the experiment says so
[ ! -s "$e3/reproduction.txt" ] && grep -q 'the reproduction verdict failed' "$tmp/log3way"
ok $? "REPRODUCES naming a pair that is not there: no verdict, an error"
[ -s "$exp/settings.txt" ] && ! grep -q '^c=' "$exp/settings.txt"
ok $? "a two-way experiment's settings have no c= line"

# 6. compare's answer on the real runs: the benchmark results are meta.txt's, and the periodic
# tick shows up as perf script sees it.
py() {
	python3 -c "import json, sys
d = json.load(open('$exp/compare.json'))
m = {e['name']: e for e in d['metrics']}
v = {x['variant']: x for x in m[sys.argv[1]]['variants']}
print(' '.join('%.4f' % x for x in v[sys.argv[2]]['values']))" "$@"
}
for v in default nohz-off; do
	want=$(for k in 1 2; do printf '%.4f ' "$(sed -n 's/^result=//p' "$fx/$v/run-$k/meta.txt")"; done)
	is "$(py bench.latency "$v") " "$want" "compare.json: $v's latencies are meta.txt's results"
done
if command -v perf >/dev/null; then
	for v in default nohz-off; do
		for k in 1 2; do
			xz -dc "$fx/$v/run-$k/perf.data.xz" >"$tmp/p.data"
			perf script -i "$tmp/p.data" -F event,trace 2>/dev/null |
				grep -c 'tick_stop:.*success=1' | tr '\n' ' '
		done >"$tmp/ts-$v"
	done
	[ "$(cat "$tmp/ts-nohz-off")" = "0 0 " ] && ! grep -qw 0 "$tmp/ts-default"
	ok $? "perf script: tick_stop successes in default ($(cat "$tmp/ts-default")), none with nohz=off"
else
	skip "perf script's tick_stop count" "no perf"
fi
is "$(py idle.tick_stop.ok.per_s nohz-off)" "0.0000 0.0000" \
	"compare: no tick_stop success with nohz=off"
py idle.tick_stop.ok.per_s default | grep -qv '0\.0000'
ok $? "compare: tick_stop successes in every default run"
python3 -c "import json
d = json.load(open('$exp/compare.json'))
m = {e['name']: e for e in d['metrics']}
a, b = m['idle.exits.tick.per_s']['variants']
assert min(b['values']) > 5 * max(a['values']), (a['values'], b['values'])" 2>&1 | sed 's/^/# /'
ok $? "compare: idle exits by the tick, every nohz=off run above 5x every default run"
grep -q 'vs nohz-off (2 runs)' "$exp/compare.txt" && grep -q 'Too few runs' "$exp/compare.txt"
ok $? "compare.txt compares 2 runs against 2 and says they are too few for the U test"
grep -q '^  nohz-off: boot parameters nohz=off (the variant.s own)' "$exp/compare.txt" &&
	! grep -q 'cmdline differs' "$exp/compare.txt"
ok $? "compare.txt names nohz=off as the variant's own boot parameters, not a cmdline confounder"

# 7. Names and folders (issue 30): nothing outside the experiment's folder is written or
# removed, whatever A, B and NAME say; a space in RESULTS works; two experiments on one NAME.
mkdir -p "$tmp/victim/v/run-1" "$tmp/h/experiments/run-1"
touch "$tmp/victim/v/run-1/precious.txt" "$tmp/victim/v.variant" "$tmp/h/experiments/run-1/keep.txt"
up=../../../../../../../../../../../../../../../../../../../..
: >"$tmp/calls"
experiment A="$up$tmp/victim/v" NAME=x RESULTS="$tmp/h" >"$tmp/log7" 2>&1
[ $? -ne 0 ] && [ -f "$tmp/victim/v/run-1/precious.txt" ] && [ ! -s "$tmp/calls" ] &&
	grep -q "error: variant A '.*victim/v' is not a name" "$tmp/log7"
ok $? "A=../../victim/v (a .variant beside it) is refused; nothing there is removed"
experiment B=boot:.. RESULTS="$tmp/h" >"$tmp/log7" 2>&1
[ $? -ne 0 ] && [ -f "$tmp/h/experiments/run-1/keep.txt" ] && [ ! -s "$tmp/calls" ] &&
	[ "$(ls "$tmp/h/experiments")" = run-1 ] && grep -q "'\.\.' is not a name" "$tmp/log7"
ok $? "B=boot:.. (a variant named ..) is refused before anything is written"
for n in "a b" ".." "a/b" "x
y"; do
	experiment NAME="$n" RESULTS="$tmp/h" >"$tmp/log7" 2>&1
	[ $? -ne 0 ] && [ ! -s "$tmp/calls" ] && [ "$(ls "$tmp/h/experiments")" = run-1 ] &&
		[ "$(wc -l <"$tmp/log7")" = 1 ] && grep -q "error: NAME '.*' is not a name" "$tmp/log7"
	ok $? "NAME='$(echo "$n" | tr '\n' '~')' is refused in one line before the first recording"
done
# A folder of the user's own under the experiment's name: FRESH=1 emptied it, and a run
# without FRESH wrote its settings.txt over theirs.
mkdir -p "$tmp/h/experiments/mine"
echo mine >"$tmp/h/experiments/mine/notes.txt"
echo board=mine >"$tmp/h/experiments/mine/settings.txt"
for fresh in 1 0; do
	experiment NAME=mine RESULTS="$tmp/h" FRESH=$fresh >"$tmp/log7" 2>&1
	[ $? -ne 0 ] && [ ! -s "$tmp/calls" ] && [ "$(wc -l <"$tmp/log7")" = 1 ] &&
		[ "$(cat "$tmp/h/experiments/mine/notes.txt")" = mine ] &&
		[ "$(cat "$tmp/h/experiments/mine/settings.txt")" = board=mine ] &&
		[ "$(ls -A "$tmp/h/experiments/mine" | tr '\n' ' ')" = "notes.txt settings.txt " ] &&
		grep -q "mine holds files that no earlier experiment wrote (no experiment.txt" "$tmp/log7"
	ok $? "FRESH=$fresh on a folder of the user's own under NAME: refused in one line, untouched"
done
echo mine >"$tmp/h/experiments/afile"
ln -s "$tmp/victim" "$tmp/h/experiments/alink"
for n in afile alink; do
	experiment NAME=$n RESULTS="$tmp/h" FRESH=1 >"$tmp/log7" 2>&1
	[ $? -ne 0 ] && [ ! -s "$tmp/calls" ] && [ "$(wc -l <"$tmp/log7")" = 1 ] &&
		[ "$(cat "$tmp/h/experiments/afile")" = mine ] &&
		[ -f "$tmp/victim/v/run-1/precious.txt" ] && [ ! -e "$tmp/victim/.lock" ] &&
		grep -q "$n is in the way: not a folder" "$tmp/log7"
	ok $? "NAME=$n, a file or a symbolic link to elsewhere: refused, nothing written there"
done
rm -r "$tmp/h/experiments/mine" "$tmp/h/experiments/afile" "$tmp/h/experiments/alink"
: >"$tmp/calls"
experiment RESULTS="$tmp/r x" >"$tmp/log7" 2>&1
rc=$?
[ $rc -eq 0 ] && [ "$(wc -l <"$tmp/calls")" = 4 ] &&
	[ -s "$tmp/r x/experiments/qemu-aarch64-pingpong-default-vs-nohz-off/compare.json" ]
ok $? "RESULTS with a space: recorded and compared (exit $rc)"
[ $rc -eq 0 ] || tail -n 3 "$tmp/log7" | sed 's/^/# /'

# The second experiment on a NAME in use stops, naming the first, and takes nothing from it.
printf '#!/bin/sh\ntouch "%s/held"\nwhile [ ! -e "%s/go" ]; do sleep 0.1; done\nexit 1\n' \
	"$tmp" "$tmp" >"$tmp/slow-rec"
chmod +x "$tmp/slow-rec"
experiment NAME=busy RESULTS="$tmp/h" RECORD="$tmp/slow-rec" >"$tmp/log8" 2>&1 &
first=$!
while [ ! -e "$tmp/held" ] && kill -0 $first 2>/dev/null; do sleep 0.1; done
experiment NAME=busy RESULTS="$tmp/h" RECORD="$tmp/slow-rec" >"$tmp/log9" 2>&1
rc=$?
[ -d "$tmp/h/experiments/busy/.rec" ] || [ -e "$tmp/held" ]
held=$?
touch "$tmp/go"
wait $first
[ $rc -ne 0 ] && [ $held = 0 ] &&
	grep -q "in use by another experiment (pid [0-9]* on .*): wait for it" "$tmp/log9" &&
	[ "$(grep -c 'status=' "$tmp/h/experiments/busy/order.txt")" = 1 ]
ok $? "a second experiment on a NAME in use stops and names the first"
sed 's/^/# /' "$tmp/log9" | head -n 3
touch "$tmp/h/experiments/busy/stale.txt"
experiment NAME=busy RESULTS="$tmp/h" RECORD="$tmp/rec-none" FRESH=1 >"$tmp/log9" 2>&1
[ ! -e "$tmp/h/experiments/busy/stale.txt" ] && [ -f "$tmp/h/experiments/run-1/keep.txt" ] &&
	[ -f "$tmp/victim/v/run-1/precious.txt" ]
ok $? "FRESH=1 once the first has ended: only the experiment's own folder is emptied"


# ORDER=shuffled, the default: each batch's order is drawn from SEED, balanced in blocks of as
# many batches as variants (two: A B then B A, or B A then A B). The draw is a fixed function of
# the seed: seed 7 gives A B, B A and seed 9 gives B A, A B on every machine and shell (known
# answers of boards/experiment.sh's hash, taken once: a change of the hash fails here).
for sd in "7 default nohz-off nohz-off default" "9 nohz-off default default nohz-off"; do
	set -- $sd
	: >"$tmp/calls-s$1"
	REPLAY_LOG=$tmp/calls-s$1 experiment ORDER=shuffled SEED="$1" NAME="shuffle-$1" \
		RESULTS="$tmp/s" >"$tmp/logs$1" 2>&1
	rc=$?
	sx=$tmp/s/experiments/shuffle-$1
	is "$rc $(awk '{ print $3 }' "$sx/order.txt" | tr '\n' ' ')" \
		"0 variant=$2 variant=$3 variant=$4 variant=$5 " \
		"ORDER=shuffled SEED=$1: batch 1 $2 $3, batch 2 $4 $5, as order.txt says"
	grep -qx "order=shuffled in each batch, seed=$1" "$sx/experiment.txt"
	ok $? "SEED=$1: experiment.txt names the order and its seed"
done
# without SEED: a seed is drawn and kept; a resumed experiment keeps it (and so its orders)
: >"$tmp/calls-sr"
REPLAY_LOG=$tmp/calls-sr REPLAY_FAIL_AT=2 experiment ORDER=shuffled NAME=shuffle-r \
	RESULTS="$tmp/s" >"$tmp/logsr" 2>&1
sx=$tmp/s/experiments/shuffle-r
sd=$(sed -n 's/^order=shuffled in each batch, seed=\([0-9][0-9]*\)$/\1/p' "$sx/experiment.txt")
REPLAY_LOG=$tmp/calls-sr experiment ORDER=shuffled NAME=shuffle-r RESULTS="$tmp/s" \
	>>"$tmp/logsr" 2>&1
rc=$?
sd2=$(sed -n 's/^order=shuffled in each batch, seed=\([0-9][0-9]*\)$/\1/p' "$sx/experiment.txt")
awk '$6 == "status=complete" { print $2, $3 }' "$sx/order.txt" | sort | uniq -c |
	awk '$1 != 1 { bad = 1 } END { exit bad || NR != 4 }'
[ $? = 0 ] && [ $rc = 0 ] && [ -n "$sd" ] && [ "$sd" = "$sd2" ]
ok $? "no SEED: one is drawn ($sd), kept when the experiment resumes ($sd2); each run once"
for bad in ORDER=random SEED=-1 SEED=4294967296 SEED=12x; do
	experiment "$bad" NAME=badorder RESULTS="$tmp/bo" >"$tmp/logbo" 2>&1
	rc=$?
	[ $rc -ne 0 ] && [ ! -e "$tmp/bo" ] && [ "$(wc -l <"$tmp/logbo")" = 1 ] &&
		grep -q "${bad%%=*}=" "$tmp/logbo"
	ok $? "$bad: one line, exit $rc, nothing written"
done

# A run the recorder refuses (a damaged trace) stops the experiment with its reason and is kept
# in refused/; a re-run records it again.
REPLAY_LOG=$tmp/calls9 REPLAY_REFUSE_AT=2 experiment NAME=refuse RESULTS="$tmp/h" >"$tmp/log9" 2>&1
rc=$?
ex=$tmp/h/experiments/refuse
[ $rc -ne 0 ] && grep -q "^experiment: error: recording nohz-off run 1 failed (exit 1; .*): damaged"\
' trace: timer:hrtimer_expire_entry: 0 samples while timer:hrtimer_expire_exit had 42722: the'\
' event never reached perf; the run is kept in .*/refuse/refused/002-nohz-off-run-1; re-run to'\
' resume$' "$tmp/log9" &&
	grep -qx 'status=failed' "$ex/refused/002-nohz-off-run-1/meta.txt" &&
	[ ! -e "$ex/nohz-off/run-1" ] && [ ! -e "$ex/.rec" ]
ok $? "a refused run stops the experiment with the recorder's reason and is kept in refused/"
REPLAY_LOG=$tmp/calls9 experiment NAME=refuse RESULTS="$tmp/h" >"$tmp/log9" 2>&1 &&
	[ -d "$ex/nohz-off/run-1" ] && [ -d "$ex/refused/002-nohz-off-run-1" ]
ok $? "a re-run records the refused run again; the refused one stays in refused/"
tap_done
