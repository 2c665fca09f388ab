#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0-only
# /init of the emulated boards' initramfs: mount the kernel filesystems, load the virtio disk
# modules, run the job the host appended (/job.sh), then write /results as a tar onto the raw
# disk /dev/vda and power off. Console lines starting with "ts-guest:" are the host's progress.
/bin/busybox mkdir -p /proc /sys /dev /tmp /results /sbin /usr/bin /usr/sbin
/bin/busybox mount -t proc proc /proc
/bin/busybox --install -s
export PATH=/ts:/usr/sbin:/usr/bin:/sbin:/bin
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tracefs nodev /sys/kernel/tracing
mount -t tmpfs -o size=90% tmpfs /results
echo "ts-guest: up after $(cut -d' ' -f1 /proc/uptime)s: $(uname -r) $(uname -m)," \
	"$(grep -c ^processor /proc/cpuinfo) CPUs"

finish() {
	echo "rc=$1" >/results/ts-guest-status
	echo "ts-guest: writing results to /dev/vda ($(du -sk /results | cut -f1) KiB)"
	if tar cf /dev/vda -C /results . && sync; then
		echo "TS-GUEST-DONE rc=$1"
	else
		echo "TS-GUEST-FAILED: cannot write the results disk"
	fi
	poweroff -f
}

# No depmod ran on the unpacked packages: /modules/order lists them in dependency order. They
# belong to the Debian kernel; a kernel built by make kernel has its drivers built in.
mrel=$(cat /modules/kernel-release 2>/dev/null || true)
if [ -n "$mrel" ] && [ "$mrel" != "$(uname -r)" ]; then
	echo "ts-guest: no modules loaded: they are for $mrel (drivers built in)"
else
	for m in $(cat /modules/order); do
		insmod "/modules/$m.ko" || echo "ts-guest: insmod $m failed"
	done
fi
n=0
while [ ! -b /dev/vda ]; do
	n=$((n + 1))
	if [ "$n" -gt 50 ]; then
		echo "TS-GUEST-FAILED: no /dev/vda (virtio disk) after 10s"
		poweroff -f
	fi
	sleep 0.2
done
[ -f /job.sh ] || { echo "ts-guest: no /job.sh"; finish 2; }
echo "ts-guest: running the job"
sh /job.sh 2>&1
finish $?
