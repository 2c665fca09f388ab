#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
# The committed output of two real experiments on Debian's images (tests/fixtures/debian-variants/):
# the -rt image against the generic one on the ping-pong, Debian 6.1 against 6.12 on stress-ng
# ramfs with -g: their known answers, the variants' kernels and order, and compare.json's
# per-run values against the runs' own summaries (from their traces).
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/debian-variants.sh"
command -v xz >/dev/null || skip_all "no xz"
command -v python3 >/dev/null || skip_all "no python3"
tap_tmpdir
fxs=$TS_TOP/tests/fixtures/debian-variants

# unpack EXPERIMENT: its compare.json into $TAP_TMP/EXPERIMENT
unpack() {
	mkdir -p "$TAP_TMP/$1"
	xz -dc "$fxs/$1/compare.json.xz" >"$TAP_TMP/$1/compare.json"
	ok $? "$1: compare.json decompresses"
}

# interleaved EXPERIMENT A B: the order file says A B A B ...
interleaved() {
	is "$(awk '/status=complete/ { printf "%s ", $3 }' "$fxs/$1/order.txt" | cut -c1-60)" \
		"$(printf 'variant=%s variant=%s ' "$2" "$3" "$2" "$3" "$2" "$3" | cut -c1-60)" \
		"$1: the runs were recorded interleaved, $2 $3 $2 $3 ..."
}

# preempt_facts EXPERIMENT VARIANT: the runs' preempt facts are what their nohz.txt says
preempt_facts() {
	want=$(for n in "$fxs/$1/$2"/run-*/nohz.txt; do
		for k in PREEMPT_RT PREEMPT_LAZY PREEMPT PREEMPT_VOLUNTARY PREEMPT_NONE; do
			grep -qx "CONFIG_$k=y" "$n" && { printf '%s' "$k"; break; }
		done
		grep -qx CONFIG_PREEMPT_DYNAMIC=y "$n" && printf ' (PREEMPT_DYNAMIC)'
		printf ';'
	done)
	got=$(python3 -c "import json, sys
d = json.load(open(sys.argv[1]))
v = next(v for v in d['variants'] if v['name'] == sys.argv[2])
print(''.join(r['facts']['preempt'] + ';' for r in v['runs']))" "$TAP_TMP/$1/compare.json" "$2")
	is "$got" "$want" "$1: $2's preemption model in compare is its runs' configs' (nohz.txt)"
}

# --- the -rt image against the generic one, ping-pong, 8 runs a side ---
rt=qemu-aarch64-pingpong-default-vs-rt
unpack $rt
dv_rt_answer "$TAP_TMP/$rt"
interleaved $rt default rt
bad=0
for mt in "$fxs/$rt"/rt/run-*/meta.txt; do
	grep -q '^kernel=6\.1\..*-rt-arm64$' "$mt" && grep -q '^guest_kernel=rt$' "$mt" ||
		bad=$((bad + 1))
done
for mt in "$fxs/$rt"/default/run-*/meta.txt; do
	grep -q '^kernel=6\.1\..*-arm64$' "$mt" && ! grep -q -- '-rt-' "$mt" || bad=$((bad + 1))
done
is "$bad" 0 "$rt: every rt run booted Debian's -rt kernel, every default run the generic one"
for v in default rt; do
	preempt_facts $rt $v
	dv_summaries "$TAP_TMP/$rt" "$fxs/$rt" $v sched.threads.irq.count sched.threads.count
	dv_summaries "$TAP_TMP/$rt" "$fxs/$rt" $v sched.woken_by.ktimers.share \
		sched.woken_by.wakes
	dv_summaries "$TAP_TMP/$rt" "$fxs/$rt" $v task.woken_by.pingpong.share task.woken_by.wakes
done

# --- Debian 6.1 against its 6.12, stress-ng ramfs with -g, 8 runs a side ---
rf=qemu-aarch64-stress-ramfs-default-vs-debian-6.12
unpack $rf
dv_ramfs_answer "$TAP_TMP/$rf"
interleaved $rf default debian-6.12
bad=0
for mt in "$fxs/$rf"/default/run-*/meta.txt; do
	grep -q '^kernel=6\.1\.0-.*-arm64$' "$mt" && grep -q '^callchains=1$' "$mt" ||
		bad=$((bad + 1))
done
for mt in "$fxs/$rf"/debian-6.12/run-*/meta.txt; do
	grep -q '^kernel=6\.12\..*-arm64$' "$mt" && grep -q '^profile=qemu-aarch64-6.12$' "$mt" &&
		grep -q '^callchains=1$' "$mt" || bad=$((bad + 1))
done
is "$bad" 0 "$rf: every run recorded with -g, on Debian's 6.1 or (qemu-aarch64-6.12) 6.12 kernel"
w='synchronize_rcu_expedited;namespace_unlock;path_umount'
for v in default debian-6.12; do
	preempt_facts $rf $v
	for k in task.woken_by.kworker.share task.woken_by.rcu_exp_gp_kthr.share \
		task.woken_by_work.wait_rcu_exp_gp.share; do
		dv_summaries "$TAP_TMP/$rf" "$fxs/$rf" $v $k task.woken_by.wakes
	done
	dv_summaries "$TAP_TMP/$rf" "$fxs/$rf" $v "task.offcpu_stack.$w.D.per_op" \
		task.woken_by.wakes
	dv_summaries "$TAP_TMP/$rf" "$fxs/$rf" $v "task.offcpu_stack.$w.D.woken_by.kworker.share" \
		"task.offcpu_stack.$w.D.per_op"
done
tap_done
