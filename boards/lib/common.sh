# SPDX-License-Identifier: GPL-2.0-only
# Shared helpers for the boards/ scripts (host side, POSIX sh): messages, the profile parser,
# the cache location. Source it; it defines functions and TS_TOP/TS_CACHE only.

: "${TS_TOP:=$(cd "$(dirname "$0")/.." && pwd)}"
while [ ! -f "$TS_TOP/Makefile" ] && [ "$TS_TOP" != / ]; do TS_TOP=$(dirname "$TS_TOP"); done
: "${TS_CACHE:=$TS_TOP/.cache/boards}"
: "${TS_PROG:=$(basename "$0" .sh)}"

# msg TEXT...: one line on stderr; a control character in it (a newline or a tab in a value
# the user gave) is shown as '?', so that a message is always one line.
msg() {
	printf '%s' "$TS_PROG: $*" | tr '\001-\037\177' '?' >&2
	echo >&2
}

die() {
	msg "error: $*"
	exit 1
}

# parse_vars ARG...: the scripts' VAR=value arguments; each VAR must be in $VARS and lands in
# V_VAR. A bare VAR takes its value from the environment: that is how make passes its command
# line (boards/boards.mk), so no value is ever pasted into a shell command or shown by ps.
# --help prints the caller's usage() and exits 0; anything else is an error.
parse_vars() {
	for a in "$@"; do
		case "$a" in
		--help | -h) usage; exit 0 ;;
		[A-Z]*=*)
			k=${a%%=*}
			case " $(echo $VARS) " in *" $k "*) ;; *) die "unknown variable $k (see --help)" ;; esac
			eval "V_$k=\${a#*=}"
			;;
		[A-Z]*)
			case " $(echo $VARS) " in *" $a "*) ;; *) die "unknown variable $a (see --help)" ;; esac
			eval "_set=\${$a+x}"
			[ -n "$_set" ] || die "$a is not in the environment"
			eval "V_$a=\$$a"
			;;
		*) usage >&2; die "unexpected argument '$a'" ;;
		esac
	done
}

# TS_NAME_CHARS: the characters of a name that becomes one folder (a variant, a workload, an
# experiment's or a bisection's NAME): letters, digits, '.', '_', '+' and '-', not starting with
# '.' or '-', at most 64 of them (boards/README.md, "Names").
TS_NAME_CHARS="A-Za-z0-9._+-"

# TS_NAME_RULE: the rule of a name, as the messages say it.
# shellcheck disable=SC2034 # read by the scripts that source this
TS_NAME_RULE="use letters, digits, '.', '_', '+' and '-', not first '.' or '-', at most 64"

# name_ok NAME: NAME follows the one rule of names (TS_NAME_CHARS, not first '.' or '-', at most
# 64 characters). Every script that takes a name checks it so, before anything is written:
# make record, experiment, bisect, kernel and the LAVA scripts' built:NAME.
name_ok() {
	case "$1" in '' | [.-]* | *[!$TS_NAME_CHARS]*) return 1 ;; esac
	[ "${#1}" -le 64 ]
}

# check_name WHAT NAME: dies in one line unless NAME is one path component of TS_NAME_CHARS,
# so that nothing is written or removed outside the folder it names.
check_name() {
	case "$2" in
	'' | [.-]* | *[!$TS_NAME_CHARS]*)
		die "$1 '$(printf '%s' "$2" | tr -c '[:print:]' '?')' is not a name: use letters," \
			"digits, '.', '_', '+' and '-', not first '.' or '-'"
		;;
	esac
	[ "${#2}" -le 64 ] || die "$1 '$2' is longer than 64 characters"
}

# check_count WHAT VALUE MIN: dies in one line unless VALUE is a whole number from MIN to
# 999999 written without a leading 0: RUNS=00 recorded nothing and a number beyond the shell's
# arithmetic ("[: Illegal number") was read as none, both ending "successfully".
check_count() {
	case "$2" in
	'' | *[!0-9]* | 0?* | ???????*) ;;
	*) [ "$2" -lt "$3" ] || return 0 ;;
	esac
	die "$1 must be a whole number from $3 to 999999, not" \
		"'$(printf '%s' "$2" | tr -c '[:print:]' '?')'"
}

# check_range WHAT VALUE MIN MAX: dies in one line unless VALUE is a whole number from MIN to
# MAX (at most 999999999) written without a leading 0. ITERS=99999999999999999999 or ITERS=0
# passed every check here and failed on the board only after it had booted (or not at all).
check_range() {
	case "$2" in
	'' | *[!0-9]* | 0?* | ??????????*) ;;
	*) [ "$2" -lt "$3" ] || [ "$2" -gt "$4" ] || return 0 ;;
	esac
	die "$1 must be a whole number from $3 to $4, not" \
		"'$(printf '%s' "$2" | tr -c '[:print:]' '?')'"
}

# check_path WHAT PATH: dies when PATH holds a newline or another control character, which
# no run folder's meta.txt, order.txt or log line can carry.
check_path() {
	case "$2" in
	*[[:cntrl:]]*) die "$1 '$(printf '%s' "$2" | tr -c '[:print:]' '?')' holds a control" \
		"character (a newline?): choose another folder" ;;
	esac
}

# config_value FILE KEY: CONFIG_TS_KEY of the experiment .config FILE without its quotes, "n"
# for "# CONFIG_TS_KEY is not set", empty when FILE does not set it.
config_value() {
	_cv=$(sed -n "s/^CONFIG_TS_$2=//p" "$1" | tail -n1)
	_cv=${_cv#\"}
	_cv=${_cv%\"}
	if [ -z "$_cv" ] && grep -q "^# CONFIG_TS_$2 is not set" "$1"; then
		_cv=n
	fi
	printf '%s' "$_cv"
}

# config_fill FILE VAR KEY: V_VAR from CONFIG_TS_KEY of FILE, unless VAR was given (the command
# line wins) or FILE leaves it empty.
config_fill() {
	_cf=$(config_value "$1" "$3")
	[ -n "$_cf" ] || return 0
	eval "_set=\${V_$2+x}"
	[ -n "$_set" ] || eval "V_$2=\$_cf"
}

# config_fill_recording FILE: the recording settings both make record and make experiment take
# from the experiment .config: board, workload, runs, iterations, workers, duration, events and
# callchains (boards/README.md, "The experiment .config").
config_fill_recording() {
	config_fill "$1" BOARD BOARD
	config_fill "$1" WORKLOAD WORKLOAD
	config_fill "$1" RUNS RUNS
	config_fill "$1" ITERS PINGPONG_ITERS
	config_fill "$1" WORKERS STRESS_WORKERS
	config_fill "$1" DURATION DURATION
	config_fill "$1" EVENTS EVENTS
	config_fill "$1" PROBES PROBES
	config_fill "$1" CALLCHAINS CALLCHAINS
}

# Profile keys every board must set, and the ones each transport adds.
TS_PROFILE_KEYS="NAME DESCRIPTION ARCH CROSS_COMPILE CPUS TOPOLOGY PIN_SAME PIN_CROSS NOHZ_FULL_CPUS
DEFCONFIG FRAGMENTS TRANSPORT PERF PERF_MMAP"
TS_PROFILE_KEYS_ssh="SSH SSH_TARGET SSH_OPTS REMOTE_DIR"
TS_PROFILE_KEYS_qemu="QEMU_SYSTEM QEMU_MACHINE QEMU_CPU QEMU_MEM QEMU_CONSOLE QEMU_DISK_DEVICE
QEMU_ACCEL DEB_ARCH KERNEL_META_generic KERNEL_META_rt GUEST_MODULES BOOT_TIMEOUT"
# Keys a profile may set and the scripts read as ${P_X:-}: a key in none of these lists is a
# typo (QEMU_MEMROY=), whose value was ignored without a word and the default taken.
TS_PROFILE_KEYS_optional="DTB FRAGMENTS_generic FRAGMENTS_rt QEMU_DISK_SIZE RUN_SLACK STRESS_NG"

# profile_path NAME_OR_PATH: the profile file of a board.
profile_path() {
	case "$1" in
	*/*) echo "$1" ;;
	*) echo "$TS_TOP/boards/$1.board" ;;
	esac
}

# profile_load NAME_OR_PATH: parse a profile into P_<KEY> shell variables. Profiles are
# declarative KEY=value lines (optionally "double-quoted", no expansion), # comments and blank
# lines; nothing in them is executed. Returns 1 with a message on the first malformed line.
# A key given twice (the later value was taken, the earlier silently not; lava-jobs' reader
# took the later too) and CRLF line ends (the carriage return became part of the value, e.g.
# an SSH target "board\r") are malformed lines; so is a key no script reads (a typo).
profile_load() {
	_pf=$(profile_path "$1")
	[ -r "$_pf" ] || {
		msg "no board profile '$1' ($_pf); boards: $(profile_list | tr '\n' ' ')"
		return 1
	}
	_ln=0 _seen=' '
	# shellcheck disable=SC2086 # the lists' words
	_known=" $(echo $TS_PROFILE_KEYS $TS_PROFILE_KEYS_ssh $TS_PROFILE_KEYS_qemu \
		$TS_PROFILE_KEYS_optional) "
	_cr=$(printf '\r')
	while IFS= read -r _line || [ -n "$_line" ]; do
		_ln=$((_ln + 1))
		case "$_line" in
		*"$_cr")
			msg "$_pf:$_ln: a carriage return ends the line (CRLF line ends): save the" \
				"profile with LF line ends"
			return 1
			;;
		'' | '#'*) continue ;;
		esac
		_key=${_line%%=*}
		_val=${_line#*=}
		if [ "$_key" = "$_line" ] || ! expr "$_key" : '[A-Z][A-Za-z0-9_]*$' >/dev/null; then
			msg "$_pf:$_ln: expected KEY=value, got: $_line"
			return 1
		fi
		case "$_known" in
		*" $_key "*) ;;
		*)
			msg "$_pf:$_ln: $_key is not a profile key (a typo?): boards/README.md" \
				"lists the keys"
			return 1
			;;
		esac
		case "$_seen" in
		*" $_key:"*)
			_first=${_seen#*" $_key:"}
			msg "$_pf:$_ln: $_key given twice (first on line ${_first%% *}): one value a key"
			return 1
			;;
		esac
		_seen="$_seen$_key:$_ln "
		case "$_val" in
		\"*\") _val=${_val#\"}; _val=${_val%\"} ;;
		\"* | *\") msg "$_pf:$_ln: unbalanced quote"; return 1 ;;
		esac
		_q=$(printf '%s' "$_val" | sed "s/'/'\\\\''/g")
		eval "P_$_key='$_q'"
	done <"$_pf"
	P_FILE=$_pf
}

# profile_check: validate the loaded profile (required keys, value shapes). Prints every
# problem; returns 1 if there was any.
profile_check() {
	_bad=0
	_keys=$TS_PROFILE_KEYS
	case "${P_TRANSPORT:-}" in
	ssh) _keys="$_keys $TS_PROFILE_KEYS_ssh" ;;
	qemu) _keys="$_keys $TS_PROFILE_KEYS_qemu" ;;
	local) ;;
	*) msg "$P_FILE: TRANSPORT must be local, ssh or qemu"; _bad=1 ;;
	esac
	for _k in $_keys; do
		eval "_set=\${P_$_k+x}"
		[ -n "$_set" ] || { msg "$P_FILE: missing $_k"; _bad=1; }
	done
	case "${P_ARCH:-}" in
	arm64 | x86_64) ;;
	*) msg "$P_FILE: ARCH must be arm64 or x86_64"; _bad=1 ;;
	esac
	if [ "${P_CPUS:-}" = auto ] && [ "${P_TRANSPORT:-}" = local ]; then
		: # the live machine: checked against what is online when recording
	elif ! expr "${P_CPUS:-x}" : '[1-9][0-9]*$' >/dev/null; then
		msg "$P_FILE: CPUS must be a positive number (or auto, for TRANSPORT=local)"
		_bad=1
	else
		for _c in ${P_PIN_SAME:-x} $(echo "${P_PIN_CROSS:-x}" | tr ',' ' '); do
			if ! expr "$_c" : '[0-9][0-9]*$' >/dev/null || [ "$_c" -ge "$P_CPUS" ]; then
				msg "$P_FILE: pinned CPU '$_c' is not below CPUS=$P_CPUS"
				_bad=1
			fi
		done
	fi
	expr "${P_PIN_CROSS:-}" : '[0-9]*,[0-9]*$' >/dev/null ||
		{ msg "$P_FILE: PIN_CROSS must be A,B"; _bad=1; }
	[ "${P_NAME:-}" = "$(basename "$P_FILE" .board)" ] ||
		{ msg "$P_FILE: NAME must match the file name"; _bad=1; }
	return $_bad
}

profile_list() {
	for _f in "$TS_TOP"/boards/*.board; do
		basename "$_f" .board
	done
}

# Seconds since the epoch, for progress timings.
now_s() {
	date +%s
}

# resolve_accel ACCEL ARCH: qemu's accelerator for "auto": KVM when /dev/kvm is usable and the
# guest has the host's arch, TCG otherwise.
resolve_accel() {
	if [ "$1" != auto ]; then
		echo "$1"
	elif [ -c /dev/kvm ] && [ -w /dev/kvm ] && [ "$2" = "$(uname -m)" ] &&
		grep -qE '^flags.* (vmx|svm)( |$)' /proc/cpuinfo; then
		# A /dev/kvm without vmx/svm in the flags is a nested set-up that fails on MSRs.
		echo kvm
	else
		echo tcg
	fi
}

# resume_or_refuse MARKER DIR WHAT: the caller's settings() prints what makes its runs
# comparable. With MARKER there, an earlier run wrote DIR/settings.txt: go on only with the same
# settings, else die showing the difference ("WHAT with other settings"); without it, write
# them for the next run to compare.
resume_or_refuse() {
	if [ -f "$1" ]; then
		if ! settings | cmp -s - "$2/settings.txt"; then
			msg "$3 with other settings:"
			settings | diff "$2/settings.txt" - | sed 's/^/  /' >&2 || true
			die "use another NAME= or FRESH=1"
		fi
		msg "resuming $2"
	else
		mkdir -p "$2"
		settings >"$2/settings.txt"
	fi
}

# check_own_folder DIR MARKER FORMAT WHAT: dies in one line unless DIR is absent, empty (a
# .lock aside) or holds MARKER whose first line is FORMAT: a folder of the user's own files
# under the same name (results/experiments/NAME) was written into, and FRESH=1 emptied it.
check_own_folder() {
	[ -e "$1" ] || [ -L "$1" ] || return 0
	if [ ! -d "$1" ] || [ -L "$1" ]; then
		die "$1 is in the way: not a folder (a file or a symbolic link); choose another" \
			"NAME= or RESULTS="
	fi
	_empty=1
	for _e in "$1"/* "$1"/.[!.]* "$1"/..?*; do
		{ [ -e "$_e" ] || [ -L "$_e" ]; } && [ "$_e" != "$1/.lock" ] && _empty=0
	done
	[ $_empty = 0 ] || return 0
	[ -f "$2" ] && [ "$(head -n 1 "$2")" = "$3" ] && return 0
	die "$1 holds files that no earlier $4 wrote (no $(basename "$2") starting $3):" \
		"nothing there is touched; choose another NAME= or RESULTS="
}

# make_dir DIR: mkdir -p DIR, or die in one line saying why (mkdir's own line named only the
# part of the path that was in the way, as a second line).
make_dir() {
	_e=$(mkdir -p "$1" 2>&1) || die "cannot create $1 (${_e#mkdir: })"
}

# run_is_ours ENTRY: ENTRY is a run folder that boards/target/ts-record.sh wrote: it holds
# .tickscope-run (its first file, so that a run stopped part-way is recognised too) or, recorded
# before that mark, a meta.txt starting format=tickscope-run-1. Only these are ever replaced.
run_is_ours() {
	[ -d "$1" ] && [ ! -L "$1" ] || return 1
	[ -f "$1/.tickscope-run" ] && return 0
	[ -f "$1/meta.txt" ] && [ "$(head -n 1 "$1/meta.txt")" = format=tickscope-run-1 ]
}

# build_dir: sets bdir to make's BUILD folder (default build) as an absolute path: make hands
# its scripts BUILD relative to the top when it is inside the tree, absolute when outside.
build_dir() {
	bdir=${BUILD:-build}
	case "$bdir" in /*) ;; *) bdir=$TS_TOP/$bdir ;; esac
}

# tool_paths: where a script that records and compares runs finds its results folder and its
# tools, from RESULTS=, RECORD=, MAKE_KERNEL=, TICKSCOPE= or their defaults (tickscope in make's
# BUILD folder): sets results, record, make_kernel, bdir and tickscope.
tool_paths() {
	results=${V_RESULTS:-$TS_TOP/results}
	record=${V_RECORD:-$TS_TOP/boards/record.sh}
	make_kernel=${V_MAKE_KERNEL:-$TS_TOP/boards/kernel/kernel.sh}
	build_dir
	tickscope=${V_TICKSCOPE:-$bdir/tickscope}
}

# order_check: ORDER and SEED (V_ORDER, V_SEED) as make experiment and make lava-jobs take them,
# into $order (shuffled, the default, or fixed) and $seed (empty when not given: the caller
# draws one, order_seed_draw, or takes the one it wrote down before).
order_check() {
	order=${V_ORDER:-shuffled}
	case "$order" in
	shuffled | fixed) ;;
	*) die "ORDER=$order: shuffled or fixed" ;;
	esac
	seed=${V_SEED:-}
	# ten digits are a seed (below 4294967296, as drawn), a leading 0 none (octal to $(( )))
	case "$seed" in
	'') ;;
	*[!0-9]* | ???????????* | 0?*) die "SEED=$seed: a number below 2^32" ;;
	*) [ "$seed" -lt 4294967296 ] || die "SEED=$seed: a number below 2^32" ;;
	esac
}

# order_seed_draw: a seed below 2^32 from the kernel's random numbers, on stdout
order_seed_draw() {
	od -An -N4 -tu4 /dev/urandom | tr -d ' '
}

# batch_sides K: the sides ($sides: A B [C]) in batch K's order ($order, $seed). Shuffled and
# balanced: the batches go in blocks of as many batches as sides; a block draws one order (a
# Fisher-Yates shuffle) and its batches take its rotations, so that each variant holds each
# place once in every block (two variants: A B then B A, or B A then A B). The draws are a
# 32-bit integer hash (two multiply-xorshift rounds) of SEED, the block and the step, in the
# shell's own arithmetic: a seed gives the same orders on every machine and shell, seeds
# however close unrelated ones. make experiment and make lava-jobs share it.
batch_sides() {
	[ "$order" = shuffled ] || { echo $sides; return 0; }
	_k=$1
	set -- $sides
	_r=$(((_k - 1) % $#)) _k=$(((_k - 1) / $# + 1)) _i=$#
	while [ "$_i" -gt 1 ]; do
		_x=$(((seed ^ (_k * 2654435769 + _i * 40503) % 4294967296)))
		_x=$((((_x >> 16) ^ _x) * 73244475 % 4294967296))
		_x=$((((_x >> 16) ^ _x) * 73244475 % 4294967296))
		_j=$((((_x >> 16) ^ _x) % _i + 1))
		eval "_a=\${$_i} _b=\${$_j}"
		_o="" _p=0
		for _s in "$@"; do
			_p=$((_p + 1))
			if [ "$_p" = "$_i" ]; then
				_o="$_o $_b"
			elif [ "$_p" = "$_j" ]; then
				_o="$_o $_a"
			else
				_o="$_o $_s"
			fi
		done
		set -- $_o
		_i=$((_i - 1))
	done
	while [ "$_r" -gt 0 ]; do
		_a=$1
		shift
		set -- "$@" "$_a"
		_r=$((_r - 1))
	done
	echo "$@"
}
