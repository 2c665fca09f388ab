# SPDX-License-Identifier: GPL-2.0-only
# TAP helpers for shell tests; source it. Each test prints "ok N - name" lines and ends with
# tap_done. Tests needing root/tracefs/qemu call skip_all with the reason.

: "${TS_TOP:=$(cd "$(dirname "$0")/.." && pwd)}"
while [ ! -f "$TS_TOP/Makefile" ] && [ "$TS_TOP" != / ]; do TS_TOP=$(dirname "$TS_TOP"); done
: "${TS_BUILD:=$TS_TOP/build}"
# A test that runs make must see what a user's shell gives it, not the `make check` it runs
# under: its MAKEFLAGS and MAKELEVEL turn "make: ***" lines into "make[2]: ***" ones and pass
# make check's own options down.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES
TICKSCOPE="$TS_BUILD/tickscope"
# The source's threads whatever the machine's load (ts_source_spare_cpu()), so that every run
# of the tests takes the same paths; a test of the one-thread path sets TS_THREADS=0.
: "${TS_THREADS:=1}"
export TS_THREADS
# A hang guard, not a time limit: a command that can hang (a browser, a decoder fed damaged
# input, a fuzzed input) is stopped after this many seconds so that a hang fails its test
# rather than the whole run, far above what the slowest machine needs. No test limits time:
# speed is `make bench`.
: "${TS_HANG_GUARD:=600}"
_tap_n=0
_tap_failed=0

_tap_result() {
	# _tap_result STATUS NAME: one "ok"/"not ok" line
	_tap_n=$((_tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $_tap_n - $2"
	else
		echo "not ok $_tap_n - $2"
		_tap_failed=$((_tap_failed + 1))
	fi
}

ok() {
	# ok CONDITION_EXIT_STATUS NAME; a failure says on stderr (which prove shows without -v)
	# what was checked and what came
	_tap_result "$1" "$2"
	[ "$1" -eq 0 ] || _tap_explain "$1" "$2" >&2
}

# The check behind a failed `ok $? NAME` (or `ok $var NAME`), found in the test script by its
# name (variables in the script's name match anything): its lines back to the previous blank
# line or test (seven at most), and the last lines of each data file they name under a variable
# ("$tmp/log"), which is usually what the check read. A name that matches no call in the script gives no lines.
_tap_explain_awk='
function quoted(s,   i, c, out, esc) {
	i = index(s, "\"")
	if (!i) return ""
	for (i++; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (esc) { out = out c; esc = 0; continue }
		if (c == "\\") { esc = 1; continue }
		if (c == "\"") return out
		out = out c
	}
	return out
}
function pattern(q,   i, c, out, depth, close_) {
	out = "^"
	for (i = 1; i <= length(q); i++) {
		c = substr(q, i, 1)
		if (c == "$") {
			c = substr(q, i + 1, 1)
			if (c == "{" || c == "(") {
				close_ = c == "{" ? "}" : ")"
				depth = 0
				for (i++; i <= length(q); i++) {
					c = substr(q, i, 1)
					if (c == "{" || c == "(") depth++
					else if ((c == "}" || c == ")") && --depth == 0) break
				}
			} else if (c ~ /[A-Za-z_]/) {
				while (substr(q, i + 1, 1) ~ /[A-Za-z0-9_]/) i++
			} else {
				i++
			}
			out = out ".*"
		} else if (c ~ /[][\\.^$*+?(){}|\/]/) {
			out = out "\\" c
		} else {
			out = out c
		}
	}
	return out "$"
}
{ L[NR] = $0 }
END {
	for (i = 1; i <= NR; i++) {
		if (L[i] !~ /(^|[;&|[:space:]])ok "?\$[{]?[?A-Za-z_]/) continue
		t = substr(L[i], match(L[i], /ok "?\$/))
		if (t ~ /\\$/ && i < NR) t = t L[i + 1]
		q = quoted(t)
		if (q == "" || name !~ pattern(q)) continue
		for (j = i - 1; j > 0 && i - j < 8; j--)
			if (L[j] ~ /^[[:space:]]*$/ || L[j] ~ /^[[:space:]]*#/ ||
			    L[j] ~ /(^|[;&|[:space:]])(ok|is|skip) /) break
		printf "#   the check, %s:%d:\n", file, j + 1
		for (j++; j <= i; j++) print "#     " L[j]
		exit
	}
}'

_tap_explain() {
	echo "#   exit status $1"
	_tap_src=$0
	[ -f "$_tap_src" ] || return 0
	_tap_chk=$(awk -v name="$2" -v file="${_tap_src#"$TS_TOP"/}" "$_tap_explain_awk" "$_tap_src" \
		2>/dev/null) || return 0
	[ -n "$_tap_chk" ] || return 0
	printf '%s\n' "$_tap_chk"
	# The files it read, by the names the script gave them: only "$var/path" words, so that
	# expanding them runs nothing.
	printf '%s\n' "$_tap_chk" | grep -o '"\$[{]*[A-Za-z_][A-Za-z0-9_]*[}]*/[A-Za-z0-9._/+-]*"' | sort -u |
		while IFS= read -r _tap_w; do
			eval "_tap_f=$_tap_w"
			# shellcheck disable=SC2154 # set by the eval
			case $_tap_f in *.sh | *.t | *.c | *.h | *.pl | *.py) continue ;; esac
			[ -f "$_tap_f" ] && [ -s "$_tap_f" ] && grep -qI . "$_tap_f" || continue
			echo "#   what came: the last lines of $_tap_w:"
			tail -n 6 "$_tap_f" | cut -c1-200 | sed 's/^/#     /'
		done
}

is() {
	# is GOT WANT NAME
	if [ "$1" = "$2" ]; then
		_tap_result 0 "$3"
	else
		_tap_result 1 "$3"
		# on stderr, as Test::More's: prove shows it without -v
		echo "#   got:  '$1'" >&2
		echo "#   want: '$2'" >&2
	fi
}

diag() {
	# every line of a message a comment, so a multi-line diag stays TAP
	printf '%s\n' "$*" | sed 's/^/# /'
}

skip() {
	# skip NAME REASON: one test that cannot run here, said so
	_tap_n=$((_tap_n + 1))
	echo "ok $_tap_n - $1 # SKIP $2"
}

skip_all() {
	echo "1..0 # SKIP $*"
	exit 0
}

tap_done() {
	echo "1..$_tap_n"
	[ "$_tap_failed" -eq 0 ]
}

# A scratch folder removed on exit, in $TAP_TMP. Call it directly, not as $(tap_tmpdir): the
# EXIT trap of a command substitution's subshell would remove the folder at once.
# compare's summary cache goes there too (TS_SUMMARY_CACHE): each test starts with none, and
# none is left in the user's ~/.cache; so do the probe markers (TS_FORMATS_CACHE) unless the
# caller (make check) names their folder.
tap_tmpdir() {
	TAP_TMP=$(mktemp -d "${TMPDIR:-/tmp}/tickscope-test.XXXXXX")
	trap 'rm -rf "$TAP_TMP"' EXIT
	TS_SUMMARY_CACHE=$TAP_TMP/summary-cache
	: "${TS_FORMATS_CACHE:=$TAP_TMP/formats-cache}"
	export TS_SUMMARY_CACHE TS_FORMATS_CACHE
}

# The file compare caches for the trace PATH in $TS_SUMMARY_CACHE, with SUFFIX (.tsum, .tplot):
# named by the sha256 of the trace's absolute path.
summary_cache_file() {
	printf '%s/%s%s\n' "$TS_SUMMARY_CACHE" \
		"$(printf %s "$(realpath "$1")" | sha256sum | cut -c1-64)" "$2"
}

# The CPUs this process may run on, one a line: its affinity (taskset, a container's cpuset),
# which may be fewer than the machine's online CPUs (getconf _NPROCESSORS_ONLN) and need not
# start at 0.
tap_cpus_allowed() {
	sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status | tr ',' '\n' |
		awk -F- 'NF { for (c = $1; c <= ($2 == "" ? $1 : $2); c++) print c }'
}

# Skip all unless this machine can record tracepoints system-wide: root, perf, and tracefs,
# mounted here if need be, at $TRACEFS; with an argument, the kernel must have that event.
tap_need_tracing() {
	TRACEFS=/sys/kernel/tracing
	[ "$(id -u)" = 0 ] || skip_all "needs root to record tracepoints system-wide"
	command -v perf >/dev/null || skip_all "perf not installed (Debian package linux-perf)"
	if [ ! -r "$TRACEFS/available_events" ]; then
		mount -t tracefs nodev "$TRACEFS" 2>/dev/null ||
			skip_all "tracefs is not mounted and cannot be mounted on $TRACEFS"
	fi
	[ -z "${1:-}" ] || grep -q "^$1\$" "$TRACEFS/available_events" ||
		skip_all "the kernel has no $1 tracepoint"
}

# The aarch64 fixtures of tests/fixtures/aarch64/, decompressed once into a git-ignored cache.
shared_fixture() {
	_src="$TS_TOP/tests/fixtures/aarch64/$1.xz"
	_dst="$TS_TOP/.cache/shared-fixtures/$1"
	[ -f "$_src" ] || return 1
	if [ ! -f "$_dst" ]; then
		mkdir -p "$(dirname "$_dst")"
		xz -dc "$_src" >"$_dst.tmp" && mv "$_dst.tmp" "$_dst"
	fi
	echo "$_dst"
}

# perf loading a sanitized plugin: under SANITIZE=1 the sanitizer runtimes must come first into
# perf (which is not built with them); perf's own allocations are not ours to leak-check.
tap_sanitized_perf() {
	[ "${SANITIZE:-}" = 1 ] || return 0
	SAN_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)"
	perf() {
		LD_PRELOAD="$SAN_PRELOAD" ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}" \
			command perf "$@"
	}
}
