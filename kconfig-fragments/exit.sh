# SPDX-License-Identifier: GPL-2.0-only
# Sourced by kernel-config.sh and two-trees.sh (after setting ts_prog): their exit status is
# one of the documented codes (0 OK, 1 a purpose dropped, 2 usage or a bad fragment, 3 tree or
# toolchain unusable) and nothing else. A deliberate exit goes through leave(); anything else
# that ends the script with a non-zero status (a step failing under set -e, a crash of the
# checker, SIGINT/SIGTERM/SIGHUP) gives no verdict: it is said, and the status is 3.
ts_left=
leave() {
	ts_left=1
	exit "$1"
}
# leave_tool RC: the checker's status, passed through when it is a documented code; a crash
# (128 + signal) or any other status is an internal error: 3, saying so.
leave_tool() {
	[ "$1" -le 3 ] || {
		if [ "$1" -gt 128 ]; then
			printf '%s: internal error: the checker was killed by signal %s; no verdict\n' \
				"$ts_prog" $(($1 - 128)) >&2
		else
			printf '%s: internal error: the checker exited %s; no verdict\n' "$ts_prog" \
				"$1" >&2
		fi
		leave 3
	}
	leave "$1"
}
ts_on_exit() {
	st=$1
	[ -n "$ts_left" ] || [ "$st" -eq 0 ] || {
		printf '%s: internal error: a step failed with status %s; no verdict\n' "$ts_prog" \
			"$st" >&2
		ts_left=1
		exit 3
	}
}
trap 'ts_on_exit $?' EXIT
trap 'printf "%s: interrupted; no verdict\n" "$ts_prog" >&2; leave 3' INT TERM HUP
