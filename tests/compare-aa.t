#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# A/A: compare must find no difference where there is none. The oracle is where the runs come
# from: every run of one variant of one committed experiment is one kernel (the same uname.txt),
# booted the same way (the same cmdline.txt), on the same emulated board, recorded by
# `make experiment` (tests/fixtures/kernel-variants/README.md, kernel-params/README.md,
# debian-variants/README.md say when and how). Splitting such runs into two halves compares a
# kernel with itself; so does pooling the "default" runs of two experiments of one session.
# - the default runs of the threadirqs experiment against those of the rcu-nocbs experiment
#   (Debian's arm64 6.1, default command line, 6 runs each, recorded at the same time): the
#   headline says nothing changed and names no mechanism;
# - every split of 6 runs into 3 against 3 (too few for the U test: compare may only say
#   "unconfirmed", for mechanisms above zero in every run and apart by more than their runs' own
#   spread), of the 10 kernel-params variants: a mechanism is named in at most 1 split in 10
#   (the earlier rules: every run apart and 2x named 20 of the 4 ping-pong variants' 40 splits;
#   a zero run allowed in the spread rule, 11 of the 100: waits at some cond_resched() of a
#   few runs, with kernel stacks);
# - every split of 8 runs into 4 against 4 and 35 splits of 20 runs into 10 against 10: the
#   benchmark is significant in at most alpha (5%) of the splits (4 against 4: exactly the one
#   split in 35 that puts the 4 fastest runs against the 4 slowest, the exact test's floor) and
#   a mechanism is named in at most 5% of them (docs/compare.md, "A/A", has the figures);
# - in none of those splits, nor in 5 random 3 against 3 splits of each set of 8 or 20 runs,
#   does the headline name a rate switched on or off by its counts.
. "$(dirname "$0")/lib/tap.sh"
command -v xz >/dev/null || skip_all "no xz"
command -v python3 >/dev/null || skip_all "no python3"
[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
tap_tmpdir
fx=$TS_TOP/tests/fixtures
kp=kernel-params

# The variants split below (their runs' summaries are of the format this tickscope reads).
sets="$kp/qemu-aarch64-pingpong-default-vs-threadirqs/default
$kp/qemu-aarch64-pingpong-default-vs-threadirqs/threadirqs
$kp/qemu-aarch64-pingpong-default-vs-rcu-nocbs/default
$kp/qemu-aarch64-pingpong-default-vs-rcu-nocbs/rcu-nocbs
$kp/qemu-aarch64-pingpong-default-vs-isolated/default
$kp/qemu-aarch64-pingpong-default-vs-isolated/isolated
$kp/qemu-aarch64-stress-ramfs-default-vs-rcu-expedited/default
$kp/qemu-aarch64-stress-ramfs-default-vs-rcu-expedited/rcu-expedited
$kp/qemu-aarch64-stress-ramfs-shrinker-srcu-vs-expedited/shrinker-srcu
$kp/qemu-aarch64-stress-ramfs-shrinker-srcu-vs-expedited/shrinker-srcu-expedited
debian-variants/qemu-aarch64-stress-ramfs-default-vs-rt/default
debian-variants/qemu-aarch64-stress-ramfs-default-vs-rt/rt"
for v in "$fx"/kernel-variants/*/*/; do
	[ -d "$v/run-1" ] && sets="$sets
kernel-variants/${v#"$fx"/kernel-variants/}"
done
i=0
for s in $sets; do
	i=$((i + 1))
	mkdir -p "$TAP_TMP/set"
	cp -a "$fx/${s%/}" "$TAP_TMP/set/$i"
done

# the oracle: one kernel, one command line in every run of a set
bad=
i=0
for s in $sets; do
	i=$((i + 1))
	n=$(cat "$TAP_TMP/set/$i"/run-*/uname.txt "$TAP_TMP/set/$i"/run-*/cmdline.txt | sort -u |
		wc -l)
	[ "$n" -eq 2 ] || bad="$bad $s"
done
[ -z "$bad" ]
ok $? "every run of a set booted one kernel with one command line (uname.txt, cmdline.txt)${bad:+:$bad}"

# --- two experiments' default runs against each other ---
a=$TAP_TMP/set/1
b=$TAP_TMP/set/3
"$TICKSCOPE" compare --json --names threadirqs-default,rcu-nocbs-default "$a"/run-* -- "$b"/run-* \
	>"$TAP_TMP/aa.json" 2>"$TAP_TMP/aa.err"
ok $? "default against default: compare from the summaries"
jq -r '.headline.lines[]' "$TAP_TMP/aa.json" >"$TAP_TMP/aa.head"
diag "$(cat "$TAP_TMP/aa.head")"
grep -q ': not significant$' "$TAP_TMP/aa.head"
ok $? "default against default: the benchmark did not change significantly"
grep -q "^  nothing changed: no change found beyond the runs' own spread" "$TAP_TMP/aa.head"
ok $? "default against default: the headline says nothing changed beyond the runs' own spread"
is "$(jq '.headline.mechanisms | length' "$TAP_TMP/aa.json")" 0 \
	"default against default: no mechanism in the headline"
is "$(jq '[.explanations[].changes[]?] | length' "$TAP_TMP/aa.json")" 0 \
	"default against default: nothing in the ranked changes"

# --- splits: SET... each into halves; prints a line per split: runs_a nr_mech significant ---
splits() {
	python3 - "$TICKSCOPE" "$@" <<'PY'
import itertools, json, os, random, re, subprocess, sys
ts = sys.argv[1]
for d in sys.argv[2:]:
    runs = sorted((r for r in os.listdir(d) if re.fullmatch(r'run-\d+', r)),
                  key=lambda r: int(r[4:]))
    n = len(runs)
    # each split once: the half that holds run 1
    sp = [c for c in itertools.combinations(range(n), n // 2) if c[0] == 0]
    if len(sp) > 35:
        random.seed(1)
        sp = random.sample(sp, 35)
    for c in sp:
        a = [os.path.join(d, runs[i]) for i in c]
        b = [os.path.join(d, runs[i]) for i in range(n) if i not in c]
        out = subprocess.run([ts, 'compare', '--json', '--allow-mismatch'] + a + ['--'] + b,
                             capture_output=True, text=True)
        j = json.loads(out.stdout)
        h = j['headline']
        sig = h['lines'][0].endswith(': significant')
        # a rate named by its counts (zero in every run of one side, many events in every
        # run of the other): never in an A/A
        nc = sum(' events in every run of ' in l for l in h['lines'])
        print(os.path.basename(d), ''.join(str(i + 1) for i in c), len(h['mechanisms']),
              int(sig), nc)
PY
}

i=0
three=
more=
for s in $sets; do
	i=$((i + 1))
	case $s in
	$kp/*) three="$three $TAP_TMP/set/$i" ;;
	*) more="$more $TAP_TMP/set/$i" ;;
	esac
done
# shellcheck disable=SC2086
splits $three >"$TAP_TMP/three.txt"
ok $? "3 against 3: every split compared"
n=$(wc -l <"$TAP_TMP/three.txt")
m=$(awk '$3 > 0' "$TAP_TMP/three.txt" | wc -l)
diag "3 against 3: $m of $n splits name a mechanism: $(awk '$3 > 0 { printf "set %s runs %s; ", $1, $2 }' "$TAP_TMP/three.txt")"
[ "$n" -eq 100 ] && [ $((m * 10)) -le "$n" ]
ok $? "3 against 3: at most 1 split in 10 names a mechanism ($m of $n)"
is "$(awk '$4 > 0' "$TAP_TMP/three.txt" | wc -l)" 0 "3 against 3: the benchmark is never significant"
is "$(awk '$5 > 0' "$TAP_TMP/three.txt" | wc -l)" 0 \
	"3 against 3: no split names a rate switched on or off by its counts"

# shellcheck disable=SC2086
splits $more >"$TAP_TMP/more.txt"
ok $? "4 against 4 and 10 against 10: every split compared"
n=$(wc -l <"$TAP_TMP/more.txt")
m=$(awk '$3 > 0' "$TAP_TMP/more.txt" | wc -l)
r=$(awk '$4 > 0' "$TAP_TMP/more.txt" | wc -l)
diag "4 against 4, 10 against 10: $n splits, the benchmark significant in $r, a mechanism named in $m"
[ "$n" -ge 400 ] && [ $((r * 20)) -le "$n" ]
ok $? "the benchmark is significant in at most alpha = 5% of the splits ($r of $n)"
[ $((m * 20)) -le "$n" ]
ok $? "a mechanism is named in at most 5% of the splits ($m of $n)"
is "$(awk '$5 > 0' "$TAP_TMP/more.txt" | wc -l)" 0 \
	"4 against 4, 10 against 10: no split names a rate switched on or off by its counts"

# 3 against 3 of the 8 and 20 runs of the sets above, 5 random splits each (fixed seed): the
# count rule (a rate zero in every run of one side, 20 events or more in every run of the
# other) is what 3 runs a side leave to name a path switched on or off, and it must not name
# one where the kernel is the same, runs of two kinds included (the x86 vmstat-44-before runs:
# the benchmark's tasks migrated in runs 1, 2, 7 and never in runs 3, 4, 5)
# shellcheck disable=SC2086
python3 - "$TICKSCOPE" $more >"$TAP_TMP/three8.txt" <<'PY'
import json, os, random, re, subprocess, sys
ts = sys.argv[1]
random.seed(3)
for d in sys.argv[2:]:
    runs = sorted((r for r in os.listdir(d) if re.fullmatch(r'run-\d+', r)),
                  key=lambda r: int(r[4:]))
    for t in range(5):
        s = random.sample(runs, 6)
        a = [os.path.join(d, r) for r in s[:3]]
        b = [os.path.join(d, r) for r in s[3:]]
        out = subprocess.run([ts, 'compare', '--json', '--allow-mismatch'] + a + ['--'] + b,
                             capture_output=True, text=True)
        h = json.loads(out.stdout)['headline']
        nc = sum(' events in every run of ' in l for l in h['lines'])
        print(os.path.basename(d), ','.join(r[4:] for r in s[:3]), ','.join(r[4:] for r in s[3:]),
              len(h['mechanisms']), nc)
PY
ok $? "3 against 3 of the 8 and 20 runs: every split compared"
n=$(wc -l <"$TAP_TMP/three8.txt")
m=$(awk '$4 > 0' "$TAP_TMP/three8.txt" | wc -l)
diag "3 against 3 of the 8 and 20 runs: $n splits, a mechanism named in $m"
is "$(awk '$5 > 0' "$TAP_TMP/three8.txt" | wc -l)" 0 \
	"3 against 3 of the 8 and 20 runs: no split names a rate switched on or off by its counts"
tap_done
