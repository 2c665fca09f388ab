#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# tests/lib/tap.sh itself: a failed `ok $? NAME` says on stderr which check failed (its lines
# in the script, found by the name) and what the file it read holds; `is` says got and want.
# tests/lib/tap.h, the C unit tests' header, does the same: a failed ok() names its condition
# and where it is, is_int() and a diag() after a failure give what came, all on stderr.
. "$(dirname "$0")/lib/tap.sh"

tap_tmpdir
cat >"$TAP_TMP/inner.t" <<'INNER'
#!/bin/sh
. "$TS_TOP/tests/lib/tap.sh"
tap_tmpdir
tmp=$TAP_TMP
printf 'first line\nrecorded 3 runs\n' >"$tmp/log4"
ver=6.1

true
ok $? "$ver: a check that passes"
grep -q 'recorded 5 runs' "$tmp/log4"
ok $? "$ver: the log says five runs"
is 3 5 "$ver: runs"
tap_done
INNER
TS_TOP=$TS_TOP sh "$TAP_TMP/inner.t" >"$TAP_TMP/out" 2>"$TAP_TMP/err"
rc=$?
is "$rc" 1 "a script with failed tests exits 1"
is "$(cat "$TAP_TMP/out")" "ok 1 - 6.1: a check that passes
not ok 2 - 6.1: the log says five runs
not ok 3 - 6.1: runs
1..3" "stdout holds the TAP lines alone"
grep -qxF "#     grep -q 'recorded 5 runs' \"\$tmp/log4\"" "$TAP_TMP/err" &&
	grep -qxF "#   the check, $TAP_TMP/inner.t:10:" "$TAP_TMP/err"
ok $? "a failed ok names the check's lines and where they are"
grep -A2 -F 'what came: the last lines of "$tmp/log4"' "$TAP_TMP/err" | grep -qx '#     recorded 3 runs'
ok $? "a failed ok shows the file the check read"
grep -qx "#   got:  '3'" "$TAP_TMP/err" && grep -qx "#   want: '5'" "$TAP_TMP/err"
ok $? "a failed is shows got and want"
[ "$(grep -c '^#   the check' "$TAP_TMP/err")" = 1 ]
ok $? "a passing ok and a failed is add no check lines"

# The C header, built by the compiler make check builds the unit tests with.
cat >"$TAP_TMP/inner.c" <<'INNER'
#include "tap.h"
int main(void)
{
	int runs = 3;

	ok(runs == 3, "a check that passes");
	diag("an aside after a pass");
	ok(runs > 4, "more than %d runs", 4);
	diag("runs was %d", runs);
	is_int(runs, 5, "five runs");
	return tap_done();
}
INNER
if ! (cd "$TAP_TMP" && ${CC:-cc} -I"$TS_TOP/tests/lib" -o inner inner.c) 2>"$TAP_TMP/cc.err"; then
	skip "tap.h: a failed ok() explains itself on stderr" "cannot compile with ${CC:-cc}:" \
		"$(head -1 "$TAP_TMP/cc.err")"
else
	"$TAP_TMP/inner" >"$TAP_TMP/cout" 2>"$TAP_TMP/cerr"
	is "$?" 1 "tap.h: a binary with failed tests exits 1"
	is "$(cat "$TAP_TMP/cout")" "ok 1 - a check that passes
# an aside after a pass
not ok 2 - more than 4 runs
not ok 3 - five runs
1..3" "tap.h: stdout holds the TAP lines and the asides after passes"
	is "$(cat "$TAP_TMP/cerr")" "#   failed test 2 - more than 4 runs
#   at inner.c:8: ok(runs > 4)
# runs was 3
#   failed test 3 - five runs
#   at inner.c:10: ok(g_ == w_)
#   got 3 (runs), want 5 (5)" "tap.h: stderr names each failure, its condition and what came"
fi
tap_done
