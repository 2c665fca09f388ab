# SPDX-License-Identifier: GPL-2.0-only
# perf script -s oracle for where tasks wait and who ends it (tickscope's wait table), from
# perf's own view of the samples: per off-CPU period of a task whose comm starts with COMM
# (the first script argument), its switch-out stack named by its wait site (the first three
# frames past the scheduler's and the sleeping primitives', as the model names it), its state
# (prev_state: R preempted, S, D, other), its time to the next switch-in, and who ended it:
# the last sched_waking of the task after the switch-out, else (not for R) one it got while
# still on its CPU since its last switch-in, else none.
# Wakers are classed as tests/oracle/woken_by.py does. Also every sched_waking by a kworker
# inside a work item (workqueue_execute_start .. _end, task context), by work function
# (named through the kallsyms file, the second argument).
import os
import sys
import perf_trace_context
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(sys.argv[0])))
from ts_tasks import last, name, task_class, switch, workers, irq_context, child_wait, \
    waits_for_child, run, sw, sched__sched_process_fork  # noqa: E402,F401

match = sys.argv[1]
syms = {}
for line in open(sys.argv[2]):
    f = line.split()
    if len(f) >= 3 and f[1] in 'tTwW':
        syms[int(f[0], 16)] = f[2]
SCHED = {'__traceiter_sched_switch', '__schedule', 'schedule', 'preempt_schedule',
         'preempt_schedule_common', 'preempt_schedule_irq', 'schedule_idle'}
out = {}  # tid -> (time, stack name, state)
in_wait = {}  # tid -> its switch-out stack passes through a wait for a child
early = {}  # tid -> waker key of a wake while on CPU
ended = {}  # tid -> waker key of the wake after switch-out
work = {}  # tid -> work function of the item it runs
periods = {}  # (tid, stack, state) -> [ns, count]
by = {}  # (tid, stack, state, waker key) -> count
works = {}  # function -> wakes


# how a task sleeps, not why (the model's is_wait_frame(), analysis/model/sched_metrics.c)
WAIT = set('''schedule_timeout schedule_hrtimeout schedule_hrtimeout_range
schedule_hrtimeout_range_clock schedule_preempt_disabled io_schedule io_schedule_timeout
do_wait_for_common __wait_for_common wait_for_common wait_for_common_io wait_for_completion
wait_for_completion_io wait_for_completion_timeout wait_for_completion_io_timeout
wait_for_completion_interruptible wait_for_completion_interruptible_timeout
wait_for_completion_killable wait_for_completion_killable_timeout wait_for_completion_state
bit_wait bit_wait_io bit_wait_timeout __wait_on_bit __wait_on_bit_lock out_of_line_wait_on_bit
out_of_line_wait_on_bit_lock __mutex_lock __mutex_lock_slowpath
__mutex_lock_interruptible_slowpath __mutex_lock_killable_slowpath __ww_mutex_lock
rwsem_down_read_slowpath rwsem_down_write_slowpath __down __down_common __down_interruptible
__down_killable __down_timeout rt_mutex_slowlock rt_mutex_slowlock_block __rt_mutex_slowlock
__rt_mutex_slowlock_locked rtlock_slowlock rtlock_slowlock_locked rwbase_read_lock
rwbase_write_lock __rwbase_read_lock'''.split())


def stack_name(chain):
    # the kernel part: its addresses have the top bit set (x86_64, arm64)
    names = [(c.get('sym') or {}).get('name') or '%#x' % c['ip'] for c in chain
             if c['ip'] >> 63]
    base = [n.split('.')[0] for n in names]
    i = 0
    while i + 1 < len(names) and (names[i] in SCHED or base[i] in WAIT or
                                  base[i] == '__' + base[i + 1]):
        i += 1
    return ';'.join(names[i:i + 3])


def state_of(s):
    if s == 0 or s & 0x100:
        return 'R'
    return 'S' if s & 1 else 'D' if s & 2 else 'other'


def ns(secs, nsecs):
    return secs * 1000000000 + nsecs


def sched__sched_switch(event_name, context, common_cpu, common_secs, common_nsecs, common_pid,
                        common_comm, common_callchain, prev_comm, prev_pid, prev_prio,
                        prev_state, next_comm, next_pid, next_prio, perf_sample_dict=None):
    t = ns(common_secs, common_nsecs)
    name(prev_pid, prev_comm)
    name(next_pid, next_comm)
    gone = switch(t, prev_pid, next_pid)
    if gone is not None and in_wait.pop(next_pid, False):
        child_wait[next_pid] = child_wait.get(next_pid, 0) + gone
    if prev_pid > 0 and prev_comm.startswith(match):
        out[prev_pid] = (t, stack_name(common_callchain), state_of(prev_state))
        in_wait[prev_pid] = waits_for_child([(c.get('sym') or {}).get('name') or ''
                                             for c in common_callchain if c['ip'] >> 63])
        ended.pop(prev_pid, None)
    if next_pid in out:
        t0, st, state = out.pop(next_pid)
        w = ended.pop(next_pid, None)
        if w is None and state != 'R':
            w = early.get(next_pid)
        p = periods.setdefault((next_pid, st, state), [0, 0])
        p[0] += t - t0
        p[1] += 1
        k = (next_pid, st, state, w)
        by[k] = by.get(k, 0) + 1
    if next_pid > 0:
        early.pop(next_pid, None)


def sched__sched_waking(event_name, context, common_cpu, common_secs, common_nsecs, common_pid,
                        common_comm, common_callchain, comm, pid, prio, target_cpu,
                        perf_sample_dict=None):
    name(common_pid, common_comm)
    name(pid, comm)
    ctx = irq_context(perf_trace_context.common_flags(context))
    key = (common_pid, ctx)
    if pid in out:
        ended[pid] = key
    else:
        early[pid] = key
    if not ctx and work.get(common_pid):
        works[work[common_pid]] = works.get(work[common_pid], 0) + 1


def workqueue__workqueue_execute_start(event_name, context, common_cpu, common_secs,
                                       common_nsecs, common_pid, common_comm, common_callchain,
                                       work_struct, function, perf_sample_dict=None):
    work[common_pid] = syms.get(function, '%#x' % function)


def workqueue__workqueue_execute_end(event_name, context, common_cpu, common_secs,
                                     common_nsecs, common_pid, common_comm, common_callchain,
                                     work_struct, function=0, perf_sample_dict=None):
    work[common_pid] = None


def trace_unhandled(event_name, context, event_fields_dict, perf_sample_dict=None):
    d = event_fields_dict
    name(d.get('common_pid', -1), d.get('common_comm', ''))


def waker_class(key):
    if key is None:
        return 'none'
    pid, ctx = key
    k = task_class(last.get(pid, 'swapper' if pid == 0 else '')) or 'unknown'
    if ctx == 'hardirq' or (ctx == 'softirq' and k not in ('ksoftirqd', 'ktimers')):
        return ctx
    return match if k == match or k.startswith(match + '-') else k


def trace_end():
    ours = workers(match)
    print('supervisors\t%d' % len([p for p in set(run) | set(sw)
                                  if last.get(p, '').startswith(match) and p not in ours]))
    sums = {}
    for (pid, st, state), (t, n) in periods.items():
        if pid in ours:
            s = sums.setdefault((st, state), [0, 0])
            s[0] += t
            s[1] += n
    for (st, state), (t, n) in sorted(sums.items()):
        print('wait\t%s\t%s\t%d\t%d' % (st, state, t, n))
    cls = {}
    for (pid, st, state, w), n in by.items():
        if pid not in ours:
            continue
        k = (st, state, waker_class(w))
        cls[k] = cls.get(k, 0) + n
    for (st, state, c), n in sorted(cls.items()):
        print('end\t%s\t%s\t%s\t%d' % (st, state, c, n))
    for f, n in sorted(works.items()):
        print('work\t%s\t%d' % (f, n))
