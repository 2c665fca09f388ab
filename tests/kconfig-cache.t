#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# kconfig: --base-cache (what the kconfig tests share, one defconfig build per tree and arch)
# gives a build folder exactly what its own make defconfig and checker build give: the same
# base, the same .config and report, the link to the tree, the make environment of that
# folder; a stale seed is rebuilt, a valid one is reused, and a cache inside the tree is refused.
. "$(dirname "$0")/lib/tap.sh"

. "$TS_TOP/tests/kconfig/lib.sh"
# This test's own cache, built here: the shared one may come from an older run.
unset TS_KCONFIG_BASE_CACHE
c=$tmp/cache

# run OUT [OPTION...]: nohz-idle on x86_64 into OUT; stdout in OUT.out, stderr in OUT.err.
run() {
	o=$1
	shift
	rc=0
	"$kf/kernel-config.sh" --arch x86_64 --ksrc "$ksrc" --out "$o" "$@" nohz-idle \
		>"$o.out" 2>"$o.err" || rc=$?
	[ "$rc" -eq 0 ] || sed 's/^/#   stderr: /' "$o.err" >&2
	return "$rc"
}

# The oracle: a folder that builds its own base (make x86_64_defconfig) and checker.
run "$tmp/own"
ok $? "without a cache: exit 0"

# A seed left by another tree (its key names another path) is rebuilt, not used.
key="$ksrc x86_64  x86_64_defconfig"
seed=$c/x86_64-x86_64_defconfig-$(printf '%s' "$key" | cksum | cut -d' ' -f1)
mkdir -p "$seed"
echo "/elsewhere/linux x86_64  x86_64_defconfig" >"$seed/tickscope-seed"
echo 'CONFIG_STALE_SEED=y' >"$seed/.config"
cp "$tmp/own/tickscope-kconfig" "$seed/tickscope-kconfig"
run "$tmp/one" --base-cache "$c"
ok $? "with a stale seed in the cache: exit 0"
is "$(cat "$seed/tickscope-seed")" "$key" "the stale seed was rebuilt for this tree (its key)"
cmp "$tmp/own/.config" "$tmp/one/.config"
ok $? "the .config from the cache's base equals the one from the folder's own build"
cmp "$tmp/own/tickscope-base.config" "$tmp/one/tickscope-base.config"
ok $? "so does the base .config"
cmp "$seed/.config" "$tmp/own/tickscope-base.config"
ok $? "the seed's .config is make x86_64_defconfig's"
is "$(cat "$tmp/one.out")" "$(cat "$tmp/own.out")" "the report is the same"

# A valid seed is used as it is: neither rebuilt nor touched.
ls -l --time-style=+%s.%N "$seed/tickscope-kconfig" "$seed/.config" >"$tmp/seed-before"
TS_KCONFIG_BASE_CACHE=$c run "$tmp/two"
ok $? "a second folder, the cache from TS_KCONFIG_BASE_CACHE: exit 0"
ls -l --time-style=+%s.%N "$seed/tickscope-kconfig" "$seed/.config" >"$tmp/seed-after"
cmp -s "$tmp/seed-before" "$tmp/seed-after"
ok $? "the valid seed was reused, not rebuilt"
cmp "$tmp/own/.config" "$tmp/two/.config" && cmp "$tmp/own.out" "$tmp/two.out"
ok $? "and gives the same .config and report"

# The link to the tree that make leaves in an O= folder, which two-trees.sh follows.
is "$(readlink -f "$tmp/two/source")" "$(readlink -f "$tmp/own/source")" \
	"the folder links to its tree (source) as its own build's does"

# The make environment is the folder's own (its O= path), not the seed's. It holds the whole
# environment of the run: the second run's TS_KCONFIG_BASE_CACHE is left out.
env_of() {
	tr '\0' '\n' <"$1/tickscope-make.env" | grep -v '^TS_KCONFIG_BASE_CACHE=' |
		sed "s|$1|<out>|g" | sort
}
env_of "$tmp/own" >"$tmp/env-own"
env_of "$tmp/two" >"$tmp/env-two"
diff -u "$tmp/env-own" "$tmp/env-two" >"$tmp/env-diff"
ok $? "the make environment equals the folder's own, up to the folder's path"
sed 's/^/#   /' "$tmp/env-diff" | head -10 >&2
grep -qF "$seed" "$tmp/two/tickscope-make.env"
is "$?" 1 "and never names the seed's folder"

# Only the seed folder is written in the cache; nothing is left half-built.
is "$(ls -A "$c")" "${seed##*/}" "the cache holds one seed, no temporary folder"

# A cache inside the kernel tree is refused before anything is written.
rc=0
"$kf/kernel-config.sh" --arch x86_64 --ksrc "$ksrc" --out "$tmp/three" \
	--base-cache "$ksrc/cache" nohz-idle >/dev/null 2>"$tmp/err" || rc=$?
is "$rc" 2 "a cache inside KSRC: exit 2"
grep -q "^kernel-config: the base cache $ksrc/cache is inside KSRC" "$tmp/err"
ok $? "saying so"
[ ! -e "$ksrc/cache" ]
ok $? "and the tree is left as it was"
tap_done
