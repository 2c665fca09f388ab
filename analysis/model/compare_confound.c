// SPDX-License-Identifier: GPL-2.0-only
/*
 * The confounders and notes of a comparison: facts that differ between the variants or
 * between the runs of one (the kernel's command line beyond the boot parameters under test,
 * the events recorded, the pinning), other tasks' load, what could not be checked, and the
 * kernel's own differences (thread classes of one kernel only, the preemption model, the
 * tick).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_chain.h"
#include "compare_priv.h"

/* Other tasks' CPU share above this (%) is a confounder. */
#define OTHER_CPU_MAX 10.0

const char *ts_cmp_fact_name(enum ts_run_fact f)
{
	static const char *const names[TS_FACT_NR] = {
		[TS_FACT_KERNEL] = "kernel",	   [TS_FACT_CPUS] = "cpus",
		[TS_FACT_CMDLINE] = "cmdline",	   [TS_FACT_PINNING] = "pinning",
		[TS_FACT_WORKLOAD] = "workload",   [TS_FACT_EVENTS] = "events",
		[TS_FACT_BOOT_ARGS] = "boot_args", [TS_FACT_EVENTS_MISSING] = "events_missing",
		[TS_FACT_PREEMPT] = "preempt",	   [TS_FACT_ARCH] = "arch",
		[TS_FACT_NR_CPUS] = "nr_cpus",	   [TS_FACT_CPU] = "cpu",
		[TS_FACT_RELEASE] = "release",	   [TS_FACT_TRACE_EVENTS] = "trace_events",
		[TS_FACT_SELECTION] = "selection", [TS_FACT_BUILD_ID] = "build_id",
		[TS_FACT_NOHZ] = "nohz",	   [TS_FACT_KCONFIG] = "kconfig",
	};

	return f < TS_FACT_NR ? names[f] : "";
}

static int vadd(struct ts_cmp_confounder **list, int *nr, int *cap, const char *fmt, va_list ap)
{
	if (*nr == *cap) {
		struct ts_cmp_confounder *n;

		*cap = *cap ? 2 * *cap : 8;
		n = realloc(*list, *cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		*list = n;
	}
	vsnprintf((*list)[(*nr)++].text, sizeof((*list)[0].text), fmt, ap);
	return 0;
}

static int say(struct ts_cmp *c, int *cap, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int say(struct ts_cmp *c, int *cap, const char *fmt, ...)
{
	va_list ap;
	int err;

	va_start(ap, fmt);
	err = vadd(&c->conf, &c->nr_conf, cap, fmt, ap);
	va_end(ap);
	return err;
}

static int note(struct ts_cmp *c, int *cap, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int note(struct ts_cmp *c, int *cap, const char *fmt, ...)
{
	va_list ap;
	int err;

	va_start(ap, fmt);
	err = vadd(&c->notes, &c->nr_notes, cap, fmt, ap);
	va_end(ap);
	return err;
}

static const char *fact0(const struct ts_cmp_variant *v, int f)
{
	return v->runs[0].fact[f] ? v->runs[0].fact[f] : "(unknown)";
}

/* Is @tok (@n bytes) one of the whitespace-separated words of @list? */
static int has_word(const char *list, const char *tok, size_t n)
{
	while (list && *list) {
		size_t l;

		list += strspn(list, " \t");
		l = strcspn(list, " \t");
		if (l && l == n && !strncmp(list, tok, n))
			return 1;
		list += l;
	}
	return 0;
}

/*
 * @cmdline without the words of @declared (the variant's own boot parameters), into @out.
 * Return: @out.
 */
static const char *cmdline_rest(const char *cmdline, const char *declared, char *out, size_t n)
{
	size_t len = 0;

	out[0] = '\0';
	while (*cmdline) {
		size_t l;

		cmdline += strspn(cmdline, " \t");
		l = strcspn(cmdline, " \t");
		if (l && !has_word(declared, cmdline, l) && len + l + 2 < n)
			len += snprintf(out + len, n - len, "%s%.*s", len ? " " : "", (int)l,
					cmdline);
		cmdline += l;
	}
	return out;
}

/* Does the cmdline of @var differ from the baseline's beyond both variants' boot parameters? */
static int cmdline_differs(const struct ts_cmp_variant *base, const struct ts_cmp_variant *var)
{
	const char *a = base->runs[0].fact[TS_FACT_CMDLINE],
		   *b = var->runs[0].fact[TS_FACT_CMDLINE];
	char ra[1024], rb[1024];

	if (!a || !b)
		return (a == NULL) != (b == NULL);
	cmdline_rest(a, base->runs[0].fact[TS_FACT_BOOT_ARGS], ra, sizeof(ra));
	cmdline_rest(b, var->runs[0].fact[TS_FACT_BOOT_ARGS], rb, sizeof(rb));
	return strcmp(ra, rb) != 0;
}

/* Does fact @f of variant @v differ from the baseline's (the cmdline beyond the variants'
 * declared boot parameters; the declared parameters themselves are the change under test)?
 * The events are compared as sets by events_differ(). */
static int var_differs(const struct ts_cmp *c, int v, int f)
{
	/* the preemption model is the kernel's own, like its version: a note (preempt_note) */
	if (f == TS_FACT_BOOT_ARGS || f == TS_FACT_EVENTS || f == TS_FACT_EVENTS_MISSING ||
	    f == TS_FACT_PREEMPT || f == TS_FACT_RELEASE || f == TS_FACT_NOHZ ||
	    f == TS_FACT_TRACE_EVENTS || f == TS_FACT_SELECTION || f == TS_FACT_BUILD_ID ||
	    f == TS_FACT_KCONFIG)
		return 0;
	if (f == TS_FACT_CMDLINE)
		return cmdline_differs(&c->var[0], &c->var[v]);
	return strcmp(fact0(&c->var[v], f), fact0(&c->var[0], f)) != 0;
}

/* Append @t bytes of @tok to the comma list @buf (@n bytes, @len used), if they fit. */
static void list_add(char *buf, size_t *len, size_t n, const char *tok, size_t t)
{
	if (*len + t + 3 < n)
		*len += snprintf(buf + *len, n - *len, "%s%.*s", *len ? ", " : "", (int)t, tok);
}

/*
 * The events of @in's first run that @out's first run lacks, into @rec (the recording asked
 * for them differently: a confounder) or @ker (@out's recorder asked for them and its kernel
 * does not offer them, its meta.txt's events_missing: a difference of the kernels).
 */
static void events_only(const struct ts_cmp_variant *in, const struct ts_cmp_variant *out,
			char *rec, char *ker, size_t n)
{
	const char *l = in->runs[0].fact[TS_FACT_EVENTS];
	const char *other = out->runs[0].fact[TS_FACT_EVENTS];
	const char *miss = out->runs[0].fact[TS_FACT_EVENTS_MISSING];
	size_t lr = 0, lk = 0;

	rec[0] = ker[0] = '\0';
	while (l && *l) {
		size_t t = strcspn(l, ",");

		if (t && !ts_cmp_in_list(other, l, t)) {
			if (ts_cmp_in_list(miss, l, t))
				list_add(ker, &lk, n, l, t);
			else
				list_add(rec, &lr, n, l, t);
		}
		l += t + (l[t] == ',');
	}
}

/* The events of variant @v against the baseline's, as sets: a name one side's kernel does not
 * offer is a note (its metrics are null there); one the recordings chose differently is a
 * confounder. */
static int events_differ(struct ts_cmp *c, int v, int *cap, int *ncap)
{
	const struct ts_cmp_variant *pair[2] = { &c->var[0], &c->var[v] };
	char rec[2][400], ker[2][400];
	int err = 0;

	if (!pair[0]->runs[0].fact[TS_FACT_EVENTS] || !pair[1]->runs[0].fact[TS_FACT_EVENTS])
		return 0;
	for (int i = 0; i < 2; i++)
		events_only(pair[i], pair[!i], rec[i], ker[i], sizeof(rec[i]));
	for (int i = 0; i < 2 && !err; i++)
		if (ker[i][0])
			err = note(
				c, ncap,
				"%s recorded in %s only: the kernel of %s does not offer it "
				"(events_missing in its meta.txt), so what it measures is null there",
				ker[i], pair[i]->name, pair[!i]->name);
	for (int i = 0; i < 2 && !err; i++)
		if (rec[i][0])
			err = say(c, cap, "events differ: %s recorded in %s only", rec[i],
				  pair[i]->name);
	return err;
}

/*
 * The facts that could not be compared, per variant: unknown in its first run (no meta.txt,
 * or a file that does not say; no trace, or a header without the feature; a trace that does
 * not show it). Listed as "not checked" with why, so that "none found" is never said of what
 * was not looked at.
 */
static int unchecked(struct ts_cmp *c, int *cap)
{
#define END TS_FACT_NR /* the end of a group's list */
	static const struct {
		enum ts_run_fact f[6];
		const char *why;
	} groups[] = {
		{ { TS_FACT_KERNEL, TS_FACT_CPUS, TS_FACT_CMDLINE, TS_FACT_PINNING,
		    TS_FACT_WORKLOAD, TS_FACT_EVENTS },
		  "its runs' meta.txt does not say" },
		{ { TS_FACT_ARCH, TS_FACT_NR_CPUS, TS_FACT_CPU, END },
		  "no trace, a summary older than format 13, or a perf.data header without it" },
		{ { TS_FACT_NOHZ, END },
		  "timer:tick_stop not recorded, and no meta.txt says its kernel lacks it" },
	};
#undef END
	int err = 0;

	for (int v = 0; v < c->nr_var && !err; v++) {
		for (size_t g = 0; g < sizeof(groups) / sizeof(groups[0]) && !err; g++) {
			char list[200];
			size_t len = 0;

			list[0] = '\0';
			for (size_t i = 0; i < 6 && groups[g].f[i] < TS_FACT_NR; i++)
				if (!c->var[v].runs[0].fact[groups[g].f[i]])
					list_add(list, &len, sizeof(list),
						 ts_cmp_fact_name(groups[g].f[i]),
						 strlen(ts_cmp_fact_name(groups[g].f[i])));
			if (len)
				err = say(c, cap, "not checked: %s unknown for %s (%s)", list,
					  c->var[v].name, groups[g].why);
		}
	}
	return err;
}

/* Facts that differ between variants, or between the runs of one variant. */
static int fact_confounders(struct ts_cmp *c, int *cap, int *ncap)
{
	int err = 0;

	for (int v = 1; v < c->nr_var && !err; v++)
		err = events_differ(c, v, cap, ncap);
	for (int f = TS_FACT_CPUS; f < TS_FACT_NR && !err; f++) {
		for (int v = 0; v < c->nr_var && !err; v++) {
			const struct ts_cmp_variant *var = &c->var[v];

			/* the trace's events are compared as the events (ts_run_infer()) */
			/* the selection has a line of its own (ts_cmp_by_name()) */
			for (int r = 1; r < var->nr_runs && !err && f != TS_FACT_EVENTS_MISSING &&
					f != TS_FACT_TRACE_EVENTS && f != TS_FACT_SELECTION;
			     r++) {
				const char *x = var->runs[r].fact[f];

				if (x && var->runs[0].fact[f] && strcmp(x, var->runs[0].fact[f])) {
					err = say(c, cap, "%s: runs differ in %s: %.200s vs %.200s",
						  var->name, ts_cmp_fact_name(f), fact0(var, f), x);
					break;
				}
			}
			if (v && var_differs(c, v, f))
				err = err   ?:
					      say(c, cap, "%s differs%s: %s %.200s vs %s %.200s",
						  ts_cmp_fact_name(f),
						  f == TS_FACT_CMDLINE ?
							  " beyond the variants' boot "
							  "parameters" :
							  "",
						  c->var[0].name, fact0(&c->var[0], f), var->name,
						  fact0(var, f));
		}
	}
	return err;
}

/* The runs of @v whose other tasks' share is above twice the limit: "run-1 50.7%, ...". */
static void busy_runs(const struct ts_cmp_variant *var, const struct ts_cmp_cell *x, char *buf,
		      size_t n)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int r = 0; r < var->nr_runs && len + 1 < n; r++) {
		const char *l = strrchr(var->runs[r].label, '/');

		if (!(x->values[r] > 2 * OTHER_CPU_MAX))
			continue;
		l = l && l[1] ? l + 1 : var->runs[r].label;
		len += snprintf(buf + len, n - len, "%s%s %.0f%%", len ? ", " : "", l,
				x->values[r]);
	}
}

/*
 * The runs of @var recorded again after attempts refused as a damaged trace (ts-record.sh
 * --retries): one line for the variant, with the first such run's reason. A run kept after a
 * retry is a selection: the attempt refused was recorded under the same load.
 */
static int refused_runs(struct ts_cmp *c, int *cap, const struct ts_cmp_variant *var)
{
	const struct ts_run *first = NULL;
	int runs = 0, attempts = 0;

	for (int r = 0; r < var->nr_runs; r++) {
		if (var->runs[r].refused_attempts <= 0)
			continue;
		first = first ? first : &var->runs[r];
		runs++;
		attempts += var->runs[r].refused_attempts;
	}
	if (!first)
		return 0;
	return say(c, cap,
		   "%s: %d of its %d run%s recorded again after %d attempt%s refused (%s: %s);"
		   " a run kept after a retry is a selection, its refused attempt ran under load",
		   var->name, runs, var->nr_runs, var->nr_runs == 1 ? "" : "s", attempts,
		   attempts == 1 ? "" : "s", first->label,
		   first->refused_reason ? first->refused_reason : "no reason given");
}

static int load_confounders(struct ts_cmp *c, int *cap)
{
	const struct ts_cmp_row *o = ts_cmp_find(c, "task.other_cpu.share");
	char runs[200];
	int err = 0;

	for (int v = 0; v < c->nr_var && !err; v++) {
		const struct ts_cmp_variant *var = &c->var[v];

		for (int r = 0; r < var->nr_runs && !err; r++)
			if (var->runs[r].lost > 0)
				err = say(c, cap, "%s: %s lost %.0f events", var->name,
					  var->runs[r].label, var->runs[r].lost);
		err = err ?: refused_runs(c, cap, var);
		if (!o || err)
			continue;
		busy_runs(var, &o->cell[v], runs, sizeof(runs));
		if (o->cell[v].s.median > OTHER_CPU_MAX || runs[0])
			err = say(
				c, cap,
				"%s: other tasks used %.1f%% of the CPU time (median of its runs%s%s); "
				"something ran alongside the benchmark",
				var->name, o->cell[v].s.median, runs[0] ? "; " : "", runs);
	}
	return err;
}

/*
 * In which variant all runs of @r are above zero and all of the baseline's (or of @v's) are
 * zero: @v (1), the baseline (-1), neither (0).
 */
static int only_in(const struct ts_cmp *c, const struct ts_cmp_row *r, int v)
{
	int a = ts_cmp_all_pos(&r->cell[0], c->var[0].nr_runs);
	int b = ts_cmp_all_pos(&r->cell[v], c->var[v].nr_runs);

	return a < 0 || b < 0 || a == b ? 0 : b ? 1 : -1;
}

/* The class of "@pre<class>@suf", into @cls; Return: 0, or -1 for another name. */
static int class_in(const char *name, const char *pre, const char *suf, char *cls, size_t n)
{
	size_t len = strlen(name), p = strlen(pre), q = strlen(suf);

	if (strncmp(name, pre, p) || len <= p + q || strcmp(name + len - q, suf))
		return -1;
	snprintf(cls, n, "%.*s", (int)(len - p - q), name + p);
	return 0;
}

/* The hint of @cls after ": ", or "". */
static const char *hint_of(const char *cls, const char **sep)
{
	const char *h = ts_cmp_class_hint(cls);

	*sep = *h ? ": " : "";
	return h;
}

/* Kernel threads (from perf's COMM records, which name every one) in one variant only. */
static int thread_notes(struct ts_cmp *c, int *cap, int v)
{
	char cls[64], name[128], ran[96];
	const char *sep, *hint;
	int err = 0;

	for (int i = 0; i < c->nr_rows && !err; i++) {
		const struct ts_cmp_row *r = &c->rows[i], *cpu;
		int o = only_in(c, r, v), k = o > 0 ? v : 0;

		if (!o || class_in(r->name, "sched.threads.", ".count", cls, sizeof(cls)) ||
		    !strcmp(cls, "count"))
			continue;
		snprintf(name, sizeof(name), "task.other_cpu.%s.share", cls);
		cpu = ts_cmp_find(c, name);
		ran[0] = '\0';
		if (cpu && only_in(c, cpu, v) == o)
			snprintf(ran, sizeof(ran), " and ran (%.2f%% of the CPU time)",
				 cpu->cell[k].s.median);
		hint = hint_of(cls, &sep);
		err = note(c, cap,
			   "%s threads existed in every run of %s (%.0f, median)%s, in no "
			   "run of %s%s%s",
			   ts_cmp_class_ps(cls), c->var[k].name, r->cell[k].s.median, ran,
			   c->var[o > 0 ? 0 : v].name, sep, hint);
	}
	return err;
}

/*
 * How little program row @r ran beside the benchmark of @v, when too little to be where the
 * growth of the component it would feed went (under half of it: the chain rule leaves it out,
 * ts_cmp_program_room()): "; it ran 19.49 µs/op, room for 7% of the sched delay's growth of
 * 263.1 µs/op: not where it went"; else "".
 */
static const char *program_room(const struct ts_cmp *c, const struct ts_cmp_row *r, int v,
				char *buf, size_t n)
{
	double run, grow, room = ts_cmp_program_room(c, r, v, &run, &grow);
	char cls[200];
	const struct chain_rule *ru = ts_cmp_rule_of(r, cls, sizeof(cls));
	const struct ts_cmp_part *p = ru ? ts_cmp_comp_part(c, v, ru->comp) : NULL;

	buf[0] = '\0';
	if (!(room < 0.5) || !p)
		return buf;
	snprintf(buf, n,
		 "; it ran %.4g µs/op, room for %.0f%% of the %s's growth of %.4g µs/op: "
		 "not where it went",
		 run * 1e-3, 100 * room, p->label, grow * 1e-3);
	return buf;
}

/*
 * Task classes that ran in one variant only (and that thread_notes() did not name): a class
 * of the kernel's threads ("sched.threads.<class>.count" in some run: kthreadd's children by
 * their FORK records; or a class the kernel names, for summaries older than that) is a
 * difference of the kernels, a note in @ncap; a user program that ran beside the benchmark
 * (dpkg-query, cc) says nothing of the kernel: a confounder in @cap, with its CPU share.
 */
static int ran_notes(struct ts_cmp *c, int *cap, int *ncap, int v)
{
	char cls[64], name[128];
	const char *sep, *hint;
	int err = 0;

	for (int i = 0; i < c->nr_rows && !err; i++) {
		const struct ts_cmp_row *r = &c->rows[i], *t;
		int o = only_in(c, r, v), k = o > 0 ? v : 0;

		if (!o || class_in(r->name, "task.other_cpu.", ".share", cls, sizeof(cls)))
			continue;
		snprintf(name, sizeof(name), "sched.threads.%s.count", cls);
		t = ts_cmp_find(c, name);
		if (t && only_in(c, t, v) == o) /* said there */
			continue;
		hint = hint_of(cls, &sep);
		if (!t && !*hint) {
			char who[160], room[200];

			if (!strcmp(cls, TS_RUN_CLASS_REST))
				snprintf(who, sizeof(who),
					 "other tasks (every class past the first %d a run met, "
					 "counted together: not one program)",
					 TS_RUN_MAX_CLASSES - 1);
			else
				snprintf(who, sizeof(who), "%s, a program and not a kernel thread,",
					 cls);
			err = say(c, cap,
				  "%s ran beside the benchmark in every run of %s (%.2f%% of the "
				  "CPU time, median) and in no run of %s%s",
				  who, c->var[k].name, r->cell[k].s.median,
				  c->var[o > 0 ? 0 : v].name,
				  program_room(c, r, v, room, sizeof(room)));
			continue;
		}
		err = note(c, ncap,
			   "%s tasks ran in every run of %s (%.2f%% of the CPU time, "
			   "median) and in no run of %s%s%s",
			   ts_cmp_class_ps(cls), c->var[k].name, r->cell[k].s.median,
			   c->var[o > 0 ? 0 : v].name, sep, hint);
	}
	return err;
}

/*
 * Task classes that existed ("sched.threads.<class>.count") or ran
 * ("task.other_cpu.<class>.share") in every run of one variant and in no run of the other:
 * the kernels' own threads, from the data, whatever the benchmark did; user programs among
 * those that ran are confounders.
 */
static int class_notes(struct ts_cmp *c, int *cap, int *ncap)
{
	int err = 0;

	for (int v = 1; v < c->nr_var && !err; v++)
		err = thread_notes(c, ncap, v) ?: ran_notes(c, cap, ncap, v);
	return err;
}

/* Fact @f of every variant when they differ, as a note: "@what: A x, B y". */
static int kernel_fact_note(struct ts_cmp *c, int *cap, enum ts_run_fact f, const char *what)
{
	char text[800];
	size_t len = 0;
	int differ = 0;

	for (int v = 1; v < c->nr_var; v++)
		differ |= strcmp(fact0(&c->var[v], f), fact0(&c->var[0], f)) != 0;
	if (!differ)
		return 0;
	for (int v = 0; v < c->nr_var && len + 1 < sizeof(text); v++)
		len += snprintf(text + len, sizeof(text) - len, "%s%s %s", v ? ", " : "",
				c->var[v].name, fact0(&c->var[v], f));
	return note(c, cap, "%s: %s", what, text);
}

/* The preemption model and the tick of every variant, when they differ. */
static int preempt_note(struct ts_cmp *c, int *cap)
{
	return kernel_fact_note(c, cap, TS_FACT_PREEMPT,
				"preemption model (each run's kernel config, else its trace)") ?:
		       kernel_fact_note(c, cap, TS_FACT_NOHZ,
					"the tick on idle CPUs (inferred from each run's trace)");
}

/* The whitespace-separated words of @s: their starts and lengths, at most @max. */
static int split_words(const char *s, const char **w, int *len, int max)
{
	int n = 0;

	while (s && *s && n < max) {
		s += strspn(s, " \t");
		if (!*s)
			break;
		w[n] = s;
		len[n] = (int)strcspn(s, " \t");
		s += len[n++];
	}
	return n;
}

static int same_word(const char *a, int la, const char *b, int lb)
{
	return la == lb && !strncmp(a, b, la);
}

/* Words @from to @to (excluded) of @w, joined by spaces, into @out. */
static void join_words(const char **w, const int *len, int from, int to, char *out, size_t n)
{
	size_t l = 0;

	out[0] = '\0';
	for (int i = from; i < to && l + 1 < n; i++)
		l += snprintf(out + l, n - l, "%s%.*s", l ? " " : "", len[i], w[i]);
}

#define MAX_WORDS 128

/*
 * The words of @a and of @b that differ, into @da and @db: the words both start with and
 * both end with are left out, but an option's name stays before its value ("--iterations
 * 1000" against "--iterations 2000", not "1000" against "2000").
 */
static void word_diff(const char *a, const char *b, char *da, char *db, size_t n)
{
	const char *wa[MAX_WORDS], *wb[MAX_WORDS];
	int la[MAX_WORDS], lb[MAX_WORDS], na, nb, pre = 0, suf = 0;

	na = split_words(a, wa, la, MAX_WORDS);
	nb = split_words(b, wb, lb, MAX_WORDS);
	while (pre < na && pre < nb && same_word(wa[pre], la[pre], wb[pre], lb[pre]))
		pre++;
	while (suf < na - pre && suf < nb - pre &&
	       same_word(wa[na - 1 - suf], la[na - 1 - suf], wb[nb - 1 - suf], lb[nb - 1 - suf]))
		suf++;
	/* a value without its option's name says nothing: keep the name */
	if (pre && wa[pre - 1][0] == '-' &&
	    ((pre < na - suf && wa[pre][0] != '-') || (pre < nb - suf && wb[pre][0] != '-')))
		pre--;
	join_words(wa, la, pre, na - suf, da, n);
	join_words(wb, lb, pre, nb - suf, db, n);
}

/* The last part of run @r's label (its folder's name: "run-1"). */
static const char *run_name(const struct ts_cmp_variant *v, int r)
{
	const char *l = v->runs[r].label ? strrchr(v->runs[r].label, '/') : NULL;

	if (!v->runs[r].label)
		return "a run without a label";
	return l && l[1] ? l + 1 : v->runs[r].label;
}

/* Fact @f of @v's run @r, NULL when unknown or empty. */
static const char *known(const struct ts_cmp_variant *v, int r, enum ts_run_fact f)
{
	const char *x = v->runs[r].fact[f];

	return x && *x ? x : NULL;
}

/*
 * The symbols of two kconfig facts ("HZ=250 RCU_BOOST=n ...") that both state and that differ,
 * each side's "SYM=value" words into @da and @db (@n bytes each, "" when none differs): a
 * symbol one side does not state (a run with nohz.txt's few lines only) is not compared.
 */
static void kconfig_diff(const char *a, const char *b, char *da, char *db, size_t n)
{
	const char *wa[MAX_WORDS], *wb[MAX_WORDS];
	int la[MAX_WORDS], lb[MAX_WORDS], na = split_words(a, wa, la, MAX_WORDS),
					  nb = split_words(b, wb, lb, MAX_WORDS);
	size_t lena = 0, lenb = 0;

	da[0] = db[0] = '\0';
	for (int i = 0; i < na; i++) {
		int k = (int)strcspn(wa[i], "=");

		if (k >= la[i])
			continue;
		for (int j = 0; j < nb; j++)
			if (lb[j] > k && !strncmp(wa[i], wb[j], k + 1) &&
			    !same_word(wa[i], la[i], wb[j], lb[j]) && lena + la[i] + 2 < n &&
			    lenb + lb[j] + 2 < n) {
				lena += snprintf(da + lena, n - lena, "%s%.*s", lena ? " " : "",
						 la[i], wa[i]);
				lenb += snprintf(db + lenb, n - lenb, "%s%.*s", lenb ? " " : "",
						 lb[j], wb[j]);
			}
	}
}

/* Whether two kconfig facts differ in a symbol both state. */
static int kconfig_differs(const char *a, const char *b)
{
	char da[256], db[256];

	kconfig_diff(a, b, da, db, sizeof(da));
	return da[0] != '\0';
}

/*
 * Whether the baseline and @v ran the same kernel, into @d: they differ when a fact of the
 * kernel known on both sides differs (its release, the build id of its image, the boot
 * parameters the variants declare, the whole command line, the preemption model); they are the
 * same only when every run of both has a kernel build id and all are one, and the release and
 * the command line are known and equal; else it is not known (why).
 */
static void kernels_of(const struct ts_cmp *c, int v, struct ts_cmp_benchdef *d)
{
	static const struct {
		enum ts_run_fact f;
		const char *what;
	} facts[] = {
		{ TS_FACT_KERNEL, "release" },
		{ TS_FACT_BUILD_ID, "build id" },
		{ TS_FACT_BOOT_ARGS, "boot parameters" },
		{ TS_FACT_CMDLINE, "command line" },
		{ TS_FACT_PREEMPT, "preemption model" },
		{ TS_FACT_KCONFIG, "config" },
	};
	const struct ts_cmp_variant *pair[2] = { &c->var[0], &c->var[v] };
	const char *id = known(pair[0], 0, TS_FACT_BUILD_ID);

	for (size_t i = 0; i < sizeof(facts) / sizeof(facts[0]); i++) {
		const char *a = pair[0]->runs[0].fact[facts[i].f],
			   *b = pair[1]->runs[0].fact[facts[i].f];

		if (a && b &&
		    (facts[i].f == TS_FACT_KCONFIG ? kconfig_differs(a, b) : strcmp(a, b))) {
			d->kernels = TS_KERNELS_DIFFER;
			snprintf(d->kernel, sizeof(d->kernel), "%s", facts[i].what);
			return;
		}
	}
	d->kernels = TS_KERNELS_UNKNOWN;
	for (int k = 0; k < 2; k++)
		for (int r = 0; r < pair[k]->nr_runs; r++) {
			const char *x = known(pair[k], r, TS_FACT_BUILD_ID);

			if (!x) {
				snprintf(d->kernel, sizeof(d->kernel),
					 "no kernel build id in the trace of %s's %s",
					 pair[k]->name, run_name(pair[k], r));
				return;
			}
			if (strcmp(x, id)) {
				d->kernels = TS_KERNELS_DIFFER;
				snprintf(d->kernel, sizeof(d->kernel), "build id (between runs)");
				return;
			}
		}
	for (int k = 0; k < 2; k++) {
		if (!known(pair[k], 0, TS_FACT_KERNEL)) {
			snprintf(d->kernel, sizeof(d->kernel), "no kernel release for %s's %s",
				 pair[k]->name, run_name(pair[k], 0));
			return;
		}
		if (!known(pair[k], 0, TS_FACT_CMDLINE)) {
			snprintf(d->kernel, sizeof(d->kernel),
				 "no kernel command line (cmdline.txt) for %s's %s", pair[k]->name,
				 run_name(pair[k], 0));
			return;
		}
	}
	d->kernels = TS_KERNELS_SAME;
	snprintf(d->kernel, sizeof(d->kernel), "%.80s, build id %.12s",
		 known(pair[0], 0, TS_FACT_KERNEL), id);
}

/*
 * Fact @s of @f in short, into @out (@n bytes): an inferred fact's value without its reason
 * ("idle", "PREEMPT_RT (inferred from the trace)"), the others whole.
 */
static void kdiff_words(enum ts_run_fact f, const char *s, char *out, size_t n)
{
	const char *why = strstr(s, " (inferred");

	if (f == TS_FACT_NOHZ)
		snprintf(out, n, "%.*s", (int)strcspn(s, " ("), s);
	else if (f == TS_FACT_PREEMPT && why)
		snprintf(out, n, "%.*s (inferred from the trace)", (int)(why - s), s);
	else
		snprintf(out, n, "%s", s);
}

/* Add a kernel difference to @d: @what, fact @f, each side's words ("" for none). */
static void kdiff_add(struct ts_cmp_benchdef *d, enum ts_run_fact f, const char *what,
		      const char *a, const char *b)
{
	struct ts_cmp_kdiff *x;

	if (d->nr_kdiff == TS_CMP_MAX_KDIFF)
		return;
	x = &d->kdiff[d->nr_kdiff++];
	x->fact = f;
	x->what = what;
	kdiff_words(f, a, x->a, sizeof(x->a));
	kdiff_words(f, b, x->b, sizeof(x->b));
}

/* Whether every run of the baseline and @v has a kernel build id, and all are one. */
static int one_build(const struct ts_cmp *c, int v)
{
	const char *id = known(&c->var[0], 0, TS_FACT_BUILD_ID);
	const int k[2] = { 0, v };

	for (int i = 0; i < 2; i++)
		for (int r = 0; r < c->var[k[i]].nr_runs; r++) {
			const char *x = known(&c->var[k[i]], r, TS_FACT_BUILD_ID);

			if (!id || !x || strcmp(x, id))
				return 0;
		}
	return 1;
}

/*
 * What the kernels of the baseline and @v differ in, each fact known on both sides (their
 * first runs), into @d: the preemption model first (what a kernel engineer asks first of two
 * kernels, and what PREEMPT_RT or preempt= changes), the config's tick, RCU and threading
 * symbols that differ, the release, another build of one release, the declared boot
 * parameters, the rest of the command line, and the tick on idle CPUs as the traces show it.
 * Nothing here says which of them moved the benchmark: the mechanisms below do.
 */
static void kernel_diffs(const struct ts_cmp *c, int v, struct ts_cmp_benchdef *d)
{
	const struct ts_run *ra = &c->var[0].runs[0], *rb = &c->var[v].runs[0];
	const char *a, *b;
	char da[256], db[256];

	d->nr_kdiff = 0;
	d->one_build = one_build(c, v);
	a = ra->fact[TS_FACT_PREEMPT];
	b = rb->fact[TS_FACT_PREEMPT];
	if (a && b && strcmp(a, b))
		kdiff_add(d, TS_FACT_PREEMPT, "preemption model", a, b);
	a = ra->fact[TS_FACT_KCONFIG];
	b = rb->fact[TS_FACT_KCONFIG];
	if (a && b) {
		kconfig_diff(a, b, da, db, sizeof(da));
		if (da[0])
			kdiff_add(d, TS_FACT_KCONFIG, "config", da, db);
	}
	a = known(&c->var[0], 0, TS_FACT_KERNEL) ?: known(&c->var[0], 0, TS_FACT_RELEASE);
	b = known(&c->var[v], 0, TS_FACT_KERNEL) ?: known(&c->var[v], 0, TS_FACT_RELEASE);
	if (a && b && strcmp(a, b))
		kdiff_add(d, TS_FACT_KERNEL, "release", a, b);
	else if (!d->one_build && known(&c->var[0], 0, TS_FACT_BUILD_ID) &&
		 known(&c->var[v], 0, TS_FACT_BUILD_ID) &&
		 strcmp(ra->fact[TS_FACT_BUILD_ID], rb->fact[TS_FACT_BUILD_ID]))
		kdiff_add(d, TS_FACT_BUILD_ID, "build id", ra->fact[TS_FACT_BUILD_ID],
			  rb->fact[TS_FACT_BUILD_ID]);
	a = ra->fact[TS_FACT_BOOT_ARGS];
	b = rb->fact[TS_FACT_BOOT_ARGS];
	if (a && b && strcmp(a, b))
		kdiff_add(d, TS_FACT_BOOT_ARGS, "boot parameters", a, b);
	a = ra->fact[TS_FACT_CMDLINE];
	b = rb->fact[TS_FACT_CMDLINE];
	if (a && b) {
		char xa[1024], xb[1024];

		cmdline_rest(a, ra->fact[TS_FACT_BOOT_ARGS], xa, sizeof(xa));
		cmdline_rest(b, rb->fact[TS_FACT_BOOT_ARGS], xb, sizeof(xb));
		if (strcmp(xa, xb)) {
			word_diff(xa, xb, da, db, sizeof(da));
			kdiff_add(d, TS_FACT_CMDLINE, "command line", da, db);
		}
	}
	a = ra->fact[TS_FACT_NOHZ];
	b = rb->fact[TS_FACT_NOHZ];
	if (a && b && strcmp(a, b))
		kdiff_add(d, TS_FACT_NOHZ, "the tick on idle CPUs (from the traces)", a, b);
}

/*
 * The facts that define the benchmark and differ between the baseline and each variant
 * (c->bdef): the workload command (without its path and pinning) and the pinning (--pin,
 * --cpus or taskset: the benchmark's CPUs), what ran and where. The other facts that may
 * differ are how it was watched (the events), what ran beside it (other tasks' load) or the
 * machine and its kernel (the online CPUs, which a boot parameter can change): confounders.
 */
static void bench_defs(struct ts_cmp *c)
{
	static const enum ts_run_fact defining[] = { TS_FACT_WORKLOAD, TS_FACT_PINNING };

	for (int v = 1; v < c->nr_var; v++) {
		struct ts_cmp_benchdef *d = &c->bdef[v];

		memset(d, 0, sizeof(*d));
		for (size_t i = 0; i < sizeof(defining) / sizeof(defining[0]); i++) {
			const char *a = c->var[0].runs[0].fact[defining[i]],
				   *b = c->var[v].runs[0].fact[defining[i]];
			struct ts_cmp_defdiff *x = &d->diff[d->nr_diff];

			if (!a || !b || !strcmp(a, b))
				continue;
			x->fact = defining[i];
			word_diff(a, b, x->a, x->b, sizeof(x->a));
			d->nr_diff++;
		}
		kernels_of(c, v, d);
		kernel_diffs(c, v, d);
	}
}

int ts_cmp_confounders(struct ts_cmp *c)
{
	int cap = 0, ncap = 0, err;

	bench_defs(c);
	err = fact_confounders(c, &cap, &ncap);
	err = err ?: load_confounders(c, &cap);
	err = err ?: unchecked(c, &cap);
	err = err ?: preempt_note(c, &ncap);
	return err ?: class_notes(c, &cap, &ncap);
}
