#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# kconfig: the whole diff against the base equals the tree's own scripts/diffconfig, grouped with
# the right reasons and confounders; honest verdicts: "same", the =m cap, JSON "final".
. "$(dirname "$0")/lib/tap.sh"

command -v jq >/dev/null 2>&1 || skip_all "jq is not installed (make deps installs it)"
command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed (the tree's diffconfig)"
. "$TS_TOP/tests/kconfig/lib.sh"
cache=$TS_TOP/.cache/kconfig-test

# One variant per board, as the seeds use them.
o=$cache/diff-hi1215
"$kf/kernel-config.sh" --ksrc "$ksrc" --board hi1215 --out "$o" --reuse --json \
	hz-periodic preempt-none tracing vmstat-path shrinker-path shrinker-debug \
	>"$tmp/hi.json" 2>"$tmp/err"
ok $? "hi1215 with six fragments: exit 0"

# The oracle: the tree's own scripts/diffconfig on the same two files.
python3 "$ksrc/scripts/diffconfig" "$o/tickscope-base.config" "$o/.config" |
	sed 's/^ //; s/^[-+]//' | awk '{ print $1 }' | sort >"$tmp/oracle"
jq -r '.sets[0].diff[].symbol' "$tmp/hi.json" | sort >"$tmp/ours"
[ -s "$tmp/oracle" ] && diff -u "$tmp/oracle" "$tmp/ours" >"$tmp/d"
ok $? "the diff lists exactly the symbols of scripts/diffconfig ($(wc -l <"$tmp/oracle") lines)"
head -10 "$tmp/d" | sed 's/^/#   /'
python3 "$ksrc/scripts/diffconfig" "$o/tickscope-base.config" "$o/.config" |
	awk '/^-/ { print substr($1, 2), $2, "-" } /^\+/ { print substr($1, 2), "-", $2 }
		/^ / { print $1, $2, $4 }' | sort >"$tmp/oracle2"
jq -r '.sets[0].diff[] | "\(.symbol) \(.old // "-") \(.new // "-")"' "$tmp/hi.json" |
	sort >"$tmp/ours2"
diff -u "$tmp/oracle2" "$tmp/ours2" >/dev/null
ok $? "with the same old and new values"

# group SYMBOL: the group of one diff line; why/confounder likewise.
field() {
	jq -r --arg s "$2" ".sets[0].diff[] | select(.symbol == \$s) | .$1 // \"\"" "$tmp/hi.json"
}
is "$(field group HZ_PERIODIC)" requested "HZ_PERIODIC is in the requested group"
is "$(field group CPU_IDLE_GOV_LADDER)" pulled "CPU_IDLE_GOV_LADDER is pulled in (hz-periodic)"
field why CPU_IDLE_GOV_LADDER | grep -q '^selected by CPU_IDLE \[=y\] && !NO_HZ \[=n\]'
ok $? "by a select that names its terms"
field confounder CPU_IDLE_GOV_LADDER | grep -q '^idle governor'
ok $? "and flagged as an idle governor confounder"
for s in PREEMPT_RCU TASKS_RCU; do
	is "$(field old $s)/$(field new $s)" "y/" "preempt-none drops $s (arm64 defconfig is PREEMPT)"
	field confounder $s | grep -q '^RCU flavour'
	ok $? "$s is flagged as an RCU flavour confounder"
done
is "$(field group SHRINKER_DEBUG)" requested "SHRINKER_DEBUG comes from a fragment"
field confounder SHRINKER_DEBUG | grep -q 'debug work on the measured path'
ok $? "and is flagged as debug work on the measured path"
is "$(field group PREEMPT)" choice-or-default "PREEMPT y -> n is a choice change"
field why PREEMPT | grep -q '^choice "Preemption Model" is now PREEMPT_NONE$'
ok $? "naming the member the choice resolved to"
jq -e '[.sets[0].diff[] | select(.group == "shown") |
	((.old // "n") == "n" and (.new // "n") == "n")] | all' "$tmp/hi.json" >/dev/null
ok $? "the 'shown' group holds only symbols off before and after"

# "same": a later fragment asks for the same value. Not a line in text, one under -v; JSON has
# the final value for it and for overridden requests.
jq -e '.sets[0].requests[] | select(.fragment == "tracing.config" and .symbol == "FTRACE") |
	.verdict == "same" and .final == "y"' "$tmp/hi.json" >/dev/null
ok $? "FTRACE asked by tracing and vmstat-path: 'same', final y"
"$kf/kernel-config.sh" --ksrc "$ksrc" --board hi1215 --out "$o" --reuse \
	tracing vmstat-path >"$tmp/text" 2>/dev/null
! grep -q '^same  *CONFIG_FTRACE=y  *tracing.config' "$tmp/text" &&
	grep -q '^kept  *CONFIG_FTRACE=y  *vmstat-path.config' "$tmp/text"
ok $? "text: no 'same' line by default"
grep -q 'overridden, [1-9][0-9]* same, ' "$tmp/text"
ok $? "the result line counts them"
"$kf/kernel-config.sh" --ksrc "$ksrc" --board hi1215 --out "$o" --reuse -v \
	tracing vmstat-path >"$tmp/textv" 2>/dev/null
grep -q '^same  *CONFIG_FTRACE=y  *tracing.config:[0-9]*$' "$tmp/textv"
ok $? "-v: one 'same' line"
"$kf/kernel-config.sh" --ksrc "$ksrc" --board hi1215 --out "$o" --reuse --json \
	preempt-voluntary preempt-full >"$tmp/ov.json" 2>/dev/null
jq -e '.sets[0].requests[] | select(.symbol == "PREEMPT_VOLUNTARY") |
	.verdict == "overridden" and .final == "n"' "$tmp/ov.json" >/dev/null
ok $? "an overridden request has its final value in JSON"

# --diff on its own: the diff and nothing else.
"$kf/kernel-config.sh" --ksrc "$ksrc" --board hi1215 --out "$o" --reuse --diff \
	hz-periodic >"$tmp/diffonly" 2>/dev/null
grep -q '^diff against the base: ' "$tmp/diffonly" && ! grep -q '^kept\|^result:' "$tmp/diffonly"
ok $? "--diff prints only the diff"
grep -q '^  +*  *CPU_IDLE_GOV_LADDER n -> y  *selected by' "$tmp/diffonly" ||
	grep -q 'CPU_IDLE_GOV_LADDER n -> y' "$tmp/diffonly"
ok $? "as scripts/diffconfig writes a change (SYM old -> new)"

# The =m cap: DRM=m was kept, so DRM_I915=y is capped, not "dropped too".
o=$cache/diff-x86
"$kf/kernel-config.sh" --ksrc "$ksrc" --arch x86_64 --out "$o" --reuse \
	"$TS_TOP/tests/kconfig/fragments/drm-m.config" \
	"$TS_TOP/tests/kconfig/fragments/i915-y.config" >"$tmp/cap" 2>/dev/null
grep -q 'DRM \[=m\] as requested at drm-m.config:3, and a dependency at m caps' "$tmp/cap" &&
	! grep -q 'was dropped too' "$tmp/cap"
ok $? "DRM=m kept caps DRM_I915 at m: said so, not 'dropped too'"
tap_done
