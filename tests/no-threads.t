#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Without threads to be had (RLIMIT_NPROC spent: pthread_create and fork fail with EAGAIN),
# info, dump, report and the perf script plugin read, merge, decode and model on the one
# thread they have, and give the same output as with their threads.
. "$(dirname "$0")/lib/tap.sh"
. "$TS_TOP/tests/fixtures/fixtures.sh"

[ -x "$TICKSCOPE" ] || { echo "Bail out! $TICKSCOPE not built (run make)"; exit 1; }
[ "$(id -u)" = 0 ] || skip_all "needs root, to run as nobody under ulimit -u (CI is root)"
command -v su >/dev/null || skip_all "su missing"
id nobody >/dev/null 2>&1 || skip_all "no user nobody"
command -v bash >/dev/null || skip_all "bash missing (ulimit -u)"
tap_tmpdir
chmod 755 "$TAP_TMP"

n=x86-pingpong-cross
cp "$(fixture_data $n)" "$TAP_TMP/f.data" || { echo "Bail out! fixture $n"; exit 1; }
cp "$(fixture_kallsyms $n)" "$TAP_TMP/k" || { echo "Bail out! kallsyms of $n"; exit 1; }
chmod 644 "$TAP_TMP/f.data" "$TAP_TMP/k"
# The binary may sit below a folder nobody cannot enter: run a copy.
cp "$TICKSCOPE" "$TAP_TMP/tickscope" && chmod 755 "$TAP_TMP/tickscope"

# as_nobody LIMIT ARGS...: tickscope as nobody with at most LIMIT processes and threads.
# LeakSanitizer needs a thread of its own at exit: without threads, only ASan and UBSan run.
as_nobody() {
	_lim=$1
	shift
	_env=
	[ "$_lim" -le 1 ] && _env="ASAN_OPTIONS=detect_leaks=0"
	su nobody -s "$(command -v bash)" -c "ulimit -u $_lim && exec env $_env $TAP_TMP/tickscope $*"
}

for cmd in "info -i $TAP_TMP/f.data" "dump -i $TAP_TMP/f.data --kallsyms $TAP_TMP/k" \
	"report -i $TAP_TMP/f.data --kallsyms $TAP_TMP/k --json"; do
	name=${cmd%% *}
	as_nobody 64 "$cmd" >"$TAP_TMP/$name.threads" 2>"$TAP_TMP/$name.err1"
	ok $? "$name with threads"
	as_nobody 1 "$cmd" >"$TAP_TMP/$name.alone" 2>"$TAP_TMP/$name.err2"
	rc=$?
	ok $rc "$name with no thread to be had"
	[ $rc -eq 0 ] || sed -n '1,3s/^/#   /p' "$TAP_TMP/$name.err2"
	ok "$([ -s "$TAP_TMP/$name.alone" ] &&
		cmp -s "$TAP_TMP/$name.threads" "$TAP_TMP/$name.alone"; echo $?)" \
		"$name: the same output ($(wc -l <"$TAP_TMP/$name.alone") lines)"
done

# The plugin inside perf script (perf itself needs no thread for this).
PLUGIN=$TS_BUILD/tickscope.so
if command -v perf >/dev/null && [ -f "$PLUGIN" ] && [ "${SANITIZE:-}" != 1 ]; then
	cp "$PLUGIN" "$TAP_TMP/tickscope.so" && chmod 644 "$TAP_TMP/tickscope.so"
	pl="script -i $TAP_TMP/f.data --dlfilter $TAP_TMP/tickscope.so --dlarg kallsyms=$TAP_TMP/k"
	pl="$pl --dlarg json"
	for lim in 64 1; do
		su nobody -s "$(command -v bash)" -c "cd $TAP_TMP && ulimit -u $lim && exec perf $pl" \
			>"$TAP_TMP/plugin.$lim" 2>"$TAP_TMP/plugin.err.$lim"
		ok $? "plugin under ulimit -u $lim"
	done
	ok "$([ -s "$TAP_TMP/plugin.1" ] && cmp -s "$TAP_TMP/plugin.64" "$TAP_TMP/plugin.1"
		echo $?)" "plugin: the same report with no thread to be had"
else
	ok 0 "# SKIP plugin: needs perf and $PLUGIN (and no SANITIZE: plugin.t preloads the runtimes)"
fi
tap_done
