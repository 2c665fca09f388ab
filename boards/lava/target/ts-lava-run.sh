#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The board side of a tickscope LAVA job (busybox sh, inside LAVA's test shell): records runs
# with ts-record.sh, reports each run's result with lava-test-case, uploads the run folders.
set -u

usage() {
	cat <<'USAGE'
Usage: ts-lava-run.sh --experiment NAME --device-type T --variant V --workload W
                      [--first-run K] [--runs N] [--kernel-flavour F] [--kernel-sha256 H]
                      [--traces 0|1] [--retries N]
                      [ts-record.sh options: --events --iters --warmup --delay-us --workers
                       --duration --mmap --callchains --recorder --pin-same --pin-cross]

Records runs K..K+N-1 into $TS_LAVA_DIR/<experiment>/<variant>/ (default /tmp/ts-lava), each
with its summary computed here (ts-record.sh --summary 1: perf.data.tsum and perf.data.tplot,
by the board's tickscope), then for each run: lava-test-case <variant>-run-<k> --measurement
RESULT --units UNIT (fail when the run failed). Packs <experiment>/<variant>/run-*/ into one
.tar.gz: with --traces 0 (the default) without perf.data, kallsyms and kconfig, which only
decoding needs (a run whose summary failed keeps them); with --traces 1 everything. POSTs it
to $TS_UPLOAD_URL/<file>, the job secret (LAVA writes secrets to /lava-<job>/secrets), with
"Authorization: Bearer $TS_UPLOAD_TOKEN" when that secret is set; lava-test-case
upload-<variant> says whether it worked and lava-test-reference points at the file; the case
<variant>-run-<k>-summary whether the run's summary was computed, measured in seconds.
A run ts-record.sh refuses as a damaged trace (one half of an entry/exit pair lost: the
emulated board does this now and then when its host is loaded) is recorded again, up to
--retries times (default 2); its meta.txt says so (refused_attempts=, refused_reason=).
USAGE
}

say() { echo "ts-lava-run: $*" >&2; }
tc() { if command -v lava-test-case >/dev/null 2>&1; then lava-test-case "$@"; else say "case $*"; fi; }

exp="" dtype="" variant="" workload="" first=1 runs=1 flavour=generic ksha="" traces=0 retries=2
pass=""
while [ $# -gt 0 ]; do
	case "$1" in --help | -h) usage; exit 0 ;; esac
	[ $# -ge 2 ] || { say "error: $1 needs a value"; exit 1; }
	case "$1" in
	--experiment) exp=$2 ;;
	--device-type) dtype=$2 ;;
	--variant) variant=$2 ;;
	--workload) workload=$2 ;;
	--first-run) first=$2 ;;
	--runs) runs=$2 ;;
	--kernel-flavour) flavour=$2 ;;
	--kernel-sha256) ksha=$2 ;;
	--traces) traces=$2 ;;
	--retries) retries=$2 ;;
	--events | --iters | --warmup | --delay-us | --workers | --duration | --mmap | \
		--callchains | --recorder | --pin-same | --pin-cross)
		pass="$pass $1 $2" ;;
	*) usage >&2; say "error: unknown argument '$1'"; exit 1 ;;
	esac
	shift 2
done
for v in "$exp" "$dtype" "$variant" "$workload"; do
	[ -n "$v" ] || { usage >&2; say "error: --experiment, --device-type, --variant and --workload are required"; exit 1; }
done
case "$traces" in 0 | 1) ;; *) say "error: --traces: 0 or 1"; exit 1 ;; esac

here=$(cd "$(dirname "$0")" && pwd)
root=${TS_LAVA_DIR:-/tmp/ts-lava}
out=$root/$exp/$variant
job=${LAVA_JOB_ID:-nojob}

# The kernel's identity as this board sees it: release, build string and configuration.
kconf() {
	if [ -r /proc/config.gz ]; then gzip -dc /proc/config.gz
	elif [ -r "/boot/config-$(uname -r)" ]; then cat "/boot/config-$(uname -r)"
	fi
}
khash=$({ uname -r; uname -v; kconf; } | sha256sum | cut -d' ' -f1)

set -f
# shellcheck disable=SC2086
"$here/ts-record.sh" --out "$out" --workload "$workload" --runs "$runs" --first-run "$first" \
	--board "$dtype" --variant "$variant" --summary 1 --retries "$retries" $pass \
	--note "device_type=$dtype" \
	--note "experiment=$exp" --note "lava_job=$job" --note "kernel_flavour=$flavour" \
	--note "kernel_hash=$khash" --note "kernel_image_sha256=${ksha:--}" --note transport=lava
rec_rc=$?
set +f
[ "$rec_rc" = 0 ] || say "ts-record.sh exited with status $rec_rc"

# What travels of a complete run: everything with --traces 1, or when its summary failed (the
# collector then decodes the trace); else all but the trace and what only decoding needs.
k=$first
ok=""
while [ "$k" -lt $((first + runs)) ]; do
	r=$out/run-$k
	if [ -f "$r/meta.txt" ] && tail -n1 "$r/meta.txt" | grep -qx status=complete; then
		tc "$variant-run-$k" --result pass \
			--measurement "$(sed -n 's/^result=//p' "$r/meta.txt")" \
			--units "$(sed -n 's/^result_unit=//p' "$r/meta.txt")"
		sum=ok
		if grep -qx summary=ok "$r/meta.txt"; then
			tc "$variant-run-$k-summary" --result pass \
				--measurement "$(sed -n 's/^summary_s=//p' "$r/meta.txt")" --units s
		else
			sum=$(sed -n 's/^summary=//p' "$r/meta.txt")
			say "run $k: summary ${sum:-missing}: its trace travels"
			tc "$variant-run-$k-summary" --result fail
		fi
		if [ "$traces" = 1 ] || [ "$sum" != ok ]; then
			ok="$ok $variant/run-$k"
		else
			ok="$ok $(cd "$root/$exp" && find "$variant/run-$k" -type f ! -name perf.data \
				! -name kallsyms ! -name kconfig | sort | tr '\n' ' ')"
		fi
	else
		# why, on the console, where LAVA's log keeps it: a failed run does not travel
		if [ -f "$r.failed/meta.txt" ]; then
			say "run $k failed: $(sed -n 's/^failure=//p' "$r.failed/meta.txt")"
			for f in perf-record.log workload.out; do
				[ ! -s "$r.failed/$f" ] || tail -n 5 "$r.failed/$f" |
					sed "s/^/ts-lava-run: run $k: $f: /" >&2
			done
			# the kernel's messages no longer reach the console (init.sh): its last ones
			dmesg 2>/dev/null | tail -n 5 | sed "s/^/ts-lava-run: run $k: dmesg: /" >&2
		else
			say "run $k: no complete run folder (ts-record.sh's lines above say why)"
		fi
		tc "$variant-run-$k" --result fail
	fi
	k=$((k + 1))
done
[ -n "$ok" ] || { tc "upload-$variant" --result skip; exit 1; }

# http_post FILE URL TOKEN: POST FILE as is. curl when the board has it; else busybox nc for
# http:// (busybox wget --post-file stops at the first NUL byte of a binary file).
http_post() {
	if command -v curl >/dev/null 2>&1; then
		set -- -fsS -o /dev/null --data-binary "@$1" -H 'Content-Type: application/gzip' \
			${3:+-H "Authorization: Bearer $3"} "$2"
		curl "$@"
		return
	fi
	case "$2" in http://*) ;; *) say "error: no curl for $2"; return 1 ;; esac
	_hp=${2#http://} _path=/${2#http://*/}
	_hp=${_hp%%/*}
	_host=${_hp%:*} _port=80
	[ "$_hp" = "$_host" ] || _port=${_hp##*:}
	_st=$({
		printf 'POST %s HTTP/1.0\r\nHost: %s\r\nContent-Type: application/gzip\r\n' "$_path" "$_hp"
		[ -z "$3" ] || printf 'Authorization: Bearer %s\r\n' "$3"
		printf 'Content-Length: %s\r\n\r\n' "$(wc -c <"$1")"
		cat "$1"
	} | nc "$_host" "$_port" | head -n1)
	case "$_st" in "HTTP/1."[01]" 2"*) return 0 ;; esac
	say "error: the server answered: ${_st:-nothing}"
	return 1
}

# Publish: one archive per job, named so that jobs never overwrite each other.
sec() { sed -n "s/^$1=//p" /lava-*/secrets 2>/dev/null | head -n1; }
url=${TS_UPLOAD_URL:-$(sec TS_UPLOAD_URL)}
token=${TS_UPLOAD_TOKEN:-$(sec TS_UPLOAD_TOKEN)}
file=$exp-$variant-$dtype-job$job-run$first-$((first + runs - 1)).tar.gz
# shellcheck disable=SC2086
(cd "$root/$exp" && tar czf "$root/$file" $ok)
say "packed $file ($(($(wc -c <"$root/$file") / 1024)) KiB)"
if [ -z "$url" ]; then
	say "error: no TS_UPLOAD_URL secret: the runs stay on the board in $out"
	tc "upload-$variant" --result fail
	exit 1
fi
dest=${url%/}/$file
if http_post "$root/$file" "$dest" "$token"; then
	tc "upload-$variant" --result pass
	if command -v lava-test-reference >/dev/null 2>&1; then
		lava-test-reference "runs-$variant" --result pass --reference "$dest"
	fi
	say "uploaded $file"
else
	say "error: the upload to $dest failed"
	tc "upload-$variant" --result fail
	exit 1
fi
