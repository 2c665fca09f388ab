#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Set-up for `make demo` and `make check`: install the Debian packages the project needs and the
# machine lacks. Lists: scripts/packages plus any <folder>/packages (one name a line, # comments).
set -eu
case "${1:-}" in
-h | --help)
	echo "usage: scripts/deps.sh"
	echo "Installs the Debian packages listed in scripts/packages and <folder>/packages that"
	echo "this machine lacks (apt-get update, then apt-get install; needs root). make demo,"
	echo "make check and make bench run it first; with nothing missing it does nothing."
	exit 0
	;;
esac
top=$(cd "$(dirname "$0")/.." && pwd)
lists="$top/scripts/packages $(ls "$top"/*/packages 2>/dev/null | grep -v "^$top/scripts/" || true)"
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
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >&2
