#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make bisect without a board or a kernel build: the known-answer series (six harmless patches
# around the shrinker SRCU patch, 0004; tests/fixtures/bisect/shrinker-series) bisected with
# stand-ins. The stand-in make kernel (replay-kernel.sh) marks a candidate's image "culprit"
# when the SRCU patch's code is in it; the stand-in recorder (replay-record.sh) then replays
# the real runs of the shrinker experiment (tests/fixtures/kernel-variants/qemu-aarch64-stress-
# ramfs-nohz-idle-vs-shrinker-srcu): good candidates the baseline's runs, bad ones the patch's,
# in turn. The verdicts come from compare's statistics on those real runs; the oracle is the
# series itself (which candidates hold the patch). Checks the steps, the verdicts, the resume
# after an interrupted recording, the verification by revert, bad input, and a git range.
. "$(dirname "$0")/lib/tap.sh"
command -v xz >/dev/null || skip_all "no xz"
command -v python3 >/dev/null || skip_all "no python3"
[ -x "$TICKSCOPE" ] || skip_all "no $TICKSCOPE (make all)"
tap_tmpdir
tmp=$TAP_TMP
fb=$TS_TOP/tests/fixtures/bisect

# A script's folder comes first on Python's path: one named as a standard module (bisect.py)
# is what `import random` got on Debian's python3 ("cannot import name 'bisect' from
# 'bisect'"), so no script of ours may take a standard module's name.
clash=$(cd "$TS_TOP" && git ls-files '*.py' 2>/dev/null | python3 -c '
import os, sys
names = set(sys.stdlib_module_names)
print(" ".join(p for p in sys.stdin.read().split() if os.path.basename(p)[:-3] in names))')
is "$clash" "" "no Python script of ours is named as a standard module"
REPLAY_FROM=$TS_TOP/tests/fixtures/kernel-variants
export REPLAY_FROM="$REPLAY_FROM/qemu-aarch64-stress-ramfs-nohz-idle-vs-shrinker-srcu"
export REPLAY_LOG="$tmp/calls" REPLAY_KERNELS="$tmp/kernels"
out=$tmp/r/bisect/shrinker-series

bisect() {
	"$TS_TOP/boards/bisect.sh" RESULTS="$tmp/r" WORKERS=2 DURATION=5 TICKSCOPE="$TICKSCOPE" \
		RECORD="$fb/replay-record.sh" MAKE_KERNEL="$fb/replay-kernel.sh" "$@"
}
field() { # field STEPS_LINE KEY
	echo "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"
}

# 1. Names from the command line are checked before anything is written.
for bad in '../x' 'a/b' '.hidden' 'with space' ''; do
	bisect PATCHES="$fb/shrinker-series" NAME="$bad" >"$tmp/name.log" 2>&1
	rc=$?
	[ $rc -ne 0 ] && [ ! -e "$tmp/r" ] && [ "$(wc -l <"$tmp/name.log")" = 1 ] &&
		grep -q "NAME '$bad' is not a name" "$tmp/name.log"
	ok $? "NAME='$bad' is refused in one line, nothing written (exit $rc)"
done
# Its kernels are named bisect-NAME-revert and such: a NAME of 51 characters made names that
# make kernel and lava-jobs refuse, after the bisection had started.
n51=$(printf 'n%.0s' $(seq 1 51))
bisect PATCHES="$fb/shrinker-series" NAME="$n51" >"$tmp/name.log" 2>&1
rc=$?
[ $rc -ne 0 ] && [ ! -e "$tmp/r" ] && [ "$(wc -l <"$tmp/name.log")" = 1 ] &&
	grep -q "NAME '$n51' is longer than 50 characters" "$tmp/name.log"
ok $? "a NAME of 51 characters is refused in one line, nothing written (exit $rc)"
# A folder of the user's own under the bisection's name: FRESH=1 removed it whole.
mkdir -p "$tmp/u/bisect/mine"
echo mine >"$tmp/u/bisect/mine/notes.txt"
for fresh in 1 0; do
	bisect PATCHES="$fb/shrinker-series" NAME=mine RESULTS="$tmp/u" FRESH=$fresh \
		>"$tmp/name.log" 2>&1
	rc=$?
	[ $rc -ne 0 ] && [ "$(wc -l <"$tmp/name.log")" = 1 ] &&
		[ "$(ls -A "$tmp/u/bisect/mine")" = notes.txt ] &&
		[ "$(cat "$tmp/u/bisect/mine/notes.txt")" = mine ] &&
		grep -q "mine holds files that no earlier bisection wrote (no bisect.txt" "$tmp/name.log"
	ok $? "FRESH=$fresh on a folder of the user's own under NAME: refused, untouched (exit $rc)"
done

# --help tells the characters a NAME may have as check_name takes them
want=$(sed -n 's/^TS_NAME_CHARS="\(.*\)"$/\1/p' "$TS_TOP/boards/lib/common.sh")
got=$("$TS_TOP/boards/bisect.sh" --help | tr '\n' ' ' |
	sed -n 's/.*characters of \(.*\), not starting.*/\1/p' | tr -d ' ')
is "$got" "$want" "bisect.sh --help names the characters of a NAME as check_name takes them"

# 2. The known answer, interrupted: the 20th recording fails (step 2's second run).
REPLAY_FAIL_AT=20 bisect PATCHES="$fb/shrinker-series" >"$tmp/log1" 2>&1
rc=$?
[ $rc -ne 0 ] && grep -q 'recording k05 run 2 failed.*re-run to resume' "$tmp/log1"
ok $? "an interrupted recording stops the bisection and says how to resume (exit $rc)"
is "$(cut -d' ' -f2 "$out/steps.txt" | tr '\n' ' ')" "candidate=k03 " \
	"the step decided before the interruption is kept"
# a kernel build is long and silent: its line says where its messages go
grep -qxF "bisect: k00 (base): make kernel (messages in $out/log/build-k00.log)" "$tmp/log1" &&
	[ -f "$out/log/build-k00.log" ]
ok $? "each make kernel line names its log, and the log is there"
# what is ahead, as docs/bisect.md counts it for the 7-patch series: 7 builds, 42 recordings
grep -q '^bisect: shrinker-series: series of 7 change(s), .*: about 7 kernel builds and 42 '\
'recordings (docs/bisect.md, "What it costs")$' "$tmp/log1" &&
	tr '\n' ' ' <"$TS_TOP/docs/bisect.md" |
	grep -q 'For the known-answer series (7 patches): 7 builds and 42 recordings'
ok $? "the first line says how many builds and recordings are ahead, as docs/bisect.md does"
bisect PATCHES="$fb/shrinker-series" >"$tmp/log2" 2>&1
rc=$?
is "$rc" 0 "the re-run finds the first bad change and verifies it"
[ $rc -eq 0 ] || tail -n 20 "$tmp/log2" | sed 's/^/# /'
grep -q "^bisect: resuming $out" "$tmp/log2" && ! grep -q 'k03 run [0-9]* of' "$tmp/log2" &&
	! grep -q 'k05 run 1 of' "$tmp/log2" && grep -q 'k05 run 2 of 6' "$tmp/log2"
ok $? "the re-run reuses step 1 and k05's run 1, and records from k05's run 2"
# its last line says where the rest of the answer is, and each file it names is there
chart=
command -v gnuplot >/dev/null && chart=", the metric per step in $out/chart.svg"
[ "$(tail -n 1 "$tmp/log2")" = "bisect:   more: $out/first-bad/compare.txt (the whole compare), \
steps.txt (each step's medians and p), verify.txt$chart" ] &&
	[ -s "$out/first-bad/compare.txt" ] && [ -s "$out/steps.txt" ] && [ -s "$out/verify.txt" ] &&
	{ [ -z "$chart" ] || [ -s "$out/chart.svg" ]; }
ok $? "the last line names the whole compare, the steps, the verification${chart:+ and the chart}"
dups=$(grep 'status=complete' "$out/order.txt" | awk '{ print $2, $3 }' | sort | uniq -d | wc -l)
calls=$(grep -vc '^failed' "$tmp/calls")
is "$dups $calls" "0 $(grep -c 'status=complete' "$out/order.txt")" \
	"no run was recorded twice: each recording call made one complete run"

# The steps: 7 changes, the culprit the 4th: k03 good, k05 bad, k04 bad, then the verification.
is "$(awk '{ print $2, $NF == "" ? "" : $0 }' "$out/steps.txt" |
	sed 's/^candidate=\([^ ]*\).* verdict=\([a-z]*\) .*/\1=\2/' | tr '\n' ' ')" \
	"k03=good k05=bad k04=bad revert=good alone=bad " \
	"steps: k03 good, k05 bad, k04 bad; the revert good, the change alone bad"
grep -q '^first_bad=k04$' "$out/first-bad.txt" &&
	grep -qx 'change=0004-mm-vmscan-wait-for-an-SRCU-grace-period-in-unregister_shrinker.patch' \
		"$out/first-bad.txt" &&
	grep -q '^parent=k03 0003-' "$out/first-bad.txt"
ok $? "first bad change: 0004, the SRCU patch, against its parent 0003"
grep -qx 'revert=good as expected' "$out/verify.txt" &&
	grep -qx 'alone=bad as expected' "$out/verify.txt" && grep -qx 'verified=yes' "$out/verify.txt"
ok $? "verify.txt: BAD without 0004 is good, 0004 alone on the base is bad"
is "$(cut -d' ' -f1,2 "$REPLAY_KERNELS/builds.log" | sed 's/bisect-shrinker-series-//' |
	tr '\n' ' ')" "k00 patches= k07 patches=0001 k03 patches=0001 k05 patches=0001 k04 \
patches=0001 revert patches=0001 alone patches=0004 " \
	"make kernel built the endpoints, then k03, k05, k04, the revert and the change alone"
grep -q '^bisect-shrinker-series-revert patches=0001 0002 0003 0005 0006 0007  clean$' \
	"$REPLAY_KERNELS/builds.log" &&
	grep -q '^bisect-shrinker-series-alone patches=0004  culprit$' "$REPLAY_KERNELS/builds.log"
ok $? "the revert is the series without 0004; the change alone is 0004 on the base"
grep -q '^bisect: \[step 2 of about 5\]: k05 (0005-.*) between k03 (good) and k07 (bad);' \
	"$tmp/log2" && grep -q '^bisect: \[step 3 of about 5\]: k04 .* 1 step(s) to go\|'\
'^bisect: \[step 3 of about 5\]: k04 .* step(s) to go' "$tmp/log2"
ok $? "progress: step k of about log2(7)+2 = 5, the bracket, the steps to go"

# The explaining metric: it separates the endpoints completely (from the JSON, independently),
# and each step's medians are the medians of its runs' own summaries.
metric=$(sed -n 's/^metric=//p' "$out/metric.txt")
python3 -c "import json, sys
d = json.load(open(sys.argv[1]))
m = {e['name']: e for e in d['metrics']}[sys.argv[2]]
a, b = m['variants']
assert min(b['values']) > max(a['values']) or max(b['values']) < min(a['values'])
assert b['significant']" "$out/endpoints.json" "$metric" 2>&1 | sed 's/^/# /'
ok $? "the explaining metric ($metric) separates every GOOD run from every BAD run"
bad=0
for k in k03 k04 k05; do
	line=$(grep " candidate=$k " "$out/steps.txt")
	want=$(for t in "$out/$k"/run-*/perf.data.tsum; do
		awk -F'\t' -v m="$metric" '$1 == "m" && $2 == m { print $6 }' "$t"
	done | sort -g | awk '{ v[NR] = $1 } END { printf "%.4g", NR % 2 ? v[(NR + 1) / 2] :
		(v[NR / 2] + v[NR / 2 + 1]) / 2 }')
	got=$(field "$line" metric_medians | cut -d, -f2)
	[ "$got" = "$want" ] || { bad=1; diag "$k: steps.txt median $got, its runs' summaries $want"; }
done
ok $bad "steps.txt's medians of k03, k04, k05 are those of their runs' summaries"
line=$(grep ' candidate=k04 ' "$out/steps.txt")
awk -v p="$(field "$line" metric_p | cut -d, -f1)" -v q="$(field "$line" metric_p | cut -d, -f2)" \
	'BEGIN { exit !(p <= 0.05 && q > 0.05) }'
ok $? "k04: unlike GOOD (p $(field "$line" metric_p | cut -d, -f1)), not unlike BAD" \
	"(p $(field "$line" metric_p | cut -d, -f2))"

# The outputs.
for f in bisect.txt settings.txt steps.txt steps.tsv first-bad.txt verify.txt \
	first-bad/compare.txt first-bad/compare.json first-bad/headline.txt; do
	[ -s "$out/$f" ] || diag "missing $f"
done
[ -s "$out/first-bad/headline.txt" ] && grep -q 'k03 (baseline' "$out/first-bad/compare.txt"
ok $? "first-bad/: compare of k04 against its parent k03, and its headline"
head -n 3 "$out/first-bad/headline.txt" | grep -q 'synchronize_srcu <- unregister_shrinker'
ok $? "the first bad change's headline names the patch's wait: synchronize_srcu <- unregister_shrinker"
if command -v gnuplot >/dev/null; then
	grep -q '<svg' "$out/chart.svg" && grep -q ">k04<" "$out/chart.svg"
	ok $? "chart.svg: the explaining metric per step"
else
	skip "chart.svg" "no gnuplot"
fi

# 3. A third run reuses everything.
n=$(wc -l <"$tmp/calls")
bisect PATCHES="$fb/shrinker-series" >"$tmp/log3" 2>&1
rc=$?
[ $rc -eq 0 ] && [ "$(wc -l <"$tmp/calls")" = "$n" ] &&
	grep -q '^first_bad=k04$' "$out/first-bad.txt"
ok $? "a finished bisection re-runs without recording (exit $rc)"
bisect PATCHES="$fb/shrinker-series" RUNS=8 >"$tmp/log4" 2>&1
[ $? -ne 0 ] && grep -q 'made with other settings' "$tmp/log4" && grep -q 'runs=8' "$tmp/log4"
ok $? "other settings under the same NAME are refused, with the difference"

# 4. A GOOD that is not good: both endpoints hold the patch; stop before any candidate build.
: >"$REPLAY_KERNELS/builds.log"
bisect PATCHES="$fb/shrinker-series" GOOD=4 NAME=not-good >"$tmp/log5" 2>&1
rc=$?
[ $rc = 5 ] && [ "$(grep -c 'error' "$tmp/log5")" = 1 ] &&
	grep -q '^bisect: error: GOOD and BAD do not separate: .*bench.ramfs.bogo_ops_per_s_real: GOOD'\
' median [0-9.]* (6 runs, [0-9.]*-[0-9.]*), BAD median [0-9.]* (6 runs' "$tmp/log5"
ok $? "GOOD=4 (with the culprit): one line saying the endpoints do not separate, figures (exit $rc)"
grep -q 'endpoints.txt); check that GOOD is good and BAD bad there, or name the metric .* with '\
'METRIC= (other settings: FRESH=1 or another NAME=)$' "$tmp/log5"
ok $? "and what to do next: check the endpoints, or give METRIC="
is "$(cut -d' ' -f1 "$REPLAY_KERNELS/builds.log" | tr '\n' ' ')" \
	"bisect-not-good-k04 bisect-not-good-k07 " "no candidate was built, only the two endpoints"

# An endpoint that cannot be built says why in its one line (after make demo alone, the cross
# compiler is missing: the line named only the exit and the log)
printf '#!/bin/sh\necho "kernel: aarch64-linux-gnu-gcc is not installed (make deps)" >&2\nexit 3\n' \
	>"$tmp/nogcc"
chmod +x "$tmp/nogcc"
bisect PATCHES="$fb/shrinker-series" NAME=nogcc MAKE_KERNEL="$tmp/nogcc" >"$tmp/log-nogcc" 2>&1
rc=$?
[ $rc = 1 ] && tail -n1 "$tmp/log-nogcc" | grep -q '^bisect: error: the endpoint k00 (base) does'\
' not build: kernel: aarch64-linux-gnu-gcc is not installed (make deps) (exit 3; '
ok $? "an endpoint that cannot be built: its one line says why (exit $rc)"

# 5. A candidate whose patch does not apply is skipped, with its name; the range stays two
# changes wide. And a revert that cannot be built fails the verification, saying why.
REPLAY_BROKEN=bisect-noapply-k03 bisect PATCHES="$fb/shrinker-series" NAME=noapply \
	>"$tmp/log6" 2>&1
rc=$?
o6=$tmp/r/bisect/noapply
[ $rc = 4 ] && grep -q ' candidate=k03 change=0003-.* verdict=skip ' "$o6/steps.txt" &&
	grep -q 'k03 skipped: kernel: patch 0003-ramfs-pr_debug-when-a-superblock-is-filled.patch'\
' does not apply' "$tmp/log6" && grep -qx 'candidates= k03 k04' "$o6/first-bad.txt"
ok $? "k03 cannot be built: skip with the patch's name, the answer is k03 or k04 (exit $rc)"
grep -qF "no single first bad change: it is one of k03 k04 (the ones between were skipped; why:\
 the verdicts in $o6/steps.txt, a build's reason in $o6/log/skips.txt)" "$tmp/log6" &&
	grep -q '^skip_reason k03=kernel: patch 0003-' "$o6/log/skips.txt"
ok $? "and where to read why each was skipped"
is "$(sed 's/^step=[0-9]* candidate=\([^ ]*\).* verdict=\([a-z]*\) .*/\1=\2/' "$o6/steps.txt" |
	tr '\n' ' ')" "k03=skip k02=good k04=bad " "around the skip: k02 good, k04 bad"
REPLAY_NOAPPLY=0005-mm-Kconfig.debug-an-off-by-default-DEBUG_SHRINKER_COUNT.patch:\
0004-mm-vmscan-wait-for-an-SRCU-grace-period-in-unregister_shrinker.patch \
	bisect PATCHES="$fb/shrinker-series" NAME=norevert >"$tmp/log8" 2>&1
rc=$?
o8=$tmp/r/bisect/norevert
[ $rc = 3 ] && grep -q '^first_bad=k04$' "$o8/first-bad.txt" &&
	grep -qx 'revert=skip (kernel: patch 0005-mm-Kconfig.debug-an-off-by-default-DEBUG_SHRINKER_'\
'COUNT.patch does not apply to linux-source-6.1: Hunk #1 FAILED at 9.), expected good: FAILED' \
		"$o8/verify.txt" && grep -qx 'verified=no' "$o8/verify.txt"
ok $? "0005 needs 0004: the revert cannot be built, the verification fails saying so (exit $rc)"

# 6. A git range: our own worktree, the user's tree (HEAD, branch, changes) left as it was.
if command -v git >/dev/null; then
	g=$tmp/linux
	mkdir -p "$g/mm"
	git init -q -b work "$g"
	git -C "$g" config user.email t@localhost
	git -C "$g" config user.name t
	echo "static int a;" >"$g/mm/vmscan.c"
	git -C "$g" add -A && git -C "$g" commit -qm base
	for i in 1 2 3 4 5 6; do
		if [ $i = 4 ]; then
			echo "	synchronize_srcu(&shrinker_srcu);" >>"$g/mm/vmscan.c"
		else
			echo "/* harmless $i */" >>"$g/mm/notes-$i.c"
		fi
		git -C "$g" add -A && git -C "$g" commit -qm "change $i"
	done
	echo "local edit" >>"$g/mm/notes-1.c"
	before="$(git -C "$g" rev-parse HEAD) $(git -C "$g" symbolic-ref HEAD)"
	git -C "$g" status --porcelain >"$tmp/status-before"
	bisect KSRC="$g" GOOD=work~6 BAD=work NAME=git >"$tmp/log7" 2>&1
	rc=$?
	is "$rc" 0 "git range: found and verified"
	[ $rc -eq 0 ] || tail -n 15 "$tmp/log7" | sed 's/^/# /'
	grep -q '^change=[0-9a-f]* change 4$' "$tmp/r/bisect/git/first-bad.txt"
	ok $? "git range: the first bad commit is 'change 4'"
	[ "$(git -C "$g" rev-parse HEAD) $(git -C "$g" symbolic-ref HEAD)" = "$before" ] &&
		git -C "$g" status --porcelain | cmp -s - "$tmp/status-before" &&
		[ "$(git -C "$g" worktree list | wc -l)" = 1 ] && [ ! -e "$tmp/r/bisect/git/tree" ]
	ok $? "git range: the user's HEAD, branch and local edit unchanged; our worktree removed"
	grep -q '^bisect-git-revert tree=[0-9a-f]*+changes clean$' "$REPLAY_KERNELS/builds.log" &&
		grep -q '^bisect-git-alone tree=[0-9a-f]*+changes culprit$' "$REPLAY_KERNELS/builds.log"
	ok $? "git range: the revert and the change alone are built from our worktree with changes"
else
	skip "git range" "no git"
fi

# make kernel --tree: the tree must be a kernel tree, and takes no patch series besides.
if command -v aarch64-linux-gnu-gcc >/dev/null; then
	"$TS_TOP/boards/kernel/kernel.sh" --board qemu-aarch64 --variant t --tree "$tmp/r" \
		--patches "$fb/shrinker-series" >"$tmp/kt1" 2>&1
	rc1=$?
	"$TS_TOP/boards/kernel/kernel.sh" --board qemu-aarch64 --variant t --tree "$tmp/r" \
		>"$tmp/kt2" 2>&1
	rc2=$?
	[ $rc1 != 0 ] && grep -q -- '--tree with --patches' "$tmp/kt1" && [ $rc2 != 0 ] &&
		grep -q "$tmp/r is not a kernel tree" "$tmp/kt2"
	ok $? "make kernel --tree: refuses --patches with it, and a folder that is not a kernel tree"
else
	skip "make kernel --tree's checks" "no aarch64-linux-gnu-gcc"
fi

# make kernel takes the names make bisect gives its kernels ('+' was refused), by the same rule.
"$TS_TOP/boards/kernel/kernel.sh" --board qemu-aarch64 --variant 'bisect-a+b-k00' --print-image \
	>"$tmp/kp1" 2>&1
"$TS_TOP/boards/kernel/kernel.sh" --board qemu-aarch64 --variant '-x' --print-image >"$tmp/kp2" 2>&1
grep -q 'no built kernel qemu-aarch64/bisect-a+b-k00' "$tmp/kp1" &&
	grep -q "^kernel: VARIANT '-x' is not a name: use letters" "$tmp/kp2"
ok $? "make kernel: VARIANT bisect-a+b-k00 is a name, -x is not"

# 7. A board farm: PLAN=1 builds what the next batch needs, writes its LAVA experiment and
# stops; make lava-jobs turns it into the jobs of that batch.
n=$(wc -l <"$tmp/calls")
bisect PATCHES="$fb/shrinker-series" NAME=farm PLAN=1 >"$tmp/log9" 2>&1
rc=$?
e=$tmp/r/bisect/farm/lava/k00.exp
[ $rc = 6 ] && [ "$(wc -l <"$tmp/calls")" = "$n" ] && grep -qx 'a=built:bisect-farm-k07' "$e" &&
	grep -qx 'b=built:bisect-farm-k00' "$e" && grep -qx 'runs=6' "$e" &&
	grep -qF "PLAN=1: the next batch is k00 (0 of 6 runs) with k07 (0 of 6), interleaved: $e." \
		"$tmp/log9"
ok $? "PLAN=1: the endpoints' batch as a LAVA experiment, nothing recorded (exit $rc)"
# what to do with it, each step naming what it needs: the kernels (both built), the jobs, where
# the runs go, and running the bisection again
f=$tmp/r/bisect/farm
k0=$REPLAY_KERNELS/qemu-aarch64/bisect-farm-k00/Image
k7=$REPLAY_KERNELS/qemu-aarch64/bisect-farm-k07/Image
[ -f "$k0" ] && [ -f "$k7" ] &&
	grep -qF "1. put the kernels where the boards fetch them (k00: $k0; k07: $k7) and name them" \
		"$tmp/log9" && grep -qF "bisect-farm-k00.kernel=URL" "$tmp/log9" &&
	grep -qF "2. make lava-jobs EXPERIMENT=$e DEVICE_TYPE=... KERNELS=<kernels file>" "$tmp/log9" &&
	grep -qF "3. when they are done, put each variant's runs into $f/<kNN>/run-<k> (the uploads' \
bisect-farm-k00/run-<k> into $f/k00/, bisect-farm-k07/run-<k> into $f/k07/; make lava-collect" \
		"$tmp/log9" &&
	grep -qF "4. run this make bisect again" "$tmp/log9"
ok $? "PLAN=1 says what to do next: the two kernels, make lava-jobs, the runs' folder, again"
for k in k00 k07; do
	echo "bisect-farm-$k.kernel=http://farm.invalid/$k/Image"
	echo "bisect-farm-$k.ramdisk=http://farm.invalid/ramdisk.cpio.gz"
done >"$tmp/kernels.txt"
"$TS_TOP/boards/lava/jobs.sh" EXPERIMENT="$e" DEVICE_TYPE=qemu KERNELS="$tmp/kernels.txt" \
	UPLOAD_URL=http://farm.invalid/up OUT="$tmp/jobs" >"$tmp/log10" 2>&1 &&
	[ "$(wc -l <"$tmp/jobs/jobs.txt")" = 12 ] &&
	grep -q 'http://farm.invalid/k00/Image' "$tmp/jobs/"00[12]-bisect-farm-k00-b1-bisect-farm-k00.yaml
ok $? "make lava-jobs writes the batch's 12 jobs, each booting its candidate's kernel"
# the boards upload each run as <variant>/run-<k>: the variants step 3 names
grep -hoE -e '--variant [^ ]*' "$tmp/jobs"/*.yaml | sort -u | tr '\n' ' ' >"$tmp/jv"
is "$(cat "$tmp/jv")" "--variant bisect-farm-k00 --variant bisect-farm-k07 " \
	"the jobs upload the variants bisect-farm-k00 and bisect-farm-k07, as step 3 says"

tap_done
