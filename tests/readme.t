#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The README's facts a new user relies on, held against the tree: the packages make demo
# installs, where the binary is, the fragment lines the kernel-config excerpt cites, and the
# report excerpt and the figures told after it, and the two compare excerpts of "What it says",
# from the bundled recordings (tests/lib/doc-check.pl excerpt).
. "$(dirname "$0")/lib/tap.sh"
. "$TS_TOP/tests/fixtures/fixtures.sh"

[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
command -v perl >/dev/null || skip_all "perl not installed"
tap_tmpdir
T=$TAP_TMP
readme=$TS_TOP/README.md

# make demo's row names every package of scripts/packages, and says how many
pk=$(grep -v '^#' "$TS_TOP/scripts/packages" | grep -c .)
row=$(grep '^| `make demo` | `scripts/packages` |' "$readme")
miss=""
for p in $(grep -v '^#' "$TS_TOP/scripts/packages"); do
	case $row in *"$p"*) ;; *) miss="$miss $p" ;; esac
done
is "$miss" "" "make demo's row in the README names every package of scripts/packages"
case $row in *"| $pk packages"*) ok 0 "and says how many: $pk" ;;
*) ok 1 "and says how many: $pk (the row: $(echo "$row" | cut -d'|' -f4))" ;; esac

# make check's row: how many names the other lists add, and those it names are in them
all=$(cat "$TS_TOP"/*/packages | sed 's/#.*//' | tr -s ' \t' '\n' | sed '/^$/d' | sort -u)
more=$(echo "$all" | grep -cvxF "$(sed 's/#.*//' "$TS_TOP/scripts/packages" | sed '/^$/d')")
row=$(grep '^| `make check` | every `\*/packages` |' "$readme")
case $row in *"| $more more names"*) ok 0 "make check's row says the other lists add $more names" ;;
*) ok 1 "make check's row says the other lists add $more names (the row: $(echo "$row" |
	cut -d'|' -f4))" ;; esac
miss=""
for p in $(echo "$row" | cut -d'|' -f4 | grep -o '`[a-z0-9.+-]*`' | tr -d '`'); do
	echo "$all" | grep -qxF "$p" || miss="$miss $p"
done
is "$miss" "" "the packages make check's row names are in the lists"
# the number of test files it tells: the shell tests and the C unit tests prove runs
n=$(($(find "$TS_TOP/tests" -name '*.t' | wc -l) + $(ls "$TS_TOP"/tests/unit/*.c | wc -l)))
grep -q "^\`make check\` runs $n test files" "$readme"
ok $? "the README says make check runs $n test files"

# .ci/run: the README's test command first, then only the emulated boards' checks
cmd=$(sed -n '/^## Two commands/,/^## /s/^\(make [a-z]*\) *# .* runs the TAP test suite.*/\1/p' \
	"$readme")
is "$cmd" "make check" "the README's test command is make check"
ci=$(grep -v '^#' "$TS_TOP/.ci/run" | grep -E '^(make|prove|sh|\.|[a-z/.]+\.sh)' | tr '\n' ',')
is "$ci" "$cmd,make check-boards,make check-experiment,make check-lava," \
	".ci/run runs the README's test command, then the emulated-board checks"

# the Layout table has every folder of the tree
miss=""
for d in $(cd "$TS_TOP" && find . -mindepth 1 -maxdepth 1 -type d ! -name .git ! -name .cache \
	! -name 'build*' ! -name results ! -name out ! -name bench | sed 's|^\./||' | LC_ALL=C sort); do
	grep -q "^| \`$d/\` |" "$readme" || miss="$miss $d/"
done
is "$miss" "" "the README's Layout table names every folder of the tree"

# "Recording the machine you are on": the folder make record writes, as boards/record.sh has it
p='`make record BOARD=[a-z0-9-]* WORKLOAD=[a-z-]* VARIANT=[a-z0-9]* RUNS=[0-9]*`'
rec=$(tr '\n' ' ' <"$readme" | grep -o "$p *records [a-z -]* into \`[^\`]*\`" | head -1)
dest=$(sed -n 's|^dest=\$results/\$board/\$variant/\$workload$|B V W|p' \
	"$TS_TOP/boards/record.sh")
is "$dest" "B V W" "boards/record.sh writes results/<board>/<variant>/<workload>"
b=$(echo "$rec" | sed -n 's/.*BOARD=\([^ ]*\).*/\1/p')
w=$(echo "$rec" | sed -n 's/.*WORKLOAD=\([^ ]*\).*/\1/p')
v=$(echo "$rec" | sed -n 's/.*VARIANT=\([^ ]*\).*/\1/p')
is "$(echo "$rec" | sed -n 's/.* into `\([^`]*\)`$/\1/p')" "results/$b/$v/$w/" \
	"README: make record BOARD=$b WORKLOAD=$w VARIANT=$v writes where record.sh puts it"
# then A against B: the compare it gives reads the folders make record VARIANT=a and =b write
cmp=$(tr '\n' ' ' <"$readme" | sed 's/  */ /g' | grep -o "record ... VARIANT=a\`, boot B, \
\`make record ... VARIANT=b\`, then \`tickscope compare [^\`]*\`" | sed 's/.*`tickscope/tickscope/')
is "${cmp%\`}" "tickscope compare results/$b/a/$w results/$b/b/$w" \
	"README: A against B compares the folders make record VARIANT=a and VARIANT=b write"
# tickscope info's lost events, as the README's comment says them
xz -dc "$TS_TOP/tests/fixtures/x86-pingpong-cross.data.xz" >"$T/lost.data"
q=$(sed -n 's/^tickscope info run.data *# "\([^"]*\)" says how many were lost, then per CPU$/\1/p' \
	"$readme")
[ -n "$q" ] && "$TICKSCOPE" info "$T/lost.data" | grep -q "^$q  *0 in LOST records, 0 in "
ok $? "README: tickscope info's \"${q:-?}\" line counts the lost events"

grep -q '`build/tickscope`' "$readme"
ok $? "the README says where the built binary is (build/tickscope)"

# every "NAME.config:N" the README cites is line N of that fragment, and sets the symbol the
# README's line names
bad=""
grep -o '^[a-z ]*CONFIG_[A-Z0-9_]*=[a-z0-9]* *[a-z0-9-]*\.config:[0-9]*' "$readme" |
	sed 's/^[a-z ]*\(CONFIG_[A-Z0-9_]*\)=[a-z0-9]* *\([a-z0-9-]*\.config\):\([0-9]*\)/\1 \2 \3/' \
	>"$T/cites"
while read -r sym frag line; do
	got=$(sed -n "${line}p" "$TS_TOP/kconfig-fragments/$frag" 2>/dev/null)
	case $got in "$sym="* | "# $sym is not set") ;; *) bad="$bad $frag:$line($sym; has '$got')" ;; esac
done <"$T/cites"
is "$bad" "" "the kernel-config excerpt's $(wc -l <"$T/cites") fragment lines are where it says"

# "What it says": both compare commands as the README writes them, run in a copy of the
# fixtures they name (compare caches each run's summary next to its trace)
kv=kernel-variants/qemu-aarch64-stress-ramfs-nohz-idle-vs-shrinker-srcu
mkdir -p "$T/tests/fixtures/kernel-variants" "$T/tests/fixtures/boards/x86-host"
cp -a "$TS_TOP/tests/fixtures/$kv" "$T/tests/fixtures/$kv" &&
	cp -a "$TS_TOP/tests/fixtures/boards/x86-host/ab" "$T/tests/fixtures/boards/x86-host/ab"
ok $? "a copy of the fixtures the compare excerpts name"
ab=tests/fixtures/boards/x86-host/ab
for cmd in "tickscope compare tests/fixtures/$kv/{nohz-idle,shrinker-srcu}" \
	"tickscope compare $ab/pingpong-same $ab/pingpong-cross"; do
	args=$(echo "${cmd#tickscope }" | sed 's|\([^ ]*\)/{\([^,]*\),\([^}]*\)}|\1/\2 \1/\3|')
	(cd "$T" && "$TICKSCOPE" $args >"$T/compare.txt" 2>"$T/compare.err")
	ok $? "$cmd"
	cp "$T/compare.txt" "$T/compare-${args##*/}.txt"
	perl "$TS_TOP/tests/lib/doc-check.pl" excerpt "$readme" "$cmd" "$T/compare.txt" >"$T/v"
	while IFS='	' read -r v t p; do
		[ "$v" = ok ]
		ok $? "README: $t is the real output${p:+ ($p)}"
	done <"$T/v"
done

# The runs a side "What it says" gives each of them, as compare counts them
flat=$(tr '\n' ' ' <"$readme" | sed 's/  */ /g')
runs() {
	r='s/^tickscope compare: .* (baseline, \([0-9]*\) runs) vs .* (\([0-9]*\) runs)$/\1 \2/p'
	sed -n "$r" "$1"
}
n=$(runs "$T/compare-shrinker-srcu.txt")
case $flat in *"SRCU grace period, ${n% *} stress-ng ramfs runs each"*) r=0 ;; *) r=1 ;; esac
[ "${n% *}" = "${n#* }" ]
ok $((r | $?)) "README: the kernel A/B's stress-ng runs each are compare's ($n)"
n=$(runs "$T/compare-pingpong-cross.txt")
q="ping-pong, ${n% *} runs pinned to one CPU (the baseline) against ${n#* } pinned to two"
case $flat in *"$q"*) r=0 ;; *) r=1 ;; esac
ok $r "README: the x86 ping-pong's runs a side are compare's ($n)"
# the changes in words it quotes after the x86 excerpt (some from rows the excerpt cuts with
# "..."): each is a change of that compare's ranked list
p=$(echo "$flat" | grep -o 'A change is said in words whatever.*(docs/compare.md, "Change")')
miss="" nq=0
for q in $(echo "$p" | grep -o '`([0-9.]*% [a-z]*)`\|`[0-9.]*% worse`\|`[0-9.]* pp [a-z]*`' |
	tr -d '`' | tr ' ' '_'); do
	q=$(echo "$q" | tr '_' ' ') nq=$((nq + 1))
	grep '^ *[0-9][0-9]*\. ' "$T/compare-pingpong-cross.txt" | grep -qF ", $q" ||
		miss="$miss '$q'"
done
[ -n "$p" ] && [ $nq -ge 3 ]
ok $? "README: the paragraph on the words of a change quotes $nq changes"
is "$miss" "" "README: the changes it quotes in words are the x86 compare's"

# "Benchmark outputs alone compare too": the command as the README gives it, and its figures
flat=$(tr '\n' ' ' <"$readme" | sed 's/  */ /g')
cmd=$(echo "$flat" | grep -o '`tickscope compare tests/fixtures/bench/[^`]*`' | head -1 |
	tr -d '`')
[ -n "$cmd" ] && (cd "$TS_TOP" && "$TICKSCOPE" ${cmd#tickscope } >"$T/seed.txt" 2>&1)
ok $? "README: ${cmd:-no tickscope compare of tests/fixtures/bench outputs}"
n='[0-9.]*'
p="say \`$n% worse\` in bogo ops/s (real time), and that $n of the $n µs by which the time per"
p="$p operation grew ($n%) are off-CPU time, which is why the usr+sys rate barely moved"
claim=$(echo "$flat" | grep -o "$p ($n -> $n)" | grep -o '[0-9][0-9.]*' | tr '\n' ' ')
# from the output: the headline's change, the off-CPU and total rows' change, the share, the rate
want=$(awk '/^B vs A: ramfs bogo ops\/s \(real time\)/ { for (i = 1; i <= NF; i++)
		if ($(i + 1) == "worse,") w = $i }
	/^  off-CPU \(wall - usr - sys\) +[0-9]/ { off = $NF == "-" ? $(NF - 1) : $NF }
	/^  total +[0-9]/ { tot = $(NF - 1) }
	/usr\+sys time\) went/ { for (i = 1; i <= NF; i++) if ($i == "->") r = $(i - 1) " " $(i + 1) }
	END { sub(/%/, "", w); sub(/,$/, "", r)
		printf "%s %s %s %.1f %s ", w, off, tot, 100 * off / tot, r }' "$T/seed.txt")
is "${claim:-none in the README}" "$want" \
	"README: the shrinker seed's outputs: the change, its off-CPU part, the rate"

# the report excerpt, from the bundled pinned-to-two-CPUs ping-pong
xz -dc "$TS_TOP/tests/fixtures/x86-pingpong-cross.data.xz" >"$T/pingpong-cross.data" &&
	xz -dc "$TS_TOP/tests/fixtures/x86-b0ab7601.kallsyms.xz" >"$T/x86.kallsyms"
ok $? "the bundled ping-pong recordings decompress"
k=$(sed -n 's/^kallsyms: //p' "$TS_TOP/tests/fixtures/x86-pingpong-cross.meta")
tr '\n' ' ' <"$readme" | grep -qF "xz -dc \$t/tests/fixtures/$k >x86.kallsyms"
ok $? "README: the x86.kallsyms it unpacks is the recording's own ($k)"
cmd='tickscope report pingpong-cross.data --kallsyms x86.kallsyms --top 4'
(cd "$T" && "$TICKSCOPE" ${cmd#tickscope } >"$T/cross.txt" 2>&1)
ok $? "$cmd"
perl "$TS_TOP/tests/lib/doc-check.pl" excerpt "$readme" "$cmd" "$T/cross.txt" >"$T/v"
ok $? "doc-check.pl excerpt runs"
while IFS='	' read -r v t p; do
	[ "$v" = ok ]
	ok $? "README: $t is the real output${p:+ ($p)}"
done <"$T/v"

# the story told after it: unpinned all same-CPU at a 1.6 us p50, pinned 61% cross-CPU idle
xz -dc "$TS_TOP/tests/fixtures/x86-pingpong-none.data.xz" >"$T/none.data"
"$TICKSCOPE" report "$T/none.data" --kallsyms "$T/x86.kallsyms" >"$T/none.txt" 2>&1
share() { awk -v c="$2" '$0 ~ "^  " c " " { print $4, $6; exit }' "$1"; }
same=$(share "$T/none.txt" 'same-CPU busy')
idle=$(share "$T/cross.txt" 'cross-CPU idle')
claim=$(grep -o 'wakes are [0-9.]*% same-CPU with a [0-9.]* µs wake-delivery p50' "$readme" |
	sed 's/wakes are \([0-9.]*\)% same-CPU with a \([0-9.]*\) .*/\1.0% \2/')
is "$claim" "$same" "unpinned: the README's same-CPU share and p50 are the report's"
claim=$(grep -o '[0-9]*% of them land on an idle CPU and need an IPI, with a [0-9.]* µs p50' \
	"$readme" | sed 's/\([0-9]*\)% .* \([0-9.]*\) µs p50/\1 \2/')
is "$claim" "$(echo "$idle" | awk '{ printf "%d %s", $1 + 0.5, $2 }')" \
	"pinned: the README's cross-CPU idle share and p50 are the report's"
# and the pair make demo reports (tests/fixtures/boards/x86-host/live/)
live=$TS_TOP/tests/fixtures/boards/x86-host/live
for r in pingpong pingpong-cross; do
	xz -dc "$live/$r/run-1/perf.data.xz" >"$T/live-$r.data" &&
		xz -dc "$live/$r/run-1/kallsyms.xz" >"$T/live-$r.kallsyms" &&
		"$TICKSCOPE" report "$T/live-$r.data" --kallsyms "$T/live-$r.kallsyms" \
			>"$T/live-$r.txt" 2>&1
	ok $? "make demo's $r report"
done
n='[0-9.]*'
p="$n% of the pinned run.s wakes are cross-CPU to a busy CPU, $n µs wake-delivery p50,"
p="$p against $n% same-CPU at $n µs"
claim=$(tr '\n' ' ' <"$readme" | sed 's/  */ /g' | grep -o "$p" | sed 's/p50//' |
	grep -o '[0-9][0-9.]*' | tr '\n' ' ')
want="$(share "$T/live-pingpong-cross.txt" 'cross-CPU busy') $(share "$T/live-pingpong.txt" \
	'same-CPU busy') "
is "$claim" "$(echo "$want" | tr -d '%')" \
	"make demo's pair: the README's shares and p50s are the reports'"
# The known answers told under "Recording on a board", from the committed compare.json of
# tests/fixtures/kernel-variants/ (the runs behind them): each figure as the README rounds it.
if command -v jq >/dev/null; then
	kv=$TS_TOP/tests/fixtures/kernel-variants
	xz -dc "$kv/qemu-aarch64-pingpong-nohz-idle-vs-hz-periodic/compare.json.xz" >"$T/tick.json"
	xz -dc "$kv/qemu-aarch64-stress-ramfs-nohz-idle-vs-shrinker-srcu/compare.json.xz" \
		>"$T/srcu.json"
	m='.metrics[] | select(.name == "idle.exits.tick.per_s") | .variants'
	want=$(jq -r "$m"' | "\(.[0].median) \(.[1].median) \(.[1].p_adjusted)"' "$T/tick.json" |
		awk '{ printf "%.0f -> %.0f per s, first of what changed", $1, $2
			printf " (adjusted p %.2g)", $3 }')
	# the runs a side of each known answer, as its compare.json counts them
	flat=$(tr '\n' ' ' <"$readme" | sed 's/  */ /g')
	miss=""
	vm=pingpong-vmstat-44-before-vs-vmstat-44-after-vs-nohz-idle
	for x in "pingpong-nohz-idle-vs-hz-periodic|against \`nohz-idle\`, N runs a side" \
		"stress-ramfs-nohz-idle-vs-shrinker-srcu|stress-ng ramfs, N runs a side" \
		"$vm|ping-pong, N runs a side. Its"; do
		n=$(xz -dc "$kv/qemu-aarch64-${x%%|*}/compare.json.xz" |
			jq -r '[.variants[].runs | length] | unique | map(tostring) | join(",")')
		q=$(echo "${x#*|}" | sed "s/N/$n/")
		case $flat in *"$q"*) ;; *) miss="$miss '$q'" ;; esac
	done
	is "$miss" "" "README: the known answers' runs a side are their compare.json's"
	is "$(jq -r '.explanations[0].changes[0].metric' "$T/tick.json")" idle.exits.tick.per_s \
		"hz-periodic against nohz-idle: the tick's idle exits are first of what changed"
	grep -qF "$want" "$readme"
	ok $? "README: idle exits by the tick $want"
	r='.metrics[] | select(.family == "result") | .variants[1]'
	want=$(jq -r "$r"' | "\(.change_pct) \(.p)"' "$T/srcu.json" |
		awk '{ printf "real-time bogo-ops/s %.1f%% (p %.2g)", $1, $2 }')
	grep -qF "$want" "$readme"
	ok $? "README: shrinker-srcu $want"
	want=$(jq -r '.metrics[] | select(.name == "bench.ramfs.bogo_ops_per_s_usr_sys") |
		.variants[1] | "\(.change_pct) \(.p)"' "$T/srcu.json" |
		awk '{ printf "usr+sys rate fell %.1f%% (p %.2g)", -$1, $2 }')
	grep -qF "$want" "$readme"
	ok $? "README: shrinker-srcu $want"
	want=$(jq -r '[.. | objects | select(has("share_pct") and has("a") and
		((.label // "") | startswith("synchronize_srcu;unregister_shrinker;")))][0] |
		"\(.a) \(.b) \(.share_pct)"' "$T/srcu.json" |
		awk '{ printf "%.0f -> %.0f us per op, is %.1f%% of the change", $1, $2, $3 }')
	[ -n "$want" ] && tr '\n' ' ' <"$readme" | sed 's/  */ /g' | grep -qF "$want"
	ok $? "README: the new wait, $want"
else
	skip "README: the known answers' figures" "jq not installed"
fi

# "Which change": make bisect's known answer and cost, as docs/bisect.md measured them
bd=$(tr '\n' ' ' <"$TS_TOP/docs/bisect.md" | sed 's/  */ /g')
flat=$(tr '\n' ' ' <"$readme" | sed 's/  */ /g')
miss=
for q in 'first bad change 0004 (the SRCU patch), verified by revert and alone' \
	'7 builds and 42 recordings' '25-40 minutes on a quiet machine' \
	'KSRC=~/linux GOOD=v6.1.60 BAD=v6.1.61'; do
	case $flat in *"$q"*) ;; *) miss="$miss README:'$q'" ;; esac
	case $bd in *"$q"*) ;; *) miss="$miss bisect.md:'$q'" ;; esac
done
[ -f "$TS_TOP/tests/fixtures/bisect/shrinker-series/series" ] || miss="$miss series"
is "$miss" "" "README: make bisect's known answer and cost are docs/bisect.md's"

# The vmstat case as the README gives it: the seed's compare, then the committed experiment's
# headline (compare run on its runs' summaries) and its round trip
cmd=$(tr '\n' ' ' <"$readme" | sed 's/  */ /g' |
	grep -o '`tickscope compare tests/fixtures/bench/lat-unix[^`]*`' | tr -d '`')
(cd "$TS_TOP" && $(echo "$cmd" | sed "s|^tickscope|$TICKSCOPE|")) >"$T/lat.txt" 2>&1 &&
	grep -q '^B vs A: latency 133.7 -> 156.5 us, 17.0% worse, .*too few runs to test$' "$T/lat.txt"
ok $? "README: ${cmd:-no compare of the lat_unix seed}: 17.0% worse, too few to test"
vm=qemu-aarch64-pingpong-vmstat-44-before-vs-vmstat-44-after-vs-nohz-idle
"$TS_TOP/scripts/unpack-summaries.sh" "$TS_TOP/tests/fixtures/kernel-variants/$vm" "$T/vm" &&
	"$TICKSCOPE" compare "$T/vm/vmstat-44-before" "$T/vm/vmstat-44-after" >"$T/vm.txt"
ok $? "compare of the vmstat experiment's before and after runs"
flat=$(tr '\n' ' ' <"$readme" | sed 's/  */ /g')
line=$(grep -m1 '^  wake delivery <- runs of work vmstat_update ' "$T/vm.txt" | sed 's/^  //')
re='.*latency \([0-9.]* -> [0-9.]* us\), .*, p=\([0-9.]*\): not significant$'
lat=$(sed -n "1s/$re/\\1, p \\2/p" "$T/vm.txt")
case $flat in
*"\`$line\`"*"round trip did not change ($lat: not reproduced)"* | \
	*"round trip did not change ($lat: not reproduced)"*"\`$line\`"*) r=0 ;;
*) r=1 ;;
esac
[ -n "$line" ] && [ -n "$lat" ]
ok $((r | $?)) "README: the vmstat experiment's headline and round trip are compare's ($lat)"

# The Commands table: each tickscope command's row names every option of its --help usage
# lines (the block up to the first blank line)
bad=""
for c in info dump report compare summary plot record; do
	row=$(grep "^| \`tickscope $c " "$readme" | sed 's/\\|/\//g' | cut -d'|' -f2)
	[ -n "$row" ] || { bad="$bad $c(no row)"; continue; }
	for o in $("$TICKSCOPE" "$c" --help 2>&1 | sed '/^$/q' |
		grep -o -e '--[a-z][a-z-]*' -e '-[a-zA-Z]\b' | sort -u); do
		case $row in *"$o"*) ;; *) bad="$bad $c:$o" ;; esac
	done
done
is "$bad" "" "the Commands table's rows name every option of the commands' usage lines"

# The libtraceevent plugin: make demo builds it (the README and the demo's perf report say so),
# every perf report with -s trace the README gives loads it (without TRACEEVENT_PLUGIN_DIR perf
# prints its own raw fields), and the run "Used with" unpacks is there
make -n -W plugin/plugin_tickscope.c -C "$TS_TOP" BUILD="$TS_BUILD" demo >"$T/demo-n" 2>&1
grep -q 'traceevent/plugins/plugin_tickscope\.so' "$T/demo-n"
ok $? "make demo builds the libtraceevent plugin"
tr '\n' ' ' <"$readme" | sed 's/  */ /g' | grep -o '`[^`]*perf report [^`]*-s [a-z,]*trace[^`]*`' \
	>"$T/perf-reports"
miss=$(grep -v '^`TRACEEVENT_PLUGIN_DIR=[^ ]* perf report ' "$T/perf-reports")
[ -s "$T/perf-reports" ] && [ -z "$miss" ]
ok $? "every perf report -s trace the README gives loads the plugin ($(wc -l <"$T/perf-reports"))${miss:+: not $miss}"
run=$(sed -n '/^## Used with/,/^## /s/^run=\(tests\/fixtures\/[^ ]*\)$/\1/p' "$readme")
[ -n "$run" ] && [ -f "$TS_TOP/$run/perf.data.xz" ] && [ -f "$TS_TOP/$run/kallsyms.xz" ]
ok $? "the run \"Used with\" unpacks holds perf.data.xz and kallsyms.xz (${run:-none named})"
# Its commands, run as given from a copy of the clone's top (the fixtures linked), unpack the
# run elsewhere: the top holds what it held (git status stays clean), and the unpacked run reads.
mkdir -p "$T/top" "$T/tmp"
ln -s "$TS_TOP/tests" "$T/top/tests"
sed -n '/^## Used with/,/^## /p' "$readme" | awk '/^```/ { if (n++) exit; next } n' \
	>"$T/uw-unpack.sh"
echo '"$TICKSCOPE" info perf.data >/dev/null' >>"$T/uw-unpack.sh"
(cd "$T/top" && TMPDIR=$T/tmp TICKSCOPE=$TICKSCOPE sh -e "$T/uw-unpack.sh" &&
	ls -A >"$T/uw-top.ls")
r=$?
is "$r $(tr '\n' ' ' <"$T/uw-top.ls" 2>/dev/null)" "0 tests " \
	"Used with: its unpacking runs, reads, and writes nothing into the clone's top"
# read as a board's recording: the header's symbols with the board's kallsyms and without any
# (an empty HOME: no build-id cache copy), in the CLI and inside perf script, as the README
# quotes them
mkdir -p "$T/uw/home"
(cd "$T/uw" && xz -dc "$TS_TOP/$run/perf.data.xz" >perf.data &&
	xz -dc "$TS_TOP/$run/kallsyms.xz" >kallsyms) 2>/dev/null
flat=$(sed -n '/^## Used with/,/^## /p' "$readme" | tr '\n' ' ' | sed 's/  */ /g')
for q in 'symbols: kallsyms' \
	"symbols: none (raw addresses: give the recording kernel's kallsyms, --kallsyms FILE)"; do
	case $q in *none*) k="" ;; *) k="--kallsyms kallsyms" ;; esac
	# shellcheck disable=SC2086 # no argument, or two
	got=$(cd "$T/uw" && HOME=$T/uw/home "$TICKSCOPE" report -i perf.data $k --top 1 2>&1 |
		sed -n 3p)
	echo "$flat" | grep -qF "\`$q\`" && case $got in *", $q") true ;; *) false ;; esac
	ok $? "Used with: the README's \`$q\` is the report's header${k:+ with $k}"
done
q='(`--dlarg kallsyms=FILE` inside perf script)'
tap_sanitized_perf
if command -v perf >/dev/null && [ -f "$TS_BUILD/tickscope.so" ]; then
	got=$(cd "$T/uw" && HOME=$T/uw/home perf script -i perf.data --dlfilter \
		"$TS_BUILD/tickscope.so" --dlarg top=1 2>/dev/null | sed -n 3p)
	echo "$flat" | grep -qF "$q" &&
		case $got in *"kallsyms, --dlarg kallsyms=FILE)") true ;; *) false ;; esac
	ok $? "Used with: the README's $q is the dlfilter's header without kallsyms"
	# the dlfilter command as the README gives it, run where "Used with" unpacked the run, in
	# a copy of the top's layout (build/ is the build): perf opens a bare tickscope.so only
	# from the current folder or its own dlfilters folder
	ln -s "$TS_BUILD" "$T/uw/build"
	cmd=$(echo "$flat" | grep -o '`perf script -i perf.data --dlfilter [^`]*`' | head -1 |
		tr -d '`')
	# shellcheck disable=SC2086 # the README's command, split into its words, $t the clone
	(cd "$T/uw" && HOME=$T/uw/home $(echo "$cmd" | sed "s|\$t/|$T/uw/|g") >dl.txt 2>dl.err) &&
		grep -q '^== timer ==$' "$T/uw/dl.txt"
	ok $? "Used with: ${cmd:-no perf script --dlfilter command} runs where the run is unpacked"
	sed 's/^/#   /' "$T/uw/dl.err" | grep -v 'unwind: target platform' | head -3
	# and the message it quotes for a bare name is perf's
	(cd "$T/uw" && HOME=$T/uw/home perf script -i perf.data --dlfilter tickscope.so) \
		>/dev/null 2>"$T/uw/bare.err"
	m=$(cat "$T/uw/bare.err")
	echo "$flat" | grep -qF "\`$m\`"
	r=$?
	ok $r "Used with: a bare --dlfilter tickscope.so says what the README quotes (${m:-none})"
else
	skip "Used with: the dlfilter's header" "perf or build/tickscope.so missing"
	skip "Used with: the dlfilter command" "perf or build/tickscope.so missing"
	skip "Used with: a bare --dlfilter" "perf or build/tickscope.so missing"
fi
# trace-cmd reads its own trace.dat: every trace-cmd report the README gives reads a .dat, and
# what it quotes trace-cmd saying of a perf.data is what trace-cmd says
bad=$(tr '\n' ' ' <"$readme" | sed 's/  */ /g' | grep -o 'trace-cmd report -i [^ `]*' |
	grep -v -e ' -i [^ ]*\.dat$' -e ' -i perf\.data$')
is "$bad" "" "the README's trace-cmd reports read trace-cmd's .dat files"
if command -v trace-cmd >/dev/null; then
	m=$(cd "$T/uw" && trace-cmd report -i perf.data 2>&1 | sed -n 's/^ *//; /./{p;q}')
	tr '\n' ' ' <"$readme" | sed 's/  */ /g' |
		grep -qF "\`trace-cmd report -i perf.data\` says \`$m\`"
	ok $? "README: trace-cmd report -i perf.data says what the README quotes (${m:-nothing})"
else
	skip "README: trace-cmd on a perf.data" "trace-cmd is not installed (tests/packages)"
fi
tap_done
