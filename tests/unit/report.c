// SPDX-License-Identifier: GPL-2.0-only
/*
 * Reports on a hand-built analysis: the JSON is well-formed (a small recursive-descent check),
 * sections without their events say "not recorded" and carry no figures, text and TSV agree
 * on every task's and CPU's figures.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tap.h"
#include "tickscope/chart.h"
#include "tickscope/report.h"
#include "tickscope/sched.h"

static const char *p;

static void ws(void)
{
	while (isspace((unsigned char)*p))
		p++;
}

static int value(int depth);

static int string(void)
{
	if (*p++ != '"')
		return 0;
	while (*p && *p != '"') {
		if ((unsigned char)*p < 0x20)
			return 0;
		if (*p == '\\' && !*++p)
			return 0;
		p++;
	}
	return *p++ == '"';
}

static int container(char close, int is_obj, int depth)
{
	ws();
	if (*p == close)
		return p++, 1;
	for (;;) {
		ws();
		if (is_obj && (!string() || (ws(), *p++ != ':')))
			return 0;
		if (!value(depth + 1))
			return 0;
		ws();
		if (*p == close)
			return p++, 1;
		if (*p++ != ',')
			return 0;
	}
}

static int value(int depth)
{
	ws();
	if (depth > 64)
		return 0;
	if (*p == '{')
		return p++, container('}', 1, depth);
	if (*p == '[')
		return p++, container(']', 0, depth);
	if (*p == '"')
		return string();
	if (!strncmp(p, "null", 4))
		return p += 4, 1;
	if (*p == '-' || isdigit((unsigned char)*p)) {
		strtod(p, (char **)&p);
		return 1;
	}
	return 0;
}

static int valid_json(const char *s)
{
	p = s;
	if (!value(0))
		return 0;
	ws();
	return *p == 0;
}

static struct ts_analysis *build(void)
{
	struct ts_analysis *a;
	struct ts_event ev = { .kind = TS_EV_SWITCH };
	int i;

	if (ts_analysis_new(&a, NULL))
		return NULL;
	ts_analysis_note_recorded(a, "sched:sched_switch");
	ts_analysis_note_recorded(a, "sched:sched_waking");
	ts_analysis_note_recorded(a, "vmscan:mm_shrink_slab_start");
	ts_analysis_note_recorded(a, "vmscan:mm_shrink_slab_end");
	for (i = 0; i < 100; i++) {
		ev.time = 1000 + (uint64_t)i * 1000;
		ev.cpu = i % 2;
		ev.sw.prev_pid = i % 4 < 2 ? 0 : 10 + i % 2;
		ev.sw.next_pid = i % 4 < 2 ? 10 + i % 2 : 0;
		ev.sw.prev_state = TS_STATE_SLEEPING;
		strcpy(ev.sw.next_comm, "work\"er\\1");
		ts_analysis_feed(a, &ev);
	}
	ts_analysis_finish(a);
	return a;
}

static char *run_json(struct ts_analysis *a)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	ok(ts_report_json(f, a, NULL) == 0, "ts_report_json returns 0");
	fclose(f);
	return buf;
}

/* Timer expiries without timer_expire_exit, and a task never woken: no figure may read 0. */
static void no_fake_zeros(void)
{
	struct ts_event ev = { .kind = TS_EV_TIMER_EXPIRE_ENTRY };
	struct ts_analysis *a;
	char *text = NULL;
	size_t len = 0;
	FILE *f;
	int i;

	if (ts_analysis_new(&a, NULL)) {
		ok(0, "analysis for the empty distributions");
		return;
	}
	ts_analysis_note_recorded(a, "timer:timer_expire_entry");
	ts_analysis_note_recorded(a, "sched:sched_switch");
	for (i = 0; i < 10; i++) {
		ev.time = 1000 + (uint64_t)i * 1000;
		ev.timer.timer = 0x1000;
		ev.timer.function = 0xffffffff81234560ull;
		ts_analysis_feed(a, &ev);
	}
	ev = (struct ts_event){ .kind = TS_EV_SWITCH, .time = 20000 };
	ev.sw.next_pid = 42;
	strcpy(ev.sw.next_comm, "sleeper");
	ts_analysis_feed(a, &ev);
	ts_analysis_finish(a);
	f = open_memstream(&text, &len);
	ok(f && ts_report_text(f, a, NULL) == 0, "text report without timer exits");
	if (f)
		fclose(f);
	ok(text && strstr(text, "0xffffffff81234560                     timer        10 ") &&
		   strstr(text, "         -         -         -\n"),
	   "timer handler figures are '-' without timer_expire_exit");
	ok(text && strstr(text, "  timer handler times: timer_expire_exit not recorded\n"),
	   "and the text says why");
	ok(text && !strstr(text, "0.0       0.0       0.0"), "no handler figure reads 0.0");
	ok(text && strstr(text, "      0        -        - "),
	   "a task never woken has '-' for its wakeup latency");
	free(text);
	ts_analysis_free(a);
}

/* An idle exit cause whose events were not recorded has no count: null, "-", never 0. */
static void untraced_exits(int with_ipi)
{
	struct ts_event ev = { .kind = TS_EV_CPU_IDLE, .time = 1000 };
	const char *want = with_ipi ? "\"ipi\":0," : "\"ipi\":null,";
	struct ts_analysis *a;
	char *json, *text = NULL;
	size_t len = 0;
	FILE *f;

	if (ts_analysis_new(&a, NULL)) {
		ok(0, "analysis for the idle exits");
		return;
	}
	ts_analysis_note_recorded(a, "power:cpu_idle");
	ts_analysis_note_recorded(a, "sched:sched_switch");
	/* the sender's IPI event tells nothing of the idle CPU that takes the IPI */
	ts_analysis_note_recorded(a, with_ipi ? "irq_vectors:call_function_single_entry" :
						"ipi:ipi_raise");
	ev.idle.state = 1;
	ts_analysis_feed(a, &ev);
	ev.time = 2000;
	ev.idle.state = TS_IDLE_EXIT;
	ts_analysis_feed(a, &ev);
	ev = (struct ts_event){ .kind = TS_EV_SWITCH, .time = 2100 };
	ev.sw.next_pid = 7;
	ts_analysis_feed(a, &ev);
	ts_analysis_finish(a);
	json = run_json(a);
	ok(json &&
		   strstr(json, "\"exits\":{\"hrtimer\":null,\"timer\":null,\"wakeup\":null,"
				"\"resched\":1,") &&
		   strstr(json, want),
	   "JSON idle exits: null for causes not recorded, %s", want);
	f = open_memstream(&text, &len);
	ok(f && ts_report_text(f, a, NULL) == 0, "text report of the idle exits");
	if (f)
		fclose(f);
	ok(text && strstr(text, "timer -, wakeup -, resched 1, ") &&
		   strstr(text, with_ipi ? "ipi 0," : "ipi -,"),
	   "text idle exits: '-' for causes not recorded (ipi %s)", with_ipi ? "0" : "-");
	ok(text && (strstr(text, "(ipi -: no IPI arrival traced") != NULL) == !with_ipi,
	   "the note on IPI tracepoints %s", with_ipi ? "is left out" : "is there");
	free(json);
	free(text);
	ts_analysis_free(a);
}

/* Column @name of a TSV header line, or -1. */
static int tsv_col(const char *header, const char *name)
{
	const char *q = header;
	size_t n = strlen(name);
	int i;

	for (i = 0; q; i++, q = strchr(q, '\t') ? strchr(q, '\t') + 1 : NULL)
		if (!strncmp(q, name, n) && (q[n] == '\t' || q[n] == '\n' || !q[n]))
			return i;
	return -1;
}

static long long tsv_num(const char *row, int col)
{
	while (col-- > 0 && row)
		row = strchr(row, '\t') ? strchr(row, '\t') + 1 : NULL;
	return row ? strtoll(row, NULL, 10) : -1;
}

/* Every sched_tasks.tsv row has a text row with the same switches, involuntary and run time. */
static int tasks_agree(const char *text, const char *dir)
{
	char path[160], head[4096], row[4096], want[128];
	int rows = 0, bad = 0, c[5];
	FILE *f;

	snprintf(path, sizeof(path), "%s/sched_tasks.tsv", dir);
	f = fopen(path, "r");
	if (!f || !fgets(head, sizeof(head), f))
		return f ? fclose(f), 0 : 0;
	c[0] = tsv_col(head, "tid");
	c[1] = tsv_col(head, "switches");
	c[2] = tsv_col(head, "involuntary");
	c[3] = tsv_col(head, "run_sum_ns");
	c[4] = tsv_col(head, "migrations");
	while (c[0] >= 0 && c[1] >= 0 && c[2] >= 0 && c[3] >= 0 && c[4] >= 0 &&
	       fgets(row, sizeof(row), f)) {
		rows++;
		/* the text row: comm tid sw-in invol migr run-ms, the columns padded */
		snprintf(want, sizeof(want), " %lld %7lld %6lld %5lld %10.3f ", tsv_num(row, c[0]),
			 tsv_num(row, c[1]), tsv_num(row, c[2]), tsv_num(row, c[4]),
			 tsv_num(row, c[3]) / 1e6);
		if (!strstr(text, want)) {
			bad++;
			diag("no text row has '%s'", want);
		}
	}
	fclose(f);
	return rows > 0 && !bad ? rows : 0;
}

/* Every sched_cpus.tsv row has a text row with the same busy and idle ms and switches. */
static int cpus_agree(const char *text, const char *dir)
{
	char path[160], head[4096], row[4096], want[128];
	int rows = 0, bad = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/sched_cpus.tsv", dir);
	f = fopen(path, "r");
	if (!f || !fgets(head, sizeof(head), f) || tsv_col(head, "switches") != 3)
		return f ? fclose(f), 0 : 0;
	while (fgets(row, sizeof(row), f)) {
		rows++;
		snprintf(want, sizeof(want), "\n  %-5lld %11.3f %11.3f", tsv_num(row, 0),
			 tsv_num(row, 1) / 1e6, tsv_num(row, 2) / 1e6);
		if (!strstr(text, want) || !strstr(strstr(text, want), "\n")) {
			bad++;
			diag("no text row starts '%s'", want + 1);
		}
	}
	fclose(f);
	return rows > 0 && !bad ? rows : 0;
}

/*
 * A per-task recording with switch-out callchains: its stacks keep their counts (periods that
 * ended), their times are -/null, as off-CPU time is everywhere else in such a recording.
 */
static void pertask_stacks(void)
{
	static const uint64_t ips[] = { 0xffffffff81000010ull, 0xffffffff81000020ull };
	struct ts_event ev = { .kind = TS_EV_SWITCH };
	char *json = NULL, *text = NULL, dir[] = "/tmp/tickscope-report-XXXXXX", path[160];
	char line[4096] = "";
	struct ts_analysis *a;
	size_t len = 0;
	FILE *f;
	int i;

	if (ts_analysis_new(&a, NULL)) {
		ok(0, "per-task analysis");
		return;
	}
	ts_analysis_note_recorded(a, "sched:sched_switch");
	for (i = 0; i < 8; i++) { /* task 10 out on the stack, in again 1 ms later */
		ev.time = 1000000 + (uint64_t)i * 1000000;
		ev.cpu = 0;
		ev.sw.prev_pid = i % 2 ? 0 : 10;
		ev.sw.next_pid = i % 2 ? 10 : 0;
		ev.sw.prev_state = TS_STATE_SLEEPING;
		strcpy(ev.sw.next_comm, i % 2 ? "loop" : "swapper/0");
		ev.nr_ips = i % 2 ? 0 : 2;
		ev.ips = i % 2 ? NULL : ips;
		ts_analysis_feed(a, &ev);
	}
	ts_analysis_set_per_task(a, 1);
	ts_analysis_finish(a);
	json = run_json(a);
	ok(json && strstr(json,
			  "\"offcpu_stacks\":[{\"count\":4,\"total_ns\":null,\"R_ns\":null,"
			  "\"S_ns\":null,\"D_ns\":null,\"other_ns\":null,\"tasks\":[{\"tid\":10,"),
	   "per-task JSON: the stack's count is there, its times are null");
	ok(json && strstr(json, "\"comm\":\"loop\",\"ns\":null}"),
	   "per-task JSON: the stack's task time is null");
	f = open_memstream(&text, &len);
	ok(f && ts_report_text(f, a, NULL) == 0, "per-task text report");
	if (f)
		fclose(f);
	ok(text && strstr(text, "  (times -: a per-task recording has a task's switch-in only"),
	   "per-task text: the stack table says why its times are -");
	ok(text && strstr(text, "\n            -        4           -           -  loop[10] -  "),
	   "per-task text: the row has the count, - for the times and the task's share");
	ok(mkdtemp(dir) != NULL && ts_report_tsv(dir, a, NULL, NULL, 0) == 0,
	   "per-task TSV report");
	snprintf(path, sizeof(path), "%s/sched_offcpu_stacks.tsv", dir);
	f = fopen(path, "r");
	ok(f && fgets(line, sizeof(line), f) && fgets(line, sizeof(line), f) &&
		   !strncmp(line, "0\t-\t4\t-\t-\t-\t-\t10:-\t", 19),
	   "per-task TSV: the count, - for the times");
	if (f)
		fclose(f);
	{ /* the chart of these stacks is of times: not drawn, with the reason */
		struct ts_charts cs = { .dir = dir };
		struct ts_report_opts ro = { 0 };
		const char *miss = NULL;
		size_t c;

		ok(ts_plot_run(&cs, a, &ro) == 0, "per-task charts");
		for (c = 0; c < cs.nr; c++)
			if (!strcmp(cs.c[c].name, "offcpu-stacks"))
				miss = cs.c[c].missing;
		ok(miss && !strcmp(miss, "not measured: " TS_SCHED_OFF_WHY),
		   "per-task charts: the off-CPU stack chart is not drawn, saying why");
		snprintf(path, sizeof(path), "%s/offcpu-stacks.tsv", dir);
		ok(access(path, F_OK) != 0, "per-task charts: and it has no table");
		ts_charts_release(&cs);
	}
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	if (system(path))
		diag("could not remove %s", dir);
	free(json);
	free(text);
	ts_analysis_free(a);
}

int main(void)
{
	struct ts_analysis *a = build();
	char *json, *text = NULL, dir[] = "/tmp/tickscope-report-XXXXXX", path[128], line[4096];
	size_t len = 0;
	FILE *f;

	ok(a != NULL, "analysis built");
	if (!a)
		return tap_done();
	json = run_json(a);
	ok(json && valid_json(json), "JSON is well-formed");
	ok(json && strstr(json, "\"schema\":\"tickscope-report\",\"version\":1"),
	   "schema, version");
	ok(json && strstr(json, "\"shrinker\":{\"status\":\"recorded_empty\",\"events\":["),
	   "recorded shrinker without events: recorded_empty");
	ok(json && strstr(json, "\"workqueue\":{\"status\":\"not_recorded\",\"events\":["),
	   "workqueue: not_recorded");
	ok(json && !strstr(json, "\"executions\""), "no workqueue figures at all");
	ok(json && strstr(json, "\"comm\":\"work\\\"er\\\\1\""), "comm escaped");
	f = open_memstream(&text, &len);
	ok(f && ts_report_text(f, a, NULL) == 0, "text report");
	if (f)
		fclose(f);
	ok(text && strstr(text, "== workqueue == not recorded"), "text: workqueue not recorded");
	ok(text && strstr(text, "== shrinker == recorded, no events"), "text: shrinker empty");
	ok(text && strstr(text,
			  "off-CPU time by kernel stack: no switch-out callchains in this trace"),
	   "text: no callchains, and it says so");
	ok(mkdtemp(dir) != NULL, "temp dir");
	ok(ts_report_tsv(dir, a, NULL, NULL, 0) == 0, "TSV report");
	snprintf(path, sizeof(path), "%s/sections.tsv", dir);
	f = fopen(path, "r");
	ok(f && fgets(line, sizeof(line), f) && !strncmp(line, "section\tstatus\t", 15),
	   "sections.tsv header");
	ok(f && fgets(line, sizeof(line), f) && !strncmp(line, "sched\tpresent\t100\t", 18),
	   "sections.tsv: sched present, 100 events");
	if (f)
		fclose(f);
	ok(text && tasks_agree(text, dir) == 2, "text and TSV agree on every task's figures");
	ok(text && cpus_agree(text, dir) == 2, "text and TSV agree on every CPU's figures");
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	if (system(path))
		diag("could not remove %s", dir);
	free(json);
	free(text);
	ts_analysis_free(a);
	no_fake_zeros();
	untraced_exits(0);
	untraced_exits(1);
	pertask_stacks();
	return tap_done();
}
