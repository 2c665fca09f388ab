#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make demo's script, scripts/demo.sh, as make demo runs it (its unpacked files in a folder of
# the test's own, TS_DEMO_CACHE): it ends with exit 0 and every step prints something. Its two
# plugin steps against oracles: the work items perf report shows through plugin_tickscope.so,
# per function, are the kernel's own print of the same events (perf script without the plugin:
# "function F" of each workqueue_execute_start), and the dlfilter's report is tickscope
# report's. A plugin perf cannot load makes the demo say so and exit 1, not show an empty step.
. "$(dirname "$0")/lib/tap.sh"

TEP=$TS_BUILD/traceevent/plugins
command -v perf >/dev/null 2>&1 || skip_all "perf is not installed (make deps)"
for f in "$TICKSCOPE" "$TS_BUILD/tickscope.so" "$TEP/plugin_tickscope.so"; do
	[ -f "$f" ] || { echo "Bail out! $f not built (run make)"; exit 1; }
done
tap_tmpdir
T=$TAP_TMP
mkdir -p "$T/home" "$T/none" "$T/bin"
PERF_BIN=$(command -v perf)
tap_sanitized_perf
# under SANITIZE=1 the demo's perf, which loads our plugins, takes the sanitizer runtimes first
# as this test's does (tap_sanitized_perf)
if [ "${SANITIZE:-}" = 1 ]; then
	printf '#!/bin/sh\nLD_PRELOAD="%s" ASAN_OPTIONS=detect_leaks=0 exec %s "$@"\n' \
		"$SAN_PRELOAD" "$PERF_BIN" >"$T/bin/perf"
	chmod +x "$T/bin/perf"
fi

# as make demo runs it (Makefile: TS_BUILD=... scripts/demo.sh); an empty HOME, so that no
# ~/.local/lib/traceevent/plugins of this machine's user takes part
demo() {
	PATH=$T/bin:$PATH HOME=$T/home TS_BUILD=$1 TS_DEMO_CACHE=$T/demo "$TS_TOP/scripts/demo.sh"
}
demo "$TS_BUILD" >"$T/out" 2>"$T/err"
rc=$?
is "$rc" 0 "scripts/demo.sh ends with exit 0"
[ $rc -eq 0 ] || sed 's/^/# /' "$T/err" | head -5

# its last line says what to do next, naming README sections that are there
last=$(tail -n 1 "$T/out")
miss=$(echo "$last" | grep -o '"[^"]*"' | tr -d '"' | while read -r sec; do
	grep -qxF "## $sec" "$TS_TOP/README.md" || printf '%s; ' "$sec"
done)
case $last in
'tickscope demo: next, your own kernels: README.md, "'*) [ -z "$miss" ] ;;
*) false ;;
esac
ok $? "its last line points to the README's sections for your own kernels${miss:+ (none: $miss)}"

# every step (a "$ command" line) is followed by some output before the next one
empty=$(awk '/^\$ / { if (cmd != "" && !n) print cmd; cmd = $2 " " $3; n = 0; next }
	NF { n++ } END { if (cmd != "" && !n) print cmd }' "$T/out" | tr '\n' ',')
steps=$(grep -c '^\$ ' "$T/out")
[ "$steps" -ge 8 ] && [ -z "$empty" ]
ok $? "each of its $steps steps prints something${empty:+ (empty: $empty)}"

# step NAME: the output of the step whose command line starts with "$ NAME"
step() {
	awk -v s="\$ $1" 'index($0, s) == 1 { on = 1; next } /^\$ / { on = 0 } on' "$T/out"
}
data=$T/demo/a64-ramfs.data
kall=$T/demo/a64-ramfs.kallsyms
[ -f "$data" ] && [ -f "$kall" ]
ok $? "the demo's aarch64 ramfs run is unpacked where TS_DEMO_CACHE says"

# perf report through the libtraceevent plugin: its work items, grouped by class and function
step 'TRACEEVENT_PLUGIN_DIR=build/traceevent/plugins perf report ' |
	awk '/^ +[0-9.]+% +[0-9]+ / { print }' >"$T/rep"
n=$(wc -l <"$T/rep")
bad=$(grep -vc ' class=[a-z]* function=[A-Za-z_0-9.]*$' "$T/rep")
[ "$n" -gt 0 ] && [ "$bad" = 0 ]
ok $? "the perf report step shows the plugin's classes ($n groups, $bad lines without)"
awk '{ f = $NF; sub(/^function=/, "", f); n[f] += $2 }
	END { for (f in n) print f, n[f] }' "$T/rep" | sort >"$T/rep.fn"
HOME=$T/home TRACEEVENT_PLUGIN_DIR=$T/none perf script -i "$data" --kallsyms "$kall" \
	-F event,trace 2>/dev/null | awk '$1 == "workqueue:workqueue_execute_start:" {
		for (i = 2; i < NF; i++) if ($i == "function") n[$(i + 1)]++
	} END { for (f in n) print f, n[f] }' | sort >"$T/raw.fn"
[ -s "$T/raw.fn" ] && cmp -s "$T/rep.fn" "$T/raw.fn"
ok $? "its work items per function are the kernel's print of them (perf script without it:\
 $(wc -l <"$T/raw.fn") functions, $(awk '{ n += $2 } END { print n + 0 }' "$T/raw.fn") runs)"

# perf script through the dlfilter: the report up to its idle section, as tickscope report
# prints it, but for the line saying that a dlfilter gets no lost events
step 'perf script -i ' | grep -v '^  lost events: - (not measured' | sed '${/^$/d}' >"$T/dl"
"$TICKSCOPE" report -i "$data" --kallsyms "$kall" --top 5 2>/dev/null |
	sed '/^== idle ==/,$d' | sed '${/^$/d}' >"$T/cli"
sed -i '1s|^tickscope report: .*|tickscope report: FILE|; 3s|symbols: .*|symbols: KALLSYMS|' \
	"$T/dl" "$T/cli"
grep -q '^== sched ==' "$T/dl" && cmp -s "$T/dl" "$T/cli"
ok $? "the dlfilter step's report is tickscope report's ($(wc -l <"$T/dl") lines)"
cmp -s "$T/dl" "$T/cli" || diff "$T/cli" "$T/dl" | head -6 | sed 's/^/#   /'

# a libtraceevent plugin that perf cannot load: the demo says so, and exits 1
mkdir -p "$T/build/traceevent/plugins"
ln -s "$TICKSCOPE" "$T/build/tickscope"
ln -s "$TS_BUILD/tickscope.so" "$T/build/tickscope.so"
echo 'not a shared object' >"$T/build/traceevent/plugins/plugin_tickscope.so"
demo "$T/build" >"$T/out2" 2>"$T/err2"
rc=$?
grep -q "^tickscope demo: perf report: perf's own text, not the plugin's classes: .* was not \
loaded" "$T/err2" && grep -q '^tickscope demo: 1 step(s) failed' "$T/err2"
ok $? "a plugin perf cannot load: the demo says which step failed and why"
is "$rc" 1 "and ends with exit 1"

tap_done
