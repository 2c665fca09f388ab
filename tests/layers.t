#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The layering rules of analysis/README.md ("Layers, lowest first: ..."), enforced on the built
# objects (who takes which names from whom, by nm) and the #include lines: no file takes names
# from a layer above it or includes another folder's private header, and no files take names
# from each other in a circle, except the circles tests/layers.allowed lists with a reason.
. "$(dirname "$0")/lib/tap.sh"

command -v nm >/dev/null 2>&1 || skip_all "nm (binutils) is not installed"
command -v perl >/dev/null 2>&1 || skip_all "perl is not installed"
[ -f "$TS_BUILD/analysis/model/analysis.o" ] || skip_all "$TS_BUILD has no objects (make all)"
tap_tmpdir
allowed=$TS_TOP/tests/layers.allowed

# The checker itself, on a tree made here: a model that includes a report's private header,
# takes a report's name and takes names from a model that takes one of its own back.
fake=$TAP_TMP/fake
mkdir -p "$fake/analysis/model" "$fake/analysis/report" "$fake/analysis/include" \
	"$fake/build/analysis/model" "$fake/build/analysis/report"
cp "$TS_TOP/analysis/README.md" "$fake/analysis/"
echo 'int rp_draw(void);' >"$fake/analysis/report/report_priv.h"
printf '%s\n' '#include "report/report_priv.h"' 'int m_b(void);' \
	'int m_a(void) { return m_b() + rp_draw(); }' >"$fake/analysis/model/a.c"
printf 'int m_a(void);\nint m_b(void) { return 1; }\nint m_c(void) { return m_a(); }\n' \
	>"$fake/analysis/model/b.c"
printf '#include "report_priv.h"\nint rp_draw(void) { return 2; }\n' >"$fake/analysis/report/draw.c"
rc=0
for f in model/a model/b report/draw; do
	cc -c -I"$fake/analysis" -o "$fake/build/analysis/$f.o" "$fake/analysis/$f.c" || rc=1
done
ok $rc "the checker's own test tree compiles"
perl "$TS_TOP/scripts/layers.pl" "$fake" "$fake/build" >"$TAP_TMP/fake.out" 2>&1
grep -v '^#' "$TAP_TMP/fake.out" | sort >"$TAP_TMP/fake.got"
cat >"$TAP_TMP/fake.want" <<EOF
circle: names: model/a.c model/b.c
include: model/a.c: "report/report_priv.h" is a private header of report/
uses: model/a.c takes rp_draw from report/draw.c, a layer above
EOF
is "$(cat "$TAP_TMP/fake.got")" "$(cat "$TAP_TMP/fake.want")" \
	"the checker finds a wrong include, a name from a layer above and a circle"
grep -qx '#   model/b.c takes m_a from model/a.c' "$TAP_TMP/fake.out"
ok $? "a circle names who takes what from whom"

# The tree.
if ! perl "$TS_TOP/scripts/layers.pl" "$TS_TOP" "$TS_BUILD" >"$TAP_TMP/out" 2>"$TAP_TMP/err"; then
	ok 1 "scripts/layers.pl reads the tree"
	sed 's/^/# /' "$TAP_TMP/err"
	tap_done
	exit
fi
ok 0 "scripts/layers.pl reads the tree"
grep -v '^#' "$TAP_TMP/out" >"$TAP_TMP/found"
while IFS= read -r line; do
	grep -qxF "$line" "$allowed"
	r=$?
	ok $r "allowed: $line"
	# What the finding is made of, for the one who has to fix it.
	[ $r -eq 0 ] || awk -v l="$line" '$0 == l { on = 1; next } !/^#/ { on = 0 } on' \
		"$TAP_TMP/out"
done <"$TAP_TMP/found"

# Every entry of the list still happens (a circle broken comes off it) and gives its reason.
awk '/^#/ { why = 1; next } NF { print (why ? "y" : "n") "\t" $0 } { why = 0 }' "$allowed" \
	>"$TAP_TMP/entries"
while IFS="$(printf '\t')" read -r why line; do
	grep -qxF "$line" "$TAP_TMP/found"
	ok $? "still found: $line"
	[ "$why" = y ]
	ok $? "explained above its line in tests/layers.allowed: $line"
done <"$TAP_TMP/entries"
tap_done
