#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Time cold `make kernel-config` runs for `make bench` against the tree's own make defconfig
# (issue 12's 10 s became a ratio: issue 33), and check that each one really was cold: a fresh
# O=, and conf and the checker compiled during the run.
set -eu
here=$(cd "$(dirname "$0")" && pwd)

case "${1:-}" in
-h | --help)
	cat <<USAGE
usage: $0 [--ksrc DIR] [WORKDIR [RUNS]]
Run kernel-config.sh RUNS times (default 3) on Debian's linux-source-6.1 Kconfig extract
(ksrc.sh, extracted beforehand and not timed) or the tree DIR (an extract of
tree-extract.sh: another kernel era), BOARD=x86-host, fragments nohz-idle preempt-none
tracing, each time into a new WORKDIR/run-N (default: a temporary folder), with ccache
disabled. A run counts only if it exits 0 or 1 and built scripts/kconfig/conf and the checker
itself. Then RUNS runs with --reuse into run-1 (base config and checker reused: what a
second variant on the same tree costs). After each cold run, the peer: the tree's own make
ARCH=x86_64 defconfig into a fresh O= (WORKDIR/peer-N). Prints one line, wall and CPU (user +
system) time:
  cold make kernel-config (Linux V): N runs, wall median M s, ...; CPU median ...;
  make defconfig: wall median ...; --reuse: wall median ...; CPU median ... (...)
Exit 0, 3 when a run failed or was not cold, 4 when there is no tree to run on.
The page cache is not dropped: "cold" means nothing of the run's own making is reused.
USAGE
	exit 0
	;;
esac
ksrc=
if [ "${1:-}" = --ksrc ]; then
	ksrc=$(cd "$2" && pwd) || exit 4
	shift 2
fi
runs=${2:-3}
if [ -n "${1:-}" ]; then
	work=$1
	mkdir -p "$work"
else
	work=$(mktemp -d "${TMPDIR:-/tmp}/tickscope-kc-bench.XXXXXX")
	trap 'rm -rf "$work"' EXIT
fi
[ -n "$ksrc" ] || ksrc=$("$here/ksrc.sh" 2>/dev/null) ||
	{ echo "no linux-source-6.1 to extract" >&2; exit 4; }
kver=$(make -s -C "$ksrc" kernelversion 2>/dev/null | tail -1)

# CPU time (user + system, the run's processes included) does not depend on the machine's
# load, wall time does: both are reported.
export CCACHE_DISABLE=1 # in case cc is a ccache wrapper: nothing compiled comes from a cache
unset TS_KCONFIG_BASE_CACHE # a cold run builds its own base and checker, never a shared seed
cpus=''
timed() {
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f '%U %S' -o "$work/cpu" "$@"
	else
		"$@"
	fi
}
times=
i=1
while [ "$i" -le "$runs" ]; do
	out=$work/run-$i
	[ ! -e "$out" ] || { echo "$out exists: not a fresh O=" >&2; exit 3; }
	touch "$work/t0-$i"
	t0=$(date +%s.%N)
	rc=0
	rm -f "$work/cpu"
	timed "$here/kernel-config.sh" --ksrc "$ksrc" --board x86-host \
		--out "$out" nohz-idle preempt-none tracing >"$work/log-$i" 2>&1 || rc=$?
	t1=$(date +%s.%N)
	# The last line: before it, GNU time may say "Command exited with non-zero status 1".
	[ ! -s "$work/cpu" ] ||
		cpus="$cpus $(tail -n 1 "$work/cpu" | awk '{ printf "%.2f", $1 + $2 }')"
	[ "$rc" -le 1 ] || { echo "run $i: exit $rc: $(tail -1 "$work/log-$i")" >&2; exit 3; }
	for f in scripts/kconfig/conf tickscope-kconfig; do
		[ -n "$(find "$out/$f" -newer "$work/t0-$i" 2>/dev/null)" ] ||
			{ echo "run $i: $f was not built in the run" >&2; exit 3; }
	done
	times="$times $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')"
	# The peer, in turns with the cold runs: the tree's own make defconfig into a fresh O=
	# (conf compiled, the base config written), what any configuration of it costs at least
	t0=$(date +%s.%N)
	make -s -C "$ksrc" O="$work/peer-$i" ARCH=x86_64 defconfig >"$work/plog-$i" 2>&1 ||
		{ echo "make defconfig $i failed: $(tail -1 "$work/plog-$i")" >&2; exit 3; }
	t1=$(date +%s.%N)
	ptimes="${ptimes:-} $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')"
	i=$((i + 1))
done
# The same runs with --reuse: the base config and the checker of run-1 are reused.
rtimes='' rcpus=''
i=1
while [ "$i" -le "$runs" ]; do
	rm -f "$work/cpu"
	t0=$(date +%s.%N) rc=0
	timed "$here/kernel-config.sh" --ksrc "$ksrc" --board x86-host --reuse \
		--out "$work/run-1" nohz-idle preempt-none tracing >"$work/rlog-$i" 2>&1 || rc=$?
	t1=$(date +%s.%N)
	[ "$rc" -le 1 ] || { echo "--reuse run $i: exit $rc: $(tail -1 "$work/rlog-$i")" >&2; exit 3; }
	[ ! -s "$work/cpu" ] ||
		rcpus="$rcpus $(tail -n 1 "$work/cpu" | awk '{ printf "%.2f", $1 + $2 }')"
	rtimes="$rtimes $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')"
	i=$((i + 1))
done
# stats "1.2 3.4 ...": "median M s, min A s, max B s"
stats() {
	echo "$1" | tr ' ' '\n' | sed '/^$/d' | sort -n | awk '
		{ t[NR] = $1 }
		END {
			m = NR % 2 ? t[(NR + 1) / 2] : (t[NR / 2] + t[NR / 2 + 1]) / 2
			printf "median %.2f s, min %.2f s, max %.2f s", m, t[1], t[NR]
		}'
}
printf 'cold make kernel-config (Linux %s): %d runs, wall %s' "${kver:-?}" "$runs" \
	"$(stats "$times")"
[ -z "$cpus" ] || printf '; CPU %s' "$(stats "$cpus")"
printf '; make defconfig: wall %s' "$(stats "$ptimes")"
printf '; --reuse: wall %s' "$(stats "$rtimes")"
[ -z "$rcpus" ] || printf '; CPU %s' "$(stats "$rcpus")"
printf ' (fresh O=, conf and checker built in each run, ccache off; load %s)\n' \
	"$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo -)"
