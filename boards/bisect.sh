#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `make bisect`: from "kernel BAD is slower than GOOD" to the first bad change of a patch series
# or a git range, each step decided by compare's exact U test, the answer verified by revert.
set -eu
TS_PROG=bisect
. "$(dirname "$0")/lib/common.sh"

usage() {
	cat <<'USAGE'
Usage: boards/bisect.sh [VAR=value]...  (what `make bisect VAR=value...` runs; docs/bisect.md)

  PATCHES    patch-series mode: a folder of numbered *.patch files or with a quilt 'series'
             file, applied on linux-source-6.1 as make kernel PATCHES= does
  GOOD, BAD  series mode: how many patches of the series (0 = the base) or a patch's file
             name (that patch included); default GOOD=0, BAD=the whole series
  KSRC       git-range mode: your kernel git work tree; GOOD and BAD are commits of it. Each
             step checks out into a git worktree of our own (results/bisect/NAME/tree, removed
             at the end), never yours
  NAME       the bisection's folder name under RESULTS/bisect/ (default: the series' folder
             name, or git-GOOD-BAD); 1-64 characters of A-Z a-z 0-9 . _ + -, not starting
             with . or -
  BOARD      an emulated board (default qemu-aarch64)
  WORKLOAD   default stress-ramfs
  FRAGMENTS  the kernel's fragments (make kernel FRAGMENTS; default "nohz-idle tracing")
  RUNS       runs per candidate and per endpoint (default 6)
  MAX_RUNS   an unclear candidate gets 2 more runs at a time up to this, then is skipped
             (default 10)
  ALPHA      the level of each U test (default 0.05)
  METRIC     the explaining metric, instead of the one the endpoints choose
  VERIFY     0: no verification by revert (default 1)
  FRESH      1: delete the bisection's earlier steps and start again (only in a folder an
             earlier bisection wrote: its bisect.txt)
  ITERS WARMUP DELAY_US WORKERS DURATION EVENTS CALLCHAINS MMAP RECORDER ACCEL
             passed to make record (boards/README.md); default CALLCHAINS=1
  PLAN       1: a board farm records the runs (docs/bisect.md): build what the next batch
             needs, write its LAVA experiment lava/<batch>.exp for make lava-jobs and stop
             (exit 6); collect the runs into the candidates' folders, then run again
  RESULTS    results root (default results/)
  RECORD     the recorder (default boards/record.sh; the tests give a stand-in)
  MAKE_KERNEL  what builds a candidate (default boards/kernel/kernel.sh)
  TICKSCOPE  the tickscope binary (default build/tickscope)

Writes RESULTS/bisect/NAME/: bisect.txt (settings, candidates), steps.txt (one line per step:
candidate, change, runs, medians, p-values, verdicts, time), k<NN>/ (a candidate's runs),
first-bad.txt, first-bad/compare.{txt,json} and headline.txt (the first bad change against
its parent), verify.txt (revert/ and alone/), steps.tsv and chart.svg (the explaining metric per
step). Re-running resumes; every complete run and decided step is reused.
Exit: 0 found and verified, 1 error, 3 found but the verification failed, 4 no single first bad
change (skipped candidates), 5 GOOD and BAD do not separate, 6 (PLAN=1) runs to record.
USAGE
}

VARS="PATCHES GOOD BAD KSRC NAME BOARD WORKLOAD FRAGMENTS RUNS MAX_RUNS ALPHA METRIC VERIFY FRESH
PLAN ITERS WARMUP DELAY_US WORKERS DURATION EVENTS CALLCHAINS MMAP RECORDER ACCEL RESULTS RECORD
MAKE_KERNEL TICKSCOPE"
PASS="ITERS WARMUP DELAY_US WORKERS DURATION EVENTS CALLCHAINS MMAP RECORDER ACCEL"
parse_vars "$@"
: "${V_CALLCHAINS=1}"

board=${V_BOARD:-qemu-aarch64}
workload=${V_WORKLOAD:-stress-ramfs}
fragments=${V_FRAGMENTS-nohz-idle tracing}
runs=${V_RUNS:-6}
max_runs=${V_MAX_RUNS:-10}
alpha=${V_ALPHA:-0.05}
tool_paths
py="python3 $TS_TOP/boards/lib/ts_bisect.py"

# Everything from the command line is checked before anything is written.
check_count RUNS "$runs" 2
check_count MAX_RUNS "$max_runs" 2
[ "$max_runs" -ge "$runs" ] || die "MAX_RUNS ($max_runs) is below RUNS ($runs)"
expr "$alpha" : '0\.[0-9]*[1-9]$' >/dev/null || die "ALPHA must be a number in (0, 1), not '$alpha'"
command -v python3 >/dev/null || die "python3 is needed (make deps)"
[ -f "$tickscope" ] && [ -x "$tickscope" ] || die "no $tickscope (make all)"
if [ -n "${V_PATCHES:-}" ] && [ -n "${V_KSRC:-}" ]; then
	die "PATCHES= (a series) or KSRC= (a git range), not both"
fi
profile_load "$board" || exit 1
profile_check || die "the profile of $board is invalid"
board=$P_NAME
plan=${V_PLAN:-0}
case "$plan" in 0 | 1) ;; *) die "PLAN must be 0 or 1, not '$plan'" ;; esac
[ "$P_TRANSPORT" = qemu ] || [ "$plan" = 1 ] ||
	die "board $board ($P_TRANSPORT) cannot boot a candidate by itself: PLAN=1 and a board" \
		"farm (make lava-jobs; docs/bisect.md)"

# The candidates: k = 0..N, 0 the base (series) or GOOD (git); cand_<k> names the change.
if [ -n "${V_PATCHES:-}" ]; then
	mode=series
	series=$V_PATCHES
	case "$series" in /*) ;; *) series=$(pwd)/$series ;; esac
	[ -d "$series" ] || die "PATCHES '$V_PATCHES' is not a folder"
	if [ -f "$series/series" ]; then
		list=$(sed 's/#.*//; /^[[:space:]]*$/d' "$series/series" | awk '{ print $1 }')
	else
		list=$(cd "$series" && ls -- *.patch 2>/dev/null || true)
	fi
	[ -n "$list" ] || die "$V_PATCHES holds no patch (a series file or *.patch)"
	n=0
	for p in $list; do
		n=$((n + 1))
		[ -f "$series/$p" ] || die "$V_PATCHES/series names $p, which is not there"
		eval "cand_$n=\$p"
	done
	cand_0=base
	# spec_index SPEC DEFAULT: a count of patches or a patch's file name
	spec_index() {
		case "$1" in
		'') echo "$2" ;;
		*[!0-9]*)
			_i=0
			for _p in $list; do
				_i=$((_i + 1))
				[ "$_p" != "$1" ] || { echo $_i; return 0; }
			done
			die "'$1' is not a patch of $V_PATCHES"
			;;
		*) [ "$1" -le "$n" ] || die "'$1': the series has $n patches"; echo "$1" ;;
		esac
	}
	good=$(spec_index "${V_GOOD:-}" 0)
	bad=$(spec_index "${V_BAD:-}" $n)
	default_name=$(basename "$series")
else
	mode=git
	[ -n "${V_KSRC:-}" ] || die "PATCHES= (a patch series) or KSRC= (a git work tree) is required"
	ksrc=$(cd "$V_KSRC" 2>/dev/null && pwd) || die "KSRC '$V_KSRC' is not a folder"
	git -C "$ksrc" rev-parse --is-inside-work-tree >/dev/null 2>&1 ||
		die "KSRC '$V_KSRC' is not a git work tree"
	[ -n "${V_GOOD:-}" ] && [ -n "${V_BAD:-}" ] || die "KSRC= needs GOOD= and BAD= commits"
	gc=$(git -C "$ksrc" rev-parse -q --verify "${V_GOOD}^{commit}") ||
		die "GOOD '$V_GOOD' is not a commit of $V_KSRC"
	bc=$(git -C "$ksrc" rev-parse -q --verify "${V_BAD}^{commit}") ||
		die "BAD '$V_BAD' is not a commit of $V_KSRC"
	git -C "$ksrc" merge-base --is-ancestor "$gc" "$bc" ||
		die "GOOD $V_GOOD is not an ancestor of BAD $V_BAD"
	cand_0=$gc
	n=0
	for c in $(git -C "$ksrc" rev-list --reverse --first-parent "$gc..$bc"); do
		n=$((n + 1))
		eval "cand_$n=\$c"
	done
	good=0 bad=$n
	default_name=git-$(echo "$gc" | cut -c1-12)-$(echo "$bc" | cut -c1-12)
fi
[ "$good" -lt "$bad" ] || die "GOOD ($good) must come before BAD ($bad) in the range"
name=${V_NAME-$default_name}
check_name NAME "$name"
# Its kernels are variants bisect-NAME-k<N>, -revert and -alone: names by the same rule.
name_ok "bisect-$name-revert" || die "NAME '$name' is longer than 50 characters: its kernels" \
	"(bisect-$name-revert) are names of at most 64"
out=$results/bisect/$name
check_own_folder "$out" "$out/bisect.txt" format=tickscope-bisect-1 bisection

# label K: the change candidate K adds (a patch's file name, a commit's one line)
label() {
	eval "_c=\$cand_$1"
	if [ "$mode" = git ]; then
		git -C "$ksrc" log -1 --format='%h %s' "$_c"
	else
		echo "$_c"
	fi
}
kname() {
	case "$1" in revert | alone) echo "$1" ;; *) printf 'k%02d' "$1" ;; esac
}

settings() {
	echo "board=$board"
	echo "workload=$workload"
	echo "mode=$mode"
	if [ "$mode" = series ]; then
		echo "patches_sha256=$(cd "$series" && cat $list | sha256sum | cut -d' ' -f1)"
	else
		echo "good_commit=$cand_0"
		eval "echo \"bad_commit=\$cand_$n\""
	fi
	echo "good=$good"
	echo "bad=$bad"
	echo "fragments=$fragments"
	echo "runs=$runs"
	echo "max_runs=$max_runs"
	echo "alpha=$alpha"
	echo "metric=${V_METRIC:-}"
	for k in $PASS; do
		eval "_s=\${V_$k+x}"
		[ -z "$_s" ] || eval "echo \"$(echo "$k" | tr 'A-Z' 'a-z')=\$V_$k\""
	done
}
if [ "${V_FRESH:-0}" = 1 ] && [ -d "$out" ]; then
	msg "FRESH=1: deleting $out"
	[ ! -d "$out/tree" ] || [ "$mode" != git ] ||
		git -C "$ksrc" worktree remove --force "$out/tree" 2>/dev/null || true
	rm -rf "$out"
fi
resume_or_refuse "$out/settings.txt" "$out" "the bisection in $out was made"
mkdir -p "$out/log"
touch "$out/steps.txt" "$out/order.txt"
{
	echo "format=tickscope-bisect-1"
	echo "name=$name"
	cat "$out/settings.txt"
	k=0
	while [ $k -le "$n" ]; do
		echo "candidate $(kname $k)=$(label $k)"
		k=$((k + 1))
	done
} >"$out/bisect.txt"

# A git range is checked out into our own worktree, never the user's tree.
tree=$out/tree
git_tree() {
	if [ ! -d "$tree" ]; then
		git -C "$ksrc" worktree add -q --detach "$tree" "$cand_0" >"$out/log/worktree.log" 2>&1 ||
			die "git worktree add failed ($out/log/worktree.log)"
	fi
	git -C "$tree" reset -q --hard && git -C "$tree" checkout -q --detach "$1" ||
		die "cannot check out $1 in $tree"
}

# build K: make kernel for candidate K (a number, revert or alone); prints its image. A patch
# or change that does not apply returns 4 and leaves its message in $out/log/build-<k>.log.
build() {
	_k=$(kname "$1")
	_v=bisect-$name-$_k
	_log=$out/log/build-$_k.log
	set -- "$1" --board "$board" --variant "$_v" --fragments "$fragments"
	if [ "$mode" = series ]; then
		_pd=$out/series/$_k
		rm -rf "$_pd"
		mkdir -p "$_pd"
		_i=0
		for _p in $list; do
			_i=$((_i + 1))
			case "$1" in
			revert) [ $_i -le "$bad" ] && [ $_i != "$first_bad" ] || continue ;;
			alone) [ $_i -le "$good" ] || [ $_i = "$first_bad" ] || continue ;;
			*) [ $_i -le "$1" ] || continue ;;
			esac
			cp "$series/$_p" "$_pd/$_p"
			echo "$_p" >>"$_pd/series"
		done
		[ ! -f "$_pd/series" ] || set -- "$@" --patches "$_pd"
	else
		case "$1" in
		revert)
			git_tree "$cand_bad"
			git -C "$tree" revert --no-commit "$fb_commit" >"$_log" 2>&1 ||
				{ echo "kernel: $fb_label does not revert cleanly from BAD" >>"$_log"; return 4; }
			;;
		alone)
			git_tree "$cand_0"
			git -C "$tree" cherry-pick --no-commit "$fb_commit" >"$_log" 2>&1 ||
				{ echo "kernel: $fb_label does not apply alone on GOOD" >>"$_log"; return 4; }
			;;
		*) eval "git_tree \"\$cand_$1\"" ;;
		esac
		set -- "$@" --tree "$tree"
	fi
	shift
	_rc=0
	"$make_kernel" "$@" >>"$_log" 2>&1 || _rc=$?
	[ $_rc = 0 ] || return $_rc
	"$make_kernel" --board "$board" --variant "$_v" --print-image
}

run_complete() {
	[ -f "$1/meta.txt" ] && tail -n1 "$1/meta.txt" | grep -qx 'status=complete' &&
		{ [ -s "$1/perf.data" ] || [ -s "$1/perf.data.xz" ] || [ -s "$1/perf.data.tsum" ]; }
}
nruns() {
	_c=0
	while run_complete "$out/$1/run-$((_c + 1))"; do _c=$((_c + 1)); done
	echo $_c
}
fmt_s() {
	if [ "$1" -ge 60 ]; then echo "$(($1 / 60))m$(printf %02d $(($1 % 60)))s"; else echo "${1}s"; fi
}
mean_rec() {
	awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^elapsed_s=/) { s += substr($i, 11); c++ } }
		END { if (c) printf "%d", s / c; else print 0 }' "$out/order.txt"
}

# image K: the built image of K (built now if it is not; nonzero if it cannot be)
image() {
	_ik=$(kname "$1")
	if [ -s "$out/$_ik/image.txt" ] && [ -f "$(cat "$out/$_ik/image.txt")" ]; then
		cat "$out/$_ik/image.txt"
		return 0
	fi
	# a first build takes minutes to an hour (docs/bisect.md), silent: say where it writes
	case $1 in
	revert | alone) _iw="the verification's $1" ;;
	*) _iw=$(label "$1") ;;
	esac
	msg "$_ik ($_iw): make kernel (messages in $out/log/build-$_ik.log)"
	_it=$(now_s)
	_ii=$(build "$1") || return $?
	mkdir -p "$out/$_ik"
	echo "$_ii" >"$out/$_ik/image.txt"
	echo "build $_ik elapsed_s=$(($(now_s) - _it))" >>"$out/log/builds.txt"
	echo "$_ii"
}

# record_run K R: record run R of candidate K (its kernel built) into k<NN>/run-R
record_run() {
	_rk=$(kname "$1") _rr=$2
	_ri=$(image "$1") || die "$_rk: no kernel image"
	_rf=$fragments
	_rv=$TS_TOP/.cache/kernels/$board/bisect-$name-$_rk/kernel.variant
	[ ! -f "$_rv" ] || _rf=$(sed -n 's/^fragments_merged=//p' "$_rv")
	set -- "BOARD=$board" "WORKLOAD=$workload" "VARIANT=$_rk" "RUNS=1" "RESULTS=$out/.rec" \
		"GUEST_KERNEL=generic" "BOOT_ARGS=" "CONFIG=/dev/null" "KERNEL_IMAGE=$_ri" \
		"FRAGMENTS=$_rf"
	for p in $PASS; do
		eval "_s=\${V_$p+x}"
		[ -z "$_s" ] || eval "set -- \"\$@\" \"$p=\$V_$p\""
	done
	_rs=$(($(wc -l <"$out/order.txt") + 1))
	_rl=$out/log/$(printf %03d "$_rs")-$_rk-run-$_rr.log
	rm -rf "$out/.rec"
	_rt=$(now_s)
	_rrc=0
	"$record" "$@" >"$_rl" 2>&1 || _rrc=$?
	_re=$(($(now_s) - _rt))
	_rg=$out/.rec/$board/$_rk/$workload/run-1
	if [ $_rrc != 0 ] || ! run_complete "$_rg"; then
		echo "$_rs candidate=$_rk run=$_rr status=failed elapsed_s=$_re" >>"$out/order.txt"
		tail -n 15 "$_rl" | sed 's/^/  /' >&2
		die "recording $_rk run $_rr failed (exit $_rrc; $_rl); re-run to resume"
	fi
	mkdir -p "$out/$_rk"
	rm -rf "$out/$_rk/run-$_rr"
	mv "$_rg" "$out/$_rk/run-$_rr"
	rm -rf "$out/.rec"
	echo "$_rs candidate=$_rk run=$_rr status=complete elapsed_s=$_re" \
		"result=$(sed -n 's/^result=//p' "$out/$_rk/run-$_rr/meta.txt")" >>"$out/order.txt"
}

# plan_batch K N LO HI: PLAN=1: the LAVA experiment of the runs the batch still needs (K's,
# and a bound's where it has fewer), written to lava/<K>.exp for make lava-jobs; exit 6
plan_batch() {
	mkdir -p "$out/lava"
	_pf=$out/lava/$(kname "$1").exp
	_pa=$1
	for _px in "$3" "$4"; do
		[ -n "$_px" ] && [ "$(nruns "$(kname "$_px")")" -lt "$2" ] && _pa=$_px && break
	done
	[ "$_pa" != "$1" ] || _pa=${3:-$4}
	{
		echo "# make bisect $name: $(kname "$1") ($(label "$1" 2>/dev/null || echo "$1"))," \
			"interleaved with $(kname "$_pa"); collect each variant's runs into"
		echo "# $out/<variant without bisect-$name->/run-<k>, then run make bisect again"
		echo "name=bisect-$name-$(kname "$1")"
		echo "workload=$workload"
		echo "a=built:bisect-$name-$(kname "$_pa")"
		echo "b=built:bisect-$name-$(kname "$1")"
		echo "runs=$2"
		for _pp in $PASS; do
			eval "_ps=\${V_$_pp+x}"
			[ -z "$_ps" ] || eval "echo \"$(echo "$_pp" | tr 'A-Z' 'a-z')=\$V_$_pp\""
		done
	} >"$_pf"
	msg "PLAN=1: the next batch is $(kname "$1") ($(nruns "$(kname "$1")") of $2 runs) with" \
		"$(kname "$_pa") ($(nruns "$(kname "$_pa")") of $2), interleaved: $_pf. Next:"
	msg "  1. put the kernels where the boards fetch them ($(kname "$1"): $(image "$1");" \
		"$(kname "$_pa"): $(image "$_pa")) and name them in a kernels file, a line each:" \
		"bisect-$name-$(kname "$1").kernel=URL (.ramdisk=, .dtb= as the device type needs)"
	msg "  2. make lava-jobs EXPERIMENT=$_pf DEVICE_TYPE=... KERNELS=<kernels file>" \
		"UPLOAD_URL=...; submit the jobs with lavacli"
	msg "  3. when they are done, put each variant's runs into $out/<kNN>/run-<k> (the" \
		"uploads' bisect-$name-$(kname "$1")/run-<k> into $out/$(kname "$1")/," \
		"bisect-$name-$(kname "$_pa")/run-<k> into $out/$(kname "$_pa")/;" \
		"make lava-collect IN=<uploads> EXPERIMENT=$_pf checks them)"
	msg "  4. run this make bisect again: it decides with those runs and plans the next batch" \
		"(docs/bisect.md, \"On a board farm\")"
	exit 6
}

# batches K N LO HI: candidate K up to N runs, interleaved with the bounds LO and HI where they
# have fewer (reused otherwise): batch r records K's run r, then LO's and HI's run r if missing
batches() {
	_br=1
	while [ $_br -le "$2" ]; do
		for _bx in "$1" "$3" "$4"; do
			[ -n "$_bx" ] || continue
			_bxn=$(kname "$_bx")
			run_complete "$out/$_bxn/run-$_br" && continue
			[ "$plan" = 0 ] || plan_batch "$1" "$2" "$3" "$4"
			msg "$progress: $_bxn run $_br of $2 (about $(fmt_s $(($(mean_rec) * (\
$2 - _br + 1)))) of recording left in this step)"
			record_run "$_bx" $_br
		done
		_br=$((_br + 1))
	done
}

# compare_json OUT A B [C]: tickscope compare --json of candidates' folders (A the baseline).
# A step compares all three, so that a metric only one of them has is there, 0 in the others.
compare_json() {
	_co=$1
	shift
	for _cx in "$@"; do
		set -- "$@" "$out/$(kname "$_cx")"
		shift
	done
	"$tickscope" compare --json --allow-mismatch "$@" >"$_co" 2>>"$out/log/compare.log" ||
		die "tickscope compare $* failed ($out/log/compare.log)"
}

# decide K LO HI: the verdict of K against the bounds LO (good) and HI (bad), more runs while
# unclear up to MAX_RUNS; sets verdict and appends the step to steps.txt
decide() {
	_dk=$(kname "$1")
	_dt=${t_step:-$(now_s)} # the step's time includes its build
	_dn=$runs
	mkdir -p "$out/$_dk"
	while :; do
		batches "$1" $_dn "$2" "$3"
		compare_json "$out/$_dk/vs-good.json" "$2" "$3" "$1"
		compare_json "$out/$_dk/vs-bad.json" "$3" "$2" "$1"
		$py verdict "$out/$_dk/vs-good.json" "$out/$_dk/vs-bad.json" "$metric" "$alpha" \
			>"$out/$_dk/verdict.txt" || die "$_dk: no verdict (ts_bisect.py)"
		verdict=$(sed -n 's/^verdict=//p' "$out/$_dk/verdict.txt")
		[ "$verdict" = unclear ] && [ $_dn -lt "$max_runs" ] || break
		_dn=$((_dn + 2))
		[ $_dn -le "$max_runs" ] || _dn=$max_runs
		msg "$progress: $_dk unclear ($(sed -n 's/^why=//p' "$out/$_dk/verdict.txt")):" \
			"$_dn runs"
	done
	[ "$verdict" != unclear ] || verdict=skip
	step_line "$1" "$verdict" "$(($(now_s) - _dt))" "$2" "$3"
}

# step_line K VERDICT SECONDS [LO HI]: one line of steps.txt
step_line() {
	_sk=$(kname "$1")
	_sf=$out/$_sk/verdict.txt
	_get() { sed -n "s/^$1=//p" "$_sf" 2>/dev/null | tr ' ' ,; }
	_sl=$(case $1 in revert | alone) echo "$1" ;; *) label "$1" ;; esac | tr ' \t' '__')
	echo "step=$(($(wc -l <"$out/steps.txt") + 1)) candidate=$_sk change=$_sl" \
		"good=${4:+$(kname "$4")} bad=${5:+$(kname "$5")} runs=$(nruns "$_sk")" \
		"metric_medians=$(_get metric_medians) metric_p=$(_get metric_p)" \
		"bench_medians=$(_get bench_medians) bench_p=$(_get bench_p)" \
		"metric_verdict=$(_get metric_verdict) bench_verdict=$(_get bench_verdict)" \
		"verdict=$2 elapsed_s=$3" >>"$out/steps.txt"
	echo "$2" >"$out/$_sk/verdict"
	msg "$progress: $_sk: $2 (explaining metric good/candidate/bad medians" \
		"$(_get metric_medians), p $(_get metric_p); benchmark $(_get bench_medians))"
}

# build_why K RC: the line of make kernel's log that says why K was not built
build_why() {
	_bl=$out/log/build-$(kname "$1").log
	grep -m1 -E 'does not apply|does not revert|failed' "$_bl" ||
		grep -m1 -E 'error: |is not installed|not found: ' "$_bl" || echo "make kernel exit $2"
}

t_step=""
# 1. The endpoints: RUNS each, interleaved; they must separate before any candidate is built.
progress="[endpoints]"
eval "cand_bad=\$cand_$bad"
# what is ahead: the endpoints, about log2(N) candidates and the two verifications, each one a
# kernel build and RUNS recordings (docs/bisect.md, "What it costs")
nbuilds=$(awk -v x=$((bad - good)) -v v="${V_VERIFY:-1}" 'BEGIN { n = 0; while (2 ^ n < x) n++
	print 2 + n + (v == 1 ? 2 : 0) }')
msg "$name: $mode of $n change(s), GOOD=$(kname $good) ($(label $good)), BAD=$(kname $bad)" \
	"($(label $bad)); $runs runs a candidate on $board, $workload: about $nbuilds kernel" \
	"builds and $((nbuilds * runs)) recordings$([ "$plan" = 0 ] ||
		echo ", on the board farm in batches (PLAN=1)") (docs/bisect.md, \"What it costs\")"
for x in $good $bad; do
	_rc=0
	image $x >/dev/null || _rc=$?
	[ $_rc = 0 ] || die "the endpoint $(kname $x) ($(label $x)) does not build:" \
		"$(build_why $x $_rc) (exit $_rc; $out/log/build-$(kname $x).log)"
done
batches $good "$runs" "" $bad
compare_json "$out/endpoints.json" $good $bad
"$tickscope" compare --allow-mismatch "$out/$(kname $good)" "$out/$(kname $bad)" \
	>"$out/endpoints.txt" 2>>"$out/log/compare.log" || true
# chosen once: later runs of the endpoints (a verification's extra batches) do not change it
if [ ! -s "$out/metric.txt" ] &&
	! $py choose "$out/endpoints.json" "${V_METRIC:-}" >"$out/metric.txt" 2>"$out/log/choose.log"
then
	rm -f "$out/metric.txt"
	echo "$TS_PROG: error: $(cat "$out/log/choose.log") ($out/endpoints.txt); check that" \
		"GOOD is good and BAD bad there, or name the metric that tells them apart with" \
		"METRIC= (other settings: FRESH=1 or another NAME=)" >&2
	exit 5
fi
metric=$(sed -n 's/^metric=//p' "$out/metric.txt")
msg "explaining metric: $metric ($(sed -n 's/^metric_source=//p' "$out/metric.txt")):" \
	"GOOD $(sed -n 's/^good=//p' "$out/metric.txt"), BAD $(sed -n 's/^bad=//p' "$out/metric.txt")"
for x in $good $bad; do
	_v=good
	[ $x = $good ] || _v=bad
	[ -f "$out/$(kname $x)/verdict" ] || echo $_v >"$out/$(kname $x)/verdict"
done

# 2. The steps: the middle untested candidate of the bracket (skipped ones stepped around).
verdict_of() {
	cat "$out/$(kname "$1")/verdict" 2>/dev/null || true
}
bracket() {
	lo=$good hi=$bad
	_i=$good
	while [ $_i -le "$bad" ]; do
		case $(verdict_of $_i) in
		good) [ $_i -le $hi ] && [ $_i -gt $lo ] && lo=$_i ;;
		bad) [ $_i -lt $hi ] && [ $_i -ge $lo ] && hi=$_i ;;
		esac
		_i=$((_i + 1))
	done
	return 0
}
log2() {
	awk -v x="$1" 'BEGIN { n = 0; while (2 ^ n < x) n++; print n }'
}
est_total=$(($(log2 $((bad - good))) + 2))
while :; do
	bracket
	[ $((hi - lo)) -gt 1 ] || break
	mid=$(((lo + hi) / 2))
	pick=""
	d=0
	while [ $d -lt $((hi - lo)) ]; do
		for c in $((mid - d)) $((mid + d)); do
			[ -z "$pick" ] && [ $c -gt $lo ] && [ $c -lt $hi ] &&
				[ "$(verdict_of $c)" != skip ] && pick=$c
		done
		d=$((d + 1))
	done
	[ -n "$pick" ] || break
	done_steps=$(wc -l <"$out/steps.txt")
	left=$(($(log2 $((hi - lo))) + 2))
	mean_step=$(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^elapsed_s=/) { s += substr($i, 11)
		c++ } } END { if (c) printf "%d", s / c; else print 0 }' "$out/steps.txt")
	progress="[step $((done_steps + 1)) of about $est_total]"
	msg "$progress: $(kname $pick) ($(label $pick)) between $(kname $lo) (good) and" \
		"$(kname $hi) (bad); $left step(s) to go$([ "$mean_step" = 0 ] ||
			echo ", about $(fmt_s $((mean_step * left))) left")"
	rc=0
	t_step=$(now_s)
	image $pick >/dev/null || rc=$?
	if [ $rc != 0 ]; then
		why=$(build_why $pick $rc)
		rm -f "$out/$(kname $pick)/verdict.txt"
		mkdir -p "$out/$(kname $pick)"
		step_line $pick skip 0 $lo $hi
		msg "$progress: $(kname $pick) skipped: $why"
		echo "skip_reason $(kname $pick)=$why" >>"$out/log/skips.txt"
		continue
	fi
	decide $pick $lo $hi
done

bracket
if [ $((hi - lo)) -ne 1 ]; then
	_sk=""
	_i=$((lo + 1))
	while [ $_i -le $hi ]; do _sk="$_sk $(kname $_i)"; _i=$((_i + 1)); done
	{
		echo "first_bad=-"
		echo "between=$(kname $lo) $(kname $hi)"
		echo "candidates=$_sk"
	} >"$out/first-bad.txt"
	msg "no single first bad change: it is one of$_sk (the ones between were skipped;" \
		"why: the verdicts in $out/steps.txt, a build's reason in $out/log/skips.txt)"
	exit 4
fi
first_bad=$hi
fb_label=$(label $hi)
eval "fb_commit=\$cand_$hi"
{
	echo "first_bad=$(kname $hi)"
	echo "change=$fb_label"
	echo "parent=$(kname $lo) $(label $lo)"
	echo "metric=$metric"
} >"$out/first-bad.txt"
msg "first bad change: $(kname $hi) $fb_label"

# 3. The first bad change against its parent: compare and headline.
mkdir -p "$out/first-bad"
"$tickscope" compare --allow-mismatch "$out/$(kname $lo)" "$out/$(kname $hi)" \
	>"$out/first-bad/compare.txt" 2>>"$out/log/compare.log" || die "compare of the first bad failed"
compare_json "$out/first-bad/compare.json" $lo $hi
$py headline "$out/first-bad/compare.json" "$metric" >"$out/first-bad/headline.txt"

# 4. Verification: BAD without the change must be good, the change alone on GOOD bad.
vstat=0
if [ "${V_VERIFY:-1}" = 1 ]; then
	: >"$out/verify.txt"
	for x in revert alone; do
		want=good
		[ $x = revert ] || want=bad
		progress="[verify $x]"
		if [ -f "$out/$x/verdict" ]; then
			got=$(cat "$out/$x/verdict")
		else
			rc=0
			t_step=$(now_s)
			image $x >/dev/null || rc=$?
			if [ $rc != 0 ]; then
				mkdir -p "$out/$x"
				got=skip
				build_why $x $rc >"$out/$x/why"
				step_line $x skip 0 $good $bad
			else
				decide $x $good $bad
				got=$verdict
			fi
		fi
		if [ "$got" = "$want" ]; then
			echo "$x=$got as expected" >>"$out/verify.txt"
		else
			why=$(cat "$out/$x/why" 2>/dev/null || true)
			echo "$x=$got${why:+ ($why)}, expected $want: FAILED" >>"$out/verify.txt"
			vstat=3
		fi
	done
	[ $vstat = 0 ] && echo "verified=yes" >>"$out/verify.txt" ||
		echo "verified=no" >>"$out/verify.txt"
	msg "verification: $(tr '\n' ';' <"$out/verify.txt" | sed 's/;$//; s/;/; /g')"
fi

# 5. The chart: the explaining metric per step (medians, runs' range) against the endpoints.
{
	printf 'step\tcandidate\tindex\tverdict\tmedian\tmin\tmax\n'
	# shellcheck disable=SC2046 # one argument per step line, without spaces
	python3 -c "import json, sys
for s, k, idx, v, path in (a.split(':', 4) for a in sys.argv[2:]):
    d = json.load(open(path))
    m = {e['name']: e for e in d['metrics']}.get(sys.argv[1])
    c = m['variants'][-1] if m else {}
    f = lambda x: '-' if x is None else '%.6g' % x
    print('\t'.join([s, k, idx, v, f(c.get('median')), f(c.get('min')), f(c.get('max'))]))" \
		"$metric" $(awk -v out="$out" '{ for (i = 1; i <= NF; i++) {
			split($i, kv, "="); f[kv[1]] = kv[2] }
			if (f["verdict"] != "skip")
				printf "%s:%s:%s:%s:%s/%s/vs-good.json\n", f["step"], f["candidate"],
					substr(f["candidate"], 2) + 0, f["verdict"], out, f["candidate"] }' \
			"$out/steps.txt")
} >"$out/steps.tsv"
if command -v gnuplot >/dev/null; then
	gm=$(sed -n 's/^good=\([^ ]*\).*/\1/p' "$out/metric.txt")
	bm=$(sed -n 's/^bad=\([^ ]*\).*/\1/p' "$out/metric.txt")
	gnuplot -e "data='$out/steps.tsv'; out='$out/chart'; title='$name: $metric per step';\
ylabel='$metric (median, runs min-max)'; good='$gm'; bad='$bm'" "$TS_TOP/boards/bisect.gp" \
		2>"$out/log/chart.log" || msg "the chart failed ($out/log/chart.log)"
else
	msg "no gnuplot: no chart (steps.tsv has its data)"
fi
if [ "$mode" = git ] && [ -d "$tree" ]; then
	git -C "$ksrc" worktree remove --force "$tree" || msg "could not remove the worktree $tree"
fi
msg "done: $out ($(wc -l <"$out/steps.txt") steps)"
msg "  first bad: $(kname $hi) $fb_label"
sed 's/^/  /' "$out/first-bad/headline.txt" >&2
# where the rest is: the whole compare behind that headline, the steps, the verification
chart=
[ -f "$out/chart.svg" ] && chart=", the metric per step in $out/chart.svg"
msg "  more: $out/first-bad/compare.txt (the whole compare), steps.txt (each step's medians and" \
	"p), verify.txt$chart"
exit $vstat
