// SPDX-License-Identifier: GPL-2.0-only
/*
 * plugin_tickscope.so loaded into libtraceevent 1.7 by hand (TS_BUILD's build): the handlers'
 * text on hand-built records, hrtimer_cancel named from the last start, an event without a
 * field the handler reads keeping its format's print, two handles at once, and after unloading
 * the format's print again. The formats are the kernel's (6.1 timer and power), cut short.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "tap.h"

#define COMMON                                                                         \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"         \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"         \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

static const char start_fmt[] =
	"name: hrtimer_start\nID: 100\nformat:\n" COMMON
	"\tfield:void * hrtimer;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:void * function;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:s64 expires;\toffset:24;\tsize:8;\tsigned:1;\n\n"
	"print fmt: \"hrtimer=%p function=%ps expires=%llu\", REC->hrtimer, REC->function, "
	"(unsigned long long) REC->expires\n";
/* the same event as a kernel without the function field would have it */
static const char old_start_fmt[] = "name: hrtimer_start\nID: 100\nformat:\n" COMMON
				    "\tfield:void * hrtimer;\toffset:8;\tsize:8;\tsigned:0;\n"
				    "\tfield:s64 expires;\toffset:16;\tsize:8;\tsigned:1;\n\n"
				    "print fmt: \"hrtimer=%p expires=%llu\", REC->hrtimer, "
				    "(unsigned long long) REC->expires\n";
static const char cancel_fmt[] = "name: hrtimer_cancel\nID: 101\nformat:\n" COMMON
				 "\tfield:void * hrtimer;\toffset:8;\tsize:8;\tsigned:0;\n\n"
				 "print fmt: \"hrtimer=%p\", REC->hrtimer\n";
static const char idle_fmt[] = "name: cpu_idle\nID: 102\nformat:\n" COMMON
			       "\tfield:u32 state;\toffset:8;\tsize:4;\tsigned:0;\n"
			       "\tfield:u32 cpu_id;\toffset:12;\tsize:4;\tsigned:0;\n\n"
			       "print fmt: \"state=%lu cpu_id=%lu\", (unsigned long)REC->state, "
			       "(unsigned long)REC->cpu_id\n";

#define TICK_FN 0xffff800008101000ULL
#define TIMER_A 0xffff0000aa000040ULL
#define TIMER_B 0xffff0000bb000080ULL

static struct tep_handle *new_tep(int old)
{
	struct tep_handle *tep = tep_alloc();

	if (!tep)
		return NULL;
	tep_set_long_size(tep, 8);
	tep_set_file_bigendian(tep, tep_is_local_bigendian(tep));
	tep_set_flag(tep, TEP_DISABLE_SYS_PLUGINS);
	if (tep_parse_event(tep, old ? old_start_fmt : start_fmt,
			    strlen(old ? old_start_fmt : start_fmt), "timer") ||
	    tep_parse_event(tep, cancel_fmt, strlen(cancel_fmt), "timer") ||
	    tep_parse_event(tep, idle_fmt, strlen(idle_fmt), "power")) {
		tep_free(tep);
		return NULL;
	}
	tep_register_function(tep, "tick_sched_timer", TICK_FN, NULL);
	return tep;
}

/* Print one record of event @id with the u64 (or u32) fields @a, @b, @c after the header. */
static const char *print(struct tep_handle *tep, int id, int u32s, uint64_t a, uint64_t b,
			 uint64_t c)
{
	static char out[256];
	unsigned char data[40] = { 0 };
	struct tep_record rec = { .data = data, .size = sizeof(data), .cpu = 0 };
	uint16_t type = id;
	uint32_t x;
	struct trace_seq s;

	memcpy(data, &type, 2);
	if (u32s) {
		x = a;
		memcpy(data + 8, &x, 4);
		x = b;
		memcpy(data + 12, &x, 4);
	} else {
		memcpy(data + 8, &a, 8);
		memcpy(data + 16, &b, 8);
		memcpy(data + 24, &c, 8);
	}
	trace_seq_init(&s);
	tep_print_event(tep, &s, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&s);
	snprintf(out, sizeof(out), "%s", s.buffer);
	trace_seq_destroy(&s);
	return out;
}

static void is_str(const char *got, const char *want, const char *name)
{
	if (!ok(!strcmp(got, want), "%s", name))
		diag("  got '%s', want '%s'", got, want);
}

int main(void)
{
	struct tep_plugin_list *list, *list2;
	struct tep_handle *tep, *tep2;
	const char *build = getenv("TS_BUILD");
	char dir[4096];

	if (!build) {
		tap_skip_all(
			"TS_BUILD is not set: it names the build with the plugin (make check)");
		return 0;
	}
	snprintf(dir, sizeof(dir), "%s/traceevent/plugins", build);
	setenv("TRACEEVENT_PLUGIN_DIR", dir, 1);
	setenv("HOME", "/nonexistent", 1); /* no ~/.local plugins of this machine's user */
	tep = new_tep(0);
	tep2 = new_tep(1);
	if (!ok(tep && tep2, "two handles with the timer and power formats")) {
		return tap_done();
	}
	is_str(print(tep, 100, 0, TIMER_A, TICK_FN, 5),
	       "hrtimer=0xffff0000aa000040 "
	       "function=tick_sched_timer expires=5",
	       "before loading: the format's print");

	list = tep_load_plugins(tep);
	list2 = tep_load_plugins(tep2);
	ok(list && list2, "the plugin loads into both handles");
	is_str(print(tep, 100, 0, TIMER_A, TICK_FN, 5), "class=tick function=tick_sched_timer",
	       "hrtimer_start: the tick by class and name");
	is_str(print(tep, 100, 0, TIMER_B, 0xdead0000, 5), "class=- function=0xdead0000",
	       "a function the host cannot name: its address, class -");
	is_str(print(tep, 101, 0, TIMER_A, 0, 0), "class=tick function=tick_sched_timer",
	       "hrtimer_cancel: the function of that hrtimer's last start");
	is_str(print(tep, 101, 0, 0xffff0000cc0000c0ULL, 0, 0),
	       "class=- function=- hrtimer=0xffff0000cc0000c0", "a cancel with no start seen");
	is_str(print(tep, 102, 1, UINT32_MAX, 3, 0), "exit", "cpu_idle's PWR_EVENT_EXIT is exit");
	is_str(print(tep, 102, 1, 2, 3, 0), "enter state=2", "cpu_idle enter");
	is_str(print(tep2, 100, 0, TIMER_A, 7, 0), "hrtimer=0xffff0000aa000040 expires=7",
	       "an hrtimer_start without a function field keeps its format's print");
	is_str(print(tep2, 101, 0, TIMER_A, 0, 0), "class=- function=- hrtimer=0xffff0000aa000040",
	       "each handle has its own table: the other's start is not this one's");

	tep_unload_plugins(list2, tep2);
	is_str(print(tep, 101, 0, TIMER_A, 0, 0), "class=tick function=tick_sched_timer",
	       "unloading from one handle leaves the other's handlers");
	tep_unload_plugins(list, tep);
	is_str(print(tep, 100, 0, TIMER_A, TICK_FN, 5),
	       "hrtimer=0xffff0000aa000040 "
	       "function=tick_sched_timer expires=5",
	       "after unloading: the format's print again");
	is_str(print(tep, 102, 1, 2, 3, 0), "state=2 cpu_id=3", "cpu_idle too");
	tep_free(tep);
	tep_free(tep2);
	return tap_done();
}
