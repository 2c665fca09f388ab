#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# kconfig: a bad fragment (syntax error, missing file, two members of one choice, a wrong
# value type, a bad annotation, a symbol set twice) is an error naming the file and line, exit 2.
. "$(dirname "$0")/lib/tap.sh"

bad=$TS_TOP/tests/kconfig/bad
. "$TS_TOP/tests/kconfig/lib.sh"
out=$TS_TOP/.cache/kconfig-test/bad-x86_64
rm -f "$out"/.config.tickscope-backup*

# run FRAGMENT...: the driver on x86_64; sets $rc, stdout in $tmp/out, stderr in $tmp/err.
run() {
	rc=0
	"$kf/kernel-config.sh" --reuse --arch x86_64 --ksrc "$ksrc" --out "$out" \
		--fragment-dir "$bad" "$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
}

# expect NAME WANT_RC MESSAGE FRAGMENT...: exit code and a message on stderr.
expect() {
	name=$1 want=$2 msg=$3
	shift 3
	run "$@"
	is "$rc" "$want" "$name: exit $want"
	grep -qF -- "$msg" "$tmp/err"
	ok $? "$name: says '$msg'"
	[ $? -eq 0 ] || sed 's/^/#   stderr: /' "$tmp/err"
}

run nohz-idle
is "$rc" 0 "a good fragment passes (builds the base config for the cases below)"
cp "$out/.config" "$tmp/good.config"

expect "syntax error" 2 "syntax.config:4: syntax error: 'CONFIG_HZ_PERIODIC = y'" syntax
expect "two syntax errors: the first" 2 "syntax-two.config:4: syntax error" syntax-two
grep -qF "syntax-two.config:6: syntax error: 'NO_HZ_FULL=y'" "$tmp/err"
ok $? "two syntax errors: the second is reported too"
expect "missing fragment" 2 "fragment 'no-such-fragment': not found" nohz-idle no-such-fragment
expect "missing path" 2 "fragment '$tmp/nope.config': no such file" "$tmp/nope.config"
msg='two-choice.config:7: CONFIG_PREEMPT=y and CONFIG_PREEMPT_NONE=y (line 6) are both '
expect "two choice members in one file" 2 "${msg}members of the choice \"Preemption Model\"" \
	two-choice
expect "m for a bool" 2 "bad-type.config:3: 'CONFIG_HZ_PERIODIC=m': CONFIG_HZ_PERIODIC is bool" \
	bad-type
expect "bad annotation" 2 "bad-annotation.config:3: 'xfail' names CONFIG_SMP" bad-annotation
expect "symbol set twice" 2 "duplicate.config:4: CONFIG_SMP is already set at line 3" duplicate
# a fragment that asks for nothing gave the base config and "every purpose met: OK", exit 0
expect "an empty fragment" 2 \
	"empty.config: no CONFIG_ line (an empty file): a fragment asks for at least one symbol" empty
expect "a fragment of comments only" 2 "comments.config: no CONFIG_ line (only comments)" comments
# "is not set" spelled otherwise was a comment to us, silently: to the kernel's conf_read() it
# is a comment too, or (with words after it) an unset
expect "'#CONFIG_X is not set'" 2 \
	"odd-unset.config:4: '#CONFIG_NO_HZ_FULL is not set': not '# CONFIG_NAME is not set' as" \
	odd-unset
for odd in '#  CONFIG_SMP is not set' '# CONFIG_SMP is  not set' '# CONFIG_SMP IS NOT SET' \
	'#	CONFIG_SMP is not set' '# CONFIG_SMP is not set (why)'; do
	printf '# Help: test\n%s\n' "$odd" >"$tmp/odd.config"
	expect "'$odd'" 2 "odd.config:2: '$odd': not '# CONFIG_NAME is not set' as the kernel" \
		"$tmp/odd.config"
done
# (with one request: a fragment of comments only is refused, above)
printf '# Help: test\n#CONFIG_SMP=y\n# the CONFIG_SMP symbol is not set here\n%s\n' \
	CONFIG_NO_HZ_IDLE=y >"$tmp/comments.config"
run "$tmp/comments.config"
is "$rc" 0 "comments that only mention a symbol stay comments"
mkdir -p "$tmp/dir.config"
expect "a fragment that is a folder" 2 "fragment '$tmp/dir.config': a directory, not a fragment" \
	"$tmp/dir.config"
expect "unknown option" 2 "unknown option --frobnicate" --frobnicate nohz-idle
: >"$tmp/empty.config"
expect "no fragments" 2 "no fragments given" --experiment "$tmp/empty.config"
expect "unknown board" 2 "unknown board 'nosuchboard'" --board nosuchboard nohz-idle

cmp -s "$out/.config" "$tmp/good.config"
ok $? "a bad fragment leaves the last good .config alone"

# Across two files, two choice members are fine: the later one wins (see the expected tables).
cat >"$tmp/a.config" <<'EOF'
# Help: test
CONFIG_PREEMPT_NONE=y
EOF
run "$tmp/a.config" preempt-full
is "$rc" 0 "choice members in two different fragments: the later one wins, exit 0"
grep -q '^overridden  *CONFIG_PREEMPT_NONE=y' "$tmp/out"
ok $? "the earlier member is reported as overridden"

for cmd in kernel-config.sh ksrc.sh gen-kconfig-derived.sh; do
	"$kf/$cmd" --help >"$tmp/help" 2>&1
	ok $? "$cmd --help exits 0"
	grep -q '^usage: ' "$tmp/help"
	ok $? "$cmd --help prints a usage line"
done
"$out/tickscope-kconfig" --help >"$tmp/help" 2>&1
ok $? "tickscope-kconfig --help exits 0"
grep -q '^usage: ' "$tmp/help"
ok $? "tickscope-kconfig --help prints a usage line"
tap_done
