#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# Boot an emulated board once with a job, show progress, and bring the results back through a
# raw virtio disk. Every fault ends in a clear error: a boot that hangs (timeout), a guest that
# panics, a job that overruns, a disk that does not come back.
set -eu
TS_PROG=boot
. "$(dirname "$0")/../lib/common.sh"

usage() {
	cat <<'USAGE'
Usage: boards/qemu/boot.sh --board B --flavour generic|rt --workloads DIR --job FILE --out DIR
                           [--append ARGS] [--boot-timeout S] [--timeout S] [--keep]
                           [--accel kvm|tcg|auto] [--kernel IMAGE]

Boots the board's Debian kernel (flavour) with the base initramfs plus FILE as /job.sh, the
kernel command line 'console=<QEMU_CONSOLE> rdinit=/init panic=-1' plus ARGS (e.g.
nohz_full=1-7, nohz=off). The guest tars its /results onto a raw disk; they are unpacked into
--out DIR (which must not exist yet; written as DIR.tmp and renamed when complete).
  --boot-timeout S   the guest must reach /init within S seconds (profile BOOT_TIMEOUT)
  --timeout S        the whole boot, job and power-off must end within S seconds
  --accel A          override the profile's QEMU_ACCEL (auto: KVM if usable, else TCG)
  --kernel IMAGE     boot IMAGE (a kernel built by make kernel, drivers built in) instead of
                     the flavour's Debian kernel; the initramfs is the flavour's
  --keep             keep the work folder (console.log, disk.img) even on success
Progress on stderr: "[  12s] ..." lines from the console. The console log is kept in
.cache/boards/runs/<board>-<flavour>-<pid>/console.log and copied to DIR/console.log.
Exit status: 0 when the guest ran the job and it succeeded, 1 otherwise.
USAGE
}

board="" flavour=generic wdir="" job="" out="" append="" boot_to="" total_to="" keep=0 accel="" kimage=""
while [ $# -gt 0 ]; do
	case "$1" in
	--board) board=$2; shift 2 ;;
	--flavour) flavour=$2; shift 2 ;;
	--workloads) wdir=$2; shift 2 ;;
	--job) job=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--append) append=$2; shift 2 ;;
	--boot-timeout) boot_to=$2; shift 2 ;;
	--timeout) total_to=$2; shift 2 ;;
	--keep) keep=1; shift ;;
	--accel) accel=$2; shift 2 ;;
	--kernel) kimage=$2; shift 2 ;;
	--help | -h) usage; exit 0 ;;
	*) usage >&2; die "unknown argument '$1'" ;;
	esac
done
[ -n "$board" ] && [ -n "$job" ] && [ -n "$out" ] || die "--board, --job and --out are required"
[ -r "$job" ] || die "no job file $job"
[ ! -e "$out" ] || die "$out exists already"
profile_load "$board" || exit 1
profile_check || die "bad profile $board"
board=$P_NAME
: "${boot_to:=$P_BOOT_TIMEOUT}"
: "${total_to:=$((boot_to + 600))}"
command -v "$P_QEMU_SYSTEM" >/dev/null || die "$P_QEMU_SYSTEM is not installed (make deps)"

set -- $("$TS_TOP/boards/qemu/mkinitramfs.sh" --board "$P_FILE" --flavour "$flavour" \
	--workloads "$wdir")
[ $# -eq 2 ] || die "mkinitramfs failed"
base=$1 kernel=$2
if [ -n "$kimage" ]; then
	[ -f "$kimage" ] || die "no kernel image $kimage"
	kernel=$kimage
fi

work=$TS_CACHE/runs/$board-$flavour-$$
rm -rf "$work"
mkdir -p "$work/job"
cp "$job" "$work/job/job.sh"
(cd "$work/job" && echo job.sh | cpio -o -H newc --quiet -R 0:0 | gzip -1) >"$work/job.cpio.gz"
# The kernel unpacks concatenated cpio archives in order: the job lands on top of the base.
cat "$base" "$work/job.cpio.gz" >"$work/initrd"
truncate -s "${P_QEMU_DISK_SIZE:-2G}" "$work/disk.img"

accel=$(resolve_accel "${accel:-$P_QEMU_ACCEL}" "$P_ARCH")
cpu=$P_QEMU_CPU
[ "$accel" = kvm ] && cpu=host
cmdline="console=$P_QEMU_CONSOLE rdinit=/init panic=-1${append:+ $append}"
echo "$P_QEMU_SYSTEM -M $P_QEMU_MACHINE -accel $accel -cpu $cpu -smp $P_CPUS -m $P_QEMU_MEM" \
	"-kernel $kernel -initrd $work/initrd -append '$cmdline' -drive ..." |
	sed "s|$TS_TOP/||g" >"$work/qemu-cmd.txt" # paths relative to the project, not this machine
echo "accel=$accel" >"$work/accel"

msg "booting $board ($flavour, $(basename "$kernel"), $accel, -smp $P_CPUS):" \
	"'$cmdline'; boot timeout ${boot_to}s, total ${total_to}s"
"$P_QEMU_SYSTEM" -M "$P_QEMU_MACHINE" -accel "$accel" -cpu "$cpu" -smp "$P_CPUS" \
	-m "$P_QEMU_MEM" -display none -monitor none -serial "file:$work/console.log" \
	-no-reboot -kernel "$kernel" -initrd "$work/initrd" -append "$cmdline" \
	-drive "file=$work/disk.img,format=raw,if=none,id=d0" -device "$P_QEMU_DISK_DEVICE,drive=d0" \
	>"$work/qemu.log" 2>&1 &
qpid=$!
trap 'kill "$qpid" 2>/dev/null || true' EXIT INT TERM

t0=$(now_s)
seen=0
booted=""
fault=""
show_progress() {
	[ -f "$work/console.log" ] || return 0
	_n=$(wc -l <"$work/console.log")
	[ "$_n" -gt "$seen" ] || return 0
	_el=$(($(now_s) - t0))
	sed -n "$((seen + 1)),${_n}p" "$work/console.log" | tr -d '\r' |
		grep -E 'ts-guest:|ts-record:|TS-GUEST|Kernel panic|Linux version|Oops|BUG:' |
		while IFS= read -r _l; do
			printf '[%4ss] %s\n' "$_el" "$(echo "$_l" | sed 's/^\[ *[0-9.]*\] //' | cut -c1-150)" >&2
		done
	seen=$_n
}
while kill -0 "$qpid" 2>/dev/null; do
	sleep 1
	show_progress
	el=$(($(now_s) - t0))
	if [ -z "$booted" ] && grep -q 'ts-guest: up' "$work/console.log" 2>/dev/null; then
		booted=$el
	fi
	if [ -z "$booted" ] && [ "$el" -ge "$boot_to" ]; then
		fault="boot hung: the guest did not reach /init within ${boot_to}s"
		break
	fi
	if [ "$el" -ge "$total_to" ]; then
		fault="timeout: the guest was still running after ${total_to}s"
		break
	fi
done
if [ -n "$fault" ]; then
	kill "$qpid" 2>/dev/null || true
fi
wait "$qpid" 2>/dev/null && qrc=0 || qrc=$?
trap - EXIT INT TERM
show_progress
total=$(($(now_s) - t0))

console_tail() {
	tr -d '\r' <"$work/console.log" 2>/dev/null | tail -n "${1:-15}" | sed 's/^/    | /' >&2
}
if [ -z "$fault" ] && grep -q 'Kernel panic' "$work/console.log" 2>/dev/null; then
	fault="the guest kernel panicked: $(tr -d '\r' <"$work/console.log" |
		grep -m1 'Kernel panic' | sed 's/^\[ *[0-9.]*\] //')"
fi
if [ -z "$fault" ] && grep -q 'TS-GUEST-FAILED' "$work/console.log"; then
	fault="$(tr -d '\r' <"$work/console.log" | grep -m1 'TS-GUEST-FAILED')"
fi
if [ -z "$fault" ] && ! grep -q 'TS-GUEST-DONE' "$work/console.log"; then
	fault="qemu exited (status $qrc) before the guest wrote its results: $(grep -v warning \
		"$work/qemu.log" | head -c 300)"
	[ "$accel" = kvm ] && fault="$fault (with KVM; try ACCEL=tcg)"
fi
if [ -z "$fault" ]; then
	mkdir -p "$out.tmp"
	if ! tar xf "$work/disk.img" -C "$out.tmp" 2>"$work/untar.log"; then
		fault="the results disk did not come back: tar: $(head -n 2 "$work/untar.log")"
	elif [ ! -f "$out.tmp/ts-guest-status" ]; then
		fault="the results disk came back without ts-guest-status: incomplete"
	fi
fi
if [ -n "$fault" ]; then
	msg "error: $board ($flavour): $fault"
	msg "last console lines ($work/console.log):"
	console_tail 15
	rm -rf "$out.tmp"
	exit 1
fi
cp "$work/console.log" "$work/qemu-cmd.txt" "$out.tmp/"
cp "$work/accel" "$out.tmp/qemu-accel"
echo "boot_s=$booted" >"$out.tmp/boot-times"
echo "total_s=$total" >>"$out.tmp/boot-times"
mv "$out.tmp" "$out"
[ "$keep" = 1 ] || rm -rf "$work"
grc=$(sed -n 's/^rc=//p' "$out/ts-guest-status")
msg "$board ($flavour): reached /init after ${booted}s, powered off after ${total}s, job status $grc"
[ "$grc" = 0 ]
