#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Set-up for `make demo` and `make check`: install the Debian packages the project needs and the
# machine lacks. Lists: scripts/packages plus any <folder>/packages (one name a line, # comments).
set -eu
case "${1:-}" in
-h | --help)
	echo "usage: scripts/deps.sh [demo]"
	echo "Installs the Debian packages listed in scripts/packages and <folder>/packages that"
	echo "this machine lacks (apt-get update, then apt-get install; needs root). make check"
	echo "and make bench run it first. With 'demo' (make demo), only scripts/packages: the"
	echo "build and the demo. With nothing missing it does nothing. If another package manager"
	echo "holds the dpkg lock, apt waits for it up to TS_DPKG_LOCK_WAIT seconds (default 300)."
	exit 0
	;;
esac
top=$(cd "$(dirname "$0")/.." && pwd)
if [ "${1:-}" = demo ]; then
	lists="$top/scripts/packages"
else
	lists="$top/scripts/packages $(ls "$top"/*/packages 2>/dev/null | grep -v "^$top/scripts/" ||
		true)"
fi
want=$(cat $lists | sed 's/#.*//' | tr -s ' \t' '\n' | sed '/^$/d' | sort -u)

missing=""
for p in $want; do
	st=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)
	case "$st" in
	ii*) ;;
	*) missing="$missing $p" ;;
	esac
done
[ -z "$missing" ] && exit 0

echo "deps: missing Debian packages:$missing" >&2
if [ "$(id -u)" != 0 ]; then
	echo "deps: installing them needs root: run 'sudo make deps' or install them yourself" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
# Another package manager (unattended-upgrades, a second apt) may hold the dpkg lock: apt's own
# timeout waits for it, then the message says what happened.
wait=${TS_DPKG_LOCK_WAIT:-300}
lock_fail() {
	if grep -q -e 'Could not get lock' -e 'Unable to acquire the dpkg' "$1"; then
		echo "deps: another package manager held the dpkg lock for ${wait} s; run" \
			"'make deps' again when it is done (TS_DPKG_LOCK_WAIT=seconds waits longer)" >&2
	else
		echo "deps: apt-get $2 failed (above)" >&2
	fi
	exit 1
}
log=$(mktemp "${TMPDIR:-/tmp}/tickscope-deps.XXXXXX")
trap 'rm -f "$log"' EXIT
apt-get -o DPkg::Lock::Timeout="$wait" update -qq 2>"$log" ||
	{ cat "$log" >&2; lock_fail "$log" update; }
# shellcheck disable=SC2086
apt-get -o DPkg::Lock::Timeout="$wait" install -y -qq --no-install-recommends $missing \
	>&2 2>"$log" || { cat "$log" >&2; lock_fail "$log" install; }
