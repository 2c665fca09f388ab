#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The parsed-kallsyms cache (TS_KSYMS_CACHE, issue 33): a table parsed once is mapped by later
# runs. Whatever the cache holds (nothing, a good table, a damaged one, a table of the file
# before it changed, a folder that cannot be made), dump's text must be perf script's own with
# the same kallsyms, moved (KASLR) or not, and the report the one made without a cache.
. "$(dirname "$0")/lib/tap.sh"
. "$TS_TOP/tests/fixtures/fixtures.sh"

command -v perf >/dev/null || skip_all "perf not installed (scripts/packages)"
[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
tap_tmpdir
ORACLE_TMP=$TAP_TMP

n=x86-ramfs-callchain
f=$(fixture_data $n) || { echo "Bail out! fixture $n"; exit 1; }
k0=$(fixture_kallsyms $n) || { echo "Bail out! kallsyms of $n"; exit 1; }
# a copy of our own: its times are part of the key, and the test changes them
k=$TAP_TMP/kallsyms
cp "$k0" "$k"
C=$TAP_TMP/cache

oracle_perf_script "$f" "$k" >"$TAP_TMP/perf.txt"
grep -q 'function=tick_nohz_handler' "$TAP_TMP/perf.txt"
ok $? "perf script names tick_nohz_handler with $n's kallsyms ($(wc -l <"$TAP_TMP/perf.txt") lines)"

# dump [KALLSYMS [CACHE]]: dump's text into $TAP_TMP/dump.txt; its exit status
dump() {
	TS_KSYMS_CACHE=${2-$C} "$TICKSCOPE" dump -i "$f" --kallsyms "${1:-$k}" \
		>"$TAP_TMP/dump.txt" 2>"$TAP_TMP/err"
}
same() {
	cmp -s "${2:-$TAP_TMP/perf.txt}" "$TAP_TMP/dump.txt"
}
tables() {
	find "$C" -name '*.ksyms' -type f 2>/dev/null | wc -l
}

dump && same
ok $? "no cache yet: dump equals perf script"
[ "$(tables)" = 1 ]
ok $? "the parsed table was kept: $(tables) file(s) in the cache"
dump && same
ok $? "from the cache: dump equals perf script"

TS_KSYMS_CACHE=off "$TICKSCOPE" report -i "$f" --kallsyms "$k" --json >"$TAP_TMP/off.json" 2>&1
TS_KSYMS_CACHE=$C "$TICKSCOPE" report -i "$f" --kallsyms "$k" --json >"$TAP_TMP/on.json" 2>&1
_rc=$?
[ $_rc = 0 ] && grep -q '"tick_nohz_handler"' "$TAP_TMP/off.json" &&
	cmp -s "$TAP_TMP/off.json" "$TAP_TMP/on.json"
ok $? "report --json from the cache (exit $_rc) equals the one without a cache"

# Proof that the table is read from the cache: a name changed in the cached file shows.
for t in "$C"/*.ksyms; do
	perl -0777 -pi -e 's/\0tick_nohz_handler\0/\0tick_nohz_handleX\0/' "$t"
done
dump && grep -q 'function=tick_nohz_handleX' "$TAP_TMP/dump.txt"
ok $? "a later run maps the cached table (a name edited in it shows)"
# A table of another version of the format (the u32 after the 16-byte magic) is never read as
# this one's: parsed again (the edited name is gone) and written anew in this version.
ver() { # the format version of the cached table(s)
	for t in "$C"/*.ksyms; do perl -e 'read(STDIN, my $b, 20) == 20 or die;
		print unpack("x16 L", $b), "\n"' <"$t"; done
}
v0=$(ver)
for t in "$C"/*.ksyms; do
	perl -e 'open(my $h, "+<", $ARGV[0]) or die; binmode $h; seek($h, 16, 0);
		print $h pack("L", $ARGV[1])' "$t" $((v0 - 1))
done
v1=$(ver)
dump && same && [ "$v1" = $((v0 - 1)) ] && [ "$(ver)" = "$v0" ] && [ "$(tables)" = 1 ]
ok $? "a table of format $v1 is parsed again, not read (dump equals perf script) and kept as $v0"
# ... and a kallsyms changed since is not answered from it (its change time moved)
touch "$k"
dump && same
ok $? "after the kallsyms file changed: dump equals perf script again"

# A damaged table (cut in half, or its names' end overwritten): parsed again, and replaced.
for t in "$C"/*.ksyms; do
	head -c "$(($(wc -c <"$t") / 2))" "$t" >"$t.cut" && mv "$t.cut" "$t"
done
dump && same
ok $? "a table cut in half: dump equals perf script"
dump && same
ok $? "and its replacement: dump equals perf script"
for t in "$C"/*.ksyms; do
	printf 'xxxxxxxx' | dd of="$t" bs=1 seek=$(($(wc -c <"$t") - 8)) conv=notrunc 2>/dev/null
done
dump && same
ok $? "a table whose names do not end: dump equals perf script"
# Damaged in place, its size intact: the symbols' name offsets past the names (after the 80-byte
# header, the key; 24 bytes a symbol). The sum over symbols and indices tells it at load.
dump
for t in "$C"/*.ksyms; do
	perl -e 'open(my $h, "+<", $ARGV[0]) or die; binmode $h; read($h, my $b, 80) == 80 or die;
		my ($kl, $nr) = (unpack("x16 L L L L q", $b))[2, 4];
		for my $i (0 .. $nr - 1) {
			seek($h, 80 + (($kl + 7) & ~7) + $i * 24 + 8, 0);
			print $h pack("L", 0xfffffff0);
		}' "$t"
done
s0=$(wc -c <"$(ls "$C"/*.ksyms | head -1)")
dump && same
ok $? "a table whose name offsets point outside it (size intact, $s0 bytes): dump equals perf script"

# KASLR: another boot's copy, 32 MiB up, is moved after it is mapped (the mapping is private)
moved=$TAP_TMP/moved.kallsyms
perl -ne 'no warnings; if (/\t/ || !/^([0-9a-f]+)( .*)$/s) { print; next }
	printf "%016x%s", hex($1) + 0x2000000, $2' "$k" >"$moved"
oracle_perf_script "$f" "$moved" >"$TAP_TMP/perf-moved.txt"
dump "$moved" && same "$TAP_TMP/perf-moved.txt"
ok $? "a moved kallsyms, parsed: dump equals perf script"
dump "$moved" && same "$TAP_TMP/perf-moved.txt"
ok $? "a moved kallsyms, from the cache: dump equals perf script"
dump && same
ok $? "the unmoved table in the cache was not changed by the move"

# A cache folder that cannot be made: passed by, silently.
: >"$TAP_TMP/file"
dump "$k" "$TAP_TMP/file/cache" && same && [ ! -s "$TAP_TMP/err" ]
ok $? "a cache folder that cannot be made: dump equals perf script, nothing said"

# Where the cache lives: XDG_CACHE_HOME, else HOME; "off" writes nothing.
mkdir "$TAP_TMP/xdg" "$TAP_TMP/home"
env -u TS_KSYMS_CACHE XDG_CACHE_HOME="$TAP_TMP/xdg" HOME="$TAP_TMP/home" \
	"$TICKSCOPE" dump -i "$f" --kallsyms "$k" >/dev/null 2>&1
[ "$(find "$TAP_TMP/xdg/tickscope/kallsyms" -name '*.ksyms' | wc -l)" = 1 ] &&
	[ -z "$(ls -A "$TAP_TMP/home")" ]
ok $? "without TS_KSYMS_CACHE: \$XDG_CACHE_HOME/tickscope/kallsyms"
env -u TS_KSYMS_CACHE -u XDG_CACHE_HOME HOME="$TAP_TMP/home" \
	"$TICKSCOPE" dump -i "$f" --kallsyms "$k" >/dev/null 2>&1
[ "$(find "$TAP_TMP/home/.cache/tickscope/kallsyms" -name '*.ksyms' | wc -l)" = 1 ]
ok $? "without XDG_CACHE_HOME: ~/.cache/tickscope/kallsyms"
rm -rf "$TAP_TMP/home/.cache"
TS_KSYMS_CACHE=off HOME="$TAP_TMP/home" XDG_CACHE_HOME="$TAP_TMP/home" \
	"$TICKSCOPE" dump -i "$f" --kallsyms "$k" >/dev/null 2>&1
[ -z "$(ls -A "$TAP_TMP/home")" ]
ok $? "TS_KSYMS_CACHE=off: nothing written"

# The folder is bounded (TS_KSYMS_CACHE_MB): writing a table removes the ones used longest ago
# until the rest fit, never the new one; a hit counts as a use. Four copies of the kallsyms
# (four inodes: four keys), a cap of two and a half tables.
P=$TAP_TMP/prune
for i in 1 2 3 4; do cp "$k" "$TAP_TMP/k$i"; done
has() { # has N: is the table of copy N in $P (its key names the copy's inode)?
	grep -alq "file [0-9]* $(stat -c %i "$TAP_TMP/k$1") " "$P"/*.ksyms 2>/dev/null
}
kept() { # the copies whose tables are in $P, as "1 2 ..."
	for i in 1 2 3 4; do has $i && printf '%s ' $i; done
}
pdump() { # pdump N: dump with copy N through $P, the same as perf script
	TS_KSYMS_CACHE_MB=$cap dump "$TAP_TMP/k$1" "$P" && same
}
cap=
pdump 1
tsize=$(stat -c %s "$P"/*.ksyms)
cap=$(awk -v s="$tsize" 'BEGIN { printf "%.6f", 2.5 * s / 1048576 }')
pdump 2 && pdump 3 && [ "$(kept)" = "2 3 " ]
ok $? "a cap of 2.5 tables ($tsize bytes each): after 3 kallsyms the oldest went (kept: $(kept))"
pdump 2 && pdump 4 && [ "$(kept)" = "2 4 " ]
ok $? "a table mapped again is used: the next write removes the other (kept: $(kept))"
pdump 1 && [ "$(kept)" = "1 4 " ] &&
	[ "$(find "$P" -name '*.ksyms' -type f | wc -l)" = 2 ]
ok $? "a pruned kallsyms is parsed again, same output as perf script (kept: $(kept))"
# a writer's temporary file: one two hours old is a dead writer's, a fresh one someone's now
tmpname=$P/$(printf '%064d' 0).ksyms
: >"$tmpname.stale1" && touch -d '2 hours ago' "$tmpname.stale1" && : >"$tmpname.fresh1"
: >"$P/notes.txt" && touch -d '2 hours ago' "$P/notes.txt"
pdump 3 && [ ! -e "$tmpname.stale1" ] && [ -e "$tmpname.fresh1" ] && [ -e "$P/notes.txt" ]
ok $? "a stale temporary table is removed, a fresh one and files not the cache's are left"
TS_KSYMS_CACHE_MB=0 dump "$TAP_TMP/k2" "$P" && same && [ "$(kept)" = "2 " ]
ok $? "TS_KSYMS_CACHE_MB=0 keeps only the table just written (kept: $(kept))"

# compare: a run's kallsyms.xz is unpacked and hashed (for its summary's key) once; later
# compares read its sha256 from the cache folder ("*.xzsum") and unpack nothing.
E=$TAP_TMP/exp
cp -r "$TS_TOP/tests/fixtures/experiment/qemu-aarch64-pingpong-default-vs-nohz-off" "$E"
X=$TAP_TMP/xzcache
cmpare() {
	(cd "$E" && TS_KSYMS_CACHE=$1 "$TICKSCOPE" compare --allow-mismatch --json default nohz-off \
		>"$TAP_TMP/$2.json" 2>"$TAP_TMP/$2.err")
}
cmpare off ref
_rc=$?
cmpare "$X" cold && cmpare "$X" warm
[ $_rc = 0 ] && [ -s "$TAP_TMP/ref.json" ] && cmp -s "$TAP_TMP/ref.json" "$TAP_TMP/cold.json" &&
	cmp -s "$TAP_TMP/ref.json" "$TAP_TMP/warm.json" && cmp -s "$TAP_TMP/ref.err" "$TAP_TMP/warm.err"
ok $? "compare through the cache, then from it: the same JSON and messages as without it"
[ "$(find "$X" -name '*.xzsum' | wc -l)" = 4 ]
ok $? "one kallsyms.xz memo per run: $(find "$X" -name '*.xzsum' | wc -l)"
# the memo is read: one that says "all addresses 0" is believed until its file changes
m=$(grep -l "^xz $(stat -c '%d %i' "$E/default/run-1/kallsyms.xz") " "$X"/*.xzsum)
sed -i '2s/ 0$/ 1/' "$m"
cmpare "$X" zero
grep -q "run-1/kallsyms.xz: every address in it is 0" "$TAP_TMP/zero.err"
ok $? "a later compare takes the kallsyms' hash from the memo (an edited one shows)"
touch "$E/default/run-1/kallsyms.xz"
cmpare "$X" touched && cmp -s "$TAP_TMP/ref.json" "$TAP_TMP/touched.json" &&
	! grep -q "every address" "$TAP_TMP/touched.err"
ok $? "after the kallsyms.xz changed, its memo is not used"
for f in "$X"/*.xzsum; do echo junk >"$f"; done
cmpare "$X" junk && cmp -s "$TAP_TMP/ref.json" "$TAP_TMP/junk.json"
ok $? "damaged memos are passed by: the same JSON"

# A kallsyms not compressed is hashed once too: its memo ("*.ksum") is read by later compares.
for r in "$E"/*/run-*; do
	xz -dc "$r/kallsyms.xz" >"$r/kallsyms" && rm "$r/kallsyms.xz"
done
Y=$TAP_TMP/ksumcache
cmpare off plainref && cmpare "$Y" plain && cmp -s "$TAP_TMP/plainref.json" "$TAP_TMP/plain.json"
ok $? "plain kallsyms through the memo folder: the same JSON as without it"
[ "$(find "$Y" -name '*.ksum' | wc -l)" = 4 ]
ok $? "one memo per plain kallsyms: $(find "$Y" -name '*.ksum' | wc -l)"
m=$(grep -l "^file $(stat -c '%d %i' "$E/default/run-1/kallsyms") " "$Y"/*.ksum)
sed -i '2s/ 0$/ 1/' "$m"
cmpare "$Y" pzero
grep -q "run-1/kallsyms: every address in it is 0" "$TAP_TMP/pzero.err"
ok $? "a later compare takes the plain kallsyms' hash from its memo (an edited one shows)"
touch "$E/default/run-1/kallsyms"
cmpare "$Y" ptouched && cmp -s "$TAP_TMP/plainref.json" "$TAP_TMP/ptouched.json" &&
	! grep -q "every address" "$TAP_TMP/ptouched.err"
ok $? "after the kallsyms changed, its memo is not used"

tap_done
