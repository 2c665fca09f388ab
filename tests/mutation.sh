#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `make mutation`: plants each small bug of tests/mutations.txt, one at a time, in a scratch
# copy of the tree (never in this one), rebuilds, runs only the tests that cover the mutated
# file, and prints caught/missed. Not part of `make check`: it rebuilds once per mutation.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
list=${MUTATION_LIST:-$top/tests/mutations.txt}
only=""
keep=0
TIMEOUT=${MUTATION_TIMEOUT:-600}

usage() {
	cat <<EOF
usage: $0 [--help] [--keep] [ID...]

Applies every mutation of tests/mutations.txt (or only the IDs given) one at a time in a
scratch copy of the tree under \${TMPDIR:-/tmp}, runs the tests its line names, and prints
one line per mutation (caught, MISSED, or INVALID when the text to replace is not found
exactly once or the tree does not build), then the score. A mutation is caught when one of
its tests fails. --keep leaves the scratch copy. Environment: MUTATION_TIMEOUT (seconds per
test, default 600), MUTATION_CHECK_ONLY=1 (check every line, run nothing; tests/mutation-list.t
does in make check), MUTATION_LIST (another list, for that test).
Exit status: 0 when at least 90% are caught and every miss is explained in the list
(its line's note starts with "missed:"), 1 otherwise.
EOF
}

for a in "$@"; do
	case "$a" in
	-h | --help) usage; exit 0 ;;
	--keep) keep=1 ;;
	-*) usage >&2; exit 2 ;;
	*) only="$only $a" ;;
	esac
done

tab=$(printf '\t')
# Every line is checked before anything is built: a mutation whose text is not found exactly
# once, whose file is missing or whose test does not exist ends the run here, naming its line.
bad=0
lineno=0
while IFS= read -r line; do
	lineno=$((lineno + 1))
	case $line in '' | '#'*) continue ;; esac
	IFS="$tab" read -r id file old new tests note <<EOF2
$line
EOF2
	if [ -n "$only" ]; then
		case " $only " in *" $id "*) ;; *) continue ;; esac
	fi
	where="${list#"$top"/}:$lineno: $id"
	if [ -z "$note" ]; then
		echo "$where: INVALID: not six TAB-separated fields" >&2
		bad=$((bad + 1))
		continue
	fi
	if [ ! -f "$top/$file" ]; then
		echo "$where: INVALID: $file does not exist" >&2
		bad=$((bad + 1))
		continue
	fi
	n=$(OLD=$old perl -0777 -ne '
		($o = $ENV{OLD}) =~ s/\\(.)/$1 eq "n" ? "\n" : $1 eq "t" ? "\t" : $1/ge;
		print scalar(() = /\Q$o\E/g);' "$top/$file")
	if [ "$n" != 1 ]; then
		echo "$where: INVALID: $file: the text to replace was found $n times" >&2
		bad=$((bad + 1))
	fi
	for t in $tests; do
		case $t in
		unit:*) [ -f "$top/tests/unit/${t#unit:}.c" ] ;;
		*) [ -f "$top/tests/$t" ] ;;
		esac || { echo "$where: INVALID: no test $t" >&2; bad=$((bad + 1)); }
	done
done <"$list"
if [ "$bad" -gt 0 ]; then
	echo "mutation: $bad invalid line(s) in ${list#"$top"/}; nothing was run" >&2
	exit 1
fi
[ "${MUTATION_CHECK_ONLY:-0}" = 1 ] && { echo "mutation: every line applies" >&2; exit 0; }

start=$(date +%s)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/tickscope-mutation.XXXXXX")
test_pid=""
cleanup() {
	[ -z "$test_pid" ] || kill "$test_pid" 2>/dev/null || true
	if [ "$keep" = 1 ]; then
		echo "mutation: scratch copy kept in $scratch" >&2
	else
		rm -rf "$scratch"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The tree as it is now (uncommitted changes included), without build output and caches; the
# fixture caches are shared read-mostly through a link.
(cd "$top" && tar --exclude=./build --exclude=./build-san --exclude=./.cache --exclude=./out \
	--exclude=./.git -cf - .) | (cd "$scratch" && tar -xf -)
[ -d "$top/.cache" ] && ln -s "$top/.cache" "$scratch/.cache"

build() {
	# without link-time optimization: the same code, and each mutation links in seconds
	make -s -C "$scratch" -j2 LTO= all >"$scratch/build.log" 2>&1
}
echo "mutation: building the scratch copy in $scratch" >&2
build || { echo "mutation: the unmutated tree does not build: see $scratch/build.log" >&2; keep=1; exit 1; }

# apply FILE OLD NEW: replace the one occurrence of OLD; fails unless there is exactly one
apply() {
	OLD=$2 NEW=$3 perl -0777 -i -pe '
		BEGIN {
			for my $k (qw(OLD NEW)) {
				($u{$k} = $ENV{$k}) =~ s/\\(.)/$1 eq "n" ? "\n" : $1 eq "t" ? "\t" : $1/ge;
			}
		}
		my $n = () = /\Q$u{OLD}\E/g;
		if ($n != 1) { print STDERR "found $n times\n"; exit 3 }
		s/\Q$u{OLD}\E/$u{NEW}/' "$scratch/$1"
}

# run_tests TESTS: 0 when every test passes, 1 when one fails
run_tests() {
	for t in $1; do
		case $t in
		unit:*) path=$scratch/build/tests/${t#unit:}.t ;;
		*) path=$scratch/tests/$t ;;
		esac
		(cd "$scratch" && TS_BUILD=$scratch/build TS_TOP=$scratch \
			exec timeout "$TIMEOUT" prove --exec '' "$path") >"$scratch/test.log" 2>&1 &
		test_pid=$!
		if ! wait "$test_pid"; then
			test_pid=""
			failed_in=$t
			return 1
		fi
		test_pid=""
	done
	return 0
}

total=0 caught=0 missed=0 invalid=0 unexplained=0
lineno=0
while IFS="$tab" read -r id file old new tests note; do
	lineno=$((lineno + 1))
	case $id in '' | '#'*) continue ;; esac
	if [ -n "$only" ]; then
		case " $only " in *" $id "*) ;; *) continue ;; esac
	fi
	total=$((total + 1))
	t0=$(date +%s)
	cp "$scratch/$file" "$scratch/.orig"
	if ! apply "$file" "$old" "$new" 2>"$scratch/apply.err"; then
		printf '%-4s INVALID  %s: the text to replace was %s (tests/mutations.txt:%d)\n' \
			"$id" "$file" "$(cat "$scratch/apply.err")" "$lineno"
		invalid=$((invalid + 1))
		cp "$scratch/.orig" "$scratch/$file"
		continue
	fi
	failed_in=""
	if ! build; then
		printf '%-4s INVALID  %s: does not build (tests/mutations.txt:%d)\n' "$id" "$file" \
			"$lineno"
		invalid=$((invalid + 1))
	elif run_tests "$tests"; then
		printf '%-4s MISSED   %s: %s -> %s (%s; %ds)\n' "$id" "$file" "$old" "$new" \
			"$note" $(($(date +%s) - t0))
		missed=$((missed + 1))
		case $note in missed:*) ;; *) unexplained=$((unexplained + 1)) ;; esac
	else
		printf '%-4s caught   %s by %s (%ds)\n' "$id" "$file" "$failed_in" \
			$(($(date +%s) - t0))
		caught=$((caught + 1))
	fi
	# restore, with a new time stamp so that make rebuilds the original
	cp "$scratch/.orig" "$scratch/$file"
	touch "$scratch/$file"
done <"$list"
build || true

valid=$((total - invalid))
pct=$([ "$valid" -gt 0 ] && echo $((caught * 100 / valid)) || echo 0)
echo "mutation: $caught of $valid caught ($pct%), $missed missed ($unexplained unexplained)," \
	"$invalid invalid, of $total, in $(($(date +%s) - start)) s"
[ "$valid" -gt 0 ] && [ "$pct" -ge 90 ] && [ "$unexplained" -eq 0 ] && [ "$invalid" -eq 0 ]
