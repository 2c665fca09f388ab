// SPDX-License-Identifier: GPL-2.0-only
/*
 * plugin_tickscope.so: a libtraceevent plugin. Its handlers print tickscope's classes where the
 * event's format prints raw fields, so that `perf report -s trace`, perf script, trace-cmd and
 * KernelShark group and read events by mechanism. The classes come from analysis/model/classify.c.
 *
 * It links against neither libtraceevent nor perf: perf 6.1 carries its own libtraceevent and
 * exports it, Debian's trace-cmd uses libtraceevent 1.7, and the plugin calls only functions
 * both export (tests/tep-plugin.t checks with nm -D). It reads no libtraceevent struct field
 * but struct tep_record's ts and cpu, which both layouts place alike.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "tickscope/classify.h"

/* hrtimer_cancel names only the hrtimer: remember each one's function from its start */
#define NR_TIMERS 4096

struct timer_slot {
	uint64_t hrtimer, function;
};

/* One per tep handle the plugin was loaded into: the handlers' context. */
struct plugin_ctx {
	struct tep_handle *tep;
	struct plugin_ctx *next;
	struct timer_slot timers[NR_TIMERS];
};

/*
 * The loaded instances, so that the unloader finds the context it registered with: a plugin
 * has no other place to keep it. Loaders run one at a time (at tep set-up).
 */
static struct plugin_ctx *loaded;

/* Read a numeric field; nonzero when the event has no such field. */
static int num(struct tep_event *event, struct tep_record *rec, const char *name, uint64_t *v)
{
	unsigned long long val;

	if (tep_get_field_val(NULL, event, name, rec, &val, 0))
		return -1;
	*v = val;
	return 0;
}

/* "function=NAME", or the address when the host cannot name it (name NULL). */
static void put_name(struct trace_seq *s, const char *name, uint64_t addr)
{
	if (name)
		trace_seq_printf(s, "function=%s", name);
	else
		trace_seq_printf(s, "function=0x%llx", (unsigned long long)addr);
}

static void put_fn(struct trace_seq *s, struct plugin_ctx *c, uint64_t addr)
{
	put_name(s, tep_find_function(c->tep, addr), addr);
}

/* "class=CLASS function=NAME": the class by rule, "-" when the function has no name, as a
 * figure not measured is. */
static void put_class_fn(struct trace_seq *s, struct plugin_ctx *c, uint64_t addr,
			 const char *(*rule)(const char *))
{
	const char *name = tep_find_function(c->tep, addr);

	trace_seq_printf(s, "class=%s ", name ? rule(name) : "-");
	put_name(s, name, addr);
}

static struct timer_slot *slot(struct plugin_ctx *c, uint64_t hrtimer)
{
	return &c->timers[(hrtimer >> 4) * 0x9E3779B97F4A7C15ULL >> 52];
}

/* hrtimer_expire_entry, hrtimer_start: "class=tick function=tick_sched_timer" */
static int hrtimer_fn(struct trace_seq *s, struct tep_record *rec, struct tep_event *event,
		      void *context)
{
	struct plugin_ctx *c = context;
	uint64_t fn, timer;

	if (num(event, rec, "function", &fn))
		return 1;
	if (!num(event, rec, "hrtimer", &timer))
		*slot(c, timer) = (struct timer_slot){ .hrtimer = timer, .function = fn };
	put_class_fn(s, c, fn, ts_class_hrtimer);
	return 0;
}

/* hrtimer_cancel: the function of the hrtimer's last start seen, else the hrtimer alone */
static int hrtimer_cancel(struct trace_seq *s, struct tep_record *rec, struct tep_event *event,
			  void *context)
{
	struct plugin_ctx *c = context;
	struct timer_slot *t;
	uint64_t timer;

	if (num(event, rec, "hrtimer", &timer))
		return 1;
	t = slot(c, timer);
	if (t->hrtimer != timer || !t->function) {
		trace_seq_printf(s, "class=- function=- hrtimer=0x%llx", (unsigned long long)timer);
		return 0;
	}
	put_class_fn(s, c, t->function, ts_class_hrtimer);
	return 0;
}

/* timer_expire_entry, workqueue_execute_start: "class=vmstat function=vmstat_update" */
static int work_fn(struct trace_seq *s, struct tep_record *rec, struct tep_event *event,
		   void *context)
{
	struct plugin_ctx *c = context;
	uint64_t fn;

	if (num(event, rec, "function", &fn))
		return 1;
	put_class_fn(s, c, fn, ts_class_work);
	return 0;
}

/* workqueue_queue_work: the work's class and function, and the CPU it was queued for */
static int queue_work(struct trace_seq *s, struct tep_record *rec, struct tep_event *event,
		      void *context)
{
	struct plugin_ctx *c = context;
	uint64_t fn, cpu;

	if (num(event, rec, "function", &fn) || num(event, rec, "cpu", &cpu))
		return 1;
	put_class_fn(s, c, fn, ts_class_work);
	/* WORK_CPU_UNBOUND (NR_CPUS) is printed by the kernel's format as a number too */
	trace_seq_printf(s, " cpu=%llu", (unsigned long long)cpu);
	return 0;
}

/* power:cpu_idle: "enter state=N" or "exit" (PWR_EVENT_EXIT, (u32)-1) */
static int cpu_idle(struct trace_seq *s, struct tep_record *rec, struct tep_event *event,
		    void *context)
{
	uint64_t state;

	if (num(event, rec, "state", &state))
		return 1;
	if ((uint32_t)state == UINT32_MAX)
		trace_seq_puts(s, "exit");
	else
		trace_seq_printf(s, "enter state=%llu", (unsigned long long)state);
	return 0;
}

/*
 * sched_switch: "prev_state=R+ next=task". TASK_REPORT_MAX, the preemption flag, is 0x100
 * from v4.14 (TASK_REPORT 0x7f plus TASK_REPORT_IDLE, shifted); the CLI reads it from the
 * format's print fmt, which a plugin cannot read through the functions both hosts export.
 */
static int sched_switch(struct trace_seq *s, struct tep_record *rec, struct tep_event *event,
			void *context)
{
	uint64_t state, next_pid;

	if (num(event, rec, "prev_state", &state) || num(event, rec, "next_pid", &next_pid))
		return 1;
	trace_seq_printf(s, "prev_state=%s next=%s", ts_class_task_state(state, 0x100),
			 next_pid ? "task" : "idle");
	return 0;
}

/*
 * sched_waking: "where=remote target_cpu=3": whether the target is the waker's CPU. perf
 * report's -s trace hands a handler the payload alone (perf 6.1 get_trace_output(): no time,
 * no CPU, both 0), where every wake read as one from CPU 0: there the waker's CPU is "-".
 */
static int sched_waking(struct trace_seq *s, struct tep_record *rec, struct tep_event *event,
			void *context)
{
	const char *where = "remote";
	uint64_t target;

	if (num(event, rec, "target_cpu", &target))
		return 1;
	if (!rec->ts && !rec->cpu)
		where = "-";
	else if (rec->cpu >= 0 && (uint64_t)rec->cpu == target)
		where = "local";
	trace_seq_printf(s, "where=%s target_cpu=%llu", where, (unsigned long long)target);
	return 0;
}

/* tick_stop: "result=stopped" or "result=refused dependency=SCHED" */
static int tick_stop(struct trace_seq *s, struct tep_record *rec, struct tep_event *event,
		     void *context)
{
	uint64_t success, dep;
	const char *name;

	if (num(event, rec, "success", &success) || num(event, rec, "dependency", &dep))
		return 1;
	if (success) {
		trace_seq_puts(s, "result=stopped");
		return 0;
	}
	name = ts_class_tick_dep(dep);
	if (name)
		trace_seq_printf(s, "result=refused dependency=%s", name);
	else
		trace_seq_printf(s, "result=refused dependency=0x%llx", (unsigned long long)dep);
	return 0;
}

/*
 * A string field (char[] or __data_loc) as text, or NULL. A `const char *` field (6.1's
 * ipi_raise and ipi_entry reason, rcu_utilization's s) holds a kernel address that only the
 * host's printk table names, which no function both hosts export reaches: its bytes are not
 * printable text ending in a NUL, so it is NULL here and the event keeps its own print.
 */
static const char *str(struct tep_event *event, struct tep_record *rec, const char *name, char *buf,
		       size_t len)
{
	const unsigned char *p;
	int i, n;

	p = tep_get_field_raw(NULL, event, name, rec, &n, 0);
	if (!p || n <= 0)
		return NULL;
	for (i = 0; i < n && p[i]; i++)
		if (p[i] < 0x20 || p[i] > 0x7e || (size_t)i == len - 1)
			return NULL;
	if (i == n || !i)
		return NULL;
	memcpy(buf, p, i + 1);
	return buf;
}

/* irq_handler_entry: "handler=NAME irq=N" */
static int irq_handler(struct trace_seq *s, struct tep_record *rec, struct tep_event *event,
		       void *context)
{
	char buf[64];
	uint64_t irq;

	if (num(event, rec, "irq", &irq) || !str(event, rec, "name", buf, sizeof(buf)))
		return 1;
	trace_seq_printf(s, "handler=%s irq=%llu", buf, (unsigned long long)irq);
	return 0;
}

/* softirq_entry, softirq_exit, softirq_raise: "softirq=TIMER" */
static int softirq(struct trace_seq *s, struct tep_record *rec, struct tep_event *event,
		   void *context)
{
	const char *name;
	uint64_t vec;

	if (num(event, rec, "vec", &vec))
		return 1;
	name = ts_class_softirq(vec);
	if (name)
		trace_seq_printf(s, "softirq=%s", name);
	else
		trace_seq_printf(s, "softirq=%llu", (unsigned long long)vec);
	return 0;
}

/* ipi_entry, ipi_exit, ipi_raise: "kind=reschedule", where the reason is text in the record */
static int ipi(struct trace_seq *s, struct tep_record *rec, struct tep_event *event, void *context)
{
	char buf[64], kind[64];

	if (!str(event, rec, "reason", buf, sizeof(buf)))
		return 1;
	trace_seq_printf(s, "kind=%s", ts_class_ipi_reason(buf, kind, sizeof(kind)));
	return 0;
}

/* mm_shrink_slab_start and _end: "phase=start function=super_cache_scan" */
static int shrink_slab(struct trace_seq *s, struct tep_record *rec, struct tep_event *event,
		       void *context, const char *phase)
{
	struct plugin_ctx *c = context;
	uint64_t fn;

	if (num(event, rec, "shrink", &fn))
		return 1;
	trace_seq_printf(s, "phase=%s ", phase);
	put_fn(s, c, fn);
	return 0;
}

static int shrink_start(struct trace_seq *s, struct tep_record *rec, struct tep_event *event,
			void *context)
{
	return shrink_slab(s, rec, event, context, "start");
}

static int shrink_end(struct trace_seq *s, struct tep_record *rec, struct tep_event *event,
		      void *context)
{
	return shrink_slab(s, rec, event, context, "end");
}

/* The one table: event -> handler. The class names are classify.c's. */
static const struct {
	const char *sys, *name;
	tep_event_handler_func fn;
} handlers[] = {
	{ "timer", "hrtimer_expire_entry", hrtimer_fn },
	{ "timer", "hrtimer_start", hrtimer_fn },
	{ "timer", "hrtimer_cancel", hrtimer_cancel },
	{ "timer", "timer_expire_entry", work_fn },
	{ "timer", "tick_stop", tick_stop },
	{ "workqueue", "workqueue_execute_start", work_fn },
	{ "workqueue", "workqueue_queue_work", queue_work },
	{ "power", "cpu_idle", cpu_idle },
	{ "sched", "sched_switch", sched_switch },
	{ "sched", "sched_waking", sched_waking },
	{ "irq", "irq_handler_entry", irq_handler },
	{ "irq", "softirq_entry", softirq },
	{ "irq", "softirq_exit", softirq },
	{ "irq", "softirq_raise", softirq },
	{ "ipi", "ipi_entry", ipi },
	{ "ipi", "ipi_exit", ipi },
	{ "ipi", "ipi_raise", ipi },
	{ "vmscan", "mm_shrink_slab_start", shrink_start },
	{ "vmscan", "mm_shrink_slab_end", shrink_end },
};

#define NR_HANDLERS (sizeof(handlers) / sizeof(handlers[0]))

int TEP_PLUGIN_LOADER(struct tep_handle *tep);
int TEP_PLUGIN_UNLOADER(struct tep_handle *tep);

int TEP_PLUGIN_LOADER(struct tep_handle *tep)
{
	struct plugin_ctx *c = calloc(1, sizeof(*c));
	size_t i;

	if (!c)
		return -1;
	c->tep = tep;
	c->next = loaded;
	loaded = c;
	/* an event the trace does not have is registered anyway: libtraceevent keeps it pending */
	for (i = 0; i < NR_HANDLERS; i++)
		tep_register_event_handler(tep, -1, handlers[i].sys, handlers[i].name,
					   handlers[i].fn, c);
	return 0;
}

int TEP_PLUGIN_UNLOADER(struct tep_handle *tep)
{
	struct plugin_ctx **pp, *c;
	size_t i;

	for (pp = &loaded; *pp && (*pp)->tep != tep; pp = &(*pp)->next)
		;
	c = *pp;
	if (!c)
		return 0;
	for (i = 0; i < NR_HANDLERS; i++)
		tep_unregister_event_handler(tep, -1, handlers[i].sys, handlers[i].name,
					     handlers[i].fn, c);
	*pp = c->next;
	free(c);
	return 0;
}
