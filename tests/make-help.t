#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make help lists every user target, every target it lists exists, and so does every `make X`
# the README names (and make help lists it). The oracle of "exists" is make's own database
# (make -p): the targets with rules, from the Makefile and every folder's *.mk.
. "$(dirname "$0")/lib/tap.sh"

tap_tmpdir
T=$TAP_TMP
# the build's internal steps, which no user runs by name: the tests' extra products
# (check-build-extra and what it is made of) and install's plugin half
internal="FORCE check-build-extra fuzz-build install-plugin kconfig-ksrc"

make -s -C "$TS_TOP" help >"$T/help" 2>&1
ok $? "make help runs"
# the target column of "targets:": lines with two spaces before a name; names split at ", "
sed -n '/^targets:/,/^$/p' "$T/help" | sed -n 's/^  \([^ ].*\)$/\1/p' |
	sed 's/   */\t/' | cut -f1 | sed 's/ (default)//; s/, /\n/g' | LC_ALL=C sort -u >"$T/listed"
[ -s "$T/listed" ]
ok $? "make help has a targets list ($(wc -l <"$T/listed") names)"

make -pRrq -C "$TS_TOP" -f Makefile : 2>/dev/null | awk '
	/^# Not a target:/ { skip = 1; next }
	/^[a-zA-Z0-9_.%-]+:/ && !/^[^:]*:=/ && !/^\./ { if (!skip) { sub(/:.*/, ""); print } }
	{ skip = 0 }' | LC_ALL=C sort -u >"$T/rules"
grep -qx all "$T/rules" && grep -qx check "$T/rules"
ok $? "make -p lists the Makefile's targets ($(wc -l <"$T/rules") with rules)"

# exists NAME: a rule of that name, or <board>_defconfig: the pattern and a configs/ file
exists() {
	case $1 in
	'<board>_defconfig') grep -qx '%_defconfig' "$T/rules" &&
		ls "$TS_TOP"/configs/*_defconfig >/dev/null 2>&1 ;;
	*_defconfig) grep -qx '%_defconfig' "$T/rules" && [ -f "$TS_TOP/configs/$1" ] ;;
	*) grep -qx -- "$1" "$T/rules" ;;
	esac
}

miss=""
while read -r t; do
	exists "$t" || miss="$miss $t"
done <"$T/listed"
is "$miss" "" "every target make help lists has a rule"

miss=""
while read -r t; do
	case " $internal " in *" $t "*) continue ;; esac
	[ "$t" = %_defconfig ] && t='<board>_defconfig'
	grep -qx -- "$t" "$T/listed" || miss="$miss $t"
done <"$T/rules"
is "$miss" "" "make help lists every target but the build's internal steps ($internal)"

# `make X` in the README: in a code span or a code block (prose may say "make sure"); a span
# may go on over a line's end, and a block is a span between its fences' backquotes
tr '\n' ' ' <"$TS_TOP/README.md" | grep -o '`[^`]*`' | grep -o 'make [a-z<][a-zA-Z0-9_<>.-]*' |
	cut -d' ' -f2 | LC_ALL=C sort -u >"$T/readme"
miss="" unlisted=""
while read -r t; do
	exists "$t" || { miss="$miss $t"; continue; }
	case $t in
	*_defconfig) t='<board>_defconfig' ;;
	esac
	grep -qx -- "$t" "$T/listed" || unlisted="$unlisted $t"
done <"$T/readme"
is "$miss" "" "every one of the $(wc -l <"$T/readme") targets the README names exists"
is "$unlisted" "" "and make help lists it"

# Every check target runs its tests with the caches in the build folder: one left on the
# default (~/.cache/tickscope) shares it with every other tickscope on the machine. The oracle
# is make's own dry run of each check* rule (MAKE=: leaves the builds it would start undone).
bad="" seen=0 top=$(cd "$TS_TOP" && pwd -P)
for t in $(grep -x 'check[a-z-]*' "$T/rules"); do
	make -n -s -C "$TS_TOP" MAKE=: PROVE=PROVE-HERE BUILD=build TS_KCONFIG_TREES=4.4=DIR "$t" \
		2>/dev/null |
		sed -e :a -e '/\\$/N; s/\\\n//; ta' | grep PROVE-HERE >"$T/run" || continue
	seen=$((seen + 1))
	# each path one quoted shell word (a tree whose path has a blank)
	for v in TS_BUILD="'$top/build'" TS_KSYMS_CACHE="'$top/build/ksyms-cache'" \
		TS_FORMATS_CACHE="'$top/build/formats-cache'" \
		TS_SUMMARY_CACHE="'$top/build/summary-cache'"; do
		grep -qF -- "$v " "$T/run" || bad="$bad $t:${v%%=*}"
	done
done
[ "$seen" -ge 7 ]
ok $? "make -n shows the test command of $seen check targets"
is "$bad" "" "each runs its tests with this build's binaries and caches"

# A target run without the variables it needs says so in one line (make's own "*** [...] Error"
# line aside) and builds nothing first: in a fresh clone the CLI's build would come before the
# script's message. BUILD is an empty folder's name here: nothing may appear there.
bad=""
for t in experiment bisect kernel lava-jobs lava-collect check-kconfig-trees; do
	rm -rf "$T/b"
	(unset B A IN PATCHES KSRC VARIANT DEVICE_TYPE TS_KCONFIG_TREES
		make -s -C "$TS_TOP" BUILD="$T/b" CONFIG="$T/no.config" "$t" >"$T/need" 2>&1)
	rc=$? n=$(grep -vc '^make: \*\*\* \[' "$T/need")
	if [ "$rc" = 0 ] || [ "$n" != 1 ] || [ -e "$T/b" ] || ! grep -q '[A-Z_]=' "$T/need"; then
		bad="$bad $t(exit $rc, $n lines$([ -e "$T/b" ] && echo ", built"))"
		sed 's/^/#   /' "$T/need" | head -3
	fi
done
is "$bad" "" "a target without its variables says what it needs in one line, before any build"

tap_done
