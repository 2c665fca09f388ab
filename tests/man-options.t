#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The man page lists exactly the options each command accepts: per command, the options its
# SYNOPSIS and OPTIONS entries name (tests/lib/man-options.pl) are those its --help names, and
# those are the ones the command takes. The oracle of "takes" is the command itself: every
# option any of them names is given to every command, and an option it does not know is its
# one "unknown option" line.
. "$(dirname "$0")/lib/tap.sh"

[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
command -v perl >/dev/null || skip_all "perl not installed"
tap_tmpdir
T=$TAP_TMP
man=$TS_TOP/docs/man/tickscope.1
mo=$TS_TOP/tests/lib/man-options.pl

cmds=$("$TICKSCOPE" --help | sed -n '/^commands:/,/^$/s/^  \([a-z][a-z]*\) .*/\1/p')
is "$(echo $cmds)" "info dump report compare summary plot record" \
	"tickscope --help lists the seven commands"

perl "$mo" man "$man" | LC_ALL=C sort >"$T/man"
ok $? "man-options.pl reads tickscope.1"
: >"$T/help"
for c in $cmds; do
	"$TICKSCOPE" $c --help >"$T/help-$c" 2>&1
	ok $? "tickscope $c --help exits 0"
	perl "$mo" help $c "$T/help-$c" >>"$T/help"
done
LC_ALL=C sort -o "$T/help" "$T/help"

# Every option named anywhere, given alone to every command in an empty folder with no input:
# the command either knows it (whatever it then says: a value missing, no input, no variant)
# or says "unknown option". record is given no -e, so it records nothing.
cut -f2 "$T/man" "$T/help" | LC_ALL=C sort -u >"$T/all"
mkdir "$T/empty"
: >"$T/takes"
for c in $cmds; do
	while read -r o; do
		(cd "$T/empty" && "$TICKSCOPE" $c "$o" </dev/null >/dev/null 2>"$T/err")
		grep -q "unknown option" "$T/err" || printf '%s\t%s\n' "$c" "$o" >>"$T/takes"
	done <"$T/all"
done
LC_ALL=C sort -o "$T/takes" "$T/takes"
is "$(ls "$T/empty")" "" "no command left a file in the folder it was run in"

for c in $cmds; do
	m=$(awk -v c=$c '$1 == c { print $2 }' "$T/man" | tr '\n' ' ')
	h=$(awk -v c=$c '$1 == c { print $2 }' "$T/help" | tr '\n' ' ')
	# getopt's abbreviations (record --out for --output) are no options of their own
	t=$(awk -v c=$c '$1 == c { print $2 }' "$T/takes" | while read -r o; do
		awk -v c=$c -v o="$o" '$1 == c && $2 == o { e++ }
			$1 == c && index($2, o) == 1 { p++ } END { exit !(e || !p) }' "$T/help" &&
			echo "$o"
	done | tr '\n' ' ')
	[ -n "$m" ]
	ok $? "tickscope(1) names options of $c"
	is "$m" "$h" "tickscope(1)'s options of $c are those $c --help names"
	is "$h" "$t" "$c --help names exactly the options $c takes"
done

# Each command's SYNOPSIS has every option of its --help usage lines (report's --interval,
# compare's --bench and plot's filters were only in OPTIONS)
perl "$mo" synopsis "$man" >"$T/synopsis"
for c in $cmds; do
	miss=$(perl "$mo" usage $c "$T/help-$c" | grep -vxFf "$T/synopsis" | cut -f2 | tr '\n' ' ')
	is "$miss" "" "tickscope(1)'s SYNOPSIS of $c has the options of $c --help's usage"
done

# The README's commands table: each `tickscope CMD ...` cell names options CMD takes
miss="" n=0
for c in $cmds; do
	for o in $(grep "^| \`tickscope $c " "$TS_TOP/README.md" | sed 's/\\|/ /g' | cut -d'|' -f2 |
		grep -oE -- '(^|[^a-zA-Z-])--?[a-zA-Z][a-zA-Z-]*' | sed 's/^[^-]*//'); do
		n=$((n + 1))
		grep -qx "$c	$o" "$T/help" || miss="$miss $c:$o"
	done
done
[ $n -gt 20 ]
ok $? "the README's commands table names options ($n)"
is "$miss" "" "every option the README's commands table gives a command is one it takes"

# The docs: each `tickscope CMD ...` code span names options CMD takes
miss="" n=0
for f in "$TS_TOP"/README.md "$TS_TOP"/docs/*.md "$TS_TOP"/*/README.md; do
	grep -oE -- '`tickscope [a-z]+[^`]*`' "$f" | sed 's/\\|/ /g' >"$T/spans"
	while read -r _ c rest; do
		case " $(echo $cmds) " in *" $c "*) ;; *) continue ;; esac
		for o in $(echo " $rest" | grep -oE -- '[ [(]--?[a-zA-Z][a-zA-Z-]*' | sed 's/^.//'); do
			n=$((n + 1))
			grep -qx "$c	$o" "$T/help" || miss="$miss ${f#"$TS_TOP"/}:$c:$o"
		done
	done <"$T/spans"
done
[ $n -gt 40 ]
ok $? "the docs' tickscope code spans name options ($n)"
is "$miss" "" "every option a doc's tickscope code span gives a command is one it takes"

# ENVIRONMENT: every variable the CLI and the plugin read (getenv in analysis/ and plugin/) is
# named there, but the tests' own switch
sed -n '/^\.SH ENVIRONMENT/,/^\.SH /p' "$man" >"$T/env"
miss="" n=0
for v in $(grep -rhoE 'getenv\("[A-Z_]+"\)' "$TS_TOP/analysis" "$TS_TOP/plugin" |
	sed 's/getenv("\(.*\)")/\1/' | LC_ALL=C sort -u); do
	n=$((n + 1))
	[ "$v" = TS_PROBE_CRASH ] && continue # tracedata.c: the tests' crash switch
	grep -q "$v" "$T/env" || miss="$miss $v"
done
is "$miss" "" "tickscope(1)'s ENVIRONMENT names the $n variables the code reads"

# The dlfilter plugin's --dlarg ARGs: tickscope(1)'s THE PERF PLUGIN entries, the plugin's own
# --dlarg help, docs/plugin.md's table, and what the plugin takes (an ARG it does not know is
# its "unknown --dlarg" line), each as NAME or NAME=
PLUGIN=$TS_BUILD/tickscope.so
sed -n '/^\.SH THE PERF PLUGIN/,/^\.SH /{/^\.TP/{n;p}}' "$man" |
	sed 's/^\.BI* //; s/\(=\).*/\1/' | LC_ALL=C sort >"$T/man-dlargs"
sed -n '/^| `--dlarg` |/,/^$/p' "$TS_TOP/docs/plugin.md" | cut -d'|' -f2 |
	grep -o '`[a-z][a-z]*=*' |
	tr -d '`' | LC_ALL=C sort >"$T/doc-dlargs"
if ! command -v perf >/dev/null; then
	skip "the plugin's --dlarg list" "perf is not installed"
else
	. "$TS_TOP/tests/fixtures/fixtures.sh"
	tiny=$(fixture_data x86-tiny)
	tap_sanitized_perf # under SANITIZE=1, perf loads the sanitized plugin only with its runtimes
	perf script -i "$tiny" --dlfilter "$PLUGIN" --dlarg help >/dev/null 2>"$T/plugin-help"
	sed -n '/^ARG is one of:/,$s/^  \([a-z][a-z]*=*\).*/\1/p' "$T/plugin-help" | LC_ALL=C sort \
		>"$T/help-dlargs"
	is "$(cat "$T/man-dlargs" | tr '\n' ' ')" "$(cat "$T/help-dlargs" | tr '\n' ' ')" \
		"tickscope(1)'s --dlarg ARGs are those the plugin's --dlarg help names"
	is "$(cat "$T/doc-dlargs" | tr '\n' ' ')" "$(cat "$T/help-dlargs" | tr '\n' ' ')" \
		"docs/plugin.md's --dlarg table has the same ARGs"
	: >"$T/takes-dlargs"
	for a in $(LC_ALL=C sort -u "$T/man-dlargs" "$T/help-dlargs" "$T/doc-dlargs") bogus; do
		case $a in
		top= | ops=) v=${a}3 ;;
		input=) v=$a$tiny ;;
		*=) v=$a$T/dlarg-file ;;
		*) v=$a ;;
		esac
		perf script -i "$tiny" --dlfilter "$PLUGIN" --dlarg "$v" >/dev/null 2>"$T/err"
		grep -q "unknown --dlarg" "$T/err" || echo "$a" >>"$T/takes-dlargs"
	done
	is "$(LC_ALL=C sort "$T/takes-dlargs" | tr '\n' ' ')" \
		"$(cat "$T/help-dlargs" | tr '\n' ' ')" \
		"the plugin takes exactly the ARGs its help names"
fi

tap_done
