# SPDX-License-Identifier: GPL-2.0-only
# What both perf script -s oracles (woken_by.py, wait_ends.py) need to know of tasks, as the
# model knows it: each tid's latest comm, its class, the context of a wake, and its run time
# and switch-outs, by which the benchmark's workers are told from its supervisors
# (analysis/model/compare_run.c).
import re

last = {}  # tid -> latest comm
on = {}  # tid -> time of its switch-in
run = {}  # tid -> run time, ns
sw = {}  # tid -> switch-outs


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
    if prev_pid in on:
        run[prev_pid] = run.get(prev_pid, 0) + t - on.pop(prev_pid)
    if prev_pid > 0:
        sw[prev_pid] = sw.get(prev_pid, 0) + 1
    if next_pid > 0:
        on[next_pid] = t


def workers(match):
    """The tids of comm MATCH or MATCH-... but the supervisors: under a third of the most run
    time and 1/100 of the most switches (stress-ng's parent of each worker, asleep in wait4)."""
    ours = [p for p in set(run) | set(sw) if last.get(p, '').startswith(match)]
    mrun = max([run.get(p, 0) for p in ours] or [0])
    msw = max([sw.get(p, 0) for p in ours] or [0])
    return {p for p in ours if run.get(p, 0) * 3 >= mrun or sw.get(p, 0) * 100 >= msw}
