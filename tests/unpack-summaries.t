#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# scripts/unpack-summaries.sh writes nothing outside DST: a run's meta.txt or summary in SRC
# that is a symbolic link (cp -a copies it as one) is refused in one line, the file it names as
# it was; a plain run is unpacked, its meta.txt given the trace's sha256 and size.
. "$(dirname "$0")/lib/tap.sh"
command -v xz >/dev/null || skip_all "no xz"
tap_tmpdir
T=$TAP_TMP
U=$TS_TOP/scripts/unpack-summaries.sh

mkdir -p "$T/src/v/run-1" "$T/user"
printf 'tickscope-summary 18\ntrace\tabcd\t12\n' | xz >"$T/src/v/run-1/perf.data.tsum.xz"
printf 'variant=v\n' >"$T/src/v/run-1/meta.txt"
"$U" "$T/src" "$T/plain" >"$T/out" 2>&1
ok $? "a plain run is unpacked"
want=$(printf 'variant=v\nperf_data_sha256=abcd\nperf_data_size=12')
is "$(cat "$T/plain/v/run-1/meta.txt")" "$want" "its meta.txt gets the summary's sha256 and size"

echo canary >"$T/user/notes"
rm "$T/src/v/run-1/meta.txt"
ln -s "$T/user/notes" "$T/src/v/run-1/meta.txt"
"$U" "$T/src" "$T/linked" >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 1 ] && [ "$(wc -l <"$T/err")" -eq 1 ] &&
	grep -q "v/run-1/meta.txt: a symbolic link (not followed)$" "$T/err"
ok $? "a meta.txt linked outside SRC: one line, exit 1 ($rc: $(cat "$T/err"))"
is "$(cat "$T/user/notes")" canary "the file the link names is as it was"

rm "$T/src/v/run-1/meta.txt"
printf 'variant=v\n' >"$T/src/v/run-1/meta.txt"
mv "$T/src/v/run-1/perf.data.tsum.xz" "$T/user/s.xz"
ln -s "$T/user/s.xz" "$T/src/v/run-1/perf.data.tsum.xz"
"$U" "$T/src" "$T/linked2" >"$T/out" 2>"$T/err"
rc=$?
[ $rc -eq 1 ] && grep -q "v/run-1/perf.data.tsum.xz: a symbolic link (not followed)$" "$T/err"
ok $? "a summary linked outside SRC: one line, exit 1 ($rc)"
[ -f "$T/user/s.xz" ] && [ ! -e "$T/user/s" ]
ok $? "the summary the link names is as it was"
tap_done
