#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# What a new user reaches for: make help, make install (CLI, plugin, man page) into a
# DESTDIR, man tickscope, make uninstall, and --version in the top-level help. The man page
# names every option each command's --help lists.
. "$(dirname "$0")/lib/tap.sh"

tap_tmpdir
T=$TAP_TMP
make -s -C "$TS_TOP" help >"$T/help" 2>&1
ok $? "make help runs"
miss=""
for w in all demo check install uninstall fuzz kernel-config record PREFIX DESTDIR SANITIZE V=1 \
	FUZZ_TIME mutation tickscope-arm64 BASE KSRC_B build/tickscope; do
	grep -q -- "$w" "$T/help" || miss="$miss $w"
done
is "$miss" "" "make help lists the targets and their variables"

"$TICKSCOPE" --help >"$T/top" 2>&1
grep -q -- "--version" "$T/top"
ok $? "tickscope --help mentions --version"

man=$TS_TOP/docs/man/tickscope.1
miss=""
cmds=$("$TICKSCOPE" --help | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z]*\) .*/\1/p')
is "$(echo $cmds)" "info dump report compare summary plot record" \
	"tickscope --help lists the commands"
for c in $cmds; do
	grep -q "^\.B $c\$" "$man" || miss="$miss $c"
	for o in $("$TICKSCOPE" $c --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
		[ "$o" = --ns ] && continue # perf script's option, quoted in dump's help
		grep -q -- "$(printf '%s' "$o" | sed 's/-/\\\\-/g')" "$man" || miss="$miss $c:$o"
	done
done
is "$miss" "" "the man page has every command and names every option its --help lists"
if command -v man >/dev/null; then
	w=$(LC_ALL=C.UTF-8 MANWIDTH=100 man --warnings -l "$man" 2>&1 >/dev/null)
	is "$w" "" "man renders tickscope.1 without warnings"
fi

# tickscope --help sends a user who has not installed to the page in the tree
"$TICKSCOPE" --help | tr '\n' ' ' | grep -q 'in the source tree, man -l docs/man/tickscope\.1)' &&
	[ -f "$TS_TOP/docs/man/tickscope.1" ]
ok $? "tickscope --help says how to read the man page before make install"

# install builds what it installs, not all's unit tests (after make demo they took a new user
# five minutes): with the unit tests' header as new, -n lists no build of build*/tests/
n=$(make -n -W tests/lib/tap.h -C "$TS_TOP" install DESTDIR="$T/root" PREFIX=/usr 2>&1 |
	grep -c '/tests/[a-z0-9_]*\.t')
is "$n" 0 "make install builds no unit test"
# nor do the board targets that need only the CLI: make bisect without PATCHES= built the 70
# unit tests before it said that PATCHES= is required
for t in experiment bisect lava-collect; do
	n=$(make -n -W tests/lib/tap.h -C "$TS_TOP" $t 2>&1 | grep -c '/tests/[a-z0-9_]*\.t')
	is "$n" 0 "make $t builds no unit test"
done
make -s -C "$TS_TOP" install DESTDIR="$T/root" PREFIX=/usr >"$T/inst" 2>&1
ok $? "make install DESTDIR=... PREFIX=/usr"
for f in bin/tickscope lib/tickscope/tickscope.so share/man/man1/tickscope.1 \
	lib/traceevent/plugins/plugin_tickscope.so; do
	[ -f "$T/root/usr/$f" ]
	ok $? "make install wrote $f"
done
if command -v man >/dev/null; then
	MANPATH="$T/root/usr/share/man" man -w tickscope >/dev/null 2>&1
	ok $? "man finds the installed page"
fi
make -s -C "$TS_TOP" uninstall DESTDIR="$T/root" PREFIX=/usr >"$T/uninst" 2>&1
ok $? "make uninstall"
is "$(find "$T/root" -type f | wc -l)" 0 "make uninstall removes every file install wrote"
is "$(cd "$T/root" && find . -mindepth 1 | sort | tr '\n' ' ')" "./usr " \
	"make uninstall removes the folders install made (under DESTDIR)"
make -s -C "$TS_TOP" uninstall DESTDIR="$T/root" PREFIX=/usr >"$T/uninst2" 2>&1
ok $? "make uninstall a second time succeeds"
is "$(grep -v '^rm -f' "$T/uninst2")" "" "make uninstall a second time prints no error"

tap_done
