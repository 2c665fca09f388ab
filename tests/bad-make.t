#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Hostile make variables: every variable of make experiment, record, lava-jobs, lava-collect and
# bisect given a quote that would run a command, a space, a '..' and a newline. None may run a
# command, break the recipe's shell, write or remove anything outside the folders given, or
# end without a clear line: either the script's own "error:" line or a normal run.
. "$(dirname "$0")/lib/tap.sh"
command -v make >/dev/null || skip_all "no make"
tap_tmpdir
T=$TAP_TMP
nl='
'

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

# What must survive every row: a run beside the experiments, a victim folder next to them.
sentinels() {
	mkdir -p "$T/r/experiments/run-1" "$T/victim/v/run-1"
	touch "$T/r/experiments/run-1/keep.txt" "$T/victim/v/run-1/precious.txt" "$T/victim/v.variant"
}
top_before=$(ls -a "$TS_TOP")

# row TARGET PROG VAR VALUE BASE...: make TARGET BASE... VAR=VALUE
row() {
	_t=$1 _p=$2 _v=$3 _val=$4
	shift 4
	sentinels
	rm -rf "$T/pwned" "$T/r/experiments/t" "$T/r/tsb" "$T/jobs" "$T/col" "$T/r/bisect"
	make -s --no-print-directory -C "$TS_TOP" -o all -o workloads BUILD="$TS_BUILD" "$_t" \
		"$@" "$_v=$_val" >"$T/out" 2>"$T/err"
	_rc=$?
	_what="make $_t $_v=$(printf '%s' "$_val" | sed "s|$T|T|g" | tr '\n' '~')"
	_bad=""
	[ ! -e "$T/pwned" ] || _bad="$_bad, ran the command"
	! grep -qE 'unexpected argument|[Uu]nterminated|[Ss]yntax error|not found|bad substitution|unknown variable|parameter not set' \
		"$T/err" || _bad="$_bad, a shell error"
	[ -f "$T/r/experiments/run-1/keep.txt" ] && [ -f "$T/victim/v/run-1/precious.txt" ] ||
		_bad="$_bad, removed a file outside its folder"
	[ "$(ls -a "$TS_TOP")" = "$top_before" ] || _bad="$_bad, wrote into the source tree"
	_last=$(grep -v '^make: \*\*\*' "$T/err" | tail -n1)
	case "$_rc:$_last" in
	0:* | *:"$_p: "*) ;;
	*) _bad="$_bad, exit $_rc without a line of its own" ;;
	esac
	if [ -z "$_bad" ]; then
		ok 0 "$_what: $(if [ $_rc = 0 ]; then echo done; else echo "$_last" |
			cut -c1-70 | sed "s|$T|T|g"; fi)"
	else
		ok 1 "$_what${_bad}"
		sed 's/^/# /' "$T/err" | tail -n 5
	fi
}

# hostile I ISPATH: hostile value I (1-4); paths are made absolute inside $T so that a value
# taken as it is stays in the test's folder.
hostile() {
	_pre=""
	[ "$2" = 0 ] || _pre=$T/
	case $1 in
	1) printf '%s' "${_pre}q'; touch $T/pwned; echo '" ;;
	2) printf '%s' "${_pre}a b" ;;
	3) if [ "$2" = 0 ]; then printf '..'; else printf '%s' "$T/d/.."; fi ;;
	4) printf '%s' "${_pre}a${nl}b" ;;
	esac
}

# table TARGET PROG PATHVARS VARS -- BASE...: every VAR gets every hostile value.
table() {
	_tt=$1 _tp=$2 _paths=$3 _vars=$4
	shift 5
	for _var in $_vars; do
		_isp=0
		case " $_paths " in *" $_var "*) _isp=1 ;; esac
		for _i in 1 2 3 4; do
			row "$_tt" "$_tp" "$_var" "$(hostile $_i $_isp)" "$@"
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

table experiment experiment "RESULTS RECORD MAKE_KERNEL TICKSCOPE CONFIG" "$exp_vars" -- \
	BOARD=qemu-aarch64 WORKLOAD=pingpong A=default B=rt RUNS=1 NAME=t RESULTS="$T/r" \
	RECORD="$T/rec" CONFIG=/dev/null
table record record "RESULTS CONFIG KERNEL_IMAGE" "$rec_vars" -- \
	BOARD="$T/tsb.board" WORKLOAD=pingpong VARIANT=v RUNS=1 RESULTS="$T/r" CONFIG=/dev/null
table lava-jobs lava-jobs "EXPERIMENT KERNELS OUT" "$jobs_vars" -- \
	EXPERIMENT="$T/evx.exp" DEVICE_TYPE=qemu KERNELS="$T/kernels" \
	UPLOAD_URL=http://up.invalid/drop RUNS=1 OUT="$T/jobs"
table lava-collect lava-collect "IN OUT EXPERIMENT TICKSCOPE" "$col_vars" -- \
	IN="$T/in" OUT="$T/col" EXPERIMENT="$T/evx.exp"
# bisect: bisect.t's stand-in kernel build, so that every value reaches the (failing) recorder;
# KSRC again without PATCHES (a git range of this repository).
export REPLAY_KERNELS="$T/img"
table bisect bisect "PATCHES KSRC RESULTS RECORD MAKE_KERNEL TICKSCOPE" "$bisect_vars" -- \
	PATCHES="$TS_TOP/tests/fixtures/bisect/shrinker-series" NAME=t RESULTS="$T/r" \
	RECORD="$T/rec" MAKE_KERNEL="$TS_TOP/tests/fixtures/bisect/replay-kernel.sh"
table bisect bisect KSRC KSRC -- GOOD=HEAD~1 BAD=HEAD NAME=t RESULTS="$T/r" RECORD="$T/rec" \
	MAKE_KERNEL="$TS_TOP/tests/fixtures/bisect/replay-kernel.sh"

# The values arrive whole: a quoted token and boot parameters with quotes and spaces.
make -s --no-print-directory -C "$TS_TOP" BUILD="$TS_BUILD" lava-jobs EXPERIMENT="$T/evx.exp" \
	DEVICE_TYPE=qemu KERNELS="$T/kernels" UPLOAD_URL=http://up.invalid/drop RUNS=1 \
	OUT="$T/jobs2" UPLOAD_TOKEN="a: b 'c\" #d {e}" >/dev/null 2>"$T/err"
grep -qxF "  TS_UPLOAD_TOKEN: 'a: b ''c\" #d {e}'" "$T/jobs2/001-evx-b1-default.yaml"
ok $? "lava-jobs: a token with a quote, a colon and a brace is the job's secret, whole"
rm -f "$T/rec.log"
make -s --no-print-directory -C "$TS_TOP" -o all -o workloads BUILD="$TS_BUILD" experiment \
	BOARD=qemu-aarch64 A="rt+boot:dyndbg='file x.c +p'" B=default RUNS=1 RESULTS="$T/r" \
	RECORD="$T/rec" CONFIG=/dev/null >/dev/null 2>"$T/err"
grep -qxF "BOOT_ARGS=dyndbg='file x.c +p'" "$T/rec.log" && grep -qxF GUEST_KERNEL=rt "$T/rec.log" &&
	[ -d "$T/r/experiments/qemu-aarch64-pingpong-rt-dyndbg--file-x.c--p--vs-default" ]
ok $? "experiment: A=\"rt+boot:dyndbg='file x.c +p'\" reaches the recorder whole"
tap_done
