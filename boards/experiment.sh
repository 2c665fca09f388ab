#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `make experiment`: record two or three kernel variants interleaved (one run of each per batch, in
# an order shuffled batch by batch) through `make record` into results/experiments/<name>/, resumable, then compare them with
# `tickscope compare`.
set -eu
TS_PROG=experiment
. "$(dirname "$0")/lib/common.sh"

usage() {
	cat <<'USAGE'
Usage: boards/experiment.sh [VAR=value]...  (what `make experiment VAR=value...` runs)

  BOARD      an emulated board: qemu-aarch64 (default) or qemu-x86 (boards/*.board)
  WORKLOAD   pingpong (default), pingpong-same, pingpong-cross, pingpong-delay, stress-ramfs
  A, B       the two variants (A is the baseline; default A=default), each one of:
               default          the board's generic kernel, no extra boot parameters
               rt               the board's -rt (PREEMPT_RT) kernel image
               boot:ARGS        the generic kernel booted with ARGS (boot:nohz=off,
                                "boot:preempt=full", "boot:nohz=off rcu_nocbs=1-7")
               rt+boot:ARGS     the -rt kernel booted with ARGS
               built:NAME       the kernel built by make kernel BOARD=<board> VARIANT=NAME;
                                with A_FRAGMENTS (B_FRAGMENTS) it is built first (reused
                                when unchanged), with A_PATCHES (B_PATCHES) patched
               NAME             boards/variants/NAME.variant (nohz-off, preempt-full,
                                debian-6.12: Debian's 6.12 image, ...)
  C          optional: a third variant, recorded after B in every batch and compared against A
             as B is (tickscope compare A B C)
  A_FRAGMENTS, A_PATCHES, B_FRAGMENTS, B_PATCHES, C_FRAGMENTS, C_PATCHES
             a built:NAME variant's fragments and patch series (make kernel FRAGMENTS PATCHES)
  RUNS       runs per variant (default 5); one boot per variant per batch
  ORDER      shuffled (default): the variants' order in each batch is drawn from SEED, so that
             whatever drifts within a batch, or runs in step with the batches (another
             experiment on the same host), falls on every variant alike; fixed: A B (C) in
             every batch
  SEED       the shuffle's seed, a number below 2^32 (default: drawn at the first run, kept in
             experiment.txt and reused when the experiment resumes)
  NAME       the experiment's folder name (default <board>-<workload>-<A>-vs-<B>[-vs-<C>])
             A name (NAME, a variant's name) is one folder name: letters, digits, '.', '_',
             '+' and '-', not starting with '.' or '-'; anything else is refused before a
             file is written
  REPRODUCES a case the A/B pair reproduces, written to experiment.txt as reproduces=
             (tickscope compare's reproduction verdict: docs/compare.md)
  FRESH      1: delete the experiment's earlier runs and start again (default 0: reuse them)
  ITERS WARMUP DELAY_US WORKERS DURATION EVENTS PROBES CALLCHAINS MMAP RECORDER ACCEL
             passed to `make record` (boards/README.md)
  RESULTS    results root (default results/); the experiment goes to RESULTS/experiments/NAME
  RECORD     the recorder command (default boards/record.sh; the tests give a stand-in)
  MAKE_KERNEL  what builds a built:NAME variant (default boards/kernel/kernel.sh, make kernel)
  CONFIG     the experiment .config (default ./.config, when it exists): it fills BOARD,
             WORKLOAD, RUNS, ITERS, WORKERS, DURATION, EVENTS, CALLCHAINS and the variants
             (menu "Experiment", CONFIG_TS_EXP_A/B...) that are not given; the command line
             wins. make record is given every setting and no .config.
  TICKSCOPE  the tickscope binary (default build/tickscope)

Writes experiment.txt (the settings), order.txt (the recordings in the order they were made),
reproduction.txt with REPRODUCES= (boards/reproduce.sh: the seed's change beside this one),
<variant>/variant.txt (spec, kernel image, boot parameters, kernel version and hashes) and
<variant>/run-<k>/ (make record's run folders, each with its summary and chart data,
perf.data.tsum and perf.data.tplot, as a LAVA board writes them), log/ (each recording's
messages), then
compare.txt, compare.json, compare.html and plots/ from `tickscope compare`.
A recording that fails stops the experiment with its reason; a run the recorder refused (a
damaged trace: an entry/exit pair with one half empty; a failed workload) is kept in
refused/<seq>-<variant>-run-<k>/.
Re-running reuses every complete run; an interrupted experiment resumes where it stopped.
One experiment at a time per folder: a second one on the same NAME stops, naming the first
(the lock is <experiment>/.lock). FRESH=1 deletes only inside the experiment's folder, and
a folder under NAME that no experiment wrote (no experiment.txt) is refused, left alone.
Exit status 0 when every run is complete and the comparison was written.
USAGE
}

VARS="BOARD WORKLOAD A B C A_FRAGMENTS A_PATCHES B_FRAGMENTS B_PATCHES C_FRAGMENTS C_PATCHES
RUNS ORDER SEED NAME REPRODUCES FRESH ITERS WARMUP
DELAY_US WORKERS DURATION EVENTS PROBES CALLCHAINS MMAP RECORDER ACCEL RESULTS RECORD MAKE_KERNEL
TICKSCOPE CONFIG"
PASS="ITERS WARMUP DELAY_US WORKERS DURATION EVENTS PROBES CALLCHAINS MMAP RECORDER ACCEL"
parse_vars "$@"

# config_variant FILE X: variant X (A, B or C) of the .config's experiment menu as a spec, with its
# fragments and patches in V_X_FRAGMENTS and V_X_PATCHES (boards/Kconfig.experiment).
config_variant() {
	_k=$(config_value "$1" "EXP_$2")
	case "$_k" in
	'') return 0 ;;
	boot | rt+boot) _spec="$_k:$(config_value "$1" "EXP_$2_BOOT_ARGS")" ;;
	built | patched)
		_fr=$(config_value "$1" "EXP_$2_FRAGMENTS")
		_pa=""
		[ "$_k" = built ] || _pa=$(config_value "$1" "EXP_$2_PATCHES")
		_nm=$(config_value "$1" "EXP_$2_NAME")
		# shellcheck disable=SC2086 # the fragment list, split on purpose
		[ -n "$_nm" ] || _nm=$(echo $_fr | tr ' ' '-')${_pa:++$(basename "$_pa")}
		_spec="built:$_nm"
		eval "[ -n \"\${V_$2_FRAGMENTS+x}\" ] || V_$2_FRAGMENTS=\$_fr"
		eval "[ -n \"\${V_$2_PATCHES+x}\" ] || V_$2_PATCHES=\$_pa"
		;;
	*) _spec=$_k ;;
	esac
	eval "[ -n \"\${V_$2+x}\" ] || V_$2=\$_spec"
}
conf=${V_CONFIG:-$TS_TOP/.config}
if [ -f "$conf" ]; then
	config_fill_recording "$conf"
	config_variant "$conf" A
	config_variant "$conf" B
	config_variant "$conf" C
	[ -n "${V_REPRODUCES+x}" ] || V_REPRODUCES=$(config_value "$conf" EXP_REPRODUCES)
	[ -n "${V_NAME+x}" ] || V_NAME=$(config_value "$conf" EXP_NAME)
	msg "read unset values from $conf"
fi

# exp_lock DIR: one experiment at a time in DIR. The lock (flock on DIR/.lock, which names its
# holder) goes with the process, so a killed experiment leaves nothing to clean up.
exp_lock() {
	command -v flock >/dev/null || die "no flock (util-linux): cannot lock $1"
	exec 9>>"$1/.lock"
	if ! flock -n 9; then
		die "$1 is in use by another experiment ($(cat "$1/.lock" 2>/dev/null ||
			echo "holder unknown")): wait for it, or use another NAME="
	fi
	echo "pid $$ on $(uname -n), started $(date -u +%Y-%m-%dT%H:%M:%SZ) by $(id -un)" >"$1/.lock"
}

for _p in RESULTS RECORD TICKSCOPE CONFIG; do
	eval "_v=\${V_$_p:-}"
	check_path "$_p" "$_v"
done
check_path "the repository" "$TS_TOP"

board=${V_BOARD:-qemu-aarch64}
workload=${V_WORKLOAD:-pingpong}
spec_a=${V_A:-default}
spec_b=${V_B:-}
spec_c=${V_C:-}
runs=${V_RUNS:-5}
tool_paths
check_name WORKLOAD "$workload"
[ -n "$spec_b" ] || die "B= is required (the variant to compare against A=$spec_a; see --help)"
check_count RUNS "$runs" 1
order_check

profile_load "$board" || exit 1
profile_check || die "the profile of $board is invalid"
board=$P_NAME
[ "$P_TRANSPORT" = qemu ] ||
	die "board $board ($P_TRANSPORT) cannot boot a variant by itself: boot each kernel," \
		"make record each variant, then tickscope compare"

# variant_parse SPEC FRAGMENTS PATCHES X: the variant X (A, B or C) of SPEC; a built:NAME with
# FRAGMENTS (and PATCHES) is built first. Sets v_name, v_kernel, v_args, v_desc, v_frag (the
# fragment it stands for), v_board (the board profile it boots: the experiment's, or its twin
# with another Debian kernel) and, for a kernel built by make kernel, v_built (its variant
# name), v_image and v_kfrag (its fragments, for make record's variant check).
variant_parse() {
	v_kernel=generic v_args="" v_desc="" v_frag="" v_board=$board v_built="" v_image="" v_kfrag=""
	case "$1" in
	built:*)
		v_built=${1#built:} v_name=${1#built:}
		check_name "variant $4 ($1)" "$v_name"
		v_desc="the kernel built as $board/$v_built (make kernel)"
		if [ -n "${2:-}" ]; then
			v_desc="the kernel built from $2${3:+ with the patches $3} (make kernel)"
			variant_make "$v_built" "$2" "${3:-}"
		elif [ -n "${3:-}" ]; then
			die "variant '$1': a patch series needs its fragments too (${4}_FRAGMENTS)"
		fi
		;;
	default | generic) v_name=default v_desc="the generic kernel" ;;
	rt) v_name=rt v_kernel=rt v_desc="the -rt kernel" ;;
	boot:* | rt+boot:*)
		case "$1" in rt+*) v_kernel=rt ;; esac
		v_args=${1#*boot:}
		[ -n "$v_args" ] || die "variant '$1' has no boot parameters"
		v_name=$(printf '%s' "$1" | sed 's/^boot://; s/+boot:/-/; s/[^A-Za-z0-9._-]/-/g')
		v_desc="the $v_kernel kernel booted with $v_args"
		;;
	*)
		check_name "variant $4" "$1"
		f=$TS_TOP/boards/variants/$1.variant
		known=$(ls "$TS_TOP/boards/variants" | sed -n 's/\.variant$//p' | tr '\n' ' ')
		[ -f "$f" ] ||
			die "unknown variant '$1' (default, rt, boot:ARGS, rt+boot:ARGS, or: $known)"
		v_name=$1
		v_kernel=$(variant_key "$f" KERNEL) v_args=$(variant_key "$f" BOOT_ARGS)
		v_desc=$(variant_key "$f" DESCRIPTION) v_frag=$(variant_key "$f" FRAGMENT)
		v_board=$(variant_key "$f" BOARD)
		: "${v_kernel:=generic}" "${v_board:=$board}"
		[ "$v_kernel" != built ] || variant_build "$f" "$1"
		;;
	esac
	[ "$v_board" = "$board" ] || board_twin "$board" "$v_board" ||
		die "variant '$1' boots board $v_board, which differs from $board in more than its" \
			"kernel packages (KERNEL_META_*): not an A/B of kernels"
	if [ -n "$v_built" ]; then
		v_image=$("$TS_TOP/boards/kernel/kernel.sh" --board "$board" --variant "$v_built" \
			--print-image) || die "variant '$1': no kernel built as $board/$v_built"
		v_kernel=generic
		v_kfrag=$(sed -n 's/^fragments_merged=//p' \
			"$TS_TOP/.cache/kernels/$board/$v_built/kernel.variant")
	fi
	case "$v_kernel" in generic | rt) ;; *) die "variant '$1': KERNEL must be generic or rt" ;; esac
	check_name "variant $4 ($1)" "$v_name"
}

# board_twin A B: are profiles A and B the same board but for NAME, DESCRIPTION, KERNEL_META_*?
board_twin() {
	for _b in "$1" "$2"; do
		[ -r "$(profile_path "$_b")" ] || die "no board profile '$_b'"
		grep -v '^#' "$(profile_path "$_b")" |
			grep -Ev '^(NAME|DESCRIPTION|KERNEL_META_[a-z]+)=' >"$exp_tmp.$_b"
	done
	cmp -s "$exp_tmp.$1" "$exp_tmp.$2"
	_r=$?
	rm -f "$exp_tmp.$1" "$exp_tmp.$2"
	return $_r
}
exp_tmp=${TMPDIR:-/tmp}/ts-experiment.$$

# variant_build FILE NAME: a variant file with KERNEL=built names its FRAGMENTS (and PATCHES).
variant_build() {
	v_built=$2
	variant_make "$2" "$(variant_key "$1" FRAGMENTS)" "$(variant_key "$1" PATCHES)"
}

# variant_make NAME FRAGMENTS PATCHES: make kernel builds variant NAME (or reuses it when its
# config and patches are unchanged).
variant_make() {
	msg "variant $1: make kernel BOARD=$board VARIANT=$1 (reused when unchanged)"
	"$make_kernel" --board "$board" --variant "$1" --fragments "$2" ${3:+--patches "$3"} >&2 ||
		die "variant $1: make kernel failed"
}

# variant_key FILE KEY: a KEY=value line of a variant file (values taken literally).
variant_key() {
	sed -n "s/^$2=//p" "$1" | tail -n1 | sed 's/^"\(.*\)"$/\1/'
}

variant_parse "$spec_a" "${V_A_FRAGMENTS:-}" "${V_A_PATCHES:-}" A
a_name=$v_name a_kernel=$v_kernel a_args=$v_args a_desc=$v_desc a_frag=$v_frag a_board=$v_board
a_built=$v_built a_image=$v_image a_kfrag=$v_kfrag
variant_parse "$spec_b" "${V_B_FRAGMENTS:-}" "${V_B_PATCHES:-}" B
b_name=$v_name b_kernel=$v_kernel b_args=$v_args b_desc=$v_desc b_frag=$v_frag b_board=$v_board
b_built=$v_built b_image=$v_image b_kfrag=$v_kfrag
[ "$a_name" != "$b_name" ] || die "A and B are the same variant ($a_name)"
c_name="" sides="A B"
if [ -n "$spec_c" ]; then
	variant_parse "$spec_c" "${V_C_FRAGMENTS:-}" "${V_C_PATCHES:-}" C
	c_name=$v_name c_kernel=$v_kernel c_args=$v_args c_desc=$v_desc c_frag=$v_frag
	c_board=$v_board c_built=$v_built c_image=$v_image c_kfrag=$v_kfrag
	[ "$c_name" != "$a_name" ] && [ "$c_name" != "$b_name" ] ||
		die "C is the same variant as A or B ($c_name)"
	sides="A B C"
fi
nsides=$(echo $sides | wc -w)

name=${V_NAME:-$board-$workload-$a_name-vs-$b_name${c_name:+-vs-$c_name}}
check_name NAME "$name"
exp=$results/experiments/$name
check_own_folder "$exp" "$exp/experiment.txt" format=tickscope-experiment-1 experiment
make_dir "$exp"
exp_lock "$exp"
if [ "${V_FRESH:-0}" = 1 ]; then
	msg "FRESH=1: deleting the earlier runs in $exp"
	find "$exp" -mindepth 1 -maxdepth 1 ! -name .lock -exec rm -rf {} +
fi
mkdir -p "$exp/log"

# The settings that make runs comparable; a re-run must agree with them to reuse the runs.
settings() {
	echo "board=$board"
	echo "workload=$workload"
	echo "a=$spec_a"
	echo "b=$spec_b"
	[ -z "$spec_c" ] || echo "c=$spec_c"
	for k in A_FRAGMENTS A_PATCHES B_FRAGMENTS B_PATCHES C_FRAGMENTS C_PATCHES; do
		eval "_s=\${V_$k:-}"
		[ -z "$_s" ] || echo "$(echo "$k" | tr 'A-Z' 'a-z')=$_s"
	done
	for k in $PASS; do
		eval "_s=\${V_$k+x}"
		[ -z "$_s" ] || eval "echo \"$(echo "$k" | tr 'A-Z' 'a-z')=\$V_$k\""
	done
}
resume_or_refuse "$exp/experiment.txt" "$exp" "the experiment in $exp was recorded"
if [ "$order" = shuffled ] && [ -z "$seed" ]; then
	seed=$(sed -n 's/^order=shuffled in each batch, seed=\([0-9]*\)$/\1/p' \
		"$exp/experiment.txt" 2>/dev/null | tail -n 1)
	[ -n "$seed" ] || seed=$(order_seed_draw)
fi

{
	echo "format=tickscope-experiment-1"
	echo "name=$name"
	cat "$exp/settings.txt"
	echo "runs=$runs"
	echo "variant_a=$a_name"
	echo "variant_b=$b_name"
	[ -z "$c_name" ] || echo "variant_c=$c_name"
	if [ "$order" = shuffled ]; then
		echo "order=shuffled in each batch, seed=$seed"
	else
		echo "order=fixed, per batch: $a_name $b_name${c_name:+ $c_name}"
	fi
	[ -z "${V_REPRODUCES:-}" ] || echo "reproduces=$V_REPRODUCES"
	echo "updated_utc=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
} >"$exp/experiment.txt"
touch "$exp/order.txt"

run_complete() {
	[ -f "$1/meta.txt" ] && tail -n1 "$1/meta.txt" | grep -qx 'status=complete' &&
		{ [ -s "$1/perf.data" ] || [ -s "$1/perf.data.xz" ]; }
}

# summarise RUN: the run's summary and chart data next to its trace (tickscope summary --charts,
# perf.data.tsum and perf.data.tplot), as ts-record.sh --summary 1 writes them on a LAVA board,
# so that make lava-collect and compare take the run as it is, and the summary travels without
# the trace. meta.txt says summary=ok or why not and summary_s=, before its last line
# (status=complete). A failure is said, not fatal: the trace is there. meta.txt is replaced
# whole (written beside it, then renamed): a full disk or a stop leaves the old one as it was,
# never one without its status=complete (which would have the run recorded again); a meta.txt
# that is a symlink or read-only is left alone.
summarise() {
	grep -qx 'summary=ok' "$1/meta.txt" && ls "$1"/*.tsum >/dev/null 2>&1 && return 0
	_s0=$(now_s)
	if [ ! -x "$tickscope" ]; then
		_sm="failed: no tickscope binary '$tickscope' (make all)"
	elif "$tickscope" summary --charts "$1" >"$1/summary.log" 2>&1; then
		_sm=ok
	else
		_sm="failed: $(tail -n 1 "$1/summary.log" | sed 's/^tickscope: //')"
	fi
	[ "$_sm" = ok ] || msg "WARNING: $1: no summary: ${_sm#failed: }"
	_m=$1/meta.txt _n=$1/.meta.txt.new
	if [ -L "$_m" ] || [ ! -w "$_m" ]; then
		msg "WARNING: $_m is $([ -L "$_m" ] && echo a symlink || echo read-only):" \
			"left as it is (summary=$_sm not written in it)"
		return 0
	fi
	rm -f "$_n"
	if { sed '$d; /^summary=/d; /^summary_s=/d' "$_m" && echo "summary=$_sm" &&
		echo "summary_s=$(($(now_s) - _s0))" && tail -n 1 "$_m"; } 2>/dev/null >"$_n" &&
		mv -f "$_n" "$_m"; then
		return 0
	fi
	rm -f "$_n"
	msg "WARNING: $_m: cannot write the new one (disk full?): left as it is" \
		"(summary=$_sm not written in it)"
}

fmt_s() {
	if [ "$1" -ge 60 ]; then echo "$(($1 / 60))m$(printf %02d $(($1 % 60)))s"; else echo "${1}s"; fi
}

# eta REMAINING: time left from the mean of this experiment's recordings so far.
eta() {
	awk -v n="$1" '{ for (i = 1; i <= NF; i++) if ($i ~ /^elapsed_s=/) {
			s += substr($i, 11); c++ } }
		END { if (c) printf "%d", s / c * n; else print "?" }' "$exp/order.txt"
}

rm -rf "$exp/.rec"
total=$((runs * nsides))
todo=0
for k in $(seq 1 "$runs"); do
	for v in "$a_name" "$b_name" $c_name; do
		run_complete "$exp/$v/run-$k" || todo=$((todo + 1))
	done
done
msg "$name: $runs run(s) each of $a_name (A: $a_desc) and $b_name (B: $b_desc)" \
	"${c_name:+and $c_name (C: $c_desc) }on $board, $workload; $((total - todo)) of $total" \
	"recorded already"

seq_no=$(wc -l <"$exp/order.txt")
i=0
for k in $(seq 1 "$runs"); do
	for ab in $(batch_sides "$k"); do
		i=$((i + 1))
		case $ab in
		A) v=$a_name vk=$a_kernel va=$a_args vb=$a_board vi=$a_image vf=$a_kfrag ;;
		B) v=$b_name vk=$b_kernel va=$b_args vb=$b_board vi=$b_image vf=$b_kfrag ;;
		C) v=$c_name vk=$c_kernel va=$c_args vb=$c_board vi=$c_image vf=$c_kfrag ;;
		esac
		dest=$exp/$v/run-$k
		# a run recorded before experiments wrote summaries gets its summary now
		run_complete "$dest" && { summarise "$dest"; continue; }
		left=$(eta "$todo")
		case "$left" in '?') left="unknown" ;; *) left="about $(fmt_s "$left")" ;; esac
		msg "[$i/$total] batch $k/$runs, $ab=$v run $k: recording ($todo recording(s) to go, $left left)"
		rm -rf "$dest" "$exp/.rec"
		seq_no=$((seq_no + 1))
		log=$exp/log/$(printf %03d $seq_no)-$v-run-$k.log
		set -- "BOARD=$vb" "WORKLOAD=$workload" "VARIANT=$v" "RUNS=1" \
			"RESULTS=$exp/.rec" "GUEST_KERNEL=$vk" "BOOT_ARGS=$va" "CONFIG=/dev/null"
		[ -z "$vi" ] || set -- "$@" "KERNEL_IMAGE=$vi" "FRAGMENTS=$vf"
		for p in $PASS; do
			eval "_s=\${V_$p+x}"
			[ -z "$_s" ] || eval "set -- \"\$@\" \"$p=\$V_$p\""
		done
		t0=$(now_s)
		rc=0
		"$record" "$@" >"$log" 2>&1 || rc=$?
		el=$(($(now_s) - t0))
		got=$exp/.rec/$vb/$v/$workload/run-1
		if [ $rc != 0 ] || ! run_complete "$got"; then
			echo "$seq_no batch=$k variant=$v ab=$ab run=$k status=failed elapsed_s=$el" \
				>>"$exp/order.txt"
			tail -n 15 "$log" | sed 's/^/  /' >&2
			# a run the recorder refused (a damaged trace, a failed workload) is kept
			why="" fm=$got.failed/meta.txt
			[ ! -f "$fm" ] || why=$(sed -n 's/^failure=//p' "$fm")
			kept=$exp/refused/$(printf %03d "$seq_no")-$v-run-$k
			if [ -d "$got.failed" ] && mkdir -p "$exp/refused" && mv "$got.failed" "$kept"; then
				why="${why:-no reason given}; the run is kept in $kept"
			fi
			rm -rf "$exp/.rec"
			die "recording $v run $k failed (exit $rc; $log)${why:+: $why}; re-run to resume"
		fi
		mkdir -p "$exp/$v"
		mv "$got" "$dest"
		rm -rf "$exp/.rec"
		summarise "$dest"
		echo "$seq_no batch=$k variant=$v ab=$ab run=$k status=complete elapsed_s=$el" \
			"result=$(sed -n 's/^result=//p' "$dest/meta.txt")" >>"$exp/order.txt"
		todo=$((todo - 1))
		msg "[$i/$total] $v run $k: $(sed -n 's/^result=//p' "$dest/meta.txt")" \
			"$(sed -n 's/^result_unit=//p' "$dest/meta.txt") (${el}s)"
	done
done

# preempt_check ARGS KCONFIG WHAT: preempt= does nothing on a kernel without PREEMPT_DYNAMIC.
preempt_check() {
	case " $1 " in *" preempt="*) ;; *) return 0 ;; esac
	case $2 in *.xz) _c="xz -dc" ;; *) _c=cat ;; esac
	$_c "$2" | grep -qx 'CONFIG_PREEMPT_DYNAMIC=y' && return 0
	echo "warning=preempt= ignored: the kernel has no CONFIG_PREEMPT_DYNAMIC"
	msg "WARNING: $3: the kernel has no CONFIG_PREEMPT_DYNAMIC: its preempt= is ignored"
}

# variant_note NAME SPEC KERNEL ARGS DESC FRAG BOARD AB: the variant's description, from its runs.
variant_note() {
	{
		echo "variant=$1"
		echo "spec=$2"
		echo "description=$5"
		echo "board=$7"
		echo "guest_kernel=$3"
		echo "boot_args=$4"
		[ -z "$6" ] || echo "stands_for_fragment=$6"
		eval "_built=\$${8}_built"
		if [ -n "$_built" ]; then
			# make kernel's record: fragments, verdicts, config, patch and image hashes
			sed 's/^/built_/' "$TS_TOP/.cache/kernels/$board/$_built/kernel.variant"
			cp "$TS_TOP/.cache/kernels/$board/$_built/config" "$exp/$1/kernel.config"
		else
			_meta=$(sed -n "s/^KERNEL_META_$3=//p" "$(profile_path "$7")" | tail -n1)
			echo "kernel_meta=${_meta:--}"
			echo "kernel_package=$(cat "$TS_CACHE/kernels/$P_DEB_ARCH/$_meta.package" \
				2>/dev/null || echo -)"
		fi
		for r in "$exp/$1"/run-*; do
			[ -d "$r" ] || continue
			rn=${r##*/}
			kver=$(sed -n 's/^kernel=//p' "$r/meta.txt")
			echo "$rn.kernel=$kver"
			echo "$rn.cmdline=$(cat "$r/cmdline.txt" 2>/dev/null || echo -)"
			echo "$rn.variant_check=$(sed -n 's/^variant_check=//p' "$r/meta.txt")"
			img=$TS_CACHE/kernels/$P_DEB_ARCH/linux-image-$kver/boot/vmlinuz-$kver
			if [ -f "$img" ]; then
				echo "$rn.kernel_image_sha256=$(sha256sum <"$img" | cut -d' ' -f1)"
			fi
			for c in kconfig kconfig.xz; do
				[ -f "$r/$c" ] || continue
				case $c in *.xz) h=$(xz -dc "$r/$c" | sha256sum) ;; *) h=$(sha256sum <"$r/$c") ;; esac
				echo "$rn.kconfig_sha256=${h%% *}"
				preempt_check "$4" "$r/$c" "$1 $rn"
			done
		done
	} >"$exp/$1/variant.txt"
}
variant_note "$a_name" "$spec_a" "$a_kernel" "$a_args" "$a_desc" "$a_frag" "$a_board" a
variant_note "$b_name" "$spec_b" "$b_kernel" "$b_args" "$b_desc" "$b_frag" "$b_board" b
[ -z "$c_name" ] ||
	variant_note "$c_name" "$spec_c" "$c_kernel" "$c_args" "$c_desc" "$c_frag" "$c_board" c

[ -f "$tickscope" ] && [ -x "$tickscope" ] || die "no $tickscope (make all)"
msg "[compare] tickscope compare $a_name $b_name${c_name:+ $c_name}: text, JSON, HTML, plots"
# make record checked each run against what its variant declares: the boot arguments of a
# Debian image (the image itself is variant.txt's and preempt_check's), and the fragments of a
# built kernel. A mismatch there is real, and compare refuses it: no --allow-mismatch.
set -- "$exp/$a_name" "$exp/$b_name"
[ -z "$c_name" ] || set -- "$@" "$exp/$c_name"
"$tickscope" compare "$@" >"$exp/compare.txt" 2>"$exp/log/compare.log" ||
	{ cat "$exp/log/compare.log" >&2; die "tickscope compare failed (text)"; }
"$tickscope" compare --json "$@" >"$exp/compare.json" 2>>"$exp/log/compare.log" ||
	die "tickscope compare --json failed ($exp/log/compare.log)"
"$tickscope" compare --html "$exp/compare.html" "$@" >/dev/null 2>>"$exp/log/compare.log" ||
	die "tickscope compare --html failed ($exp/log/compare.log)"
rm -rf "$exp/plots"
"$tickscope" compare --plots "$exp/plots" "$@" >/dev/null 2>>"$exp/log/compare.log" ||
	die "tickscope compare --plots failed ($exp/log/compare.log)"
sed -n '1,12p' "$exp/compare.txt" >&2
if [ -n "${V_REPRODUCES:-}" ]; then
	"$TS_TOP/boards/reproduce.sh" "$exp" "$V_REPRODUCES" >"$exp/reproduction.txt" ||
		die "the reproduction verdict failed (boards/reproduce.sh $exp)"
	cat "$exp/reproduction.txt" >&2
fi
msg "done: $exp"
msg "  report:  $exp/compare.txt"
msg "  JSON:    $exp/compare.json"
msg "  HTML:    $exp/compare.html"
msg "  plots:   $exp/plots/"
msg "  runs:    $exp/$a_name/run-*, $exp/$b_name/run-*${c_name:+, $exp/$c_name/run-*}" \
	"(order in $exp/order.txt)"
