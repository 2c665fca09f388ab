#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Hostile make variables: every variable of make experiment, record, lava-jobs, lava-collect and
# bisect given a quote that would run a command, a space, a '..' and a newline. None may run a
# command, break the recipe's shell, write or remove anything outside the folders given, or
# end without a clear line: either the script's own "error:" line or a normal run.
. "$(dirname "$0")/lib/tap.sh"
command -v make >/dev/null || skip_all "no make"
nl='
'

# hostile I ISPATH: hostile value I (1-4); paths are made absolute inside the row's folder $W
# so that a value taken as it is stays in it.
hostile() {
	_pre=""
	[ "$2" = 0 ] || _pre=$W/
	case $1 in
	1) printf '%s' "${_pre}q'; touch $W/pwned; echo '" ;;
	2) printf '%s' "${_pre}a b" ;;
	3) if [ "$2" = 0 ]; then printf '..'; else printf '%s' "$W/d/.."; fi ;;
	4) printf '%s' "${_pre}a${nl}b" ;;
	esac
}

# One row, run by the rows' xargs below in a folder of its own ($W = $T/row/N, the stand-ins
# in $T shared): "--row N TARGET PROG VAR I ISPATH BASE..." runs make TARGET BASE...
# VAR=<hostile value I>, with @W@ in BASE standing for $W. Writes $W/result: 0 or 1, the test's
# name, then the lines that explain a failure.
if [ "${1:-}" = --row ]; then
	T=$TS_BAD_MAKE_T W=$T/row/$2 _t=$3 _p=$4 _v=$5
	_val=$(hostile "$6" "$7")
	shift 7
	n=$#
	while [ $n -gt 0 ]; do
		set -- "$@" "$(printf '%s' "$1" | sed "s|@W@|$W|g")"
		shift
		n=$((n - 1))
	done
	# What must survive: a run beside the experiments, a victim folder next to them.
	mkdir -p "$W/r/experiments/run-1" "$W/victim/v/run-1"
	touch "$W/r/experiments/run-1/keep.txt" "$W/victim/v/run-1/precious.txt" \
		"$W/victim/v.variant"
	REPLAY_KERNELS="$W/img" make -s --no-print-directory -C "$TS_TOP" -o all -o workloads \
		-o "$TS_BAD_MAKE_CLI" \
		BUILD="$TS_BUILD" "$_t" "$@" "$_v=$_val" >"$W/out" 2>"$W/err"
	_rc=$?
	_what="make $_t $_v=$(printf '%s' "$_val" | sed "s|$W|T|g" | tr '\n' '~')"
	_bad=""
	[ ! -e "$W/pwned" ] || _bad="$_bad, ran the command"
	# A value that names a program (RECORD=...) is run whole: "<the value>: not found" is
	# its own clear error (a log quoted in it may indent the value's second line); a part of
	# a value not found is a broken quote.
	perl -0pe 'BEGIN { $v = join("\n\\s*", map { quotemeta } split(/\n/, shift @ARGV, -1)) }
		s/$v: not found//g' "$_val" "$W/err" |
		grep -qE 'unexpected argument|[Uu]nterminated|[Ss]yntax error|not found|bad substitution|unknown variable|parameter not set' &&
		_bad="$_bad, a shell error"
	[ -f "$W/r/experiments/run-1/keep.txt" ] && [ -f "$W/victim/v/run-1/precious.txt" ] ||
		_bad="$_bad, removed a file outside its folder"
	[ "$(ls -a "$TS_TOP")" = "$TS_BAD_MAKE_TOP" ] || _bad="$_bad, wrote into the source tree"
	_last=$(grep -v '^make: \*\*\*' "$W/err" | tail -n1)
	case "$_rc:$_last" in
	0:* | *:"$_p: "*) ;;
	*) _bad="$_bad, exit $_rc without a line of its own" ;;
	esac
	if [ -z "$_bad" ]; then
		printf '0\n%s\n' "$_what: $(if [ $_rc = 0 ]; then echo done; else echo "$_last" |
			cut -c1-70 | sed "s|$W|T|g"; fi)"
	else
		printf '1\n%s\n' "$_what${_bad}"
		tail -n 5 "$W/err" | sed 's/^/#   /'
	fi >"$W/result.tmp"
	mv "$W/result.tmp" "$W/result"
	exit 0
fi

tap_tmpdir
T=$TAP_TMP

# A stand-in recorder and ssh: they log what they were given and fail (there is no board).
printf '#!/bin/sh\nfor a in "$@"; do printf "%%s\\n" "$a"; done >>"%s/rec.log"\nexit 1\n' "$T" \
	>"$T/rec"
printf '#!/bin/sh\nprintf "%%s\\n" "$@" >>"%s/ssh.log"\ncat >/dev/null\nexit 1\n' "$T" >"$T/ssh"
chmod +x "$T/rec" "$T/ssh"
sed -e 's/^NAME=.*/NAME=tsb/' -e "s|^SSH=.*|SSH=$T/ssh|" -e 's/^ARCH=.*/ARCH=x86_64/' \
	"$TS_TOP/boards/hi1215.board" >"$T/tsb.board"
printf '%s\n' "generic.kernel=http://lab.invalid/vmlinuz" \
	"generic.ramdisk=http://lab.invalid/ts-lava.cpio.gz" >"$T/kernels"
printf '%s\n' "name=evx" "workload=pingpong" "a=default" "b=boot:nohz=off" >"$T/evx.exp"
mkdir -p "$T/in"
TS_BAD_MAKE_T=$T TS_BAD_MAKE_TOP=$(ls -a "$TS_TOP")
# The CLI as make names it, for -o: the Makefile spells BUILD one way (relative inside the
# tree), whatever TS_BUILD's spelling, and -o "$TS_BUILD/tickscope" named no target of it.
TS_BAD_MAKE_CLI=$(make -s --no-print-directory -C "$TS_TOP" BUILD="$TS_BUILD" -pq help \
	2>/dev/null | sed -n 's/^CLI := //p' | head -n1)
[ -n "$TS_BAD_MAKE_CLI" ] || { echo "Bail out! make names no CLI for BUILD=$TS_BUILD"; exit 1; }
export TS_BAD_MAKE_T TS_BAD_MAKE_TOP TS_BAD_MAKE_CLI

# table TARGET PROG PATHVARS VARS -- BASE...: every VAR gets every hostile value; one row a
# line of $T/rows, run below.
rows=0
table() {
	_tt=$1 _tp=$2 _paths=$3 _vars=$4
	shift 5
	for _var in $_vars; do
		_isp=0
		case " $_paths " in *" $_var "*) _isp=1 ;; esac
		for _i in 1 2 3 4; do
			rows=$((rows + 1))
			echo "$rows $_tt $_tp $_var $_i $_isp $*" >>"$T/rows"
		done
	done
}

# The variable lists are the make fragments' own, so a new variable is covered at once.
vars() {
	make -s --no-print-directory -C "$TS_TOP" -p -f /dev/null -f "$1" 2>/dev/null |
		sed -n "s/^$2 := //p" | head -n1
}
exp_vars=$(vars "$TS_TOP/boards/boards.mk" EXPERIMENT_VARS)
rec_vars=$(vars "$TS_TOP/boards/boards.mk" RECORD_VARS)
jobs_vars=$(vars "$TS_TOP/boards/lava.mk" LAVA_JOBS_VARS)
col_vars=$(vars "$TS_TOP/boards/lava.mk" LAVA_COLLECT_VARS)
bisect_vars=$(vars "$TS_TOP/boards/boards.mk" BISECT_VARS)
[ "$(echo $exp_vars $rec_vars $jobs_vars $col_vars | wc -w)" -gt 50 ] &&
	[ "$(echo $bisect_vars | wc -w)" -gt 20 ] ||
	{ echo "Bail out! cannot read the variable lists of boards/*.mk"; exit 1; }

# BASE words: @W@ is the row's folder; no blanks in them.
table experiment experiment "RESULTS RECORD MAKE_KERNEL TICKSCOPE CONFIG" "$exp_vars" -- \
	BOARD=qemu-aarch64 WORKLOAD=pingpong A=default B=rt RUNS=1 NAME=t RESULTS=@W@/r \
	RECORD="$T/rec" CONFIG=/dev/null
table record record "RESULTS CONFIG KERNEL_IMAGE" "$rec_vars" -- \
	BOARD="$T/tsb.board" WORKLOAD=pingpong VARIANT=v RUNS=1 RESULTS=@W@/r CONFIG=/dev/null
table lava-jobs lava-jobs "EXPERIMENT KERNELS OUT" "$jobs_vars" -- \
	EXPERIMENT="$T/evx.exp" DEVICE_TYPE=qemu KERNELS="$T/kernels" \
	UPLOAD_URL=http://up.invalid/drop RUNS=1 OUT=@W@/jobs
table lava-collect lava-collect "IN OUT EXPERIMENT TICKSCOPE" "$col_vars" -- \
	IN="$T/in" OUT=@W@/col EXPERIMENT="$T/evx.exp"
# bisect: bisect.t's stand-in kernel build (REPLAY_KERNELS, the row's), so that every value
# reaches the (failing) recorder; KSRC again without PATCHES (a git range of this repository).
table bisect bisect "PATCHES KSRC RESULTS RECORD MAKE_KERNEL TICKSCOPE" "$bisect_vars" -- \
	PATCHES="$TS_TOP/tests/fixtures/bisect/shrinker-series" NAME=t RESULTS=@W@/r \
	RECORD="$T/rec" MAKE_KERNEL="$TS_TOP/tests/fixtures/bisect/replay-kernel.sh"
table bisect bisect KSRC KSRC -- GOOD=HEAD~1 BAD=HEAD NAME=t RESULTS=@W@/r RECORD="$T/rec" \
	MAKE_KERNEL="$TS_TOP/tests/fixtures/bisect/replay-kernel.sh"

# The rows are independent (a folder each): as many at once as there are CPUs.
xargs -P "$(nproc 2>/dev/null || echo 2)" -L 1 sh "$0" --row <"$T/rows"
i=0
while [ $i -lt $rows ]; do
	i=$((i + 1))
	r=$T/row/$i/result
	if [ -f "$r" ]; then
		ok "$(sed -n 1p "$r")" "$(sed -n 2p "$r")"
		sed '1,2d' "$r" >&2
	else
		ok 1 "row $i ($(sed -n "${i}p" "$T/rows" | cut -d' ' -f2-5)): no result"
	fi
done

# The values arrive whole: a quoted token and boot parameters with quotes and spaces.
make -s --no-print-directory -C "$TS_TOP" BUILD="$TS_BUILD" lava-jobs EXPERIMENT="$T/evx.exp" \
	DEVICE_TYPE=qemu KERNELS="$T/kernels" UPLOAD_URL=http://up.invalid/drop RUNS=1 \
	OUT="$T/jobs2" UPLOAD_TOKEN="a: b 'c\" #d {e}" >/dev/null 2>"$T/err"
grep -qxF "  TS_UPLOAD_TOKEN: 'a: b ''c\" #d {e}'" "$T/jobs2/"*-b1-default.yaml
ok $? "lava-jobs: a token with a quote, a colon and a brace is the job's secret, whole"
# The stand-in recorder fails, so the experiment stops after its first run: ORDER=fixed runs A
# first (the shuffled default put B first in half the seeds, and the check failed by chance).
rm -f "$T/rec.log"
make -s --no-print-directory -C "$TS_TOP" -o all -o workloads -o "$TS_BAD_MAKE_CLI" \
	BUILD="$TS_BUILD" experiment ORDER=fixed \
	BOARD=qemu-aarch64 A="rt+boot:dyndbg='file x.c +p'" B=default RUNS=1 RESULTS="$T/r" \
	RECORD="$T/rec" CONFIG=/dev/null >/dev/null 2>"$T/err"
grep -qxF "BOOT_ARGS=dyndbg='file x.c +p'" "$T/rec.log" && grep -qxF GUEST_KERNEL=rt "$T/rec.log" &&
	[ -d "$T/r/experiments/qemu-aarch64-pingpong-rt-dyndbg--file-x.c--p--vs-default" ]
ok $? "experiment: A=\"rt+boot:dyndbg='file x.c +p'\" reaches the recorder whole"
# ORDER and SEED reach the script through make (they did not: the shuffled default ran, and the
# check above passed for half the seeds). Seed 9 runs B first (boards-experiment.t's known answer).
for o in "ORDER=fixed rt" "SEED=9 generic"; do
	rm -rf "$T/rec.log" "$T/r"
	make -s --no-print-directory -C "$TS_TOP" -o all -o workloads -o "$TS_BAD_MAKE_CLI" \
		BUILD="$TS_BUILD" experiment "${o% *}" BOARD=qemu-aarch64 A=rt B=default RUNS=1 \
		RESULTS="$T/r" RECORD="$T/rec" CONFIG=/dev/null >/dev/null 2>"$T/err"
	is "$(sed -n 's/^GUEST_KERNEL=//p' "$T/rec.log" | tr '\n' ' ')" "${o#* } " \
		"make experiment ${o% *}: the first (failing) recording is of ${o#* }"
done

# From a tree whose path has a space (or a quote), the paths the Makefile hands its scripts and
# tests are one word each: "TS_BUILD=/x/my tree/build scripts/demo.sh" ran "tree/build". The
# recipes as make -n prints them (CURDIR given as such a path) are run with env in the script's
# place, which prints the environment the script would get.
sp="$T/my tree's"
prove_re='prove( -[^ ]+)* --exec' # make check PROVE="prove -j2" reaches this make -n too
for tgt in demo check; do
	make -n -s --no-print-directory -C "$TS_TOP" -o all -o check-build-extra -o deps \
		-o deps-demo CURDIR="$sp" BUILD=build "$tgt" 2>/dev/null |
		sed -e ':a' -e '/\\$/{N;s/\\\n//;ba' -e '}' | grep -E "scripts/demo\.sh|$prove_re" |
		head -n1 | sed -E -e 's%scripts/demo\.sh.*%env%' -e "s%$prove_re.*%env%" >"$T/sp.sh"
	(cd "$T" && env -u TS_BUILD -u TS_TOP sh "$T/sp.sh") 2>"$T/sp.err" |
		grep -E '^TS_(BUILD|TOP)=' | sort >"$T/sp.env"
	want="TS_BUILD=$sp/build|"
	[ $tgt = demo ] || want="${want}TS_TOP=$sp|"
	is "$(tr '\n' '|' <"$T/sp.env")$(head -c 200 "$T/sp.err")" "$want" \
		"make $tgt from a path with a space and a quote: its scripts' paths whole"
done
tap_done
