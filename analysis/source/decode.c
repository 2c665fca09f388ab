// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tracepoint payloads to struct ts_event. Each tracepoint id gets a cache entry the first time
 * it is seen: its kind and the format fields that kind reads, looked up once by name.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "tickscope/decode.h"
#include "tickscope/error.h"
#include "tracedata.h"

#define NF 8
#define MAX_TP_ID 65536
#define NSTR 64
#define PRINT_PAD 256 /* zeros after a payload printed by libtraceevent */

/* Field slots per kind; a leading '?' marks an optional field. */
struct kind_def {
	const char *event;
	uint16_t kind;
	const char *fields[NF];
};

static const struct kind_def kinds[] = {
	{ "sched:sched_switch",
	  TS_EV_SWITCH,
	  { "prev_comm", "prev_pid", "prev_prio", "prev_state", "next_comm", "next_pid",
	    "next_prio" } },
	{ "sched:sched_waking", TS_EV_WAKING, { "comm", "pid", "?prio", "target_cpu" } },
	{ "sched:sched_wakeup", TS_EV_WAKEUP, { "comm", "pid", "?prio", "target_cpu" } },
	{ "sched:sched_wakeup_new", TS_EV_WAKEUP_NEW, { "comm", "pid", "?prio", "target_cpu" } },
	{ "sched:sched_migrate_task",
	  TS_EV_MIGRATE,
	  { "comm", "pid", "?prio", "orig_cpu", "dest_cpu" } },
	{ "sched:sched_process_exit", TS_EV_PROCESS_EXIT, { "comm", "pid" } },
	{ "power:cpu_idle", TS_EV_CPU_IDLE, { "state", "cpu_id" } },
	{ "timer:tick_stop", TS_EV_TICK_STOP, { "success", "dependency" } },
	{ "timer:timer_start", TS_EV_TIMER_START, { "timer", "function", "expires" } },
	{ "timer:timer_expire_entry", TS_EV_TIMER_EXPIRE_ENTRY, { "timer", "function", "now" } },
	{ "timer:timer_expire_exit", TS_EV_TIMER_EXPIRE_EXIT, { "timer" } },
	{ "timer:timer_cancel", TS_EV_TIMER_CANCEL, { "timer" } },
	{ "timer:hrtimer_start", TS_EV_HRTIMER_START, { "hrtimer", "function", "expires" } },
	{ "timer:hrtimer_expire_entry",
	  TS_EV_HRTIMER_EXPIRE_ENTRY,
	  { "hrtimer", "function", "now" } },
	{ "timer:hrtimer_expire_exit", TS_EV_HRTIMER_EXPIRE_EXIT, { "hrtimer" } },
	{ "timer:hrtimer_cancel", TS_EV_HRTIMER_CANCEL, { "hrtimer" } },
	{ "workqueue:workqueue_queue_work",
	  TS_EV_WQ_QUEUE,
	  { "work", "?function", "?workqueue", "?req_cpu", "?cpu" } },
	{ "workqueue:workqueue_activate_work", TS_EV_WQ_ACTIVATE, { "work", "?function" } },
	{ "workqueue:workqueue_execute_start", TS_EV_WQ_START, { "work", "function" } },
	{ "workqueue:workqueue_execute_end", TS_EV_WQ_END, { "work", "?function" } },
	{ "rcu:rcu_utilization", TS_EV_RCU_UTIL, { "s" } },
	{ "rcu:rcu_grace_period", TS_EV_RCU_GP, { "rcuname", "gp_seq", "gpevent" } },
	{ "rcu:rcu_callback", TS_EV_RCU_CB, { "rhp", "?func" } },
	{ "rcu:rcu_kvfree_callback", TS_EV_RCU_CB, { "rhp", "?func" } },
	{ "rcu:rcu_invoke_callback", TS_EV_RCU_INVOKE, { "rhp", "?func" } },
	{ "rcu:rcu_invoke_kvfree_callback", TS_EV_RCU_INVOKE, { "rhp", "?func" } },
	{ "vmscan:mm_shrink_slab_start",
	  TS_EV_SHRINK_START,
	  { "shr", "shrink", "nid", "nr_objects_to_shrink", "cache_items", "total_scan",
	    "priority" } },
	{ "vmscan:mm_shrink_slab_end",
	  TS_EV_SHRINK_END,
	  { "shr", "shrink", "nid", "unused_scan", "new_scan", "retval", "total_scan" } },
};

/*
 * A field as the hot path needs it, copied out of libtraceevent's scattered tep_format_field
 * so that decoding an event touches one cache line of descriptors. size 0: not in the format.
 */
struct fld {
	uint16_t off, size;
	uint32_t flags; /* TEP_FIELD_IS_* */
};

struct evcache {
	struct tep_event *ev;
	const struct kind_def *def;
	struct fld f[NF];
	uint64_t report_max; /* sched_switch: the "+" (preempted) bit of prev_state */
	char name[96];
	int state; /* 0 unseen, 1 ready, <0 error code */
};

/* Strings behind pointer fields (rcu), resolved once per address through the print fmt. */
struct strcache {
	uint64_t addr;
	int id;
	char str[48];
	uint8_t start, ctx;
};

/* An event format refused before libtraceevent saw it (see format_check.c). */
struct refused {
	int id;
	char name[64];
	char why[160];
};

#define MAX_REFUSED 16

struct ts_decoder {
	struct tep_handle *tep;
	struct refused refused[MAX_REFUSED];
	int nr_refused;
	struct tep_plugin_list *plugins;
	struct evcache *cache[MAX_TP_ID / 256]; /* two-level, allocated on demand */
	struct strcache strs[NSTR];
	int nr_strs;
	struct trace_seq seq;
	unsigned char scratch[(1u << 16) + PRINT_PAD];
	char err[256];
};

static void on_refused(void *ctx, int id, const char *sys, const char *name, const char *why)
{
	struct ts_decoder *d = ctx;
	struct refused *r;

	if (d->nr_refused == MAX_REFUSED)
		return;
	r = &d->refused[d->nr_refused++];
	r->id = id;
	snprintf(r->name, sizeof(r->name), "%s:%s", sys, name);
	snprintf(r->why, sizeof(r->why), "%s", why);
}

int ts_decoder_new(struct ts_decoder **dp, const void *data, size_t len, char *err, size_t errlen)
{
	struct ts_decoder *d;
	int ret;

	*dp = NULL;
	if (!data || !len) {
		if (err)
			snprintf(err, errlen, "%s", ts_strerror(-TS_ENOTRACEDATA));
		return -TS_ENOTRACEDATA;
	}
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->tep = tep_alloc();
	if (!d->tep) {
		free(d);
		return -ENOMEM;
	}
	/* perf 6.1 looks for plugins only in $TRACEEVENT_PLUGIN_DIR and ~/.local: match it */
	tep_set_flag(d->tep, TEP_DISABLE_SYS_PLUGINS);
	d->plugins = tep_load_plugins(d->tep);
	trace_seq_init(&d->seq);
	ret = ts_tracedata_parse(d->tep, data, len, err, errlen, on_refused, d);
	if (ret) {
		ts_decoder_free(d);
		return ret;
	}
	*dp = d;
	return 0;
}

void ts_decoder_free(struct ts_decoder *d)
{
	size_t i;

	if (!d)
		return;
	for (i = 0; i < sizeof(d->cache) / sizeof(d->cache[0]); i++)
		free(d->cache[i]);
	trace_seq_destroy(&d->seq);
	if (d->plugins)
		tep_unload_plugins(d->plugins, d->tep);
	tep_free(d->tep);
	free(d);
}

struct tep_handle *ts_decoder_tep(struct ts_decoder *d)
{
	return d->tep;
}

const char *ts_decoder_error(const struct ts_decoder *d)
{
	return d->err;
}

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
static uint64_t find_report_max(const struct tep_event *ev)
{
	const struct tep_print_arg *a;
	uint64_t best = 0, v;

	for (a = ev->print_fmt.args; a; a = a->next) {
		const struct tep_print_arg *c;

		if (a->type != TEP_PRINT_OP || strcmp(a->op.op, "?"))
			continue;
		c = a->op.left;
		if (!c || c->type != TEP_PRINT_OP || strcmp(c->op.op, "&"))
			continue;
		if ((is_field(c->op.left, "prev_state") && !eval_const(c->op.right, &v)) ||
		    (is_field(c->op.right, "prev_state") && !eval_const(c->op.left, &v)))
			best = v > best ? v : best;
	}
	return best;
}

static const struct kind_def *find_kind(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(kinds[i].event, name))
			return &kinds[i];
	return NULL;
}

static struct evcache *lookup_slow(struct ts_decoder *d, int id)
{
	struct evcache **page, *c;
	struct tep_format_field *tf;
	size_t i;

	if (id < 0 || id >= MAX_TP_ID)
		return NULL;
	page = &d->cache[id / 256];
	if (!*page) {
		*page = calloc(256, sizeof(**page));
		if (!*page)
			return NULL;
	}
	c = &(*page)[id % 256];
	if (c->state)
		return c;
	c->ev = tep_find_event(d->tep, id);
	if (!c->ev) {
		c->state = -TS_ENOFORMAT;
		return c;
	}
	snprintf(c->name, sizeof(c->name), "%s:%s", c->ev->system, c->ev->name);
	c->def = find_kind(c->name);
	c->state = 1;
	for (i = 0; c->def && i < NF && c->def->fields[i]; i++) {
		const char *f = c->def->fields[i];
		int optional = *f == '?';

		tf = tep_find_field(c->ev, f + optional);
		if (tf && tf->offset >= 0 && tf->size > 0 && tf->offset <= 0xffff &&
		    tf->size <= 0xffff)
			c->f[i] = (struct fld){ tf->offset, tf->size, (uint32_t)tf->flags };
		else
			tf = NULL;
		if (!tf && !optional) {
			snprintf(d->err, sizeof(d->err), "event %s: format has no field '%s'",
				 c->name, f);
			c->state = -TS_ENOFIELD;
		}
	}
	if (c->def && c->def->kind == TS_EV_SWITCH)
		c->report_max = find_report_max(c->ev);
	return c;
}

/* Every sample comes here: the cached entry in two loads, the rest on first sight of an id. */
static inline struct evcache *lookup(struct ts_decoder *d, int id)
{
	struct evcache *page;

	if ((unsigned int)id < MAX_TP_ID && (page = d->cache[id >> 8]) && page[id & 255].state)
		return &page[id & 255];
	return lookup_slow(d, id);
}

const char *ts_decoder_event_name(struct ts_decoder *d, int tp_id)
{
	struct evcache *c = lookup(d, tp_id);

	return c && c->state > 0 ? c->name : NULL;
}

struct payload {
	const unsigned char *p;
	uint32_t size;
	int bad;
};

/* A numeric field, sign-extended when the format says signed (libtraceevent does not). */
static uint64_t num(struct payload *pl, const struct fld *f)
{
	uint64_t v = 0;

	if (!f->size)
		return 0;
	if ((uint32_t)f->off + f->size > pl->size || f->size > 8) {
		pl->bad = 1;
		return 0;
	}
	switch (f->size) {
	case 1:
		v = pl->p[f->off];
		return f->flags & TEP_FIELD_IS_SIGNED ? (uint64_t)(int8_t)v : v;
	case 2: {
		uint16_t x;

		memcpy(&x, pl->p + f->off, 2);
		return f->flags & TEP_FIELD_IS_SIGNED ? (uint64_t)(int16_t)x : x;
	}
	case 4: {
		uint32_t x;

		memcpy(&x, pl->p + f->off, 4);
		return f->flags & TEP_FIELD_IS_SIGNED ? (uint64_t)(int32_t)x : x;
	}
	case 8:
		memcpy(&v, pl->p + f->off, 8);
		return v;
	default:
		pl->bad = 1;
		return 0;
	}
}

/* A char array or a __data_loc string, copied NUL-terminated into @out. */
static void str(struct payload *pl, const struct fld *f, char *out, size_t len)
{
	uint32_t off, n;

	out[0] = 0;
	if (!f->size)
		return;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		uint32_t loc;

		if ((uint32_t)f->off + 4 > pl->size) {
			pl->bad = 1;
			return;
		}
		memcpy(&loc, pl->p + f->off, 4);
		off = loc & 0xffff;
		n = loc >> 16;
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += f->off + 4;
	} else if (f->flags & TEP_FIELD_IS_ARRAY) {
		off = f->off;
		n = f->size;
	} else {
		return; /* a pointer: the string is not in the payload */
	}
	if (off + n > pl->size) {
		pl->bad = 1;
		return;
	}
	if (n >= len)
		n = len - 1;
	memcpy(out, pl->p + off, n); /* readers stop at the first NUL: no need to scan for it */
	out[n] = 0;
}

/* Does every field of the format lie inside the payload (dynamic ones by their __data_loc)? */
static int fields_inside(const struct tep_event *ev, const unsigned char *raw, uint32_t size)
{
	const struct tep_format_field *f;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		f = pass ? ev->format.fields : ev->format.common_fields;
		for (; f; f = f->next) {
			uint32_t loc, off, len;

			if (f->offset < 0 || f->size < 0 || (uint32_t)f->offset + f->size > size)
				return 0;
			if (!(f->flags & TEP_FIELD_IS_DYNAMIC) || f->size < 4)
				continue;
			memcpy(&loc, raw + f->offset, 4);
			off = loc & 0xffff;
			len = loc >> 16;
			if (f->flags & TEP_FIELD_IS_RELATIVE)
				off += f->offset + f->size;
			if (off + len > size)
				return 0;
		}
	}
	return 1;
}

/*
 * Print one payload into d->seq with the event's own print fmt. libtraceevent trusts the
 * payload: a field past its end, or a string without a NUL, is read beyond it. So fields are
 * checked against the size, and the payload is printed from a copy with zeros after it.
 * Return: 0, or -TS_ECORRUPT (d->seq then says so).
 */
static int print_info(struct ts_decoder *d, const void *raw, uint32_t size, int cpu)
{
	struct tep_record rec = { .size = size, .cpu = cpu };
	struct tep_event *ev;

	trace_seq_reset(&d->seq);
	if (size < 2 || size > (1u << 16)) {
		trace_seq_puts(&d->seq, "[payload size out of range]");
		trace_seq_terminate(&d->seq);
		return -TS_ECORRUPT;
	}
	memcpy(d->scratch, raw, size);
	memset(d->scratch + size, 0, PRINT_PAD);
	rec.data = d->scratch;
	ev = tep_find_event_by_record(d->tep, &rec);
	if (!ev || !fields_inside(ev, d->scratch, size)) {
		trace_seq_puts(&d->seq, "[payload shorter than its format]");
		trace_seq_terminate(&d->seq);
		return -TS_ECORRUPT;
	}
	tep_print_event(d->tep, &d->seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&d->seq);
	return 0;
}

static const char *const rcu_ctx_names[] = {
	[TS_RCU_CTXSW] = "context switch",
	[TS_RCU_TICK] = "scheduler-tick",
	[TS_RCU_CORE] = "RCU core",
};

/*
 * rcu's string fields are pointers into the kernel's rodata, resolved by the printk formats
 * section. Resolve each distinct pointer once by printing the event, then cache it.
 */
static struct strcache *ptr_string(struct ts_decoder *d, int id, uint64_t addr, int word,
				   const void *raw, uint32_t size, int cpu)
{
	struct strcache *s;
	const char *p;
	int i;

	for (i = 0; i < d->nr_strs; i++)
		if (d->strs[i].addr == addr && d->strs[i].id == id)
			return &d->strs[i];
	s = &d->strs[d->nr_strs < NSTR ? d->nr_strs++ : NSTR - 1];
	memset(s, 0, sizeof(*s));
	s->addr = addr;
	s->id = id;
	print_info(d, raw, size, cpu);
	p = d->seq.buffer;
	for (i = 0; i < word && p; i++) {
		p = strchr(p, ' ');
		p = p ? p + 1 : NULL;
	}
	if (p)
		snprintf(s->str, sizeof(s->str), "%.*s", word < 0 ? 47 : (int)strcspn(p, " "), p);
	if (!strncmp(s->str, "Start ", 6) || !strncmp(s->str, "End ", 4)) {
		const char *what = s->str + (s->str[0] == 'S' ? 6 : 4);

		s->start = s->str[0] == 'S';
		s->ctx = TS_RCU_OTHER;
		for (i = 1; i < (int)(sizeof(rcu_ctx_names) / sizeof(rcu_ctx_names[0])); i++)
			if (rcu_ctx_names[i] && !strcmp(what, rcu_ctx_names[i]))
				s->ctx = i;
	}
	return s;
}

static void fill_event(struct ts_decoder *d, const struct evcache *c, struct payload *pl, int tp_id,
		       int cpu, struct ts_event *ev)
{
	const struct fld *f = c->f;
	struct strcache *s;

	switch (ev->kind) {
	case TS_EV_SWITCH:
		str(pl, &f[0], ev->sw.prev_comm, TS_COMM_LEN);
		ev->sw.prev_pid = num(pl, &f[1]);
		ev->sw.prev_prio = num(pl, &f[2]);
		ev->sw.prev_state_raw = num(pl, &f[3]);
		ev->sw.prev_state = ts_task_state_class(ev->sw.prev_state_raw, c->report_max);
		str(pl, &f[4], ev->sw.next_comm, TS_COMM_LEN);
		ev->sw.next_pid = num(pl, &f[5]);
		ev->sw.next_prio = num(pl, &f[6]);
		break;
	case TS_EV_WAKING:
	case TS_EV_WAKEUP:
	case TS_EV_WAKEUP_NEW:
		str(pl, &f[0], ev->wake.comm, TS_COMM_LEN);
		ev->wake.pid = num(pl, &f[1]);
		ev->wake.prio = num(pl, &f[2]);
		ev->wake.target_cpu = num(pl, &f[3]);
		break;
	case TS_EV_MIGRATE:
		str(pl, &f[0], ev->migrate.comm, TS_COMM_LEN);
		ev->migrate.pid = num(pl, &f[1]);
		ev->migrate.prio = num(pl, &f[2]);
		ev->migrate.orig_cpu = num(pl, &f[3]);
		ev->migrate.dest_cpu = num(pl, &f[4]);
		break;
	case TS_EV_PROCESS_EXIT:
		str(pl, &f[0], ev->exit.comm, TS_COMM_LEN);
		ev->exit.pid = num(pl, &f[1]);
		break;
	case TS_EV_CPU_IDLE:
		ev->idle.state = num(pl, &f[0]);
		ev->idle.cpu_id = num(pl, &f[1]);
		break;
	case TS_EV_TICK_STOP: {
		const char *dep;

		ev->tick_stop.success = num(pl, &f[0]);
		/* the dependency is a __print_symbolic() of TICK_DEP_MASK_*: use its names */
		print_info(d, pl->p, pl->size, cpu);
		dep = strstr(d->seq.buffer, "dependency=");
		snprintf(ev->tick_stop.dependency, sizeof(ev->tick_stop.dependency), "%.*s",
			 dep ? (int)strcspn(dep + 11, " \n") : 1, dep ? dep + 11 : "?");
		break;
	}
	case TS_EV_TIMER_START:
	case TS_EV_TIMER_EXPIRE_ENTRY:
	case TS_EV_TIMER_EXPIRE_EXIT:
	case TS_EV_TIMER_CANCEL:
	case TS_EV_HRTIMER_START:
	case TS_EV_HRTIMER_EXPIRE_ENTRY:
	case TS_EV_HRTIMER_EXPIRE_EXIT:
	case TS_EV_HRTIMER_CANCEL:
		ev->timer.timer = num(pl, &f[0]);
		ev->timer.function = num(pl, &f[1]);
		if (ev->kind == TS_EV_TIMER_START || ev->kind == TS_EV_HRTIMER_START)
			ev->timer.expires = num(pl, &f[2]);
		else
			ev->timer.now = num(pl, &f[2]);
		break;
	case TS_EV_WQ_QUEUE:
	case TS_EV_WQ_ACTIVATE:
	case TS_EV_WQ_START:
	case TS_EV_WQ_END:
		ev->wq.work = num(pl, &f[0]);
		ev->wq.function = num(pl, &f[1]);
		if (ev->kind == TS_EV_WQ_QUEUE) {
			str(pl, &f[2], ev->wq.wq_name, sizeof(ev->wq.wq_name));
			ev->wq.req_cpu = num(pl, &f[3]);
			ev->wq.cpu = num(pl, &f[4]);
		}
		break;
	case TS_EV_RCU_UTIL:
		s = ptr_string(d, tp_id, num(pl, &f[0]), -1, pl->p, pl->size, cpu);
		ev->rcu_util.start = s->start;
		ev->rcu_util.ctx = s->ctx;
		ev->rcu_util.str = s->str;
		break;
	case TS_EV_RCU_GP:
		ev->rcu_gp.gp_seq = num(pl, &f[1]);
		ev->rcu_gp.rcuname =
			ptr_string(d, tp_id, num(pl, &f[0]), 0, pl->p, pl->size, cpu)->str;
		ev->rcu_gp.gpevent =
			ptr_string(d, tp_id, num(pl, &f[2]), 2, pl->p, pl->size, cpu)->str;
		break;
	case TS_EV_RCU_CB:
	case TS_EV_RCU_INVOKE:
		ev->rcu_cb.rhp = num(pl, &f[0]);
		ev->rcu_cb.func = num(pl, &f[1]);
		break;
	case TS_EV_SHRINK_START:
		ev->shrink.shr = num(pl, &f[0]);
		ev->shrink.function = num(pl, &f[1]);
		ev->shrink.nid = num(pl, &f[2]);
		ev->shrink.nr_objects_to_shrink = num(pl, &f[3]);
		ev->shrink.cache_items = num(pl, &f[4]);
		ev->shrink.total_scan = num(pl, &f[5]);
		ev->shrink.priority = num(pl, &f[6]);
		break;
	case TS_EV_SHRINK_END:
		ev->shrink.shr = num(pl, &f[0]);
		ev->shrink.function = num(pl, &f[1]);
		ev->shrink.nid = num(pl, &f[2]);
		ev->shrink.unused_scan = num(pl, &f[3]);
		ev->shrink.new_scan = num(pl, &f[4]);
		ev->shrink.retval = num(pl, &f[5]);
		ev->shrink.total_scan = num(pl, &f[6]);
		break;
	default:
		break;
	}
}

static void no_format(struct ts_decoder *d, int tp_id)
{
	int i;

	for (i = 0; i < d->nr_refused; i++)
		if (d->refused[i].id == tp_id) {
			snprintf(d->err, sizeof(d->err),
				 "event %s (tracepoint id %d): its format was refused: %s",
				 d->refused[i].name, tp_id, d->refused[i].why);
			return;
		}
	snprintf(d->err, sizeof(d->err), "tracepoint id %d has no format in the tracing data",
		 tp_id);
}

int ts_decoder_decode(struct ts_decoder *d, int tp_id, const void *raw, uint32_t size,
		      struct ts_event *ev)
{
	struct evcache *c = lookup(d, tp_id);
	struct payload pl = { raw, size, 0 };

	if (!c)
		return tp_id < 0 || tp_id >= MAX_TP_ID ? -TS_ENOFORMAT : -ENOMEM;
	if (c->state < 0) {
		if (c->state == -TS_ENOFORMAT)
			no_format(d, tp_id);
		return c->state;
	}
	ev->tp_id = tp_id;
	ev->name = c->name;
	ev->kind = c->def ? c->def->kind : TS_EV_OTHER;
	fill_event(d, c, &pl, tp_id, ev->cpu, ev);
	if (pl.bad) {
		snprintf(d->err, sizeof(d->err),
			 "event %s: payload of %u bytes is shorter than "
			 "its format",
			 c->name, size);
		return -TS_ECORRUPT;
	}
	return 0;
}

int ts_decoder_kind(struct ts_decoder *d, int tp_id)
{
	struct evcache *c = lookup(d, tp_id);

	if (!c)
		return -TS_ENOFORMAT;
	if (c->state < 0)
		return c->state;
	return c->def ? c->def->kind : TS_EV_OTHER;
}

int ts_decoder_print(struct ts_decoder *d, int tp_id, const void *raw, uint32_t size, int cpu,
		     FILE *out)
{
	struct evcache *c = lookup(d, tp_id);
	int ret;

	if (!c || c->state == -TS_ENOFORMAT)
		return -TS_ENOFORMAT;
	ret = print_info(d, raw, size, cpu);
	fputs(d->seq.buffer, out);
	return ret;
}

/* The address of text symbol @ref in kallsyms text @buf, or 0. */
static uint64_t kallsyms_addr_of(const char *buf, const char *ref)
{
	size_t rlen = strlen(ref);
	const char *p, *nl, *sp;

	for (p = buf; p && *p; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		sp = strchr(p, ' ');
		if (sp && (!nl || sp < nl) && (sp[1] == 'T' || sp[1] == 't') && sp[2] == ' ' &&
		    !strncmp(sp + 3, ref, rlen) && (sp[3 + rlen] == '\n' || !sp[3 + rlen]))
			return strtoull(p, NULL, 16);
	}
	return 0;
}

/*
 * kallsyms text of another boot, moved by @delta: the kernel's lines shifted, the modules'
 * dropped (they were placed apart). Return: a new buffer, or NULL without memory.
 */
static char *kallsyms_moved(const char *buf, uint64_t delta)
{
	size_t alloc = strlen(buf) + 64, len = 0;
	char *out = malloc(alloc), *end;
	const char *p, *le;

	if (!out)
		return NULL;
	for (p = buf; *p; p = *le ? le + 1 : le) {
		uint64_t addr;
		int n;

		le = strchr(p, '\n');
		if (!le)
			le = p + strlen(p);
		if (memchr(p, '\t', le - p)) /* "name\t[module]" */
			continue;
		addr = strtoull(p, &end, 16);
		if (end == p || end >= le || *end != ' ')
			continue;
		/* the same width: a line is as long as before unless the address grew */
		for (;;) {
			char *bigger;

			n = snprintf(out + len, alloc - len, "%0*llx%.*s\n", (int)(end - p),
				     (unsigned long long)(addr + delta), (int)(le - end), end);
			if (n >= 0 && (size_t)n < alloc - len)
				break;
			bigger = n < 0 ? NULL : realloc(out, alloc *= 2);
			if (!bigger) {
				free(out);
				return NULL;
			}
			out = bigger;
		}
		len += n;
	}
	out[len] = 0;
	return out;
}

int ts_decoder_set_kallsyms(struct ts_decoder *d, const char *path, const char *ref,
			    uint64_t ref_addr, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL, *moved = NULL;
	size_t len = 0, alloc = 0, n;
	uint64_t at;
	int ret = 0;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -errno;
	}
	/* /proc/kallsyms has no size: read to the end */
	do {
		if (alloc - len < 65536) {
			char *p = realloc(buf, alloc = alloc ? alloc * 2 : 1 << 20);

			if (!p) {
				ret = -ENOMEM;
				goto out_close;
			}
			buf = p;
		}
		n = fread(buf + len, 1, alloc - len - 1, f);
		len += n;
	} while (n);
	if (ferror(f)) {
		snprintf(err, errlen, "%s: read error", path);
		ret = -EIO;
		goto out_close;
	}
	buf[len] = 0;
	/* another boot of the same kernel (KASLR): move it where the recording had it */
	at = ref && ref[0] ? kallsyms_addr_of(buf, ref) : 0;
	if (at && at != ref_addr) {
		moved = kallsyms_moved(buf, ref_addr - at);
		if (!moved) {
			ret = -ENOMEM;
			goto out_close;
		}
	}
	if (tep_parse_kallsyms(d->tep, moved ? moved : buf)) {
		snprintf(err, errlen, "%s: not a kallsyms file", path);
		ret = -TS_EKALLSYMS;
	}
out_close:
	free(moved);
	free(buf);
	fclose(f);
	return ret;
}
