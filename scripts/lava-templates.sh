#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# lava-server's device-type templates (base.jinja2, base-uboot.jinja2, qemu.jinja2, ...), of the
# version of the installed lava-dispatcher: Debian's lava-server package downloaded once with
# apt-get download and unpacked into .cache/ (never installed: it would bring a database and
# a web server). tests/lava-jobs.t renders device dictionaries with them.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
case "${1:-}" in
-h | --help)
	cat <<USAGE
usage: $0
Print the folder of lava-server's device-type templates, unpacked (dpkg -x) from Debian's
lava-server package of the installed lava-dispatcher's version into
$top/.cache/lava-server-<version>/ on first use. Exit 3 when it cannot be had.
USAGE
	exit 0
	;;
esac
die() {
	echo "lava-templates: $*" >&2
	exit 3
}
ver=$(dpkg-query -W -f '${Version}' lava-dispatcher 2>/dev/null) ||
	die "lava-dispatcher is not installed (boards/packages)"
root=$top/.cache/lava-server-$ver
dir=$root/usr/share/lava-server/device-types
if [ -f "$root/.tickscope-extracted" ]; then
	echo "$dir"
	exit 0
fi
mkdir -p "$top/.cache"
tmp=$(mktemp -d "$top/.cache/lava-server.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && apt-get download -qq "lava-server=$ver" >/dev/null 2>&1) ||
	die "apt-get download lava-server=$ver failed"
dpkg -x "$tmp"/lava-server_*.deb "$tmp/root" || die "cannot unpack lava-server"
[ -f "$tmp/root/usr/share/lava-server/device-types/base-uboot.jinja2" ] ||
	die "no device-types/base-uboot.jinja2 in lava-server $ver"
touch "$tmp/root/.tickscope-extracted"
rm -rf "$root"
mv "$tmp/root" "$root"
echo "$dir"
