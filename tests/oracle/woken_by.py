# SPDX-License-Identifier: GPL-2.0-only
# perf script -s oracle for tickscope's "woken by": every sched_waking counted by its wakee
# (the pid field) and its waker's class, from perf's own view of the sample: common_flags
# (hardirq 0x08 or NMI 0x40: "hardirq"; softirq 0x10: "softirq" unless the waker is ksoftirqd
# or ktimers) and the waker's latest comm (common_pid's last name in the trace, from sched
# fields and perf's common_comm), up to '/', trailing digits dropped. Prints "tid class wakes
# comm run switches parent", comm the wakee's latest, run its run time in ns (switch-in to
# switch-out), switches its switch-outs and parent the tid that forked it (sched_process_fork;
# -1: not seen), by which the test tells the benchmark's workers from its supervisors as
# compare does.
import os
import sys
import perf_trace_context
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(sys.argv[0])))
from ts_tasks import last, name, task_class, switch, run, sw, irq_context, parent, \
    sched__sched_process_fork  # noqa: E402,F401

wakes = {}


def sched__sched_waking(event_name, context, common_cpu, common_secs, common_nsecs, common_pid,
                        common_comm, common_callchain, comm, pid, prio, target_cpu,
                        perf_sample_dict=None):
    name(common_pid, common_comm)
    name(pid, comm)
    key = (pid, common_pid, irq_context(perf_trace_context.common_flags(context)))
    wakes[key] = wakes.get(key, 0) + 1


def sched__sched_switch(event_name, context, common_cpu, common_secs, common_nsecs, common_pid,
                        common_comm, common_callchain, prev_comm, prev_pid, prev_prio,
                        prev_state, next_comm, next_pid, next_prio, perf_sample_dict=None):
    name(common_pid, common_comm)
    name(prev_pid, prev_comm)
    name(next_pid, next_comm)
    switch(common_secs * 1000000000 + common_nsecs, prev_pid, next_pid)


def trace_unhandled(event_name, context, event_fields_dict, perf_sample_dict=None):
    d = event_fields_dict
    name(d.get('common_pid', -1), d.get('common_comm', ''))
    if 'pid' in d and 'comm' in d and event_name.startswith('sched__sched_w'):
        name(d['pid'], d['comm'])


def trace_end():
    out = {}
    for (pid, waker, ctx), n in wakes.items():
        k = task_class(last.get(waker, 'swapper' if waker == 0 else ''))
        if not k:
            k = 'unknown'
        if ctx == 'hardirq' or (ctx == 'softirq' and k not in ('ksoftirqd', 'ktimers')):
            k = ctx
        out[(pid, k)] = out.get((pid, k), 0) + n
    for (pid, k), n in sorted(out.items()):
        print('%d %s %d %s %d %d %d' % (pid, k, n, last.get(pid, '-'), run.get(pid, 0),
                                        sw.get(pid, 0), parent.get(pid, -1)))
