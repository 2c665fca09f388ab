#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `make kernel-config`: the make variables arrive in the environment as TS_MK_<NAME>, exactly
# as the user typed them (kconfig.mk exports their unexpanded text), and become the options of
# kernel-config.sh (two-trees.sh with KSRC_B). Nothing of them is ever pasted into a shell
# command's text, so a quote, a '$' or a newline in a value is just a character of it.
set -eu
here=$(cd "$(dirname "$0")" && pwd)

# A value must be one line; FRAGMENTS is a list split at blanks.
for v in KSRC KSRC_B ARCH BOARD BASE O JSON FAST REUSE DIFF VERBOSE ALLOW_DROPS; do
	val=
	eval "val=\${TS_MK_$v:-}"
	case "$val" in
	*"
"*)
		printf 'make kernel-config: %s has a newline in its value: give one line\n' "$v" >&2
		exit 2
		;;
	esac
done
# A switch is 1, 0 or not given: JSON=yes would otherwise be accepted and do nothing.
for v in JSON REUSE DIFF VERBOSE ALLOW_DROPS; do
	val=
	eval "val=\${TS_MK_$v:-}"
	case "$val" in
	'' | 0 | 1) ;;
	*)
		printf 'make kernel-config: %s=%s: give %s=1 (or 0)\n' "$v" "$val" "$v" >&2
		exit 2
		;;
	esac
done
if [ -n "${TS_MK_FAST:-}" ]; then
	printf 'make kernel-config: FAST=%s does nothing (olddefconfig always runs in the checker): %s\n' \
		"$TS_MK_FAST" "remove it" >&2
	exit 2
fi
set --
[ -z "${TS_MK_KSRC:-}" ] || set -- "$@" --ksrc "$TS_MK_KSRC"
[ -z "${TS_MK_KSRC_B:-}" ] || set -- "$@" --ksrc-b "$TS_MK_KSRC_B"
[ -z "${TS_MK_ARCH:-}" ] || set -- "$@" --arch "$TS_MK_ARCH"
[ -z "${TS_MK_BOARD:-}" ] || set -- "$@" --board "$TS_MK_BOARD"
[ -z "${TS_MK_BASE:-}" ] || set -- "$@" --base "$TS_MK_BASE"
[ -z "${TS_MK_O:-}" ] || set -- "$@" --out "$TS_MK_O"
[ "${TS_MK_JSON:-}" != 1 ] || set -- "$@" --json
[ "${TS_MK_REUSE:-}" != 1 ] || set -- "$@" --reuse
[ "${TS_MK_DIFF:-}" != 1 ] || set -- "$@" --diff
[ "${TS_MK_VERBOSE:-}" != 1 ] || set -- "$@" --verbose
[ "${TS_MK_ALLOW_DROPS:-}" != 1 ] || set -- "$@" --allow-drops
# Without FRAGMENTS, the experiment .config (make menuconfig) names them, when it exists.
[ -n "${TS_MK_FRAGMENTS:-}" ] || [ -z "${TS_MK_EXPERIMENT:-}" ] ||
	set -- "$@" --experiment "$TS_MK_EXPERIMENT"
set -- "$@" --
# shellcheck disable=SC2086 # FRAGMENTS is a blank-separated list; no globbing of its words
set -f
set -- "$@" ${TS_MK_FRAGMENTS:-}
set +f
if [ -n "${TS_MK_KSRC_B:-}" ]; then
	exec "$here/two-trees.sh" "$@"
fi
exec "$here/kernel-config.sh" "$@"
