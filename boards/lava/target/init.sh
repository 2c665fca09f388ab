#!/bin/busybox sh
# SPDX-License-Identifier: GPL-2.0-only
# /init of the LAVA ramdisk (boards/lava/ramdisk.sh): mount the kernel filesystems, load the
# modules, bring the network up (DHCP), then give LAVA a root shell on the console.
/bin/busybox mkdir -p /proc /sys /dev /tmp /sbin /usr/bin /usr/sbin
/bin/busybox mount -t proc proc /proc
/bin/busybox --install -s
export PATH=/ts:/usr/sbin:/usr/bin:/sbin:/bin
# From here on the console carries LAVA's signal lines (<LAVA_SIGNAL_TESTCASE ...>, written by
# the shell): a kernel message printed on it at the same moment (an RCU stall, a hung task, a
# perf warning of a loaded host) lands inside such a line and LAVA drops the case. Only
# emergencies reach the console (console log level 1); the rest stays in dmesg. The boot's own
# messages, before this, are kept: LAVA reads nothing then but the prompt.
dmesg -n 1 || echo "ts-lava: cannot set the console log level (dmesg -n 1)"
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tracefs nodev /sys/kernel/tracing
for m in $(cat /modules/order); do
	insmod "/modules/$m.ko" 2>/dev/null || echo "ts-lava: insmod $m failed"
done
ifconfig lo 127.0.0.1 up
for i in 1 2 3 4 5 6 7 8 9 10; do
	[ -e /sys/class/net/eth0 ] && break
	sleep 0.2
done
udhcpc -i eth0 -s /ts/udhcpc.sh -q -n -t 5 >/dev/null 2>&1 || echo "ts-lava: no DHCP lease on eth0"
echo "ts-lava: up after $(cut -d' ' -f1 /proc/uptime)s: $(uname -r) $(uname -m)," \
	"$(grep -c ^processor /proc/cpuinfo) CPUs, $(ifconfig eth0 2>/dev/null | sed -n 's/.*inet addr:\([0-9.]*\).*/\1/p')"
export PS1='ts-lava# ' HOME=/root
mkdir -p /root
cd /root
exec setsid cttyhack sh -i
