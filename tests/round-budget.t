#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Time order past the round budget: with a budget smaller than a round (TS_ROUND_BUDGET), a
# file's runs are read again from the file and a pipe's or a -z file's are merged into a
# temporary file; dump and report must print what they print with every round in memory (the
# default here: the fixtures' rounds are under half a MB), and decode-only must say which path it
# took. A spill file that cannot be made is one clear error.
. "$(dirname "$0")/lib/tap.sh"
. "$TS_TOP/tests/fixtures/fixtures.sh"

[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
tap_tmpdir
k=$(fixture_kallsyms x86-ramfs-callchain) || { echo "Bail out! kallsyms"; exit 1; }

# outputs FILE DIR [ENV...]: dump (text, JSON) and report --json of FILE into DIR
outputs() {
	_f=$1 _d=$2
	shift 2
	mkdir -p "$_d"
	env "$@" "$TICKSCOPE" dump -i "$_f" --kallsyms "$k" >"$_d/dump" 2>"$_d/dump.err"
	echo $? >"$_d/rc"
	env "$@" "$TICKSCOPE" dump --format=json -i "$_f" >"$_d/json" 2>>"$_d/dump.err"
	echo $? >>"$_d/rc"
	env "$@" "$TICKSCOPE" report --json -i "$_f" --kallsyms "$k" >"$_d/report" \
		2>"$_d/report.err"
	echo $? >>"$_d/rc"
	env "$@" "$TICKSCOPE" dump --format=none -i "$_f" >/dev/null 2>"$_d/none.err"
}

# A file is read (TS_MMAP=0 as well), and its runs past the budget are read again; TS_MMAP=1
# maps it (its rounds at hand whatever the budget).
for n in x86-ramfs-callchain:file:"read again" x86-ramfs-zstd:-z:spilled \
	x86-ramfs-pipe:pipe:spilled; do
	name=${n%%:*} rest=${n#*:}
	kind=${rest%%:*} how=${rest#*:}
	f=$(fixture_data "$name") || { echo "Bail out! fixture $name"; exit 1; }
	outputs "$f" "$TAP_TMP/$name.mem"
	outputs "$f" "$TAP_TMP/$name.small" TS_ROUND_BUDGET=64k TS_MMAP=0
	is "$(cat "$TAP_TMP/$name.mem/rc" "$TAP_TMP/$name.small/rc" | tr -d '\n')" 000000 \
		"$kind: dump, dump --format=json and report succeed either way"
	grep -q 'time order: one pass' "$TAP_TMP/$name.mem/none.err"
	ok $? "$kind: within the budget, one pass ($(sed 's/.*time order: //' \
		"$TAP_TMP/$name.mem/none.err"))"
	grep -q "time order: .*[1-9][0-9.]* MB $how" "$TAP_TMP/$name.small/none.err"
	ok $? "$kind: past a 64 KiB budget, $how ($(sed 's/.*time order: //' \
		"$TAP_TMP/$name.small/none.err"))"
	for o in dump json report; do
		ok "$([ -s "$TAP_TMP/$name.mem/$o" ] &&
			cmp -s "$TAP_TMP/$name.mem/$o" "$TAP_TMP/$name.small/$o"
			echo $?)" "$kind: $o is the same ($(wc -l <"$TAP_TMP/$name.mem/$o") lines)"
	done
done

# Mapped (TS_MMAP=1), a file past the same budget is still one pass, and prints the same.
f=$(fixture_data x86-ramfs-callchain)
outputs "$f" "$TAP_TMP/mapped.small" TS_ROUND_BUDGET=64k TS_MMAP=1
is "$(tr -d '\n' <"$TAP_TMP/mapped.small/rc")" 000 "mapped file: dump, JSON and report succeed"
grep -q 'time order: one pass' "$TAP_TMP/mapped.small/none.err"
ok $? "mapped file past a 64 KiB budget: one pass ($(sed 's/.*time order: //' \
	"$TAP_TMP/mapped.small/none.err"))"
for o in dump json report; do
	cmp -s "$TAP_TMP/x86-ramfs-callchain.mem/$o" "$TAP_TMP/mapped.small/$o"
	ok $? "mapped file past the budget: $o is the same"
done
# The mapped path within the budget prints what the read one does.
outputs "$f" "$TAP_TMP/read.mem" TS_MMAP=1
for o in dump json report; do
	cmp -s "$TAP_TMP/x86-ramfs-callchain.mem/$o" "$TAP_TMP/read.mem/$o"
	ok $? "mapped, not read: $o is the same"
done

# On one thread (TS_THREADS=0: what a machine with no CPU to spare gets) the reader scans and
# merges, and the source decodes, on the caller's thread: the same outputs, in and past the
# budget.
outputs "$f" "$TAP_TMP/one.mem" TS_THREADS=0
outputs "$f" "$TAP_TMP/one.small" TS_THREADS=0 TS_ROUND_BUDGET=64k TS_MMAP=0
is "$(cat "$TAP_TMP/one.mem/rc" "$TAP_TMP/one.small/rc" | tr -d '\n')" 000000 \
	"one thread: dump, JSON and report succeed"
for o in dump json report; do
	cmp -s "$TAP_TMP/x86-ramfs-callchain.mem/$o" "$TAP_TMP/one.mem/$o" &&
		cmp -s "$TAP_TMP/x86-ramfs-callchain.mem/$o" "$TAP_TMP/one.small/$o"
	ok $? "one thread, within and past the budget: $o is the same"
done

# By the load (TS_THREADS neither 0 nor 1): on a calm machine the reader scans on a thread and
# kallsyms loads on another while the merging thread decodes (the decode worker is only
# TS_THREADS=1's); on a busy one all on one thread. The same outputs either way.
outputs "$f" "$TAP_TMP/auto.mem" TS_THREADS=auto
is "$(tr -d '\n' <"$TAP_TMP/auto.mem/rc")" 000 "threads by the load: dump, JSON and report succeed"
for o in dump json report; do
	cmp -s "$TAP_TMP/x86-ramfs-callchain.mem/$o" "$TAP_TMP/auto.mem/$o"
	ok $? "threads by the load: $o is the same"
done

# A pipe-mode stream on stdin spills like the file of it.
f=$(fixture_data x86-ramfs-pipe)
TS_ROUND_BUDGET=64k "$TICKSCOPE" dump -i - <"$f" >"$TAP_TMP/stdin.dump" 2>"$TAP_TMP/stdin.err"
ok $? "pipe on stdin past the budget"
"$TICKSCOPE" dump -i "$f" >"$TAP_TMP/file.dump" 2>/dev/null
cmp -s "$TAP_TMP/file.dump" "$TAP_TMP/stdin.dump"
ok $? "pipe on stdin: the same dump"

# No spill file to be had: one line naming the input, the offset and the folder; exit 1.
TMPDIR=$TAP_TMP/none TS_ROUND_BUDGET=64k "$TICKSCOPE" dump --format=none -i "$f" \
	>/dev/null 2>"$TAP_TMP/nospill.err"
is $? 1 "no spill file: exit 1"
grep -q "x86-ramfs-pipe.data: offset 0x[0-9a-f]*: .*no spill file can be made in $TAP_TMP/none" \
	"$TAP_TMP/nospill.err"
ok $? "no spill file: the input, the offset and the folder ($(head -1 "$TAP_TMP/nospill.err"))"
TMPDIR=$TAP_TMP/none "$TICKSCOPE" dump --format=none -i "$f" >/dev/null 2>&1
ok $? "no spill file needed within the budget: no folder needed"

# The budget's own value: a suffix it does not know is one clear line and exit 1, not a
# budget of a few bytes.
for v in 12x 0 -5 99999999999999999999; do
	TS_ROUND_BUDGET=$v "$TICKSCOPE" dump --format=none -i "$f" >/dev/null \
		2>"$TAP_TMP/budget.err"
	is "$?:$(wc -l <"$TAP_TMP/budget.err")" 1:1 "TS_ROUND_BUDGET=$v: exit 1, one line"
	grep -q "^tickscope: TS_ROUND_BUDGET=$v: not a size" "$TAP_TMP/budget.err"
	ok $? "TS_ROUND_BUDGET=$v: named ($(cat "$TAP_TMP/budget.err"))"
done
# The defaults, as tickscope(1) states them: 1 MiB for an uncompressed file that is read (its
# runs past it are read again, at no cost in CPU but a MiB of peak RSS for each MiB of budget,
# docs/scale.md), 8 MiB where past it the runs go to a spill file (pipe, -z) and for a mapped
# file (TS_MMAP=1: its rounds stay in the mapping).
for n in x86-ramfs-callchain:file:1 x86-ramfs-callchain:mapped:8 x86-ramfs-zstd:-z:8 \
	x86-ramfs-pipe:pipe:8; do
	name=${n%%:*} rest=${n#*:}
	kind=${rest%%:*} mb=${rest#*:}
	m=
	[ "$kind" = mapped ] && m=1
	TS_MMAP=$m "$TICKSCOPE" dump --format=none -i "$(fixture_data "$name")" >/dev/null \
		2>"$TAP_TMP/default.err"
	grep -q "round budget $mb MB)" "$TAP_TMP/default.err"
	ok $? "$kind: the default round budget is $mb MiB ($(sed 's/.*time order: //' \
		"$TAP_TMP/default.err"))"
done
sed -n '/^\.B TS_ROUND_BUDGET$/,/^\.TP$/p' "$TS_TOP/docs/man/tickscope.1" | tr '\n' ' ' |
	grep -q '1 MiB by default for an uncompressed file that is read, 8 MiB for'
ok $? "tickscope(1) states the same defaults"

TS_ROUND_BUDGET=1g "$TICKSCOPE" dump --format=none -i "$f" >/dev/null 2>"$TAP_TMP/budget.err"
grep -q "round budget 1024 MB" "$TAP_TMP/budget.err"
ok $? "TS_ROUND_BUDGET=1g is 1024 MB ($(sed 's/.*time order: //' "$TAP_TMP/budget.err"))"

tap_done
