#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# compare writes nothing into the run folders it reads: its summaries and chart data go to the
# user's cache (TS_SUMMARY_CACHE, else $XDG_CACHE_HOME/tickscope/summaries, else
# ~/.cache/tickscope/summaries), one file per trace named by the sha256 of its absolute path.
# The runs are the recorded ping-pong runs of tests/fixtures/boards/x86-host/ab.
. "$(dirname "$0")/lib/tap.sh"

command -v jq >/dev/null || skip_all "jq not installed (analysis/packages)"
command -v md5sum >/dev/null || skip_all "no md5sum"
[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
tap_tmpdir
T=$TAP_TMP
C=$TS_SUMMARY_CACHE
# the kallsyms memos in a folder of their own, so that the user's cache folders stay empty
export TS_KSYMS_CACHE="$T/ksyms"
ab=$TS_TOP/tests/fixtures/boards/x86-host/ab

# fresh DIR: three runs of each variant, as recorded
fresh() {
	for v in pingpong-same pingpong-cross; do
		for r in 1 2 3; do
			mkdir -p "$1/$v/run-$r"
			cp -p "$ab/$v/run-$r"/* "$1/$v/run-$r/"
		done
	done
}

# snap DIR: every file and folder, with each file's md5 and mtime
snap() {
	(cd "$1" && find . | sort && find . -type f -exec md5sum {} + | sort -k2 &&
		find . -type f -printf '%p %T@ %s\n' | sort)
}

fresh "$T/ab"
snap "$T/ab" >"$T/before"
"$TICKSCOPE" compare --json "$T/ab/pingpong-same" "$T/ab/pingpong-cross" >"$T/1.json" \
	2>"$T/err"
ok $? "compare of two variants of three runs"
"$TICKSCOPE" compare "$T/ab/pingpong-same" "$T/ab/pingpong-cross" --plots "$T/p1" \
	--html "$T/1.html" >/dev/null 2>"$T/err"
ok $? "compare --plots --html of the same runs"
snap "$T/ab" >"$T/after"
cmp -s "$T/before" "$T/after"
ok $? "the run folders are byte-identical afterwards (files, md5, mtimes): $(diff "$T/before" \
	"$T/after" | grep -c '^[<>]') lines differ"

want=""
for v in pingpong-same pingpong-cross; do
	for r in 1 2 3; do
		for s in .tsum .tplot; do
			f=$(summary_cache_file "$T/ab/$v/run-$r/perf.data.xz" "$s")
			[ -s "$f" ] || want="$want $v/run-$r$s"
		done
	done
done
is "$want" "" "the cache holds a summary and chart data of each trace, named by its path"
is "$(find "$C" -type f | wc -l)" 12 "and nothing else (12 files)"
head -n1 "$(summary_cache_file "$T/ab/pingpong-same/run-1/perf.data.xz" .tsum)" |
	grep -q "^tickscope-summary [0-9]*	[^	]*	$(stat -c %s \
		"$T/ab/pingpong-same/run-1/perf.data.xz")	$(stat -c %Y \
		"$T/ab/pingpong-same/run-1/perf.data.xz")\.[0-9]\{9\}	pingpong	"
ok $? "its key line: the format, version, the trace's size and mtime, the benchmark"

# A hit: each perf.data.xz replaced by zeros of its size and time (touch -r). Read, any of them
# fails (--no-cache shows it does); from the cache, the same answers as from the traces.
for t in "$T"/ab/*/run-*/perf.data.xz; do
	head -c "$(stat -c %s "$t")" /dev/zero >"$t.new" && touch -r "$t" "$t.new" &&
		mv "$t.new" "$t"
done
"$TICKSCOPE" compare --json "$T/ab/pingpong-same" "$T/ab/pingpong-cross" >"$T/2.json" \
	2>"$T/err"
ok $? "compare of the zeroed traces succeeds: no trace was read"
cmp -s "$T/1.json" "$T/2.json"
ok $? "from the cache: the same document"
"$TICKSCOPE" compare "$T/ab/pingpong-same" "$T/ab/pingpong-cross" --plots "$T/p2" \
	>/dev/null 2>"$T/err"
ok $? "compare --plots of the zeroed traces succeeds"
is "$(for f in "$T"/p1/*.tsv; do cmp -s "$f" "$T/p2/${f##*/}" || echo "${f##*/}"; done)" "" \
	"the charts' tables from the cache equal those read from the traces"
"$TICKSCOPE" compare --no-cache "$T/ab/pingpong-same" "$T/ab/pingpong-cross" >/dev/null \
	2>"$T/err"
[ $? = 1 ] && grep -q "perf.data.xz: cannot unpack it" "$T/err"
ok $? "--no-cache reads the zeroed traces, and fails: $(head -c 120 "$T/err")"

# A summary beside the run (tickscope summary writes it there) is read, and none cached.
rm -rf "$T/ab"
fresh "$T/ab"
"$TICKSCOPE" summary --charts "$T"/ab/*/run-* >/dev/null 2>"$T/err"
ok $? "tickscope summary --charts writes into the runs it names"
ls "$T"/ab/*/run-*/perf.data.xz.tsum "$T"/ab/*/run-*/perf.data.xz.tplot >/dev/null 2>&1
ok $? "... the summary and chart data beside each trace"
rm -rf "$C"
snap "$T/ab" >"$T/before"
"$TICKSCOPE" compare --json "$T/ab/pingpong-same" "$T/ab/pingpong-cross" --plots "$T/p3" \
	>"$T/3.json" 2>"$T/err"
ok $? "compare of runs with their summaries"
snap "$T/ab" >"$T/after"
cmp -s "$T/before" "$T/after" && [ ! -e "$C" ]
ok $? "read beside the runs: nothing written there nor in the cache"
cmp -s "$T/1.json" "$T/3.json"
ok $? "the same document as from the traces"

# Where the cache is: TS_SUMMARY_CACHE=off keeps none; else XDG_CACHE_HOME, else HOME.
rm -rf "$T/ab"
fresh "$T/ab"
snap "$T/ab" >"$T/before"
# runs [-u VAR] [VAR=VALUE]...: compare the runs in that environment
runs() { env "$@" "$TICKSCOPE" compare --json "$T/ab/pingpong-same" "$T/ab/pingpong-cross"; }
runs TS_SUMMARY_CACHE=off XDG_CACHE_HOME="$T/xdg" HOME="$T/home" >/dev/null 2>&1
snap "$T/ab" >"$T/after"
cmp -s "$T/before" "$T/after" && [ ! -e "$T/xdg" ] && [ ! -e "$T/home" ]
ok $? "TS_SUMMARY_CACHE=off: nothing written anywhere"
runs -u TS_SUMMARY_CACHE XDG_CACHE_HOME="$T/xdg" HOME="$T/home" >/dev/null 2>&1
is "$(find "$T/xdg/tickscope/summaries" -name '*.tsum' 2>/dev/null | wc -l) $([ -e "$T/home" ] &&
	echo home)" "6 " "without TS_SUMMARY_CACHE: \$XDG_CACHE_HOME/tickscope/summaries"
runs -u TS_SUMMARY_CACHE -u XDG_CACHE_HOME HOME="$T/home" >/dev/null 2>&1
is "$(find "$T/home/.cache/tickscope/summaries" -name '*.tsum' 2>/dev/null | wc -l)" 6 \
	"without XDG_CACHE_HOME: ~/.cache/tickscope/summaries"

# Bounded as the kallsyms cache (TS_SUMMARY_CACHE_MB): 0 keeps only the file just written.
runs TS_SUMMARY_CACHE="$T/small" TS_SUMMARY_CACHE_MB=0 >/dev/null 2>&1
is "$(find "$T/small" -type f | wc -l)" 1 "TS_SUMMARY_CACHE_MB=0 keeps one file"
# A summary computed again with the same bytes (--no-cache) is left in place and marked used:
# replacing it had the file system free the old file's blocks, which waits for the disk where
# it is mounted with discard (issue 33). One whose bytes differ is replaced.
SC=$T/samec
s1=$(TS_SUMMARY_CACHE="$SC" summary_cache_file "$T/ab/pingpong-same/run-1/perf.data.xz" .tsum)
# nocache: a cold compare of the runs into the cache $SC
nocache() {
	TS_SUMMARY_CACHE="$SC" "$TICKSCOPE" compare --no-cache "$T/ab/pingpong-same" \
		"$T/ab/pingpong-cross" >/dev/null 2>&1
}
nocache && [ -s "$s1" ] && cp "$s1" "$T/s1.copy" && touch -d 2001-01-01 "$s1"
ok $? "a cold compare caches run-1's summary"
ino=$(stat -c %i "$s1")
nocache
[ "$(stat -c %i "$s1")" = "$ino" ] && cmp -s "$s1" "$T/s1.copy"
ok $? "--no-cache again: the same bytes, the same file (inode $ino, not replaced)"
[ "$(stat -c %Y "$s1")" -gt "$(date -d 2002-01-01 +%s)" ]
ok $? "... its time is now: used, for the cache's pruning by age"
echo >>"$s1"
ino=$(stat -c %i "$s1")
nocache
[ "$(stat -c %i "$s1")" != "$ino" ] && cmp -s "$s1" "$T/s1.copy"
ok $? "a summary whose bytes differ is replaced by the one computed"
# Each kernel's kallsyms is parsed once (issue 33): after a cold compare the kallsyms cache
# holds one copy of each distinct kallsyms content, named by its sha256, and one parsed table
# of it, not one of each run's; a second cold compare reads no run's kallsyms.xz. The oracle:
# the sha256 of every run's kallsyms (xz, sha256sum), and a compare that keeps no kallsyms.
K=$T/kshare
rm -rf "$T/ab"
fresh "$T/ab"
for f in "$T"/ab/*/run-*/kallsyms.xz; do xz -dc "$f" | sha256sum | cut -c1-64; done |
	sort -u >"$T/ksums"
# kcmp NAME [ENV...]: a cold compare of the runs, with two workers
kcmp() {
	_n=$1
	shift
	env "$@" "$TICKSCOPE" compare --json --no-cache --jobs 2 "$T/ab/pingpong-same" \
		"$T/ab/pingpong-cross" >"$T/$_n.json" 2>"$T/$_n.err"
}
kcmp koff TS_KSYMS_CACHE=off
kcmp k1 TS_KSYMS_CACHE="$K"
ok $? "a cold compare of 2 x 3 runs keeping their kallsyms in TS_KSYMS_CACHE"
is "$(find "$K" -name '*.kallsyms' -printf '%f\n' | sed 's/\.kallsyms$//' | sort)" \
	"$(cat "$T/ksums")" "one copy of each distinct kallsyms ($(wc -l <"$T/ksums")), named by its sha256"
is "$(for f in "$K"/*.kallsyms; do sha256sum <"$f" | cut -c1-64; done | sort)" \
	"$(cat "$T/ksums")" "each copy holds the content its name says"
is "$(find "$K" -name '*.ksyms' | wc -l)" "$(wc -l <"$T/ksums")" \
	"one parsed table of each, not one of each of the 6 runs"
cmp -s "$T/koff.json" "$T/k1.json"
ok $? "the same document as a compare that keeps no kallsyms (TS_KSYMS_CACHE=off)"
if command -v strace >/dev/null; then
	strace -f -qq -e trace=open,openat -o "$T/k2.st" env TS_KSYMS_CACHE="$K" "$TICKSCOPE" \
		compare --json --no-cache --jobs 2 "$T/ab/pingpong-same" "$T/ab/pingpong-cross" \
		>"$T/k2.json" 2>/dev/null
	is "$(grep -c '/kallsyms\.xz"' "$T/k2.st") $(grep -c '\.ksyms"' "$T/k2.st")" "0 6" \
		"a second cold compare opens no run's kallsyms.xz, and the parsed table once a run"
	cmp -s "$T/koff.json" "$T/k2.json"
	ok $? "... and prints the same document"
else
	skip "a second cold compare opens no run's kallsyms.xz" "no strace"
	skip "... and prints the same document" "no strace"
fi

# The trace's sha256 is taken in the read that decodes it, not in a read of its own first
# (issue 33): the trace line of the summary a cold compare writes is sha256sum's of the file,
# and a trace that is not the one meta.txt records is refused in one line, with no summary of
# it kept, whether it differs in the data section (hashed as the scanner reads it) or after it
# (the feature sections, read apart).
rm -rf "$T/ab" "$T/hc"
fresh "$T/ab"
# unpacked, with the sha256 and size meta.txt records as ts-record.sh writes them (these
# fixtures predate them)
for v in pingpong-same pingpong-cross; do
	for r in 1 2 3; do
		_d=$T/ab/$v/run-$r
		xz -d "$_d/perf.data.xz"
		printf 'perf_data_size=%s\nperf_data_sha256=%s\n' "$(stat -c %s "$_d/perf.data")" \
			"$(sha256sum <"$_d/perf.data" | cut -c1-64)" >>"$_d/meta.txt"
	done
done
# hcmp: a cold compare of the unpacked runs into the cache folder $T/hc
hcmp() {
	TS_SUMMARY_CACHE="$T/hc" "$TICKSCOPE" compare --no-cache "$T/ab/pingpong-same" \
		"$T/ab/pingpong-cross" >"$T/h.out" 2>"$T/h.err"
}
hcmp
ok $? "a cold compare of the unpacked traces"
bad=""
for f in "$T"/ab/*/run-*/perf.data; do
	line=$(sed -n 2p "$(TS_SUMMARY_CACHE="$T/hc" summary_cache_file "$f" .tsum)")
	[ "$line" = "$(printf 'trace\t%s\t%s' "$(sha256sum <"$f" | cut -c1-64)" \
		"$(stat -c %s "$f")")" ] || bad="$bad ${f#"$T"/ab/}"
done
is "$bad" "" "each summary's trace line is sha256sum's of its perf.data, and its size"
if command -v strace >/dev/null; then
	rm -rf "$T/hc"
	TS_SUMMARY_CACHE="$T/hc" strace -f -qq -e trace=open,openat -o "$T/h.st" "$TICKSCOPE" \
		compare --no-cache "$T/ab/pingpong-same" "$T/ab/pingpong-cross" >/dev/null 2>&1
	is "$(grep -c '/perf\.data", O_RDONLY' "$T/h.st")" 6 \
		"... taken in the read that decodes it: each perf.data opened once"
else
	skip "... taken in the read that decodes it: each perf.data opened once" "no strace"
fi
d=$T/ab/pingpong-same/run-1
cp "$d/perf.data" "$T/good.data"
# damaged LABEL [PATTERN]: compare refuses run-1 (now damaged) in one line (that says PATTERN,
# else that it is another trace) and keeps no summary of it
hdamaged() {
	rm -rf "$T/hc"
	hcmp
	_rc=$?
	[ $_rc = 1 ] && [ "$(wc -l <"$T/h.err")" = 1 ] &&
		grep -q "^tickscope: $d/perf.data: ${2:-$same_size}" "$T/h.err" &&
		[ ! -e "$(TS_SUMMARY_CACHE="$T/hc" summary_cache_file "$d/perf.data" .tsum)" ]
	ok $? "$1: refused, no summary kept: $(sed "s|$T/||g" "$T/h.err") (exit $_rc)"
}
same_size="sha256 [0-9a-f]*\\.\\.\\. ([0-9]* bytes), but meta.txt records [0-9a-f]*\\.\\.\\. ([0-9]* bytes): not the trace this run recorded"
cp "$T/ab/pingpong-same/run-2/perf.data" "$d/perf.data"
[ "$(stat -c %s "$d/perf.data")" -lt "$(stat -c %s "$T/good.data")" ]
ok $? "run-2's perf.data is shorter than run-1's"
hdamaged "another run's perf.data" "a perf.data cut short: [0-9]* of the [0-9]* bytes meta.txt records"
# the data section's offset and size: the u64s at bytes 40 and 48 of the header
doff=$(od -An -tu8 -j40 -N8 "$T/good.data" | tr -d ' ')
dsize=$(od -An -tu8 -j48 -N8 "$T/good.data" | tr -d ' ')
# flip BYTE: run-1's perf.data with the lowest bit of the byte at offset BYTE changed
flip() {
	cp "$T/good.data" "$d/perf.data"
	_v=$(od -An -tu1 -j"$1" -N1 "$T/good.data" | tr -d ' ')
	printf "\\$(printf %o $((_v ^ 1)))" |
		dd of="$d/perf.data" bs=1 seek="$1" conv=notrunc 2>/dev/null
}
flip $((doff + dsize / 2))
hdamaged "one byte changed in the middle of the data section"
flip $(($(stat -c %s "$T/good.data") - 1))
hdamaged "one byte changed in the last feature section"
cp "$T/good.data" "$d/perf.data"
rm -f "$T/good.data"
tap_done
