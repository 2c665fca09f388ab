#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# tests/mutations.txt stays usable (issue 37 item 3): every line of it applies to the code as
# it is now (its text found exactly once, its file and tests there), so that a change that
# breaks a mutation fails make check instead of `make mutation` hours later; the list holds at
# least 60 of them; a line that does not apply is named with its file and line, nothing run.
. "$(dirname "$0")/lib/tap.sh"

command -v perl >/dev/null || skip_all "perl is not installed"
tap_tmpdir
ms=$TS_TOP/tests/mutation.sh

rc=0
MUTATION_CHECK_ONLY=1 sh "$ms" >"$TAP_TMP/out" 2>"$TAP_TMP/err" || rc=$?
is "$rc" 0 "every line of tests/mutations.txt applies (mutation.sh, MUTATION_CHECK_ONLY=1)"
[ "$rc" -eq 0 ] || sed 's/^/#   /' "$TAP_TMP/err" >&2
n=$(grep -cv -e '^#' -e '^$' "$TS_TOP/tests/mutations.txt")
ok "$([ "$n" -ge 60 ] && echo 0 || echo 1)" "the list holds $n mutations (at least 60)"

# One line that no longer applies, among good ones: named, and nothing is built or run.
{
	grep -v -e '^#' -e '^$' "$TS_TOP/tests/mutations.txt" | head -2
	printf 'gone\tanalysis/cli/cmd_compare.c\tthis text is not in the file\tx\tcompare.t\tnote\n'
} >"$TAP_TMP/list.txt"
rc=0
MUTATION_LIST=$TAP_TMP/list.txt MUTATION_CHECK_ONLY=1 sh "$ms" >"$TAP_TMP/out" \
	2>"$TAP_TMP/err" || rc=$?
is "$rc" 1 "a line whose text is not found: exit 1"
grep -qF "list.txt:3: gone: INVALID: analysis/cli/cmd_compare.c: the text to replace was found 0 times" \
	"$TAP_TMP/err"
ok $? "it is named with its line and why"
grep -q 'nothing was run' "$TAP_TMP/err" && [ ! -s "$TAP_TMP/out" ]
ok $? "and nothing was run"
tap_done
