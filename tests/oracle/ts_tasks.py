# SPDX-License-Identifier: GPL-2.0-only
# What both perf script -s oracles (woken_by.py, wait_ends.py) need to know of tasks, as the
# model knows it: each tid's latest comm, its class, the context of a wake, and its run time
# and off-CPU time, who forked it (sched_process_fork) and its time asleep waiting for a child
# (a switch-out stack through do_wait), by which the benchmark's workers are told from its
# supervisors (analysis/model/compare_run.c).
import re

last = {}  # tid -> latest comm
on = {}  # tid -> time of its switch-in
run = {}  # tid -> run time, ns
sw = {}  # tid -> switch-outs
off = {}  # tid -> off-CPU time, ns
out_at = {}  # tid -> time of its switch-out
parent = {}  # tid -> the tid that forked it
child_wait = {}  # tid -> off-CPU time in a wait for a child, ns (the caller adds it)
CHILD_WAIT = {'do_wait', 'kernel_wait4', 'kernel_waitid', 'kernel_wait'}


def name(pid, comm):
    # ":<tid>" is perf's placeholder for a thread whose COMM it did not see (lost events)
    if pid >= 0 and comm and not comm.startswith(':'):
        last[pid] = comm


def task_class(comm):
    k = comm.split('/')[0]
    k = re.sub(r'(?<=.)[0-9]+$', '', k)
    return re.sub(r'[^A-Za-z0-9_+.:@-]', '_', k)


def irq_context(flags):
    # the waker's context from the sample's common_flags, as the model classes it:
    # hard IRQ or NMI (0x08 | 0x40), soft IRQ (0x10), else task context ('')
    return flags & 0x48 and 'hardirq' or flags & 0x10 and 'softirq' or ''


def switch(t, prev_pid, next_pid):
    """Returns the off-CPU time of next_pid that this switch-in ends (None: none seen)."""
    if prev_pid in on:
        run[prev_pid] = run.get(prev_pid, 0) + t - on.pop(prev_pid)
    if prev_pid > 0:
        sw[prev_pid] = sw.get(prev_pid, 0) + 1
        out_at[prev_pid] = t
    gone = None
    if next_pid > 0:
        on[next_pid] = t
        if next_pid in out_at:
            gone = t - out_at.pop(next_pid)
            off[next_pid] = off.get(next_pid, 0) + gone
    return gone


# the handler both perf script -s oracles import (perf calls it by name in the script's module)
def sched__sched_process_fork(event_name, context, common_cpu, common_secs, common_nsecs,
                              common_pid, common_comm, common_callchain, parent_comm,
                              parent_pid, child_comm, child_pid, perf_sample_dict=None):
    name(parent_pid, parent_comm)
    name(child_pid, child_comm)
    parent[child_pid] = parent_pid


def waits_for_child(names):
    """Whether a stack's function names pass through a wait for a child (wait4, waitid)."""
    for n in names:
        b = n.split('.')[0]
        if b in CHILD_WAIT or b.split('sys_wait')[-1] in ('4', 'id', 'pid') and 'sys_wait' in b:
            return True
    return False


def workers(match):
    """The tids of comm MATCH or MATCH-... but the supervisors: those asleep in a wait for a
    child most of their off-CPU time, and the parents of another of them that ran under a third
    of the most run time (stress-ng's parent of each worker, asleep in wait4)."""
    ours = [p for p in set(run) | set(sw) if last.get(p, '').startswith(match)]
    mrun = max([run.get(p, 0) for p in ours] or [0])
    parents = {parent[p] for p in ours if p in parent and parent[p] != p}
    return {p for p in ours
            if not (child_wait.get(p, 0) * 2 > off.get(p, 0) or
                    (p in parents and run.get(p, 0) * 3 < mrun))}
