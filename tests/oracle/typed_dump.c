// SPDX-License-Identifier: GPL-2.0-only
/*
 * typed_dump FILE [KALLSYMS|none]: every typed event the models are fed (decode.c's fill_event()
 * and num(), not libtraceevent's printer), as "[cpu] time: event:" and TAB-separated
 * key=value pairs named as perf script's trace text names them; tests/typed-oracle.t holds
 * each pair against perf script's line for the same sample.
 */
#include <stdio.h>
#include <string.h>

#include "tickscope/error.h"
#include "tickscope/source.h"

struct ctx {
	const struct ts_ksyms *ks;
	unsigned long long n;
};

static char state_class(uint8_t c)
{
	return "RSDO"[c < 4 ? c : 3];
}

/* A function field as perf's %ps prints it: the symbol, or the raw address without one. */
static void func(const struct ctx *c, const char *key, uint64_t addr)
{
	uint64_t off = 0;
	const char *s = ts_ksyms_lookup(c->ks, addr, &off);

	if (s && !off)
		printf("\t%s=%s", key, s);
	else if (s)
		printf("\t%s=%s+0x%llx", key, s, (unsigned long long)off);
	else
		printf("\t%s=0x%llx", key, (unsigned long long)addr);
}

/* The sched kinds' fields; Return: 1 if @ev is one of them. */
static int sched_fields(const struct ts_event *ev)
{
	switch (ev->kind) {
	case TS_EV_SWITCH:
		printf("\tprev_comm=%s\tprev_pid=%d\tprev_prio=%d\tprev_state=%c"
		       "\tnext_comm=%s\tnext_pid=%d\tnext_prio=%d",
		       ev->sw.prev_comm, ev->sw.prev_pid, ev->sw.prev_prio,
		       state_class(ev->sw.prev_state), ev->sw.next_comm, ev->sw.next_pid,
		       ev->sw.next_prio);
		break;
	case TS_EV_WAKING:
	case TS_EV_WAKEUP:
	case TS_EV_WAKEUP_NEW:
		printf("\tcomm=%s\tpid=%d\tprio=%d\ttarget_cpu=%d", ev->wake.comm, ev->wake.pid,
		       ev->wake.prio, ev->wake.target_cpu);
		break;
	case TS_EV_MIGRATE:
		printf("\tcomm=%s\tpid=%d\tprio=%d\torig_cpu=%d\tdest_cpu=%d", ev->migrate.comm,
		       ev->migrate.pid, ev->migrate.prio, ev->migrate.orig_cpu,
		       ev->migrate.dest_cpu);
		break;
	case TS_EV_PROCESS_EXIT:
		printf("\tcomm=%s\tpid=%d", ev->exit.comm, ev->exit.pid);
		break;
	default:
		return 0;
	}
	return 1;
}

/* Timer kinds, hrtimer or not: by name, since the event table's order is not a contract. */
static int timer_kind(int kind, int *hr)
{
	switch (kind) {
	case TS_EV_HRTIMER_START:
	case TS_EV_HRTIMER_EXPIRE_ENTRY:
	case TS_EV_HRTIMER_EXPIRE_EXIT:
	case TS_EV_HRTIMER_CANCEL:
		*hr = 1;
		return 1;
	case TS_EV_TIMER_START:
	case TS_EV_TIMER_EXPIRE_ENTRY:
	case TS_EV_TIMER_EXPIRE_EXIT:
	case TS_EV_TIMER_CANCEL:
		*hr = 0;
		return 1;
	default:
		return 0;
	}
}

static void timer_fields(const struct ctx *c, const struct ts_event *ev, int hr)
{
	const char *t = hr ? "hrtimer" : "timer";

	printf("\t%s=0x%llx", t, (unsigned long long)ev->timer.timer);
	switch (ev->kind) {
	case TS_EV_TIMER_START:
	case TS_EV_HRTIMER_START:
		func(c, "function", ev->timer.function);
		printf("\texpires=%llu", (unsigned long long)ev->timer.expires);
		break;
	case TS_EV_TIMER_EXPIRE_ENTRY:
	case TS_EV_HRTIMER_EXPIRE_ENTRY:
		func(c, "function", ev->timer.function);
		printf("\tnow=%llu", (unsigned long long)ev->timer.now);
		break;
	default:
		break;
	}
}

static void other_fields(const struct ctx *c, const struct ts_event *ev)
{
	switch (ev->kind) {
	case TS_EV_CPU_IDLE:
		printf("\tstate=%u\tcpu_id=%u", ev->idle.state, ev->idle.cpu_id);
		break;
	case TS_EV_TICK_STOP:
		printf("\tsuccess=%d\tdependency=%s", ev->tick_stop.success,
		       ev->tick_stop.dependency);
		break;
	case TS_EV_WQ_QUEUE:
	case TS_EV_WQ_ACTIVATE:
	case TS_EV_WQ_START:
	case TS_EV_WQ_END:
		printf("\twork=0x%llx", (unsigned long long)ev->wq.work);
		if (ev->wq.function)
			func(c, "function", ev->wq.function);
		if (ev->kind == TS_EV_WQ_QUEUE)
			printf("\tworkqueue=%s\treq_cpu=%d\tcpu=%d", ev->wq.wq_name, ev->wq.req_cpu,
			       ev->wq.cpu);
		break;
	case TS_EV_RCU_UTIL:
		printf("\ts=%s", ev->rcu_util.str);
		break;
	case TS_EV_SHRINK_START:
	case TS_EV_SHRINK_END:
		printf("\tnid=%d", ev->shrink.nid);
		break;
	default:
		break;
	}
}

static int on_event(void *vc, const struct ts_event *ev, const struct ts_sample *s)
{
	struct ctx *c = vc;
	int hr;

	if (!s || ev->kind == TS_EV_OTHER)
		return 0;
	c->n++;
	printf("[%03d] %llu.%09llu: %s:", ev->cpu, (unsigned long long)(ev->time / 1000000000ULL),
	       (unsigned long long)(ev->time % 1000000000ULL), ev->name);
	if (timer_kind(ev->kind, &hr))
		timer_fields(c, ev, hr);
	else if (!sched_fields(ev))
		other_fields(c, ev);
	putchar('\n');
	return 0;
}

int main(int argc, char **argv)
{
	/* every_attr: perf script prints a repeated tracepoint's samples too (x86-tiny-twice) */
	struct ts_source_opts o = { .need_decoder = 1, .symbols = TS_SYMS_TABLE, .every_attr = 1 };
	struct ts_source *src = NULL;
	struct ctx c = { 0 };
	int ret;

	if (argc < 2 || argc > 3) {
		fputs("usage: typed_dump FILE [KALLSYMS|none]\n", stderr);
		return 2;
	}
	o.input = argv[1];
	o.kallsyms = argc == 3 ? argv[2] : NULL;
	if (o.kallsyms && !strcmp(o.kallsyms, "none")) {
		o.kallsyms = NULL;
		o.symbols = 0; /* raw addresses, as perf prints them without symbols */
	}
	ret = ts_source_open(&src, &o);
	if (!ret) {
		c.ks = ts_source_ksyms(src);
		ret = ts_source_run(src, on_event, &c);
	}
	fflush(stdout);
	if (ret)
		fprintf(stderr, "typed_dump: %s\n", src ? ts_source_error(src) : ts_strerror(ret));
	ts_source_close(src);
	return ret ? 1 : 0;
}
