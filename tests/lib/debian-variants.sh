# SPDX-License-Identifier: GPL-2.0-only
# The known answers of the Debian-image experiments (the -rt image against the generic one on
# the ping-pong; Debian 6.1 against 6.12 on stress-ng ramfs with -g), as TAP checks on an
# experiment folder's compare.json; sourced after tap.sh.

# dv_check DIR NAME CODE: one TAP check, CODE a Python assertion over DIR/compare.json with
# d (the document), m (metric name -> variant name -> cell), ex (the explanation of the second
# variant), notes, wp (ex's wakeup path), waits (ex's waits) and n (runs a side); the failing
# values go to the TAP output.
dv_check() {
	_d=$1 _name=$2
	python3 - "$_d/compare.json" "$3" >"$TAP_TMP/dv.out" 2>&1 <<'EOF'
import json, math, sys
d = json.load(open(sys.argv[1]))
m = {e['name']: {x['variant']: x for x in e['variants']} for e in d['metrics']}
ex = d['explanations'][0]
notes, wp, waits = d['notes'], ex['wakeup_path'], ex['waits']
names = [v['name'] for v in d['variants']]
n = len(d['variants'][0]['runs'])
floor = 2 / math.comb(2 * n, n)
exec(sys.argv[2])
EOF
	ok $? "$_name"
	sed 's/^/# /' "$TAP_TMP/dv.out" | tail -n 6
}

# dv_summaries DIR FIXTURE VARIANT METRIC MARKER: the per-run values of METRIC in DIR's
# compare.json against the runs' own summaries (FIXTURE/VARIANT/run-*/perf.data.tsum.xz); a
# metric a summary lacks is 0 there when the run has MARKER above 0 (docs/compare.md).
dv_summaries() {
	_want=$(for _t in "$2/$3"/run-*/perf.data.tsum.xz; do
		xz -dc "$_t" | awk -F'\t' -v name="$4" -v marker="$5" '
			$1 == "m" && $2 == name { v = $6; have = 1 }
			$1 == "m" && $2 == marker { mk = $6 }
			END { if (have) printf "%.6g ", v; else if (mk > 0) printf "0 "; else printf "nan " }'
	done)
	_got=$(python3 -c "import json, sys
d = json.load(open(sys.argv[1] + '/compare.json'))
e = next(e for e in d['metrics'] if e['name'] == sys.argv[3])
v = next(x for x in e['variants'] if x['variant'] == sys.argv[2])
print(' '.join('nan' if x is None else '%.6g' % x for x in v['values']) + ' ')" "$1" "$3" "$4")
	case $_want in
	*nan*) ok 1 "$3: every run's summary measured $4 ($_want)" ;;
	*) is "$_got" "$_want" "$3: compare's $4 are the runs' own summaries" ;;
	esac
}

# dv_rt_answer DIR: the -rt image (rt) against the generic one (default) on the ping-pong:
# the preemption models from the configs, threaded interrupts and PREEMPT_RT's threads that
# only rt has, and the wakeup path (softirqs inline in default, ktimers in rt).
dv_rt_answer() {
	dv_check "$1" "compare has 8 runs a side" "
c = m['sched.threads.irq.count']
assert c['default']['n'] == 8 and c['rt']['n'] == 8, (c['default']['n'], c['rt']['n'])"
	dv_check "$1" "preemption models from the runs' configs: PREEMPT_VOLUNTARY and PREEMPT_RT" "
p = {v['name']: set(r['facts']['preempt'] for r in v['runs']) for v in d['variants']}
assert p == {'default': {'PREEMPT_VOLUNTARY'}, 'rt': {'PREEMPT_RT'}}, p
t = 'preemption model (each run\'s kernel config): default PREEMPT_VOLUNTARY, rt PREEMPT_RT'
assert t in notes, notes"
	dv_check "$1" "threaded interrupts: irq/N-* threads in every rt run, none in default" "
c = m['sched.threads.irq.count']
print('irq threads: default', c['default']['values'], 'rt', c['rt']['values'])
assert min(c['rt']['values']) > 0 and max(c['default']['values']) == 0
assert c['rt']['p_exact'] and abs(c['rt']['p'] - floor) < 1e-9 * floor, (c['rt']['p'], floor)
assert any(x.startswith('irq threads existed in every run of rt') and 'threaded interrupt' in x
           for x in notes), notes"
	dv_check "$1" "PREEMPT_RT's ktimers and rcuc threads: in every rt run, in no default run" "
for k in ('ktimers', 'rcuc'):
    c = m['sched.threads.%s.count' % k]
    assert min(c['rt']['values']) > 0 and max(c['default']['values']) == 0, (k, c)
    assert any(x.startswith(k + ' threads existed in every run of rt') for x in notes), notes"
	dv_check "$1" "the wakeup path: ktimers wake in every rt run, softirqs inline in default only" "
w = {(x['class'], x['scope']): x for x in wp}
print([(x['class'], x['scope'], x['a'], x['b'], x['only_in']) for x in wp])
assert w[('ktimers', 'all tasks')]['only_in'] == 'rt', w.get(('ktimers', 'all tasks'))
assert w[('softirq', 'all tasks')]['only_in'] == 'default', w.get(('softirq', 'all tasks'))
s = m['sched.woken_by.softirq.share']
assert min(s['default']['values']) > 0 and max(s['rt']['values']) == 0, s"
	dv_check "$1" "the benchmark's tasks wake each other in both kernels (over 99%)" "
c = m['task.woken_by.pingpong.share']
assert min(c['default']['values']) > 99 and min(c['rt']['values']) > 99, c"
}

# dv_ramfs_answer DIR: Debian 6.1 (default) against its 6.12 (debian-6.12) on stress-ng ramfs
# with -g: the workers' heaviest blocked wait is the same grace-period wait in both kernels,
# ended by a kworker running wait_rcu_exp_gp in 6.1 and by rcu_exp_gp_kthr in 6.12.
dv_ramfs_answer() {
	_w='synchronize_rcu_expedited;namespace_unlock;path_umount'
	dv_check "$1" "compare has 8 runs a side" "
c = m['task.woken_by.wakes']
assert c['default']['n'] == 8 and c['debian-6.12']['n'] == 8, c"
	dv_check "$1" "where the workers wait: their heaviest D wait is $_w, in both kernels" "
dw = [w for w in waits if w['state'] == 'D']
print([(w['stack'], w['a'], w['b']) for w in waits])
assert max(dw, key=lambda w: w['a'] or 0)['stack'] == '$_w', dw
assert max(dw, key=lambda w: w['b'] or 0)['stack'] == '$_w', dw
c = m['task.offcpu_stack.$_w.D.per_op']
assert min(c['default']['values']) > 0 and min(c['debian-6.12']['values']) > 0, c"
	dv_check "$1" "who ends that wait: a kworker in 6.1, rcu_exp_gp_kthr in 6.12 (every run, 90%+)" "
w = next(w for w in waits if w['stack'] == '$_w' and w['state'] == 'D')
by = {b['class']: b for b in w['ended_by']}
print([(b['class'], b['a'], b['b']) for b in w['ended_by']])
assert by['kworker']['a'] >= 90 and by['kworker']['b'] == 0, by
assert by['rcu_exp_gp_kthr']['b'] >= 90 and by['rcu_exp_gp_kthr']['a'] == 0, by
k = m['task.offcpu_stack.$_w.D.woken_by.kworker.share']
r = m['task.offcpu_stack.$_w.D.woken_by.rcu_exp_gp_kthr.share']
assert min(k['default']['values']) >= 90 and max(k['debian-6.12']['values']) == 0, k
assert min(r['debian-6.12']['values']) >= 90 and max(r['default']['values']) == 0, r"
	dv_check "$1" "the kworker runs the wait_rcu_exp_gp work item (the workqueue events say so)" "
c = m['task.woken_by_work.wait_rcu_exp_gp.share']
assert min(c['default']['values']) > 50 and max(c['debian-6.12']['values']) == 0, c
w = {(x['class'], x['scope']): x for x in wp}
assert w[('wait_rcu_exp_gp', 'the benchmark\'s tasks, by work function')]['only_in'] == 'default'"
	dv_check "$1" "the workers' wakers: kworker only in 6.1, rcu_exp_gp_kthr only in 6.12" "
w = {(x['class'], x['scope']): x for x in wp}
print([(x['class'], x['scope'], x['a'], x['b'], x['only_in']) for x in wp])
s = 'the benchmark\'s tasks'
assert w[('kworker', s)]['only_in'] == 'default' and w[('rcu_exp_gp_kthr', s)]['only_in'] == 'debian-6.12'
c = m['task.woken_by.rcu_exp_gp_kthr.share']['debian-6.12']
assert c['p_exact'] and abs(c['p'] - floor) < 1e-9 * floor, (c['p'], floor)
assert any(x.startswith('rcu_exp_gp_kthr tasks ran in every run of debian-6.12') for x in notes)"
	dv_check "$1" "both kernels are PREEMPT_VOLUNTARY: no preemption note" "
p = {v['name']: set(r['facts']['preempt'] for r in v['runs']) for v in d['variants']}
assert p == {'default': {'PREEMPT_VOLUNTARY'}, 'debian-6.12': {'PREEMPT_VOLUNTARY'}}, p
assert not any(x.startswith('preemption model') for x in notes), notes"
}
