#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Sanitized binaries run with the project's LeakSanitizer suppressions wherever the project
# runs them (make check SANITIZE=1, make fuzz), and the suppressions name the upstream
# library function they cover, so that leaks of our own still show.
. "$(dirname "$0")/lib/tap.sh"

supp=$TS_TOP/tests/lsan.supp
grep -qx 'leak:tep_parse_event' "$supp" 2>/dev/null
ok $? "tests/lsan.supp suppresses exactly libtraceevent's tep_parse_event"
is "$(sed 's/#.*//' "$supp" 2>/dev/null | sed '/^ *$/d' | grep -cv '^leak:tep_')" 0 \
	"tests/lsan.supp holds no suppression outside libtraceevent's tep_* functions"

# the suppressions match a frame by its function name: without a symbolizer a stack is bare
# addresses and libtraceevent's leak fails every sanitized run (tests/packages: llvm)
command -v llvm-symbolizer >/dev/null
ok $? "llvm-symbolizer is on PATH, so that the suppressions can match a function name"

command -v make >/dev/null || { tap_done; exit; }
make -n -s -C "$TS_TOP" check SANITIZE=1 PROVE=true 2>/dev/null >"${TMPDIR:-/tmp}/ts-san.$$"
tr -d "\\\\\n\t" <"${TMPDIR:-/tmp}/ts-san.$$" |
	grep -q "LSAN_OPTIONS=suppressions='$TS_TOP/tests/lsan.supp' *true --exec"
ok $? "make check SANITIZE=1 runs every test with tests/lsan.supp"
make -n -s -C "$TS_TOP" fuzz FUZZ_TIME=1 2>/dev/null |
	grep -q 'LSAN_OPTIONS=suppressions=tests/lsan.supp'
ok $? "make fuzz runs the fuzz target with tests/lsan.supp"
rm -f "${TMPDIR:-/tmp}/ts-san.$$"
if [ "${SANITIZE:-}" = 1 ]; then
	case "${LSAN_OPTIONS:-}" in
	*"suppressions=$supp"*) ok 0 "this sanitized run has the suppressions" ;;
	*) ok 1 "this sanitized run has the suppressions (LSAN_OPTIONS='${LSAN_OPTIONS:-}')" ;;
	esac
fi

tap_done
