// SPDX-License-Identifier: GPL-2.0-only
/*
 * Decoders of the sched tracepoints: sched_switch (with the kernel's preemption bit of
 * prev_state, read from its print fmt), the three wakeups, migrations, exits and forks.
 */
#include <stdlib.h>

#include "decode_priv.h"

enum {
	SW_PREV_COMM,
	SW_PREV_PID,
	SW_PREV_PRIO,
	SW_PREV_STATE,
	SW_NEXT_COMM,
	SW_NEXT_PID,
	SW_NEXT_PRIO
};

static const struct ts_field_def switch_fields[] = {
	[SW_PREV_COMM] = REQ("prev_comm"), [SW_PREV_PID] = REQ("prev_pid"),
	[SW_PREV_PRIO] = REQ("prev_prio"), [SW_PREV_STATE] = REQ("prev_state"),
	[SW_NEXT_COMM] = REQ("next_comm"), [SW_NEXT_PID] = REQ("next_pid"),
	[SW_NEXT_PRIO] = REQ("next_prio"),
};

/* Evaluate a constant sub-expression of a print fmt; -1 if it is not constant. */
static int eval_const(const struct tep_print_arg *a, uint64_t *v)
{
	uint64_t l, r;
	const char *op;

	if (!a)
		return -1;
	if (a->type == TEP_PRINT_ATOM) {
		char *end;

		*v = strtoull(a->atom.atom, &end, 0);
		return *end ? -1 : 0;
	}
	if (a->type != TEP_PRINT_OP || eval_const(a->op.left, &l) || eval_const(a->op.right, &r))
		return -1;
	op = a->op.op;
	if (!strcmp(op, "|"))
		*v = l | r;
	else if (!strcmp(op, "+"))
		*v = l + r;
	else if (!strcmp(op, "-"))
		*v = l - r;
	else if (!strcmp(op, "<<"))
		*v = r < 64 ? l << r : 0;
	else if (!strcmp(op, "&"))
		*v = l & r;
	else
		return -1;
	return 0;
}

static int is_field(const struct tep_print_arg *a, const char *name)
{
	return a && a->type == TEP_PRINT_FIELD && !strcmp(a->field.name, name);
}

/*
 * Since v4.14 a preempted task's prev_state carries TASK_REPORT_MAX, printed as "R+". The
 * print fmt tests it as `REC->prev_state & (((0x0 | 0x1 | ... | 0x40) + 1) << 1) ? "+" : ""`;
 * older kernels test TASK_STATE_MAX the same way. Take the largest such constant.
 */
static void switch_setup(struct evcache *c)
{
	const struct tep_print_arg *a;
	uint64_t best = 0, v;

	for (a = c->ev->print_fmt.args; a; a = a->next) {
		const struct tep_print_arg *x;

		if (a->type != TEP_PRINT_OP || strcmp(a->op.op, "?"))
			continue;
		x = a->op.left;
		if (!x || x->type != TEP_PRINT_OP || strcmp(x->op.op, "&"))
			continue;
		if ((is_field(x->op.left, "prev_state") && !eval_const(x->op.right, &v)) ||
		    (is_field(x->op.right, "prev_state") && !eval_const(x->op.left, &v)))
			best = v > best ? v : best;
	}
	c->report_max = best;
	c->fixed = fld_is_comm(&c->f[SW_PREV_COMM]) && fld_is_num(&c->f[SW_PREV_PID], 4) &&
		   fld_is_num(&c->f[SW_PREV_PRIO], 4) && fld_is_num(&c->f[SW_PREV_STATE], 8) &&
		   fld_is_comm(&c->f[SW_NEXT_COMM]) && fld_is_num(&c->f[SW_NEXT_PID], 4) &&
		   fld_is_num(&c->f[SW_NEXT_PRIO], 4);
}

/* A sched_switch of a current kernel, from a payload that holds every slot. */
static inline void switch_fixed(const struct evcache *c, const unsigned char *p,
				struct ts_event *ev)
{
	const struct fld *f = c->f;

	comm_at(p, &f[SW_PREV_COMM], ev->sw.prev_comm);
	ev->sw.prev_pid = (int32_t)num_at(p, &f[SW_PREV_PID], 4);
	ev->sw.prev_prio = (int32_t)num_at(p, &f[SW_PREV_PRIO], 4);
	ev->sw.prev_state_raw = num_at(p, &f[SW_PREV_STATE], 8);
	ev->sw.prev_state = ts_task_state_class(ev->sw.prev_state_raw, c->report_max);
	comm_at(p, &f[SW_NEXT_COMM], ev->sw.next_comm);
	ev->sw.next_pid = (int32_t)num_at(p, &f[SW_NEXT_PID], 4);
	ev->sw.next_prio = (int32_t)num_at(p, &f[SW_NEXT_PRIO], 4);
}

static int switch_fast(struct ts_decoder *d, const struct evcache *c, const unsigned char *p,
		       uint32_t size, struct ts_event *ev)
{
	if (size < c->need)
		return ts_dec_full(d, ev->tp_id, p, size, ev);
	switch_fixed(c, p, ev);
	return 0;
}

static void switch_fill(struct ts_decoder *d, const struct evcache *c, struct payload *pl,
			struct ts_event *ev)
{
	const struct fld *f = c->f;

	if (c->fixed && pl->size >= c->need) { /* every sched_switch of a current kernel */
		switch_fixed(c, pl->p, ev);
		return;
	}
	ts_dec_str(pl, &f[SW_PREV_COMM], ev->sw.prev_comm, TS_COMM_LEN);
	ev->sw.prev_pid = num(pl, &f[SW_PREV_PID]);
	ev->sw.prev_prio = num(pl, &f[SW_PREV_PRIO]);
	ev->sw.prev_state_raw = num(pl, &f[SW_PREV_STATE]);
	ev->sw.prev_state = ts_task_state_class(ev->sw.prev_state_raw, c->report_max);
	ts_dec_str(pl, &f[SW_NEXT_COMM], ev->sw.next_comm, TS_COMM_LEN);
	ev->sw.next_pid = num(pl, &f[SW_NEXT_PID]);
	ev->sw.next_prio = num(pl, &f[SW_NEXT_PRIO]);
}

TS_KIND_DECODER_FAST(sched_switch, switch_fields, switch_setup, switch_fill, switch_fast);

/* The task of a wakeup, migration or exit. */
enum { T_COMM, T_PID, T_PRIO, T_TARGET_CPU, T_ORIG_CPU, T_DEST_CPU, T_FLAGS };

/* common_flags: whether the waker was a task, a softirq or a hard interrupt (event.h). */
static const struct ts_field_def wakeup_fields[] = {
	[T_COMM] = REQ("comm"),
	[T_PID] = REQ("pid"),
	[T_PRIO] = OPT("prio"),
	[T_TARGET_CPU] = REQ("target_cpu"),
	[T_FLAGS] = OPT("common_flags"), /* the slots between are the migration's */
};

static void wakeup_setup(struct evcache *c)
{
	c->fixed = fld_is_comm(&c->f[T_COMM]) && fld_is_num(&c->f[T_PID], 4) &&
		   fld_is_num(&c->f[T_PRIO], 4) && fld_is_num(&c->f[T_TARGET_CPU], 4) &&
		   fld_is_num(&c->f[T_FLAGS], 1);
}

/* One of the three wakeups of a current kernel, from a payload that holds every slot. */
static inline void wakeup_fixed(const struct evcache *c, const unsigned char *p,
				struct ts_event *ev)
{
	comm_at(p, &c->f[T_COMM], ev->wake.comm);
	ev->wake.pid = (int32_t)num_at(p, &c->f[T_PID], 4);
	ev->wake.prio = (int32_t)num_at(p, &c->f[T_PRIO], 4);
	ev->wake.target_cpu = (int32_t)num_at(p, &c->f[T_TARGET_CPU], 4);
	ev->wake.ctx = ts_wake_ctx_of(num_at(p, &c->f[T_FLAGS], 1));
}

static int wakeup_fast(struct ts_decoder *d, const struct evcache *c, const unsigned char *p,
		       uint32_t size, struct ts_event *ev)
{
	if (size < c->need)
		return ts_dec_full(d, ev->tp_id, p, size, ev);
	wakeup_fixed(c, p, ev);
	return 0;
}

static void wakeup_fill(struct ts_decoder *d, const struct evcache *c, struct payload *pl,
			struct ts_event *ev)
{
	if (c->fixed && pl->size >= c->need) { /* the three wakeups of a current kernel */
		wakeup_fixed(c, pl->p, ev);
		return;
	}
	ts_dec_str(pl, &c->f[T_COMM], ev->wake.comm, TS_COMM_LEN);
	ev->wake.pid = num(pl, &c->f[T_PID]);
	ev->wake.prio = num(pl, &c->f[T_PRIO]);
	ev->wake.target_cpu = num(pl, &c->f[T_TARGET_CPU]);
	ev->wake.ctx = ts_wake_ctx_of(num(pl, &c->f[T_FLAGS]));
}

TS_KIND_DECODER_FAST(sched_wakeup, wakeup_fields, wakeup_setup, wakeup_fill, wakeup_fast);

static const struct ts_field_def migrate_fields[] = {
	[T_COMM] = REQ("comm"),		[T_PID] = REQ("pid"),		[T_PRIO] = OPT("prio"),
	[T_ORIG_CPU] = REQ("orig_cpu"), [T_DEST_CPU] = REQ("dest_cpu"),
};

static void migrate_fill(struct ts_decoder *d, const struct evcache *c, struct payload *pl,
			 struct ts_event *ev)
{
	ts_dec_str(pl, &c->f[T_COMM], ev->migrate.comm, TS_COMM_LEN);
	ev->migrate.pid = num(pl, &c->f[T_PID]);
	ev->migrate.prio = num(pl, &c->f[T_PRIO]);
	ev->migrate.orig_cpu = num(pl, &c->f[T_ORIG_CPU]);
	ev->migrate.dest_cpu = num(pl, &c->f[T_DEST_CPU]);
}

TS_KIND_DECODER(sched_migrate, migrate_fields, NULL, migrate_fill);

static const struct ts_field_def exit_fields[] = {
	[T_COMM] = REQ("comm"),
	[T_PID] = REQ("pid"),
};

static void exit_fill(struct ts_decoder *d, const struct evcache *c, struct payload *pl,
		      struct ts_event *ev)
{
	ts_dec_str(pl, &c->f[T_COMM], ev->exit.comm, TS_COMM_LEN);
	ev->exit.pid = num(pl, &c->f[T_PID]);
}

TS_KIND_DECODER(sched_exit, exit_fields, NULL, exit_fill);

/* sched_process_fork: who forked whom (tids), the process tree's edges. */
enum { F_PARENT, F_CHILD };

static const struct ts_field_def fork_fields[] = {
	[F_PARENT] = REQ("parent_pid"),
	[F_CHILD] = REQ("child_pid"),
};

static void fork_fill(struct ts_decoder *d, const struct evcache *c, struct payload *pl,
		      struct ts_event *ev)
{
	ev->fork.parent = num(pl, &c->f[F_PARENT]);
	ev->fork.child = num(pl, &c->f[F_CHILD]);
}

TS_KIND_DECODER(sched_fork, fork_fields, NULL, fork_fill);
