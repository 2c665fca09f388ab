#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Did a recorded run happen on the variant it is labelled with? Compares the kernel config and
# command line the board saved in a run folder with the variant's fragments and boot arguments.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)

case "${1:-}" in
-h | --help | '')
	cat <<USAGE
usage: $0 RUN_DIR "FRAGMENTS" ["BOOT_ARGS"]
Compare RUN_DIR/kconfig (the running kernel's config, saved by boards/target/ts-record.sh) with
every setting the fragments request (kconfig-fragments/NAME.config or a path; in order, a later
line wins; "# ts:" annotations are not settings), and RUN_DIR/cmdline.txt with each word of
BOOT_ARGS. Prints one line per mismatch, and writes variant_check=ok|mismatch|unknown,
variant_mismatches=N and one variant_mismatch=... line each into RUN_DIR/meta.txt, before its
closing status line. A variant that declares neither fragments nor boot arguments is only a
label: nothing is checked and meta.txt says variant_check=label.
Exit: 0 the run matches its variant (or it is a label), 1 it does not, 2 no saved config or
bad usage.
USAGE
	[ -n "${1:-}" ] && exit 0
	exit 2
	;;
esac
run=$1 frags=${2:-} args=${3:-}
[ -f "$run/meta.txt" ] || { echo "variant-check: $run/meta.txt: no such file" >&2; exit 2; }

# The requested settings, "SYM value frag", the last line for a symbol winning.
paths=
for f in $frags; do
	case "$f" in
	*/*) p=$f ;;
	*) p=$top/kconfig-fragments/$f.config ;;
	esac
	[ -r "$p" ] || { echo "variant-check: fragment $f: no such file ($p)" >&2; exit 2; }
	paths="$paths $p"
done
want=$(mktemp)
trap 'rm -f "$want" "$want.m"' EXIT
for p in $paths; do
	sed -n -e "s/^CONFIG_\\([A-Za-z0-9_]*\\)=\"\\{0,1\\}\\([^\"]*\\)\"\\{0,1\\}\$/\\1 \\2 ${p##*/}/p" \
		-e "s/^# CONFIG_\\([A-Za-z0-9_]*\\) is not set\$/\\1 n ${p##*/}/p" "$p"
done | awk '{ v[$1] = $2 " " $3; if (!($1 in o)) o[$1] = n++ }
	END { for (s in v) print o[s], s, v[s] }' | sort -n | cut -d' ' -f2- >"$want"

status=ok
: >"$want.m"
if [ -z "$frags" ] && [ -z "$(echo $args)" ]; then
	status=label # nothing declared: a name, whatever kernel ran
elif [ ! -s "$want" ]; then
	: # boot arguments alone: the config is not part of the variant
elif ! grep -qs "^CONFIG_" "$run/kconfig"; then
	status=unknown
	echo "the running kernel's config was not saved (no /proc/config.gz or /boot/config-*)" \
		>>"$want.m"
else
	while read -r sym val frag; do
		got=$(sed -n -e "s/^CONFIG_$sym=\"\\{0,1\\}\\([^\"]*\\)\"\\{0,1\\}\$/\\1/p" \
			-e "s/^# CONFIG_$sym is not set\$/n/p" "$run/kconfig" | tail -1)
		[ "${got:-n}" = "$val" ] && continue
		echo "CONFIG_$sym: the variant asks $val ($frag), the recorded kernel has" \
			"${got:-no such line}" >>"$want.m"
		status=mismatch
	done <"$want"
fi
for a in $args; do
	if [ ! -f "$run/cmdline.txt" ] || ! tr ' ' '\n' <"$run/cmdline.txt" | grep -qxF "$a"; then
		echo "boot argument $a: not on the recorded kernel's command line" >>"$want.m"
		[ "$status" = unknown ] || status=mismatch
	fi
done

# Into meta.txt, before the closing status= line (consumers read that line last).
n=$(wc -l <"$want.m")
case $status in ok | label) n=0 ;; esac
{
	grep -v '^status=\|^variant_check=\|^variant_mismatch' "$run/meta.txt" || true
	echo "variant_check=$status"
	echo "variant_mismatches=$n"
	case $status in ok | label) ;; *) sed 's/^/variant_mismatch=/' "$want.m" ;; esac
	grep '^status=' "$run/meta.txt" || true
} >"$run/meta.txt.new"
mv "$run/meta.txt.new" "$run/meta.txt"
cat "$want.m"
case "$status" in
ok | label) exit 0 ;;
mismatch) exit 1 ;;
*) exit 2 ;;
esac
