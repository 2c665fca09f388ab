#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# kconfig: real base configs (BASE=running, a FILE, compressed or not, one with SLOB that leaves
# shrinker-path ineffective, board) and the refusals:
# a missing or non-config BASE, BASE=board without a reachable board, O= inside the tree.
. "$(dirname "$0")/lib/tap.sh"

command -v jq >/dev/null 2>&1 || skip_all "jq is not installed (make deps installs it)"
. "$TS_TOP/tests/kconfig/lib.sh"
cache=$TS_TOP/.cache/kconfig-test
touch "$tmp/start"

# value FILE SYM: the .config value of SYM ("n" for "is not set", empty when absent).
value() {
	sed -n "s/^CONFIG_$2=\\(.*\\)/\\1/p; s/^# CONFIG_$2 is not set/n/p" "$1" | tail -1
}

# BASE=running: this machine's config, through the tree's olddefconfig.
if [ -r /proc/config.gz ]; then
	gzip -dc /proc/config.gz >"$tmp/running"
elif [ -r "/boot/config-$(uname -r)" ]; then
	cp "/boot/config-$(uname -r)" "$tmp/running"
fi
if [ ! -s "$tmp/running" ] || ! grep -q '^CONFIG_X86_64=y' "$tmp/running"; then
	skip "BASE=running" "no readable x86_64 config of the running kernel on this machine"
else
	o=$cache/base-running
	"$kf/kernel-config.sh" --ksrc "$ksrc" --arch x86_64 --out "$o" --base running \
		--json preempt-voluntary >"$tmp/run.json" 2>"$tmp/err"
	rc=$?
	[ $rc -le 1 ]
	ok $? "BASE=running: runs (exit $rc)"
	jq -e '.base | test("^the running kernel.s ")' "$tmp/run.json" >/dev/null
	ok $? "the report names the running kernel's config as the base"
	# The oracle: the tree's own make olddefconfig on the same config, by hand.
	mkdir -p "$tmp/oracle"
	cp "$tmp/running" "$tmp/oracle/.config"
	make -s -C "$ksrc" O="$tmp/oracle" ARCH=x86_64 olddefconfig >/dev/null 2>&1
	diff -q "$tmp/oracle/.config" "$o/tickscope-base.config" >/dev/null
	ok $? "the base is the running config after this tree's make olddefconfig"
	for s in PREEMPT_NONE PREEMPT_DYNAMIC HZ NR_CPUS; do
		is "$(value "$o/tickscope-base.config" $s)" "$(value "$tmp/oracle/.config" $s)" \
			"base $s as the running kernel has it after olddefconfig"
	done
	jq -e '.sets[0].requests[] | select(.symbol == "PREEMPT_VOLUNTARY") |
		.final == "y"' "$tmp/run.json" >/dev/null
	ok $? "the variant applies on top of it"
	want=$(value "$o/tickscope-base.config" PREEMPT_DYNAMIC)
	got=$(jq -r '.sets[0].requests[] | select(.symbol == "PREEMPT_DYNAMIC") | .base // ""' \
		"$tmp/run.json")
	is "$got" "$want" "JSON: a request's base value is the running kernel's"
fi

# BASE=FILE, xz-compressed: a config that differs from the defconfig in known places.
o=$cache/base-file
mkdir -p "$o"
make -s -C "$ksrc" O="$tmp/file" ARCH=x86_64 x86_64_defconfig >/dev/null 2>&1
sed -i -e 's/^CONFIG_HZ_1000=y/# CONFIG_HZ_1000 is not set/' \
	-e 's/^# CONFIG_HZ_250 is not set/CONFIG_HZ_250=y/' "$tmp/file/.config"
echo "CONFIG_HZ_250=y" >>"$tmp/file/.config"
xz -c "$tmp/file/.config" >"$tmp/base.config.xz"
"$kf/kernel-config.sh" --ksrc "$ksrc" --arch x86_64 --out "$o" --base "$tmp/base.config.xz" \
	--json hz-periodic >"$tmp/file.json" 2>"$tmp/err"
ok $? "BASE=FILE.xz: runs"
is "$(value "$o/tickscope-base.config" HZ)" 250 "the base has the file's HZ=250"
jq -e '.sets[0].diff | all(.symbol != "HZ")' "$tmp/file.json" >/dev/null
ok $? "and the variant keeps it (no HZ line in the diff)"
jq -e --arg f "$tmp/base.config.xz" '.base == $f' "$tmp/file.json" >/dev/null
ok $? "the report names the file"

# BASE=FILE with SLOB (6.1 has it, behind EXPERT): shrinker-path keeps MEMCG, but without memcg
# kmem accounting (MEMCG_KMEM depends on !SLOB) its purpose is not met: "ineffective", exit 1.
# The oracle is the final .config the tree's olddefconfig made: SLOB=y, MEMCG=y, no MEMCG_KMEM.
# The defconfig base (SLUB) is the control: the same fragment is OK there.
sed -e 's/^CONFIG_SLUB=y/# CONFIG_SLUB is not set/' \
	-e 's/^# CONFIG_EXPERT is not set/CONFIG_EXPERT=y/' "$tmp/file/.config" >"$tmp/slob.config"
echo "CONFIG_SLOB=y" >>"$tmp/slob.config"
for b in "$tmp/slob.config" defconfig; do
	o=$cache/base-${b##*/}
	rc=0
	"$kf/kernel-config.sh" --ksrc "$ksrc" --arch x86_64 --out "$o" --base "$b" --json \
		shrinker-path >"$tmp/slob.json" 2>"$tmp/err" || rc=$?
	v=$(jq -r '.sets[0].requests[] | select(.symbol == "MEMCG") | .verdict' "$tmp/slob.json")
	c=""
	for s in SLOB MEMCG MEMCG_KMEM; do
		x=$(value "$o/.config" $s)
		c="$c ${x:-n}"
	done
	case $b in
	defconfig) want="0 kept n y y" ;;
	*) want="1 ineffective y y n" ;;
	esac
	is "$rc $v$c" "$want" \
		"shrinker-path, ${b##*/} base: exit, MEMCG's verdict, .config's SLOB MEMCG MEMCG_KMEM"
done

# Refusals, each before anything is written.
rc=0
"$kf/kernel-config.sh" --ksrc "$ksrc" --arch x86_64 --out "$tmp/o1" --base "$tmp/nope.config" \
	hz-periodic >/dev/null 2>"$tmp/err" || rc=$?
is "$rc" 2 "a missing BASE file: exit 2"
grep -q "BASE=$tmp/nope.config: no such file" "$tmp/err"
ok $? "naming the file"
echo "hello" >"$tmp/notconfig"
rc=0
"$kf/kernel-config.sh" --ksrc "$ksrc" --arch x86_64 --out "$tmp/o2" --base "$tmp/notconfig" \
	hz-periodic >/dev/null 2>"$tmp/err" || rc=$?
is "$rc" 2 "a BASE file that is not a .config: exit 2"
rc=0
"$kf/kernel-config.sh" --ksrc "$ksrc" --board qemu-x86 --out "$tmp/o3" --base board \
	hz-periodic >/dev/null 2>"$tmp/err" || rc=$?
is "$rc" 3 "BASE=board on an emulated board: exit 3"
grep -q 'give its config as BASE=FILE' "$tmp/err"
ok $? "saying to give the packaged kernel's config as BASE=FILE"
rc=0
"$kf/kernel-config.sh" --ksrc "$ksrc" --arch x86_64 --out "$ksrc/tickscope-out" hz-periodic \
	>/dev/null 2>"$tmp/err" || rc=$?
is "$rc" 2 "O= inside the kernel tree: exit 2 (usage)"
[ ! -e "$ksrc/tickscope-out" ]
ok $? "and nothing was created there"
changed=$(find "$ksrc" -newer "$tmp/start" | head -5)
is "$changed" "" "nothing in the kernel tree was modified"
tap_done
