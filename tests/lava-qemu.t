#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make check-lava: LAVA's own dispatcher (lava-run, no server) runs generated qemu jobs that
# boot the emulated aarch64 board's Debian kernel and record real runs; the run folders come
# back through the upload secret to a receiver on 127.0.0.1 and go into lava-collect.
. "$(dirname "$0")/lib/tap.sh"
[ "${TS_CHECK_LAVA:-0}" = 1 ] || skip_all "boots qemu under lava-run for minutes: make check-lava"
command -v lava-run >/dev/null || skip_all "no lava-run (Debian lava-dispatcher, boards/packages)"
command -v qemu-system-aarch64 >/dev/null || skip_all "no qemu-system-aarch64"
command -v busybox >/dev/null || skip_all "no busybox (the upload receiver is busybox httpd)"
[ -x "$TICKSCOPE" ] || skip_all "no $TICKSCOPE (make all)"
[ -x "$TS_BUILD/workloads-arm64/pingpong" ] || skip_all "no arm64 pingpong (make workloads-arm64)"
[ "$(id -u)" = 0 ] || skip_all "lava-run needs root"
tap_tmpdir
tmp=$TAP_TMP
t0=$(date +%s)

# 1. The LAVA ramdisk: one cpio archive.
BUILD=$TS_BUILD "$TS_TOP/boards/lava/ramdisk.sh" --workloads "$TS_BUILD/workloads-arm64" \
	--out "$tmp/lava" >"$tmp/rd.log" 2>&1
ok $? "lava-ramdisk builds the ramdisk and the kernels file"
rd=$tmp/lava/qemu-aarch64-generic-lava.cpio.gz
# a newc header: 070701, 13 fields of 8 hex digits, then the name (busybox holds the bare string)
n=$(gzip -dc "$rd" | grep -a -o '070701[0-9A-Fa-f]\{104\}TRAILER!!!' | wc -l)
is "$n" 1 "the ramdisk is one cpio archive (one TRAILER!!! entry)"

# 2. The receiver: busybox httpd with a CGI that stores each POST under its name.
mkdir -p "$tmp/www/cgi-bin" "$tmp/in"
cat >"$tmp/www/cgi-bin/up" <<EOF
#!/bin/sh
name=\${PATH_INFO##*/}
case "\$name" in '' | .*) printf 'Status: 400 Bad Request\r\n\r\n'; exit 0 ;; esac
head -c "\${CONTENT_LENGTH:-0}" >"$tmp/in/\$name.part" && mv "$tmp/in/\$name.part" "$tmp/in/\$name"
printf 'Status: 201 Created\r\nContent-Type: text/plain\r\n\r\nstored %s\n' "\$name"
EOF
chmod 755 "$tmp/www/cgi-bin/up"
port=""
for p in 18917 28917 38917 48917; do
	if busybox httpd -f -p "127.0.0.1:$p" -h "$tmp/www" 2>"$tmp/httpd.err" & then
		hpid=$!
		sleep 0.5
		kill -0 "$hpid" 2>/dev/null && { port=$p; break; }
	fi
done
[ -n "$port" ] || skip_all "no free port for the receiver ($(cat "$tmp/httpd.err"))"
trap 'kill "$hpid" 2>/dev/null; rm -rf "$tmp"' EXIT

# 3. The jobs: 2 runs of default and nohz-off, one boot each, interleaved. The guest reaches
# the host's 127.0.0.1 as 10.0.2.2 (qemu user networking in the device dictionary).
"$TS_TOP/boards/lava/jobs.sh" EXPERIMENT=pingpong-nohz DEVICE_TYPE=qemu RUNS=2 \
	KERNELS="$tmp/lava/kernels-qemu.txt" UPLOAD_URL="http://10.0.2.2:$port/cgi-bin/up" \
	OUT="$tmp/jobs" 2>"$tmp/jobs.log"
ok $? "lava-jobs writes the jobs"
is "$(ls "$tmp/jobs"/*.yaml | wc -l)" 4 "four jobs: A B A B"

# 4. lava-run the jobs of a batch at once, each with its own --job-id; with the first batch, a
# copy of job 1 whose upload goes to a path the receiver refuses (404). Every case is checked:
# LAVA leaves a job "pass" when one of its cases fails.
sed "s|^  TS_UPLOAD_URL: .*|  TS_UPLOAD_URL: 'http://10.0.2.2:$port/cgi-bin/nothing-here'|" \
	"$tmp/jobs/001-pingpong-nohz-b1-default.yaml" >"$tmp/badup.yaml"
id=$(($$ * 10))
lava_job() {
	lava-run --device "$TS_TOP/boards/lava/devices/qemu-aarch64.yaml" --job-id "$2" \
		--output-dir "$tmp/out/$2" "$1" >"$tmp/$(basename "$1" .yaml).log" 2>&1
	echo $? >"$tmp/$(basename "$1" .yaml).rc"
}
job_passed() {
	grep '"lvl": "results"' "$tmp/$1.log" |
		grep -q '"case": "job", "definition": "lava", "result": "pass"' && [ "$(cat "$tmp/$1.rc")" = 0 ]
}
for batch in 1 2; do
	s=$(date +%s)
	set --
	for j in "$tmp/jobs"/*-b$batch-*.yaml; do
		id=$((id + 1))
		lava_job "$j" "$id" &
		set -- "$@" $!
	done
	if [ $batch = 1 ]; then
		id=$((id + 1))
		lava_job "$tmp/badup.yaml" "$id" &
		set -- "$@" $!
	fi
	wait "$@"
	diag "batch $batch: $# lava-run jobs at once took $(($(date +%s) - s)) s"
done
for j in "$tmp/jobs"/*.yaml; do
	b=$(basename "$j" .yaml)
	v=$(sed -n "s/^  tickscope.variant: '\(.*\)'/\1/p" "$j")
	r=$(sed -n 's/^  tickscope.first_run: //p' "$j")
	job_passed "$b"
	ok $? "$b: lava-run passes the job"
	"$TS_TOP/boards/lava/results.sh" "$tmp/$b.log" >"$tmp/$b.cases"
	grep -Eq "^$v-run-$r pass [0-9]+\.[0-9]+ us_per_round_trip\$" "$tmp/$b.cases"
	ok $? "$b: $v run $r reported with its measurement: $(head -n1 "$tmp/$b.cases")"
	grep -qx "upload-$v pass - -" "$tmp/$b.cases" && grep -qx "runs-$v pass - -" "$tmp/$b.cases"
	ok $? "$b: the run folder was uploaded and referenced"
	grep -q "$v-run-$r pass" "$tmp/$b.cases" || tail -n 20 "$tmp/$b.log" | sed 's/^/# /'
	sed -n 's/^[^ ]* pass \([0-9.]*\) .*/\1/p' "$tmp/$b.cases" >>"$tmp/lava-$v.txt"
done
"$TS_TOP/boards/lava/results.sh" "$tmp/badup.log" >"$tmp/badup.cases"
job_passed badup && grep -qx "upload-default fail - -" "$tmp/badup.cases" &&
	grep -Eq "^default-run-1 pass [0-9.]+ " "$tmp/badup.cases" && ! grep -q "^runs-" "$tmp/badup.cases"
ok $? "a refused upload: the job still passes, its upload case fails (results.sh shows it)"
is "$(ls "$tmp/in"/*.tar.gz 2>/dev/null | wc -l)" 4 "four archives arrived at the receiver"

# 5. lava-collect: every run kept, and compare's per-run results are what LAVA reported.
"$TS_TOP/boards/lava/collect.sh" IN="$tmp/in" EXPERIMENT=pingpong-nohz OUT="$tmp/c" \
	TICKSCOPE="$TICKSCOPE" >"$tmp/collect.log" 2>&1
ok $? "lava-collect compares the uploaded runs"
is "$(grep -c '^kept' "$tmp/c/runs.tsv")" 4 "all four runs kept (runs.tsv)"
for v in default nohz-off; do
	got=$(awk -F'\t' -v v="$v" '$1 == "kept" && $2 == v { print $4 "/meta.txt" }' \
		"$tmp/c/runs.tsv" | xargs sed -n 's/^result=//p' | awk '{ printf "%.4f\n", $1 }' |
		sort | tr '\n' ' ')
	# LAVA stores a measurement as a number: 6049.6520 comes back as 6049.652
	want=$(awk '{ printf "%.4f\n", $1 }' "$tmp/lava-$v.txt" | sort | tr '\n' ' ')
	is "$got" "$want" "$v: the collected runs' results are LAVA's measurements"
done
grep -q '"nohz-off"' "$tmp/c/compare.json" && grep -q 'nohz-off' "$tmp/c/compare.txt"
ok $? "compare.txt and compare.json name both variants"
# Figures for docs/scale.md: archive sizes, and compare with and without the run summaries.
diag "archives: $(du -k "$tmp/in"/*.tar.gz | awk '{ s += $1 } END { printf "%d KiB for %d runs", s, NR }')"
runs=$(awk -F'\t' '$1 == "kept" { print $4 }' "$tmp/c/runs.tsv")
ms() { date +%s%N | cut -c1-13; }
s=$(ms)
"$TICKSCOPE" compare --no-cache $(echo "$runs" | grep /default/) -- \
	$(echo "$runs" | grep /nohz-off/) >/dev/null 2>&1
m=$(ms)
"$TICKSCOPE" compare $(echo "$runs" | grep /default/) -- $(echo "$runs" | grep /nohz-off/) \
	>/dev/null 2>&1
diag "compare of the 4 runs: $((m - s)) ms computing the summaries, $(($(ms) - m)) ms from" \
	"the cached summaries ($(du -ck $(echo "$runs" | sed 's|$|/perf.data.tsum|') 2>/dev/null |
		tail -n1 | cut -f1) KiB of .tsum)"
diag "check-lava took $(($(date +%s) - t0)) s"
tap_done
