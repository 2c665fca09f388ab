// SPDX-License-Identifier: GPL-2.0-only
/*
 * The compare table's rows: the union of the runs' metric names, each with its direction and
 * family, and a row found by name. Below the statistics (compare.c), the explanation and the
 * headline, which all look rows up here.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/map.h"
#include "compare_priv.h"

int ts_cmp_starts(const char *s, const char *pre)
{
	return !strncmp(s, pre, strlen(pre));
}

int ts_cmp_ends(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);

	return n > m && !strcmp(s + n - m, suf);
}

static int family_of(const char *name, int first_bench)
{
	if (!strncmp(name, "bench.", 6))
		return first_bench ? TS_FAM_RESULT : TS_FAM_BENCH;
	if (!strncmp(name, "task.", 5))
		return TS_FAM_TASK;
	return TS_FAM_TRACE;
}

static int has_word(const char *name, const char *w)
{
	return strstr(name, w) != NULL;
}

/*
 * The direction a metric has in an A/B (docs/compare.md, "Directions"): the section's own,
 * except for the whole trace's figures that move with the benchmark's pace rather than with
 * the kernel's cost, which are neutral (no better or worse word):
 * - a handler's time per call (timer callbacks, work items, interrupts, RCU windows): when the
 *   calls grow more frequent each does less, so a shorter call is not less time taken; what
 *   they take from the benchmark is the run time's split, task.path.run.*.per_op;
 * - counts and sums over the whole trace, which grow with its length;
 * - events or time per second of the trace (idle exits by IPIs, wakeups, switches, work
 *   items), which fall when the benchmark slows and rise when it speeds up, except the tick's,
 *   which follows the clock (HZ) and the tick's mode, not the benchmark.
 * The benchmark's own figures and its tasks' per-operation figures keep theirs.
 */
static enum ts_metric_dir cmp_direction(const char *name, const char *unit, enum ts_metric_dir dir)
{
	int per_call = (ts_cmp_starts(name, "timer.expire.") && has_word(name, ".handler.")) ||
		       (ts_cmp_starts(name, "workqueue.work.") && has_word(name, ".duration.")) ||
		       ts_cmp_starts(name, "rcu.window.") ||
		       (ts_cmp_starts(name, "irq.") && !strcmp(unit, "ns"));

	if (ts_cmp_starts(name, "bench.") || ts_cmp_starts(name, "task.") || dir == TS_DIR_NEUTRAL)
		return dir;
	if (per_call || !strcmp(unit, "count") ||
	    (!strcmp(unit, "ns") && ts_cmp_ends(name, ".sum")))
		return TS_DIR_NEUTRAL;
	if ((!strcmp(unit, "1/s") || !strcmp(unit, "ns/s")) && !has_word(name, "tick"))
		return TS_DIR_NEUTRAL;
	return dir;
}

static const char *row_name(const void *ctx, size_t i)
{
	return ((const struct ts_cmp_row *)ctx)[i].name;
}

int ts_cmp_collect_rows(struct ts_cmp *c)
{
	int cap = 0, have_result = 0;

	for (int v = 0; v < c->nr_var; v++)
		for (int r = 0; r < c->var[v].nr_runs; r++) {
			const struct ts_run *run = &c->var[v].runs[r];

			for (int i = 0; i < run->nr; i++) {
				const struct ts_run_metric *m = &run->m[i];
				struct ts_cmp_row *row;

				if (ts_cmp_find(c, m->name))
					continue;
				if (c->nr_rows == cap) {
					cap = cap ? 2 * cap : 128;
					row = realloc(c->rows, cap * sizeof(*row));
					if (!row)
						return -ENOMEM;
					c->rows = row;
				}
				row = &c->rows[c->nr_rows++];
				memset(row, 0, sizeof(*row));
				row->name = strdup(m->name);
				row->unit = strdup(m->unit ? m->unit : "");
				if (!row->name || !row->unit ||
				    ts_strix_add(c->row_ix, row->name, c->nr_rows - 1, row_name,
						 c->rows))
					return -ENOMEM;
				row->dir = cmp_direction(m->name, row->unit, m->dir);
				row->kind = m->kind;
				row->family = family_of(m->name, !have_result);
				have_result |= row->family == TS_FAM_RESULT;
			}
		}
	return 0;
}

const struct ts_cmp_row *ts_cmp_find(const struct ts_cmp *c, const char *name)
{
	long i = c->row_ix ? ts_strix_find(c->row_ix, name, row_name, c->rows) : -1;

	return i < 0 ? NULL : &c->rows[i];
}
