#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The probe markers (TS_FORMATS_CACHE, issue 33): a run whose probe child found the tracing
# data clean leaves a marker, and a later run on the same bytes forks no child (strace counts
# the forks). A marker that does not hold exactly its key (damaged, or another trace's) is a
# miss: the child runs again. Whatever the folder holds, the report is the one made without it.
. "$(dirname "$0")/lib/tap.sh"
. "$TS_TOP/tests/fixtures/fixtures.sh"

command -v strace >/dev/null || skip_all "strace not installed (it counts the probe's forks)"
[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
tap_tmpdir

f=$(fixture_data x86-pingpong-none) || { echo "Bail out! fixture x86-pingpong-none"; exit 1; }
g=$(fixture_data x86-pingpong-irq) || { echo "Bail out! fixture x86-pingpong-irq"; exit 1; }
C=$TAP_TMP/formats
export TS_THREADS=0 TS_KSYMS_CACHE=off

# run DATA [CACHE]: report --json of DATA into $TAP_TMP/out.json; $forks: the processes it
# forked (clones without CLONE_THREAD: with TS_THREADS=0 only the probe's). LeakSanitizer does
# not work under ptrace (SANITIZE=1): off there, the other checks stay.
run() {
	TS_FORMATS_CACHE=${2-$C} ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
		strace -f -qq -e trace=clone,clone3,fork,vfork -o "$TAP_TMP/st" \
		"$TICKSCOPE" report -i "$1" --json >"$TAP_TMP/out.json" 2>&1
	_rc=$?
	forks=$(grep -E 'clone|fork' "$TAP_TMP/st" | grep -vc CLONE_THREAD)
	return $_rc
}
markers() {
	find "$C" -name '*.vetted' -type f 2>/dev/null | wc -l
}

TS_FORMATS_CACHE=off "$TICKSCOPE" report -i "$f" --json >"$TAP_TMP/off.json" 2>&1
ok $? "report without markers"
run "$f" && [ "$forks" = 1 ] && [ "$(markers)" = 1 ]
ok $? "no marker yet: the probe forks once ($forks) and leaves one marker ($(markers))"
cmp -s "$TAP_TMP/off.json" "$TAP_TMP/out.json"
ok $? "... the report is the one made without markers"
m=$(find "$C" -name '*.vetted' -type f)
grep -q "^sections [0-9a-f]\{64\}$" "$m" && grep -q "^libtraceevent /.*libtraceevent" "$m"
ok $? "the marker holds the sum of the bytes probed and the libtraceevent that parsed them"
run "$f" && [ "$forks" = 0 ] && cmp -s "$TAP_TMP/off.json" "$TAP_TMP/out.json"
ok $? "with the marker: no fork ($forks), the same report"

# damaged in place: one byte of the sum changed; then shorter, then longer
cp "$m" "$TAP_TMP/good"
sed -i 's/^\(sections .\{10\}\)./\1x/' "$m"
run "$f" && [ "$forks" = 1 ] && cmp -s "$TAP_TMP/good" "$m"
ok $? "a damaged marker is a miss: the probe forks ($forks) and the marker is written again"
head -c 40 "$TAP_TMP/good" >"$m"
run "$f" && [ "$forks" = 1 ] && cmp -s "$TAP_TMP/good" "$m"
ok $? "a marker cut short is a miss ($forks fork)"
cat "$TAP_TMP/good" "$TAP_TMP/good" >"$m"
run "$f" && [ "$forks" = 1 ] && cmp -s "$TAP_TMP/good" "$m"
ok $? "a marker with more after its key is a miss ($forks fork)"

# another trace's formats: a marker of its own; one of them under the other's name is a miss
run "$g" && [ "$forks" = 1 ] && [ "$(markers)" = 2 ]
ok $? "another trace's formats: the probe forks ($forks), a second marker ($(markers))"
m2=$(find "$C" -name '*.vetted' -type f ! -name "$(basename "$m")")
cp "$m2" "$m"
run "$f" && [ "$forks" = 1 ] && cmp -s "$TAP_TMP/good" "$m"
ok $? "another trace's marker under this one's name is a miss ($forks fork)"

# the tests' crash switch always runs the probe, marker or not
TS_PROBE_CRASH=no-such-event run "$f" && [ "$forks" = 1 ]
ok $? "TS_PROBE_CRASH: the probe forks though a marker is there ($forks)"

# a folder that cannot be made: passed by, silently
: >"$TAP_TMP/file"
run "$f" "$TAP_TMP/file/formats" && [ "$forks" = 1 ] &&
	cmp -s "$TAP_TMP/off.json" "$TAP_TMP/out.json"
ok $? "a folder that cannot be made: the probe forks, the same report"

# Where the folder is: XDG_CACHE_HOME, else HOME; "off" writes nothing.
mkdir "$TAP_TMP/xdg" "$TAP_TMP/home"
env -u TS_FORMATS_CACHE XDG_CACHE_HOME="$TAP_TMP/xdg" HOME="$TAP_TMP/home" \
	"$TICKSCOPE" report -i "$f" >/dev/null 2>&1
[ "$(find "$TAP_TMP/xdg/tickscope/formats" -name '*.vetted' | wc -l)" = 1 ] &&
	[ -z "$(ls -A "$TAP_TMP/home")" ]
ok $? "without TS_FORMATS_CACHE: \$XDG_CACHE_HOME/tickscope/formats"
env -u TS_FORMATS_CACHE -u XDG_CACHE_HOME HOME="$TAP_TMP/home" \
	"$TICKSCOPE" report -i "$f" >/dev/null 2>&1
[ "$(find "$TAP_TMP/home/.cache/tickscope/formats" -name '*.vetted' | wc -l)" = 1 ]
ok $? "without XDG_CACHE_HOME: ~/.cache/tickscope/formats"
rm -rf "$TAP_TMP/home/.cache"
TS_FORMATS_CACHE=off HOME="$TAP_TMP/home" XDG_CACHE_HOME="$TAP_TMP/home" \
	"$TICKSCOPE" report -i "$f" >/dev/null 2>&1
[ -z "$(ls -A "$TAP_TMP/home")" ]
ok $? "TS_FORMATS_CACHE=off: nothing written"

# Bounded (TS_FORMATS_CACHE_MB): 0 keeps only the marker just written.
TS_FORMATS_CACHE_MB=0 run "$f" "$TAP_TMP/small" && TS_FORMATS_CACHE_MB=0 run "$g" "$TAP_TMP/small" &&
	[ "$(find "$TAP_TMP/small" -type f | wc -l)" = 1 ] &&
	cmp -s "$m2" "$(find "$TAP_TMP/small" -type f)"
ok $? "TS_FORMATS_CACHE_MB=0 keeps only the marker just written"

tap_done
