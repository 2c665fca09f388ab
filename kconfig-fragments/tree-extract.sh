#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Make the Kconfig-only extract of a kernel tree that `make check-kconfig-trees` expects, from a
# checked-out tree or a git directory, and print the origin line to record with it.
set -eu

usage() {
	cat <<USAGE
usage: $0 [--rev REV] [--origin TEXT] SRC DEST
Copy the Kconfig-relevant part of the kernel tree SRC into DEST, which must not exist yet:
the top Makefile, scripts/, every Kconfig*, arch/*/Makefile*, arch/*/configs/ and
kernel/configs/ (the same set as ksrc.sh takes from Debian's tarballs). That is enough for
defconfig, olddefconfig and the kconfig objects, not to build a kernel.
SRC is a kernel source directory or a git directory (bare or not; --rev picks the commit,
default HEAD). --origin names where SRC came from (say github:OWNER/NAME); it goes into
the origin line, which is printed on stdout and kept as DEST/.tickscope-origin:
  linux-VERSION ORIGIN COMMIT N files sha256:HASH
HASH is the sha256 of the extract's "sha256sum" listing sorted by path, so two extracts of the same
tree give the same line. Then run, for example:
  make check-kconfig-trees TS_KCONFIG_TREES="VERSION=DEST"
Exit 0 on success, 2 on a usage error, 3 when SRC is not a kernel tree or DEST exists.
USAGE
}

rev=HEAD origin=
while [ $# -gt 0 ]; do
	case "$1" in
	-h | --help) usage; exit 0 ;;
	--rev) [ $# -ge 2 ] || { usage >&2; exit 2; }; rev=$2; shift 2 ;;
	--origin) [ $# -ge 2 ] || { usage >&2; exit 2; }; origin=$2; shift 2 ;;
	-*) echo "tree-extract: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ $# -eq 2 ] || { usage >&2; exit 2; }
src=$1 dest=$2
[ ! -e "$dest" ] || { echo "tree-extract: $dest exists: give a new directory" >&2; exit 3; }

# The paths to keep, as one extended regular expression over paths relative to the tree.
keep='^Makefile$|^scripts/|(^|/)Kconfig[^/]*$'
keep="$keep|^arch/.+/Makefile[^/]*\$|^arch/.+/configs/|^kernel/configs/"

if [ -f "$src/Makefile" ]; then
	kind=dir
elif git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
	kind=git
else
	echo "tree-extract: $src is neither a kernel tree nor a git directory" >&2
	exit 3
fi

mkdir -p "$(dirname "$dest")"
dest=$(cd "$(dirname "$dest")" && pwd)/$(basename "$dest") # absolute: the dir case cds
tmp=$(mktemp -d "$dest.tmp.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
case $kind in
git)
	commit=$(git -C "$src" rev-parse --verify "$rev^{commit}" 2>/dev/null) ||
		{ echo "tree-extract: $src: no commit $rev" >&2; exit 3; }
	git -C "$src" ls-tree -r --name-only "$commit" | grep -E "$keep" >"$tmp/list" || true
	grep -qx Makefile "$tmp/list" && grep -q '^scripts/kconfig/' "$tmp/list" ||
		{ echo "tree-extract: $src at $commit is not a kernel tree" >&2; exit 3; }
	mkdir "$tmp/tree"
	# Through xargs: a tree has about 3000 such paths, too many for one command line
	# on some systems; each batch is its own archive. A snapshot may lack its largest blobs,
	# and git archive then complains about them even outside the paths asked for: the file
	# count below is what says whether the extract is whole.
	tr '\n' '\0' <"$tmp/list" |
		xargs -0 sh -c 'c=$1; shift; git -C "$0" archive --format=tar "$c" -- "$@"' \
			"$src" "$commit" 2>"$tmp/err" | tar -x -i -C "$tmp/tree"
	;;
dir)
	[ -d "$src/scripts/kconfig" ] ||
		{ echo "tree-extract: $src is not a kernel tree (no scripts/kconfig)" >&2; exit 3; }
	if [ "$(git -C "$src" rev-parse --show-toplevel 2>/dev/null)" = "$(cd "$src" && pwd -P)" ]
	then
		# A work tree of its own: its tracked files, so build outputs stay out.
		commit=$(git -C "$src" rev-parse --verify -q HEAD || echo -)
		[ -z "$(git -C "$src" status --porcelain -uno)" ] || commit=$commit-dirty
		git -C "$src" ls-files | grep -E "$keep" >"$tmp/list" || true
	else
		# An unpacked tarball: refuse one that has been built in, rather than guess.
		[ ! -e "$src/scripts/kconfig/conf" ] && [ ! -e "$src/.config" ] || {
			echo "tree-extract: $src has build outputs (.config, scripts/kconfig/conf):" \
				"give a pristine tree, or run make mrproper in it" >&2
			exit 3
		}
		commit=-
		(cd "$src" && find . ! -type d | sed 's|^\./||' | grep -E "$keep") >"$tmp/list" ||
			true
	fi
	mkdir "$tmp/tree"
	(cd "$src" && tr '\n' '\0' <"$tmp/list" | xargs -0 tar -c -f - --) | tar -x -i -C "$tmp/tree"
	;;
esac

n=$(cd "$tmp/tree" && find . ! -type d | wc -l)
if [ "$n" -ne "$(wc -l <"$tmp/list")" ]; then
	echo "tree-extract: $src: $n of $(wc -l <"$tmp/list") files extracted" >&2
	[ ! -s "$tmp/err" ] || sed 's/^/tree-extract:   /' "$tmp/err" | head -5 >&2
	exit 3
fi
# A tree stored without execute bits (some public mirrors) fails later in every run with
# "cc-version.sh: Permission denied": the scripts that start with "#!" get theirs back.
(cd "$tmp/tree" && find scripts -type f ! -perm -u+x -exec sh -c '
	for f; do [ "$(head -c2 "$f")" != "#!" ] || printf "%s\n" "$f"; done' sh {} +) \
	>"$tmp/noexec" 2>/dev/null || true
if [ -s "$tmp/noexec" ]; then
	(cd "$tmp/tree" && tr '\n' '\0' <"$tmp/noexec" | xargs -0 chmod +x --)
	echo "tree-extract: $src: restored the execute bit of $(wc -l <"$tmp/noexec") scripts/" \
		"files that start with #! (e.g. $(head -1 "$tmp/noexec")): the source had lost it" >&2
fi
kver=$(make -s -C "$tmp/tree" kernelversion 2>/dev/null | tail -1)
[ -n "$kver" ] || { echo "tree-extract: $src: make kernelversion failed" >&2; exit 3; }
# Regular files by content, symbolic links (scripts/dtc has some) by target.
hash=$(cd "$tmp/tree" && {
	find . -type f -print0 | xargs -0 sha256sum
	find . -type l -printf '%l  %p\n'
} | LC_ALL=C sort -k2 | sha256sum | cut -d' ' -f1)
line="linux-$kver ${origin:-$src} $commit $n files sha256:$hash"
echo "$line" >"$tmp/tree/.tickscope-origin"
touch "$tmp/tree/.tickscope-extracted"
mv -T "$tmp/tree" "$dest"
echo "$line"
