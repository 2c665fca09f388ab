#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# make check-lava: LAVA's own dispatcher (lava-run, no server) runs generated qemu jobs that
# boot the emulated aarch64 board's Debian kernel and record real runs, each summarised on the
# board by its static aarch64 tickscope; the run folders (the first batch with summaries alone,
# as by default, the second with their traces too: TRACES=1) come back through the upload
# secret to a receiver on 127.0.0.1 and go into lava-collect. The board's summaries must be
# the ones compare computes here from the traces.
. "$(dirname "$0")/lib/tap.sh"
[ "${TS_CHECK_LAVA:-0}" = 1 ] || skip_all "boots qemu under lava-run for minutes: make check-lava"
command -v lava-run >/dev/null || skip_all "no lava-run (Debian lava-dispatcher, boards/packages)"
command -v qemu-system-aarch64 >/dev/null || skip_all "no qemu-system-aarch64"
command -v busybox >/dev/null || skip_all "no busybox (the upload receiver is busybox httpd)"
[ -x "$TICKSCOPE" ] || skip_all "no $TICKSCOPE (make all)"
[ -x "$TS_BUILD/workloads-arm64/pingpong" ] || skip_all "no arm64 pingpong (make workloads-arm64)"
[ -x "$TS_BUILD/workloads-arm64/tickscope" ] || skip_all "no static aarch64 tickscope (make tickscope-arm64)"
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
part=$tmp/in/\$name.part
head -c "\${CONTENT_LENGTH:-0}" >"\$part"
got=\$(wc -c <"\$part")
# a body cut short is refused, not stored as the whole archive; up.log says what came
if [ "\$got" = "\${CONTENT_LENGTH:-0}" ] && mv "\$part" "$tmp/in/\$name"; then
	echo "\$name: stored, \$got bytes" >>"$tmp/up.log"
	printf 'Status: 201 Created\r\nContent-Type: text/plain\r\n\r\nstored %s\n' "\$name"
else
	echo "\$name: refused, \$got of \${CONTENT_LENGTH:-?} bytes" >>"$tmp/up.log"
	printf 'Status: 500 Internal Server Error\r\n\r\n'
fi
EOF
: >"$tmp/up.log"
chmod 755 "$tmp/www/cgi-bin/up"
# A port is this test's when its receiver serves this test's own file: another test's receiver
# may hold the port (its httpd then exits), and a loaded machine may start ours late. No fixed
# sleep decides it; the hang guard bounds the wait.
port=""
echo "tickscope lava-qemu.t $$ $t0" >"$tmp/www/whoami"
for p in 18917 28917 38917 48917; do
	busybox httpd -f -p "127.0.0.1:$p" -h "$tmp/www" 2>"$tmp/httpd.err" &
	hpid=$!
	w=0
	while kill -0 "$hpid" 2>/dev/null && [ $w -lt $((TS_HANG_GUARD * 5)) ]; do
		if [ "$(busybox wget -q -O - "http://127.0.0.1:$p/whoami" 2>/dev/null)" = \
			"$(cat "$tmp/www/whoami")" ]; then
			port=$p
			break 2
		fi
		sleep 0.2
		w=$((w + 1))
	done
	kill "$hpid" 2>/dev/null
	wait "$hpid" 2>/dev/null
done
[ -n "$port" ] || skip_all "no free port for the receiver ($(cat "$tmp/httpd.err"))"
# TS_LAVA_KEEP=DIR: a copy of this test's folder (the jobs' logs, what arrived) is left there
trap 'kill "$hpid" 2>/dev/null; [ -z "${TS_LAVA_KEEP:-}" ] || cp -a "$tmp" "$TS_LAVA_KEEP"
	rm -rf "$tmp"' EXIT

# 3. The jobs: 2 runs of default and nohz-off, one boot each, interleaved; batch 1 from the
# default jobs (summaries travel), batch 2 from TRACES=1 ones (the traces too). The guest
# reaches the host's 127.0.0.1 as 10.0.2.2 (qemu user networking in the device dictionary).
for t in 0 1; do
	"$TS_TOP/boards/lava/jobs.sh" EXPERIMENT=pingpong-nohz DEVICE_TYPE=qemu RUNS=2 TRACES=$t \
		KERNELS="$tmp/lava/kernels-qemu.txt" UPLOAD_URL="http://10.0.2.2:$port/cgi-bin/up" \
		OUT="$tmp/jobs$t" 2>"$tmp/jobs.log"
	ok $? "lava-jobs writes the jobs (TRACES=$t)"
done
is "$(ls "$tmp/jobs0"/*.yaml | wc -l)" 4 "four jobs: each batch A B or B A"
mkdir -p "$tmp/jobs"
cp "$tmp"/jobs0/*-b1-*.yaml "$tmp"/jobs1/*-b2-*.yaml "$tmp/jobs/"

# 4. lava-run the jobs of a batch at once, each with its own --job-id; with the first batch, a
# copy of job 1 whose upload goes to a path the receiver refuses (404). Every case is checked:
# LAVA leaves a job "pass" when one of its cases fails.
sed "s|^  TS_UPLOAD_URL: .*|  TS_UPLOAD_URL: 'http://10.0.2.2:$port/cgi-bin/nothing-here'|" \
	"$tmp/jobs/"00[12]-pingpong-nohz-b1-default.yaml >"$tmp/badup.yaml"
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
# What a job said, for its failed checks, on stderr (prove shows that without -v, not a diag):
# its cases, then LAVA's warnings and errors and the board's console from the recorder's start
# on (ts-record's and ts-lava-run's lines, and the kernel's among them; without the recorder, the
# console's last 30 lines), then what the receiver stored and said.
job_story() {
	{
		echo "#   $1: lava-run exit status $(cat "$tmp/$1.rc"); its cases (results.sh):" \
			"$(tr '\n' ';' <"$tmp/$1.cases")"
		sed -n 's/^{"dt": "[^"T]*T\([0-9:]*\)[^"]*", "lvl": "\([a-z]*\)", "msg": /\1 \2 /p' \
			"$tmp/$1.log" | awk '$2 == "target" && / ts-lava-run\.sh / { on = 1 }
				$2 ~ /^(warning|error|exception)$/ || ($2 == "target" && on) { print; next }
				$2 == "target" { t[++n % 30] = $0 }
				END { for (i = n - 29; !on && i <= n; i++) if (i > 0) print t[i % 30] }' |
			tail -n 80 | cut -c1-300 | sed "s/^/#   $1: /"
		echo "#   the receiver stored: $(tr '\n' ';' <"$tmp/up.log")"
		sed "s/^/#   the receiver said: /" "$tmp/httpd.err"
	} >&2
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
	# shellcheck disable=SC2154 # tap.sh's count of failed tests: this job's checks come next
	nf=$_tap_failed
	job_passed "$b"
	ok $? "$b: lava-run passes the job"
	"$TS_TOP/boards/lava/results.sh" "$tmp/$b.log" >"$tmp/$b.cases"
	grep -Eq "^$v-run-$r pass [0-9]+\.[0-9]+ us_per_round_trip\$" "$tmp/$b.cases"
	ok $? "$b: $v run $r reported with its measurement: $(head -n1 "$tmp/$b.cases")"
	grep -qx "upload-$v pass - -" "$tmp/$b.cases" && grep -qx "runs-$v pass - -" "$tmp/$b.cases"
	ok $? "$b: the run folder was uploaded and referenced"
	grep -Eq "^$v-run-$r-summary pass [0-9.]+ s\$" "$tmp/$b.cases"
	ok $? "$b: the board computed the run's summary: $(grep -- "-summary " "$tmp/$b.cases")"
	[ "$_tap_failed" = "$nf" ] || job_story "$b"
	sed -n 's/^[^ ]* pass \([0-9.]*\) us_per_round_trip$/\1/p' "$tmp/$b.cases" >>"$tmp/lava-$v.txt"
done
"$TS_TOP/boards/lava/results.sh" "$tmp/badup.log" >"$tmp/badup.cases"
job_passed badup && grep -qx "upload-default fail - -" "$tmp/badup.cases" &&
	grep -Eq "^default-run-1 pass [0-9.]+ " "$tmp/badup.cases" && ! grep -q "^runs-" "$tmp/badup.cases"
ok $? "a refused upload: the job still passes, its upload case fails (results.sh shows it)"
n=$(ls "$tmp/in"/*.tar.gz 2>/dev/null | wc -l)
is "$n" 4 "four archives arrived at the receiver"
[ "$n" = 4 ] || echo "#   the receiver: $(tr '\n' ';' <"$tmp/up.log") $(cat "$tmp/httpd.err")" >&2

# 5. lava-collect: every run kept, and compare's per-run results are what LAVA reported.
"$TS_TOP/boards/lava/collect.sh" IN="$tmp/in" EXPERIMENT=pingpong-nohz OUT="$tmp/c" \
	TICKSCOPE="$TICKSCOPE" >"$tmp/collect.log" 2>&1
ok $? "lava-collect compares the uploaded runs"
is "$(grep -c '^kept' "$tmp/c/runs.tsv")" 4 "all four runs kept (runs.tsv)"
is "$(awk -F'\t' '$1 == "kept" { sub(".*/", "", $4); print $4 ":" $6 }' "$tmp/c/runs.tsv" |
	sort | tr '\n' ' ')" "run-1:summary run-1:summary run-2:trace run-2:trace " \
	"compare read batch 1 from the board's summaries alone, batch 2 from the traces"
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
runs=$(awk -F'\t' '$1 == "kept" { print $4 }' "$tmp/c/runs.tsv")
for r in $(echo "$runs" | grep '/run-1$'); do
	[ -s "$r/perf.data.tsum" ] && [ -s "$r/perf.data.tplot" ] && [ ! -e "$r/perf.data" ] &&
		[ ! -e "$r/kallsyms" ] && [ ! -e "$r/kconfig" ]
	ok $? "$(basename "$(dirname "$r")") run-1 came as its summary and chart data, no trace"
done

bad=""
for r in $runs; do
	[ "$(sed -n 2p "$r/perf.data.tsum" | cut -f2,3)" = \
		"$(sed -n 's/^perf_data_sha256=//p' "$r/meta.txt")	$(sed -n 's/^perf_data_size=//p' "$r/meta.txt")" ] ||
		bad="$bad $r"
done
is "$bad" "" "every summary names its trace as busybox sha256sum and wc -c did on the board"

# 6. The board's summaries (static aarch64 tickscope, under TCG) against the ones computed
# here from the same traces (the host's tickscope): the same metrics, the same values up to
# rounding (aarch64 may fuse a multiply and an add that x86 rounds twice).
for r in $(echo "$runs" | grep '/run-2$'); do
	v=$(basename "$(dirname "$r")")
	mkdir -p "$tmp/here/$v"
	cp -a "$r" "$tmp/here/$v/"
	h=$tmp/here/$v/run-2
	rm "$h/perf.data.tsum" "$h/perf.data.tplot"
	"$TICKSCOPE" summary "$h" >/dev/null 2>"$tmp/here.err"
	ok $? "$v run-2: tickscope summary here, from the trace the board sent"
	diff=$(awk -F'\t' 'NR == FNR { if ($1 == "m") a[$2] = $6; else if ($1 == "trace") t = $2; next }
		$1 == "trace" { if ($2 != t) bad = bad " trace" }
		$1 == "m" {
			n++
			if (!($2 in a)) { bad = bad " +" $2; next }
			x = a[$2]; y = $6; delete a[$2]
			if (x == y) next
			d = (x - y) / (y < 0 ? -y : y)
			d = d < 0 ? -d : d
			if (d > 1e-9 || x != x + 0) bad = bad " " $2 "=" x "/" y
			if (d > max) max = d
		}
		END { for (k in a) bad = bad " -" k; printf "%d %g%s", n, max, bad }' \
		"$r/perf.data.tsum" "$h/perf.data.tsum")
	set -- $diff
	[ "$#" = 2 ] && [ "$1" -gt 100 ]
	ok $? "$v run-2: the board's summary is the one computed here ($1 metrics, largest relative difference $2)"
	[ "$#" = 2 ] || diag "differences:$(echo "$diff" | cut -d' ' -f3- | cut -c1-400)"
done

# Figures for docs/scale.md: what travels, the summary's cost on the board and here.
for k in summary trace; do
	pat=run1-1
	[ $k = summary ] || pat=run2-2
	diag "archives with $k: $(du -b "$tmp/in"/*"$pat".tar.gz | awk '{ printf "%s%d", (NR > 1 ? ", " : ""), $1 }') bytes"
done
diag "summary on the board (summary_s, TCG): $(echo "$runs" | sed 's|$|/meta.txt|' |
	xargs sed -n 's/^summary_s=//p' | tr '\n' ' ')s; .tsum $(echo "$runs" |
	sed 's|$|/perf.data.tsum|' | xargs du -b | awk '{ printf "%d ", $1 }')bytes, .tplot $(echo "$runs" |
	sed 's|$|/perf.data.tplot|' | xargs du -b 2>/dev/null | awk '{ printf "%d ", $1 }')bytes;" \
	"perf.data $(echo "$runs" | sed 's|$|/meta.txt|' | xargs sed -n 's/^perf_data_size=//p' |
	tr '\n' ' ')bytes"
diag "the same summaries here (CPU s, user+sys): $(for h in "$tmp"/here/*/run-2; do
	rm -f "$h/perf.data.tsum"
	/usr/bin/time -f '%U %S' "$TICKSCOPE" summary "$h" 2>&1 >/dev/null | tail -n1 |
		awk '{ printf "%.2f ", $1 + $2 }'
done)"
diag "compare of the 4 runs from their summaries (CPU s): $(/usr/bin/time -f '%U %S' \
	"$TICKSCOPE" compare $(echo "$runs" | grep /default/) -- $(echo "$runs" | grep /nohz-off/) \
	2>&1 >/dev/null | tail -n1 | awk '{ printf "%.2f", $1 + $2 }')"
for j in "$tmp"/jobs/*.yaml; do
	b=$(basename "$j" .yaml)
	diag "$b stages: $(grep -o '"msg": "end: [0-9] [a-z-]* (duration [0-9:]*)' "$tmp/$b.log" |
		sed 's/.*end: [0-9] \([a-z-]*\) (duration \([0-9:]*\))/\1 \2/' | tr '\n' ',' | sed 's/,$//')"
	diag "$b board: $(grep -o 'ts-record: run [0-9]*: done in [0-9.]* s[^"]*' "$tmp/$b.log" | head -n1)"
done
diag "check-lava took $(($(date +%s) - t0)) s"
tap_done
