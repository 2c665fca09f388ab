#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# `make lava-jobs`: writes one LAVA job definition per variant batch of an experiment, the
# variants interleaved as make experiment records them (in each batch an order shuffled from
# SEED, or A B). Submission is the user's lavacli.
set -eu
TS_PROG=lava-jobs
. "$(dirname "$0")/../lib/common.sh"
. "$TS_TOP/boards/lava/lib.sh"

usage() {
	cat <<'USAGE'
Usage: boards/lava/jobs.sh VAR=value...  (what `make lava-jobs VAR=value...` runs)

  EXPERIMENT   an experiment file (boards/lava/experiments/NAME.exp, or a path; the
               settings.txt of a make experiment folder works too)
  DEVICE_TYPE  a LAVA device type of boards/lava/device-types/: qemu, hi1215
  KERNELS      the kernels file: <flavour>.kernel=URL, <flavour>.ramdisk=URL and, for tftp
               boards, <flavour>.dtb=URL (flavour: generic or rt); optional
               <flavour>.kernel_sha256=HASH (default: results/lava/kernels-<DEVICE_TYPE>.txt,
               which `make lava-ramdisk` writes for the qemu type)
  UPLOAD_URL   where the boards upload their run folders (HTTP POST of a .tar.gz to
               UPLOAD_URL/<file>); written into each job as the secret TS_UPLOAD_URL
  UPLOAD_TOKEN optional: sent as "Authorization: Bearer TOKEN" (secret TS_UPLOAD_TOKEN)
  RUNS         runs per variant (default: the experiment's runs=, else 5)
  RUNS_PER_JOB runs recorded in one boot (default 1: one job per variant per batch)
  TRACES       1: the boards upload each run's perf.data (and kallsyms, kconfig) with its
               summary; 0: the summary and the small files only (default: the
               experiment's traces=, else 0)
  ORDER        shuffled (default): the variants' order in each batch is drawn from SEED, as
               make experiment draws it, so that the farm's drift in step with the batches
               falls on both variants alike; fixed: A B in every batch
  SEED         the shuffle's seed, a number below 2^32 (default: the seed of the jobs.txt
               an earlier lava-jobs wrote in OUT, else drawn); written in jobs.txt
  OUT          the jobs folder (default results/lava/<experiment name>/jobs)

Writes OUT/NNN-<name>-b<batch>-<variant>.yaml (submit them in name order: each batch's
variants in its drawn order, A B or B A) and OUT/jobs.txt (one line per job, naming the
order and seed). Every input is checked before any file is written. OUT may
hold other files: they stay. The jobs an earlier lava-jobs wrote there (its jobs.txt) are
replaced; a jobs.txt or NNN-*.yaml it did not write is refused, nothing removed.
USAGE
}

VARS="EXPERIMENT DEVICE_TYPE KERNELS UPLOAD_URL UPLOAD_TOKEN RUNS RUNS_PER_JOB TRACES ORDER SEED
OUT"
parse_vars "$@"

# The device type.
dtdir=$TS_TOP/boards/lava/device-types
dtype=${V_DEVICE_TYPE:-}
known=$(ls "$dtdir" | sed -n 's/\.conf$//p' | tr '\n' ' ' | sed 's/ $//')
[ -n "$dtype" ] || die "DEVICE_TYPE= is required (one of: $known)"
[ -f "$dtdir/$dtype.conf" ] || die "unknown device type '$dtype' (known: $known)"
kv_load "$dtdir/$dtype.conf" D_ || die "bad device type file $dtdir/$dtype.conf"
# Its board's profile, read as every script reads one (boards/lib/common.sh): kv_get took
# the later of two values, kept a CRLF's carriage return and let a typo or a quote through.
profile_load "${D_BOARD:-}" || exit 1

# The experiment.
ex=${V_EXPERIMENT:-}
[ -n "$ex" ] || die "EXPERIMENT= is required (boards/lava/experiments/NAME.exp or a path)"
case "$ex" in */*) ;; *) ex=$TS_TOP/boards/lava/experiments/$ex.exp ;; esac
[ -f "$ex" ] || die "no experiment file $ex"
kv_load "$ex" E_ || die "bad experiment file $ex"
[ -n "${E_workload:-}" ] || die "$ex: no workload="
case "$E_workload" in
pingpong | pingpong-same | pingpong-cross | pingpong-delay | stress-ramfs) ;;
*) die "$ex: unknown workload '$E_workload' (pingpong, pingpong-same, pingpong-cross," \
	"pingpong-delay, stress-ramfs)" ;;
esac
# The figures of the experiment go into the board's command line as they are (pasted, not
# quoted): bounded here as record.sh bounds them, before anything is written.
[ -z "${E_iters:-}" ] || check_range "$ex: iters" "$E_iters" 1 100000000
[ -z "${E_warmup:-}" ] || check_range "$ex: warmup" "$E_warmup" 0 100000000
[ -z "${E_delay_us:-}" ] || check_range "$ex: delay_us" "$E_delay_us" 0 10000000
[ -z "${E_workers:-}" ] || check_range "$ex: workers" "$E_workers" 1 4096
[ -z "${E_duration:-}" ] || check_range "$ex: duration" "$E_duration" 1 86400
[ -z "${E_mmap:-}" ] || expr "$E_mmap" : '[1-9][0-9]*[BKMGbkmg]\{0,1\}$' >/dev/null ||
	die "$ex: mmap '$(printf '%s' "$E_mmap" | tr -c '[:print:]' '?')' is not a size (16M, 1024)"
# callchains as record.sh takes it (a make experiment settings.txt has the user's yes); the
# board's ts-record.sh takes only 1 for -g
case "${E_callchains:-}" in
'') ;;
1 | y | yes) E_callchains=1 ;;
0 | n | no) E_callchains=0 ;;
*) die "$ex: callchains must be 1, y, yes, 0, n or no" ;;
esac
case "${E_recorder:-auto}" in
auto | perf | tickscope) ;;
*) die "$ex: recorder must be auto, perf or tickscope" ;;
esac
case "${E_events:-}" in
*\'* | *[[:cntrl:]]*) die "$ex: events holds a quote or a control character" ;;
esac
name=${E_name:-$(basename "$ex" .exp)}
[ "$name" != settings.txt ] || name=$(basename "$(dirname "$ex")")
check_name "$ex: name" "$name"
[ -n "${E_a:-}" ] && [ -n "${E_b:-}" ] || die "$ex: a= and b= (the two variants) are required"
runs=${V_RUNS:-${E_runs:-5}}
per=${V_RUNS_PER_JOB:-1}
check_count RUNS "$runs" 1
check_count RUNS_PER_JOB "$per" 1
order_check
traces=${V_TRACES:-${E_traces:-0}}
case "$traces" in 0 | 1) ;; *) die "TRACES (or the experiment's traces=) must be 0 or 1, not '$traces'" ;; esac

variant_parse "$E_a" "$ex: a" || exit 1
a_name=$v_name a_kernel=$v_kernel a_args=$v_args
variant_parse "$E_b" "$ex: b" || exit 1
b_name=$v_name b_kernel=$v_kernel b_args=$v_args
[ "$a_name" != "$b_name" ] || die "$ex: a and b are the same variant ($a_name)"
check_name "$ex: a" "$a_name"
check_name "$ex: b" "$b_name"

# The kernels of this device type: every variant's flavour needs one.
kf=${V_KERNELS:-$TS_TOP/results/lava/kernels-$dtype.txt}
[ -f "$kf" ] || die "no kernels file $kf for device type $dtype (KERNELS=; see --help)"
for vk in "$a_name:$a_kernel" "$b_name:$b_kernel"; do
	fl=${vk#*:}
	need="kernel ramdisk"
	[ "$D_DEPLOY" != tftp ] || need="$need dtb"
	for what in $need; do
		[ -n "$(kv_get "$kf" "$fl.$what")" ] || die "variant '${vk%%:*}' has no $fl kernel" \
			"for device type $dtype: no $fl.$what= in $kf"
	done
done

# The secret: where the runs go.
[ -n "${V_UPLOAD_URL:-}" ] || die "UPLOAD_URL= is missing: the URL the boards upload their" \
	"run folders to (a job secret; nothing is uploaded anywhere by default)"
case "$V_UPLOAD_URL" in
http://* | https://*) ;;
*) die "UPLOAD_URL '$V_UPLOAD_URL' is not an http:// or https:// URL" ;;
esac

# A YAML scalar holds no newline a board would read back: control characters are refused.
check_path UPLOAD_URL "$V_UPLOAD_URL"
check_path UPLOAD_TOKEN "${V_UPLOAD_TOKEN:-}"
out=${V_OUT:-$TS_TOP/results/lava/$name/jobs}
check_path OUT "$out"
# OUT may be a folder of the user's: only the jobs an earlier lava-jobs wrote there (the names
# its jobs.txt lists) are replaced; a jobs.txt or NNN-*.yaml it did not write stops us before
# anything is written or removed (the user's job files were deleted), other files stay.
[ ! -e "$out" ] || [ -d "$out" ] || die "OUT=$out: not a folder; give a new or empty folder"
ours=""
# a job's line ends with the order it was written in (before session 24: nothing)
order_re='\( order=fixed\)\{0,1\}\( order=shuffled seed=[0-9]*\)\{0,1\}'
if [ -e "$out/jobs.txt" ] || [ -L "$out/jobs.txt" ]; then
	bad=1
	if [ -f "$out/jobs.txt" ] && [ ! -L "$out/jobs.txt" ] && [ -s "$out/jobs.txt" ]; then
		bad=$(sed 's/ variant=[^ ]* kernel=[^ ]* first_run=[0-9]* runs=[0-9]*'"$order_re"'$//' \
			"$out/jobs.txt" | grep -cv "^[0-9][0-9][0-9]-[$TS_NAME_CHARS]*\.yaml$" || true)
	fi
	[ "$bad" = 0 ] || die "OUT=$out holds a jobs.txt that lava-jobs did not write: nothing" \
		"is removed; give a new or empty folder"
	ours=$(cut -d' ' -f1 "$out/jobs.txt")
	# no SEED given: the jobs written again in the order of those they replace
	[ "$order" != shuffled ] || [ -n "$seed" ] ||
		seed=$(sed -n 's/.* order=shuffled seed=\([0-9]*\)$/\1/p' "$out/jobs.txt" | head -n 1)
fi
for f in "$out"/[0-9][0-9][0-9]-*.yaml; do
	[ -e "$f" ] || [ -L "$f" ] || continue
	printf '%s\n' "$ours" | grep -qxF "$(basename "$f")" ||
		die "OUT=$out: $(basename "$f") is not a job lava-jobs wrote (its jobs.txt does not" \
			"list it): nothing is removed; give a new or empty folder"
done
make_dir "$out"
for f in $ours; do
	rm -f "$out/$f"
done
rm -f "$out/jobs.txt"
. "$TS_TOP/boards/lava/job-yaml.sh"

# Batches: each job records RUNS_PER_JOB runs of one variant; batch i's variants go in
# batch_sides' order (make experiment's), A B with ORDER=fixed.
sides="A B"
how=" order=fixed"
if [ "$order" = shuffled ]; then
	[ -n "$seed" ] || seed=$(order_seed_draw)
	how=" order=shuffled seed=$seed"
fi
seq_no=0
k=1
i=0
while [ "$k" -le "$runs" ]; do
	n=$per
	[ $((k + n - 1)) -le "$runs" ] || n=$((runs - k + 1))
	i=$((i + 1))
	for ab in $(batch_sides "$i" | tr AB ab); do
		eval "v=\$${ab}_name vk=\$${ab}_kernel va=\$${ab}_args"
		seq_no=$((seq_no + 1))
		f=$out/$(printf %03d "$seq_no")-$name-b$k-$v.yaml
		job_yaml "$v" "$vk" "$va" "$k" "$n" >"$f.tmp"
		mv "$f.tmp" "$f"
		echo "$(basename "$f") variant=$v kernel=$vk first_run=$k runs=$n$how" >>"$out/jobs.txt"
	done
	k=$((k + n))
done
msg "wrote $seq_no job(s) for $dtype into $out in$how (submit in name order;" \
	"boards/lava/README.md)"
