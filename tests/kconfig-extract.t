#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# kconfig-fragments/tree-extract.sh, which makes the extracts of make check-kconfig-trees: from a
# directory and from a git directory it copies the same files (oracle: diff -r against the
# source, and git's own commit), its origin line's hash is reproducible, and it refuses clearly.
. "$(dirname "$0")/lib/tap.sh"

command -v git >/dev/null 2>&1 || skip_all "git is not installed"
kf=$TS_TOP/kconfig-fragments
src=$("$kf/ksrc.sh" 6.1 2>&1) || skip_all "no kernel tree: $src"
src=$(cd "$src" && pwd -P) # diff --no-dereference must not compare a link to it
tap_tmpdir
tmp=$TAP_TMP

rc=0
line=$("$kf/tree-extract.sh" --origin test:dir "$src" "$tmp/a" 2>"$tmp/err") || rc=$?
is "$rc" 0 "a Kconfig-only tree is extracted"
n=$(cd "$tmp/a" && find . ! -type d ! -name '.tickscope-*' | wc -l)
echo "$line" | grep -Eq "^linux-6\.1\.[0-9]+ test:dir - $n files sha256:[0-9a-f]{64}\$"
ok $? "the origin line names version, origin, no commit, $n files and a hash ($line)"
is "$(cat "$tmp/a/.tickscope-origin")" "$line" "and is kept in the extract"
# ksrc.sh keeps the same set of files, so nothing may differ but our two marks.
diff -r --no-dereference -x .tickscope-origin -x .tickscope-extracted "$src" "$tmp/a" \
	>"$tmp/diff" 2>&1
ok $? "the extract has exactly the source's Kconfig files, Makefiles and scripts/"
head -5 "$tmp/diff" | sed 's/^/#   /'

line2=$("$kf/tree-extract.sh" --origin test:dir "$tmp/a" "$tmp/b" 2>/dev/null)
is "${line2##* }" "${line##* }" "the hash is reproducible: an extract of the extract"

# From a git directory (as a snapshot without a work tree): the same files, and the commit.
mkdir "$tmp/w"
cp -a "$src/." "$tmp/w/"
rm -f "$tmp/w/.tickscope-extracted"
echo 'build output, not a source' >"$tmp/w/scripts/kconfig/untracked.o"
(cd "$tmp/w" && git init -q && git add -A . ':!scripts/kconfig/untracked.o' &&
	git -c user.name=t -c user.email=t@t commit -qm tree) >/dev/null 2>&1
commit=$(git -C "$tmp/w" rev-parse HEAD)
git clone -q --bare "$tmp/w" "$tmp/bare.git" 2>/dev/null
line3=$("$kf/tree-extract.sh" --origin test:git "$tmp/bare.git" "$tmp/c" 2>"$tmp/err")
ok $? "a git directory without a work tree is extracted too"
is "${line3##* }" "${line##* }" "with the same files (same hash)"
echo "$line3" | grep -q " $commit "
ok $? "and the origin line names the commit"
line4=$("$kf/tree-extract.sh" "$tmp/w" "$tmp/d" 2>/dev/null)
is "${line4##* }" "${line##* }" "a git work tree gives its tracked files, not build outputs"

# A tree stored without execute bits (as some public mirrors are): the scripts that start
# with "#!" get theirs back, a file that only contains "#!" further down does not, and the
# extract's hash is the source's (content only).
cp -a "$tmp/a" "$tmp/noexec"
rm -f "$tmp/noexec/.tickscope-"*
n=$(find "$tmp/noexec/scripts" -type f -perm -u+x -exec sh -c '
	for f; do [ "$(head -c2 "$f")" != "#!" ] || echo "$f"; done' sh {} + | wc -l)
find "$tmp/noexec/scripts" -type f -exec chmod a-x {} +
printf 'not a script\n#!/bin/sh\n' >"$tmp/noexec/scripts/not-a-script.txt"
line5=$("$kf/tree-extract.sh" "$tmp/noexec" "$tmp/g" 2>"$tmp/err")
ok $? "a tree without execute bits is extracted"
grep -q "restored the execute bit of $n scripts/ files that start with #!" "$tmp/err"
ok $? "and says it restored the $n lost execute bits"
[ -x "$tmp/g/scripts/kconfig/merge_config.sh" ] && [ ! -x "$tmp/g/scripts/not-a-script.txt" ]
ok $? "scripts get their execute bit, other files do not"
[ -n "$line5" ]
ok $? "with an origin line"

rc=0
"$kf/tree-extract.sh" "$src" "$tmp/a" 2>"$tmp/err" || rc=$?
is "$rc" 3 "an existing destination is refused (exit 3)"
grep -q "$tmp/a exists" "$tmp/err"
ok $? "naming it"
rc=0
"$kf/tree-extract.sh" "$tmp" "$tmp/e" 2>"$tmp/err" || rc=$?
is "$rc" 3 "a folder that is not a kernel tree is refused (exit 3)"
rc=0
"$kf/tree-extract.sh" --rev no-such-rev "$tmp/bare.git" "$tmp/f" 2>"$tmp/err" || rc=$?
is "$rc" 3 "an unknown revision is refused (exit 3)"
tap_done
