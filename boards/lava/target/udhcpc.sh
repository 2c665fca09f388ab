#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# busybox udhcpc's event script on the LAVA ramdisk: configure the lease it got.
case "$1" in
bound | renew)
	ifconfig "$interface" "$ip" netmask "${subnet:-255.255.255.0}" up
	for r in $router; do route add default gw "$r" dev "$interface"; break; done
	: >/etc/resolv.conf
	for d in $dns; do echo "nameserver $d" >>/etc/resolv.conf; done
	;;
deconfig) ifconfig "$interface" 0.0.0.0 ;;
esac
exit 0
