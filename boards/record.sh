#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `make record`: record N comparable runs of one workload on one board (this host, an ssh
# board, or an emulated board booted here) into results/<board>/<variant>/<workload>/run-<k>/.
set -eu
TS_PROG=record
. "$(dirname "$0")/lib/common.sh"

usage() {
	cat <<'USAGE'
Usage: boards/record.sh [VAR=value]...      (what `make record VAR=value...` runs)

  BOARD         x86-host (default), qemu-aarch64, qemu-x86, hi1215 (boards/*.board)
  WORKLOAD      pingpong (default), pingpong-same, pingpong-cross, pingpong-delay, stress-ramfs
  VARIANT       the kernel variant's name, a folder name (letters, digits, '.', '_', '+',
                '-'; not first '.' or '-'). Emulated boards: it also picks
                the guest kernel (a name starting with "rt" boots the -rt kernel) and the
                tick mode ("nohz-full" in the name adds nohz_full=<NOHZ_FULL_CPUS>,
                "nohz-off" adds nohz=off). Default: generic (emulated), else the running
                kernel release (x86-host) or "default" (ssh)
  RUNS          repetitions (default 3)
  ITERS WARMUP  ping-pong iterations (10000; 1 to 100000000) and warm-up round trips
                (1000; 0 to 100000000)
  DELAY_US      pingpong-delay: on-CPU burn per message in us (50; 0 to 10000000)
  WORKERS       stress-ng ramfs workers (2; 1 to 4096)
  DURATION      stress-ng seconds (5; 1 to 86400)
  EVENTS        event spec (see boards/README.md); default: the tickscope set
  CALLCHAINS    1 records kernel callchains (-g)  MMAP  perf -m (profile's PERF_MMAP)
  PROBES        kernel functions to time: each NAME gets a kprobe probe:NAME and a return
                probe probe:NAME__return (perf probe's names), set up through tracefs on
                the board and recorded with the events (tickscope report's "probes")
  RECORDER      auto (default: perf if it records on the board, else tickscope record),
                perf, or tickscope (arm64 boards get the static build/arm64/tickscope)
  GUEST_KERNEL  emulated boards: generic or rt (overrides the guess from VARIANT)
  BOOT_ARGS     emulated boards: extra kernel command line (overrides the guess)
  KERNEL_IMAGE  emulated boards: boot this image (a kernel built by make kernel, see
                boards/kernel/kernel.sh) instead of the Debian one; GUEST_KERNEL then
                only picks the initramfs, whose modules such a kernel does not load
  FRAGMENTS     the variant's kconfig fragments, written to meta.txt (profile default)
  RETRIES       record a run refused as a damaged trace (one half of an entry/exit pair
                never reached perf) again, up to N more times (default 0; 0 to 10); the run
                kept says so in its meta.txt (refused_attempts=, refused_reason=)
  SSH_TARGET    ssh boards: user@host (overrides the profile)
  ACCEL         emulated boards: kvm, tcg or auto (overrides the profile)
  BOOT_TIMEOUT TIMEOUT  emulated boards: seconds to reach /init, and for the whole boot
  RESULTS       results root (default results/)
  CONFIG        the experiment .config to read CONFIG_TS_* from (default ./.config)
Values given here win; unset ones come from CONFIG (if it exists), then the defaults.
Existing run folders of the same board/variant/workload are replaced: only those that a
recording wrote (marked by their .tickscope-run, or a meta.txt starting
format=tickscope-run-1); another run-* entry is left alone, and refused where a run goes.
They are replaced only when every new run is complete: the runs are recorded into
.recording.XXXXXX inside that folder first. A recording that fails keeps the earlier runs and
puts its own in failed-<UTC time>/ beside them; one that is stopped keeps them too.
Exit status 0 only when every run is complete (meta.txt ends with status=complete).
USAGE
}

VARS="BOARD WORKLOAD VARIANT RUNS ITERS WARMUP DELAY_US WORKERS DURATION EVENTS PROBES CALLCHAINS
MMAP RECORDER GUEST_KERNEL BOOT_ARGS KERNEL_IMAGE FRAGMENTS SSH_TARGET ACCEL BOOT_TIMEOUT TIMEOUT
RETRIES RESULTS CONFIG"
parse_vars "$@"

# The experiment .config (Kconfig issue): CONFIG_TS_<NAME> fills variables not given.
conf=${V_CONFIG:-$TS_TOP/.config}
if [ -f "$conf" ]; then
	config_fill_recording "$conf"
	config_fill "$conf" VARIANT VARIANT
	config_fill "$conf" GUEST_KERNEL GUEST_KERNEL
	config_fill "$conf" BOOT_ARGS BOOT_ARGS
	config_fill "$conf" FRAGMENTS FRAGMENTS
	msg "read unset values from $conf"
fi

board=${V_BOARD:-x86-host}
workload=${V_WORKLOAD:-pingpong}
runs=${V_RUNS:-3}
iters=${V_ITERS:-10000}
warmup=${V_WARMUP:-1000}
delay_us=${V_DELAY_US:-50}
workers=${V_WORKERS:-2}
duration=${V_DURATION:-5}
retries=${V_RETRIES:-0}
events=${V_EVENTS:-}
case "${V_CALLCHAINS:-0}" in
1 | y | yes) callchains=1 ;;
0 | n | no | '') callchains=0 ;;
*) die "CALLCHAINS must be 1 or 0" ;;
esac
results=${V_RESULTS:-$TS_TOP/results}
recorder=${V_RECORDER:-auto}
case "$recorder" in auto | perf | tickscope) ;; *) die "RECORDER must be auto, perf or tickscope" ;; esac

profile_load "$board" || exit 1
profile_check || die "the profile of $board is invalid"
board=$P_NAME
check_name BOARD "$board"
mmap=${V_MMAP:-$P_PERF_MMAP}
case "$workload" in
pingpong | pingpong-same | pingpong-cross | pingpong-delay | stress-ramfs) ;;
*) die "unknown WORKLOAD '$workload' (pingpong, pingpong-same, pingpong-cross, pingpong-delay, stress-ramfs)" ;;
esac
check_count RUNS "$runs" 1
# The board's workload takes these as they are: bounded here, before anything boots.
check_range ITERS "$iters" 1 100000000
check_range WARMUP "$warmup" 0 100000000
check_range DELAY_US "$delay_us" 0 10000000
check_range WORKERS "$workers" 1 4096
check_range DURATION "$duration" 1 86400
check_range RETRIES "$retries" 0 10
for n in "$runs" "$iters" "$warmup" "$delay_us" "$workers" "$duration" "${V_BOOT_TIMEOUT:-0}" \
	"${V_TIMEOUT:-0}"; do
	case "$n" in '' | *[!0-9]*) die "'$(printf '%s' "$n" | tr -c '[:print:]' '?')' is not a number" ;; esac
done
# Values that reach the board's command line are checked here: they are pasted, not quoted.
expr "$mmap" : '[1-9][0-9]*[BKMGbkmg]\{0,1\}$' >/dev/null ||
	die "MMAP '$(printf '%s' "$mmap" | tr -c '[:print:]' '?')' is not a size (16M, 1024)"
case "${V_ACCEL:-auto}" in kvm | tcg | auto) ;; *) die "ACCEL must be kvm, tcg or auto" ;; esac
case "${V_GUEST_KERNEL:-generic}" in generic | rt) ;; *) die "GUEST_KERNEL must be generic or rt" ;; esac
case "${V_SSH_TARGET:-x}" in
-* | *[!A-Za-z0-9@._:-]*) die "SSH_TARGET '$(printf '%s' "$V_SSH_TARGET" | tr -c '[:print:]' '?')'" \
	"is not user@host" ;;
esac

# Variant: name, guest kernel and boot arguments.
case "$P_TRANSPORT" in
qemu) variant=${V_VARIANT:-${V_GUEST_KERNEL:-generic}} ;;
local) variant=${V_VARIANT:-$(uname -r)} ;;
ssh) variant=${V_VARIANT:-default} ;;
esac
check_name VARIANT "$variant"
check_path RESULTS "$results"
case "$variant" in
rt*) guess_kernel=rt ;;
*) guess_kernel=generic ;;
esac
guest_kernel=${V_GUEST_KERNEL:-$guess_kernel}
guess_args=""
case "$variant" in *nohz-full*) guess_args="nohz_full=$P_NOHZ_FULL_CPUS" ;; esac
case "$variant" in *nohz-off*) guess_args="nohz=off" ;; esac
boot_args=${V_BOOT_ARGS-$guess_args}
eval "def_frag=\${P_FRAGMENTS_$guest_kernel:-\$P_FRAGMENTS}"
fragments=${V_FRAGMENTS:-$def_frag}

dest=$results/$board/$variant/$workload
# Earlier run folders of ours (run_is_ours) are replaced; any other run-* entry is the user's:
# left alone, and refused, before anything is written, where a run of this recording goes.
mine=0 others=0
for e in "$dest"/run-*; do
	{ [ -e "$e" ] || [ -L "$e" ]; } || continue
	if run_is_ours "$e"; then
		mine=$((mine + 1))
		continue
	fi
	n=${e##*/run-}
	n=${n%.partial}
	n=${n%.failed}
	case "$n" in
	'' | *[!0-9]* | 0*) ;;
	*)
		[ "${#n}" -gt 6 ] || [ "$n" -gt "$runs" ] ||
			die "$e is not a run folder of ours (no .tickscope-run, no meta.txt" \
				"format=tickscope-run-1) and stands where run $n goes: nothing is" \
				"touched; move it or choose another VARIANT= or RESULTS="
		;;
	esac
	others=$((others + 1))
done
make_dir "$dest"
# The runs are recorded into a folder of their own inside dest, and the earlier runs of ours are
# replaced only once every new run is complete: a recording that fails, or is stopped, leaves
# the earlier ones as they were.
for e in "$dest"/.recording.*; do
	[ ! -d "$e" ] || msg "note: $e is left from a recording that was stopped (or is still running)"
done
new=$(mktemp -d "$dest/.recording.XXXXXX") || die "cannot create a folder in $dest"
stage="" work="" keep_new=0
# shellcheck disable=SC2317 # run by the traps
cleanup() {
	[ "$keep_new" = 1 ] || rm -rf "$new"
	rm -rf ${stage:+"$stage"} ${work:+"$work"}
}
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# The board-side recorder's arguments (paths filled in per transport).
rec_args() {
	echo "--workload $workload --runs $runs --board $board --variant $variant"
	echo "--mmap $mmap --callchains $callchains --iters $iters --warmup $warmup"
	echo "--delay-us $delay_us --pin-same $P_PIN_SAME --pin-cross $P_PIN_CROSS"
	echo "--workers $workers --duration $duration --recorder $recorder --retries $retries"
}
q() {
	printf "'%s'" "$(printf '%s' "$1" | sed "s/'/'\\\\''/g")"
}
notes="--note transport=$P_TRANSPORT --note fragments=$(q "$fragments")"
notes="$notes --note profile=$board --note recorded_by=$(q "tickscope boards/record.sh")"
ev_arg=""
[ -n "$events" ] && ev_arg="--events $(q "$events")"
case "${V_PROBES:-}" in *[!A-Za-z0-9_.\ ]*)
	die "PROBES '$V_PROBES': kernel function names separated by spaces" ;;
esac
# shellcheck disable=SC2086 # the names, split on purpose
[ -z "${V_PROBES:-}" ] || ev_arg="$ev_arg --probes $(q "$(echo $V_PROBES)")"

build_dir

make_target() {
	"${MAKE:-make}" --no-print-directory -C "$TS_TOP" BUILD="$bdir" "$@" >&2 ||
		die "make $* failed"
}

# arm64 boards: the static tickscope goes next to pingpong, for when perf cannot record there
# (needed with RECORDER=tickscope, a fallback with auto).
arm64_tickscope() {
	case "$recorder" in
	tickscope) make_target tickscope-arm64 ;;
	auto)
		"${MAKE:-make}" --no-print-directory -C "$TS_TOP" BUILD="$bdir" tickscope-arm64 \
			>/dev/null 2>&1 || msg "note: no static aarch64 tickscope (make tickscope-arm64)"
		;;
	esac
}

t_start=$(now_s)
rc=0
case "$P_TRANSPORT" in
local)
	ncpu=$(getconf _NPROCESSORS_ONLN)
	if [ "$P_CPUS" != auto ] && [ "$P_CPUS" != "$ncpu" ]; then
		msg "note: this machine has $ncpu CPUs online; the profile says $P_CPUS"
	fi
	make_target workloads
	bindir=$bdir/workloads
	msg "recording $runs run(s) of $workload on $board ($variant) into $dest"
	eval "set -- $(rec_args | tr '\n' ' ') $notes $ev_arg"
	"$TS_TOP/boards/target/ts-record.sh" --out "$new" --perf "$P_PERF" \
		--stress-ng "${P_STRESS_NG:-stress-ng}" --pingpong "$bindir/pingpong" "$@" || rc=1
	;;
ssh)
	target=${V_SSH_TARGET:-$P_SSH_TARGET}
	case "$P_ARCH" in
	arm64) make_target workloads-arm64; arm64_tickscope; bindir=$bdir/workloads-arm64 ;;
	*) make_target workloads-static; bindir=$bdir/workloads-static ;;
	esac
	stage=$(mktemp -d)
	cp "$bindir/pingpong" "$TS_TOP/boards/target/ts-record.sh" "$stage/"
	[ ! -x "$bindir/tickscope" ] || cp "$bindir/tickscope" "$stage/"
	rdir=$P_REMOTE_DIR
	msg "copying the recorder and workloads to $target:$rdir"
	tar cf - -C "$stage" . | $P_SSH $P_SSH_OPTS "$target" \
		"rm -rf $rdir/out && mkdir -p $rdir && tar xf - -C $rdir" ||
		die "cannot copy to $target:$rdir (ssh $P_SSH_OPTS $target)"
	msg "recording $runs run(s) of $workload on $target ($variant)"
	$P_SSH $P_SSH_OPTS "$target" "$rdir/ts-record.sh --out $rdir/out --perf $P_PERF" \
		"--stress-ng ${P_STRESS_NG:-stress-ng} --pingpong $rdir/pingpong $(rec_args | tr '\n' ' ')" \
		"$notes --note ssh_target=$target $ev_arg" || rc=1
	msg "fetching results from $target:$rdir/out"
	mkdir -p "$stage/out"
	$P_SSH $P_SSH_OPTS "$target" "tar cf - -C $rdir/out ." | tar xf - -C "$stage/out" ||
		die "cannot fetch the results from $target:$rdir/out"
	for r in "$stage"/out/run-*; do
		[ ! -d "$r" ] || mv "$r" "$new/"
	done
	;;
qemu)
	case "$P_ARCH" in
	arm64) make_target workloads-arm64; arm64_tickscope; bindir=$bdir/workloads-arm64 ;;
	*) make_target workloads-static; bindir=$bdir/workloads-static ;;
	esac
	accel=$(resolve_accel "${V_ACCEL:-$P_QEMU_ACCEL}" "$P_ARCH")
	slack=${P_RUN_SLACK:-240}
	per_run=$slack
	[ "$workload" = stress-ramfs ] && per_run=$((slack + duration))
	boot_to=${V_BOOT_TIMEOUT:-$P_BOOT_TIMEOUT}
	total_to=${V_TIMEOUT:-$((boot_to + runs * (retries + 1) * per_run))}
	work=$(mktemp -d "${TMPDIR:-/tmp}/ts-record.XXXXXX")
	kimage=${V_KERNEL_IMAGE:-} gk_note=$guest_kernel
	if [ -n "$kimage" ]; then
		case "$kimage" in /*) ;; *) kimage=$TS_TOP/$kimage ;; esac
		[ -f "$kimage" ] || die "no kernel image $kimage (make kernel)"
		gk_note=built
		notes="$notes --note kernel_image_sha256=$(sha256sum <"$kimage" | cut -d' ' -f1)"
	fi
	{
		echo "# tickscope record job: $board $variant $workload"
		echo "exec /ts/ts-record.sh --out /results/$workload --perf $P_PERF" \
			"--stress-ng ${P_STRESS_NG:-stress-ng} --pingpong /ts/pingpong" \
			"$(rec_args | tr '\n' ' ') $notes --note guest_kernel=$gk_note" \
			"--note boot_args=$(q "$boot_args") --note qemu_accel=$accel" \
			"--note qemu_cpu=$P_QEMU_CPU $ev_arg"
	} >"$work/job.sh"
	msg "recording $runs run(s) of $workload on $board" \
		"($variant: $gk_note kernel${boot_args:+, $boot_args})"
	"$TS_TOP/boards/qemu/boot.sh" --board "$P_FILE" --flavour "$guest_kernel" \
		${kimage:+--kernel "$kimage"} \
		--workloads "$bindir" --job "$work/job.sh" --out "$work/out" --append "$boot_args" \
		--boot-timeout "$boot_to" --timeout "$total_to" --accel "$accel" || rc=1
	if [ -d "$work/out/$workload" ]; then
		for r in "$work"/out/"$workload"/run-*; do
			[ -d "$r" ] || continue
			cp "$work/out/console.log" "$work/out/qemu-cmd.txt" "$work/out/boot-times" "$r/"
			mv "$r" "$new/"
		done
	fi
	;;
esac

# The verdict: every run folder complete, with a perf.data.
complete=0 labels=0
for k in $(seq 1 "$runs"); do
	r=$new/run-$k
	if [ -d "$r" ] && [ -s "$r/perf.data" ] && tail -n1 "$r/meta.txt" | grep -qx 'status=complete'; then
		complete=$((complete + 1))
		res=$(sed -n 's/^result=//p' "$r/meta.txt")
		unit=$(sed -n 's/^result_unit=//p' "$r/meta.txt")
		lost=$(sed -n 's/^lost_chunks=//p' "$r/meta.txt")
		lost_s=$(sed -n 's/^lost_samples=//p' "$r/meta.txt")
		msg "  run-$k: $res $unit (lost: $lost chunk(s), $lost_s sample(s))"
		# The recorded kernel against what the variant declares: the fragments given
		# (FRAGMENTS=, a built kernel's), the boot arguments given or read from its name.
		# The profile's default fragments describe a comparable build, not this kernel:
		# a variant that declares nothing is a label (variant_check=label).
		vc=0
		"$TS_TOP/boards/lib/variant-check.sh" "$r" "${V_FRAGMENTS:-}" "$boot_args" \
			>"$r/variant-check.txt" 2>&1 || vc=$?
		case $vc in
		0) ! grep -qx 'variant_check=label' "$r/meta.txt" || labels=$((labels + 1)) ;;
		1)
			msg "  run-$k: WARNING: the recorded kernel is not variant '$variant'" \
				"($(wc -l <"$r/variant-check.txt") mismatch(es), in meta.txt):"
			sed 's/^/    /' "$r/variant-check.txt" >&2
			;;
		*) msg "  run-$k: variant not checked: $(head -1 "$r/variant-check.txt")" ;;
		esac
		if [ "$lost" != 0 ] || [ "$lost_s" != 0 ]; then
			msg "  run-$k: WARNING: events were lost: raise MMAP (now $mmap)"
		fi
	elif [ -d "$r.failed" ]; then
		msg "  run-$k: FAILED: $(sed -n 's/^failure=//p' "$r.failed/meta.txt")"
	else
		msg "  run-$k: missing"
	fi
done
# once, not once a run: they all have the same variant
[ "$labels" = 0 ] || msg "variant '$variant' is a label: it declares no fragments or boot" \
	"arguments, so the recorded kernel was not checked against it ($labels run(s);" \
	"give FRAGMENTS= or BOOT_ARGS= to have it checked)"
el=$(($(now_s) - t_start))
# From here on, what is in $new is kept if this stops: the new runs, then the earlier ones.
keep_new=1

# move_in: the new run folders (and the probes' record) into dest, where nothing stands now.
move_in() {
	for r in "$new"/run-*; do
		[ -d "$r" ] || continue
		[ ! -e "$dest/${r##*/}" ] && [ ! -L "$dest/${r##*/}" ] ||
			die "$dest/${r##*/} appeared during the recording: the new runs stay in $new"
		mv "$r" "$dest/" || die "cannot move $r into $dest"
	done
	rm -f "$dest/kprobes.txt"
	[ ! -f "$new/kprobes.txt" ] || mv "$new/kprobes.txt" "$dest/"
}
if [ "$complete" -ne "$runs" ] || [ "$rc" != 0 ]; then
	if [ "$mine" = 0 ]; then
		# nothing earlier to keep: the runs go in place as they are (run-<k>.failed says why)
		move_in
		rm -rf "$new"
		die "$complete of $runs run(s) complete in $dest (${el}s)"
	fi
	kept=$dest/failed-$(date -u +%Y%m%dT%H%M%SZ)
	[ ! -e "$kept" ] || kept=${new%/*}/failed-${new##*.}
	mv "$new" "$kept" || kept=$new
	die "$complete of $runs run(s) complete (${el}s): the $mine earlier run folder(s) in $dest" \
		"are kept as they were; this recording's are in $kept"
fi
# Every run complete: the earlier runs of ours go aside, the new ones in, then the old are deleted.
if [ "$mine" != 0 ]; then
	msg "replacing $mine earlier run folder(s) in $dest"
	mkdir "$new/replaced" || die "cannot create $new/replaced"
	for e in "$dest"/run-*; do
		! run_is_ours "$e" || mv "$e" "$new/replaced/" || die "cannot move $e aside"
	done
fi
move_in
rm -rf "$new"
[ "$others" = 0 ] || msg "note: leaving $others run-* entr(y/ies) in $dest that no" \
	"recording of ours wrote"
msg "$runs run(s) complete in $dest (${el}s)"
