// SPDX-License-Identifier: GPL-2.0-only
/*
 * Loading one run for `tickscope compare`: the run folder's meta.txt and cmdline.txt (facts),
 * its benchmark output, and its trace's metrics, cached next to perf.data.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "compare_load.h"
#include "compare_trace.h"
#include "tickscope/bench.h"
#include "tickscope/error.h"

static int is_dir(const char *p)
{
	struct stat st;

	return !stat(p, &st) && S_ISDIR(st.st_mode);
}

static int is_file(const char *p)
{
	struct stat st;

	return !stat(p, &st) && S_ISREG(st.st_mode);
}

/* "run-N" exactly (not run-N.partial or run-N.failed); Return: N or -1. */
static int run_number(const char *name)
{
	char *end;
	long n;

	if (strncmp(name, "run-", 4))
		return -1;
	n = strtol(name + 4, &end, 10);
	return end == name + 4 || *end || n < 0 || n > 1000000 ? -1 : (int)n;
}

struct numbered {
	int n;
	char *path;
};

static int cmp_numbered(const void *a, const void *b)
{
	return ((const struct numbered *)a)->n - ((const struct numbered *)b)->n;
}

int variant_runs(const char *path, char ***out)
{
	DIR *d = opendir(path);
	struct numbered *v = NULL;
	struct dirent *e;
	int nr = 0, cap = 0;

	*out = NULL;
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		int n = run_number(e->d_name), fail = 0;
		char *p;

		if (n < 0 || !(p = cli_join(path, e->d_name)))
			continue;
		if (is_dir(p) && nr == cap) {
			struct numbered *nv = realloc(v, (cap ? 2 * cap : 16) * sizeof(*v));

			fail = !nv;
			v = nv ? nv : v;
			cap = nv ? (cap ? 2 * cap : 16) : cap;
		}
		if (fail || !is_dir(p)) {
			free(p);
			if (fail)
				break;
			continue;
		}
		v[nr++] = (struct numbered){ n, p };
	}
	closedir(d);
	if (!v)
		return 0;
	qsort(v, nr, sizeof(*v), cmp_numbered);
	*out = malloc((nr + 1) * sizeof(char *));
	for (int i = 0; i < nr; i++)
		if (*out)
			(*out)[i] = v[i].path;
		else
			free(v[i].path);
	free(v);
	return *out ? nr : -1;
}

long long run_size(const struct run_in *in)
{
	static const char *const names[] = { "perf.data", "perf.data.xz" };
	struct stat st;

	if (!stat(in->path, &st) && S_ISREG(st.st_mode))
		return (long long)st.st_size;
	for (int i = 0; i < 2; i++) {
		char *p = cli_join(in->path, names[i]);
		int ok = p && !stat(p, &st) && S_ISREG(st.st_mode);

		free(p);
		if (ok)
			return (long long)st.st_size * (i ? 20 : 1);
	}
	return 0;
}

int is_variant_dir(const char *path)
{
	char **runs;
	int n = variant_runs(path, &runs);

	for (int i = 0; i < n; i++)
		free(runs[i]);
	free(runs);
	return n > 0;
}

/* The value of "key=" in meta.txt's text, copied; NULL if absent. */
static char *meta_get(const char *meta, const char *key)
{
	size_t n = strlen(key);

	for (const char *l = meta; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, key, n) && l[n] == '=')
			return strndup(l + n + 1, strcspn(l + n + 1, "\n"));
	return NULL;
}

/*
 * A key compare reads given twice: meta_get() took the first silently (kernel=6.1, then
 * kernel=6.2, was compared as 6.1). Keys of lists (variant_mismatch=, one line each) may
 * repeat. Returns 2 after naming the file, key and lines, else 0.
 */
static int meta_dup(const char *mp, const char *meta)
{
	static const char *const once[] = { "kernel",	     "cpus_online",	 "events",
					    "boot_args",     "events_missing",	 "workload_cmd",
					    "lost_samples",  "perf_data_size",	 "perf_data_sha256",
					    "variant_check", "refused_attempts", "refused_reason",
					    "result",	     "result_unit" };
	const char *l, *k;
	int line = 1, kl;

	for (l = meta; *l; line++) {
		size_t n = strcspn(l, "=\n"), i;

		for (i = 0; l[n] == '=' && i < sizeof(once) / sizeof(once[0]); i++)
			if (strlen(once[i]) == n && !strncmp(once[i], l, n))
				break;
		if (l[n] == '=' && i < sizeof(once) / sizeof(once[0])) {
			for (k = meta, kl = 1; k < l; kl++) {
				if (!strncmp(k, l, n) && k[n] == '=') {
					cli_error(
						"%s:%d: key '%.*s' given twice (first on line %d): "
						"which one holds is not known",
						mp, line, (int)n, l, kl);
					return 2;
				}
				k += strcspn(k, "\n");
				k += *k == '\n';
			}
		}
		l += strcspn(l, "\n");
		l += *l == '\n';
	}
	return 0;
}

/* The value of @key's first line ("key=" included in @key), its line number in *@line; or NULL. */
static const char *meta_at(const char *meta, const char *key, int *line)
{
	size_t n = strlen(key);
	const char *l = meta;

	for (*line = 1; *l && strncmp(l, key, n); ++*line) {
		l += strcspn(l, "\n");
		l += *l == '\n';
	}
	return *l ? l + n : NULL;
}

/*
 * meta.txt's lost_samples= into *@lost: a count (NAN when the key is absent: not known). A
 * value that is not a count ("abc", "-5": strtod() read them as 0 and -5 lost samples) is
 * refused: returns 2 after naming the file and line, else 0.
 */
static int meta_lost(const char *mp, const char *meta, double *lost)
{
	const char *v;
	char *end;
	int line;

	*lost = NAN;
	v = meta_at(meta, "lost_samples=", &line);
	if (!v)
		return 0;
	errno = 0;
	*lost = (double)strtoull(v, &end, 10);
	if (end == v || (*end && *end != '\n') || *v < '0' || *v > '9' || errno) {
		cli_error("%s:%d: lost_samples '%.*s' is not a count of samples", mp, line,
			  (int)strcspn(v, "\n"), v);
		return 2;
	}
	return 0;
}

/*
 * meta.txt's refused_attempts= and refused_reason= (boards/target/ts-record.sh --retries: the
 * run was recorded again after that many attempts refused as a damaged trace) into @r. A value
 * that is not a count is refused: returns 2 after naming the file and line (or saying there
 * is no memory), else 0.
 */
static int meta_refused(const char *mp, const char *meta, struct ts_run *r)
{
	const char *v;
	char *end;
	long n;
	int line;

	v = meta_at(meta, "refused_attempts=", &line);
	if (!v)
		return 0;
	errno = 0;
	n = strtol(v, &end, 10);
	if (end == v || (*end && *end != '\n') || *v < '0' || *v > '9' || errno || n > 1000000) {
		cli_error("%s:%d: refused_attempts '%.*s' is not a count of attempts", mp, line,
			  (int)strcspn(v, "\n"), v);
		return 2;
	}
	r->refused_attempts = (int)n;
	v = meta_at(meta, "refused_reason=", &line);
	if (n && v && *v && *v != '\n') {
		r->refused_reason = strndup(v, strcspn(v, "\n"));
		if (!r->refused_reason) {
			cli_error("%s: out of memory", mp);
			return 2;
		}
	}
	return 0;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n;

	if (!f)
		return NULL;
	n = getdelim(&buf, &cap, '\0', f);
	fclose(f);
	if (n < 0) {
		free(buf);
		return strdup("");
	}
	return buf;
}

/* "pin=cross cpus=0,1" from the workload command's --pin/--cpus, or a taskset prefix. */
static char *pinning(const char *cmd)
{
	const char *p = strstr(cmd, "--pin "), *c = strstr(cmd, "--cpus ");
	char *s;

	if (!strncmp(cmd, "taskset ", 8)) {
		const char *t = cmd + 8 + strcspn(cmd + 8, " "); /* past "-c" */

		t += strspn(t, " ");
		return strndup(cmd, t + strcspn(t, " ") - cmd);
	}
	if (!p && !c)
		return strdup("none stated");
	if (asprintf(&s, "pin=%.*s cpus=%.*s", p ? (int)strcspn(p + 6, " ") : 1, p ? p + 6 : "-",
		     c ? (int)strcspn(c + 7, " ") : 1, c ? c + 7 : "-") < 0)
		return NULL;
	return s;
}

/* The workload command without its path and pinning options. */
static char *workload(const char *cmd)
{
	const char *base = cmd, *sp = strchr(cmd, ' ');
	char *out = malloc(strlen(cmd) + 1), *o = out;

	if (!out)
		return NULL;
	for (const char *q = cmd; *q && (!sp || q < sp); q++)
		if (*q == '/')
			base = q + 1;
	for (const char *t = base; *t;) {
		size_t n = strcspn(t, " ");

		if ((n == 5 && !strncmp(t, "--pin", 5)) || (n == 6 && !strncmp(t, "--cpus", 6))) {
			t += n + strspn(t + n, " ");
			t += strcspn(t, " ");
		} else {
			o += sprintf(o, "%s%.*s", o > out ? " " : "", (int)n, t);
			t += n;
		}
		t += strspn(t, " ");
	}
	*o = '\0';
	return out;
}

/*
 * A run that boards/lib/variant-check.sh found on a kernel other than its variant's is not
 * compared unless the user says so: its figures would be credited to the wrong kernel.
 */
static int check_variant(const char *mp, const char *meta, const struct load_opts *o)
{
	char *v = meta_get(meta, "variant_check"), *why;
	int bad = v && !strcmp(v, "mismatch");

	free(v);
	if (!bad)
		return 0;
	why = meta_get(meta, "variant_mismatch");
	if (o->allow_mismatch)
		fprintf(cli_err(),
			"tickscope: %s: the recorded kernel does not match its variant (%s);"
			" compared anyway (--allow-mismatch)\n",
			mp, why ? why : "?");
	else
		cli_error("%s: the recorded kernel does not match its variant (%s): not compared;"
			  " --allow-mismatch compares it anyway",
			  mp, why ? why : "?");
	free(why);
	return o->allow_mismatch ? 0 : 2;
}

/*
 * perf_data_sha256= and perf_data_size=: the trace ts-record.sh recorded. A size that is not
 * one ("12x" was taken as none, so the summary's size went unchecked; 99999999999999999999 as
 * 9223372036854775807 bytes) is refused: returns 2 after naming the file and line, else 0.
 */
static int trace_id(const char *mp, const char *meta, struct trace_id *id)
{
	int line;
	const char *v = meta_at(meta, "perf_data_size=", &line);
	char *end;

	id->size = -1;
	/* absent, empty or "-" (ts-record.sh's when there was no perf.data): not recorded */
	if (v && *v && *v != '\n' && !(v[0] == '-' && (!v[1] || v[1] == '\n'))) {
		errno = 0;
		id->size = strtoll(v, &end, 10);
		if ((*end && *end != '\n') || *v < '0' || *v > '9' || errno) {
			cli_error("%s:%d: perf_data_size '%.*s' is not a size in bytes", mp, line,
				  (int)strcspn(v, "\n"), v);
			return 2;
		}
	}
	id->sha256 = meta_get(meta, "perf_data_sha256");
	if (id->sha256 && (!*id->sha256 || !strcmp(id->sha256, "-"))) {
		free(id->sha256); /* recorded where no sha256sum was */
		id->sha256 = NULL;
	}
	return 0;
}

/* Whether the config text @cfg sets @sym=y (a line of its own). */
static int config_y(const char *cfg, const char *sym)
{
	size_t n = strlen(sym);

	for (const char *l = cfg; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, sym, n) && !strncmp(l + n, "=y", 2) &&
		    (l[n + 2] == '\n' || !l[n + 2]))
			return 1;
	return 0;
}

/*
 * The kernel's preemption model, from the run's saved config (kconfig, else nohz.txt's
 * CONFIG_PREEMPT* lines): PREEMPT_RT, PREEMPT_LAZY, PREEMPT, PREEMPT_VOLUNTARY or
 * PREEMPT_NONE, with PREEMPT_DYNAMIC's boot choice (preempt= on @cmdline). NULL if unknown.
 */
static char *preempt_model(const char *dir, const char *cmdline)
{
	static const char *const models[] = { "PREEMPT_RT", "PREEMPT_LAZY", "PREEMPT",
					      "PREEMPT_VOLUNTARY", "PREEMPT_NONE" };
	const char *names[] = { "kconfig", "nohz.txt" }, *model = NULL, *boot;
	char sym[32], *out = NULL;
	int dyn = 0;

	for (size_t i = 0; i < 2 && !model; i++) {
		char *p = cli_join(dir, names[i]), *cfg = p ? slurp(p) : NULL;

		for (size_t k = 0; cfg && k < sizeof(models) / sizeof(models[0]) && !model; k++) {
			snprintf(sym, sizeof(sym), "CONFIG_%s", models[k]);
			model = config_y(cfg, sym) ? models[k] : NULL;
		}
		dyn = cfg && config_y(cfg, "CONFIG_PREEMPT_DYNAMIC");
		free(cfg);
		free(p);
	}
	if (!model)
		return NULL;
	boot = cmdline ? strstr(cmdline, "preempt=") : NULL;
	if (boot && boot > cmdline && boot[-1] != ' ')
		boot = NULL;
	if (dyn && boot) {
		if (asprintf(&out, "preempt=%.*s (PREEMPT_DYNAMIC, built %s)",
			     (int)strcspn(boot + 8, " \n"), boot + 8, model) < 0)
			out = NULL;
	} else if (asprintf(&out, "%s%s", model, dyn ? " (PREEMPT_DYNAMIC)" : "") < 0) {
		out = NULL;
	}
	return out;
}

/*
 * The config's choices that shape the tick, RCU and interrupt threading, the ones compare's
 * mechanisms are about (docs/compare.md, "The headline"), beside the preemption model: a
 * kernel A/B that changes one of them changes what the tick, RCU's callbacks or an interrupt
 * do for the benchmark. @nohz: whether boards/target/ts-record.sh's nohz.txt states it (its
 * CONFIG lines are those of HZ, NO_HZ*, HZ_PERIODIC and PREEMPT*).
 */
static const struct {
	const char *sym;
	int nohz;
} kconfig_syms[] = {
	{ "HZ", 1 },
	{ "HZ_PERIODIC", 1 },
	{ "NO_HZ_IDLE", 1 },
	{ "NO_HZ_FULL", 1 },
	{ "HIGH_RES_TIMERS", 0 },
	{ "PREEMPT_RCU", 1 },
	{ "RCU_BOOST", 0 },
	{ "RCU_NOCB_CPU", 0 },
	{ "RCU_LAZY", 0 },
	{ "IRQ_FORCED_THREADING", 0 },
	{ "SCHED_AUTOGROUP", 0 },
};

/* The value of @sym in config text @cfg ("y", "250"), "n" when it sets none; into @out. */
static void config_val(const char *cfg, const char *sym, char *out, size_t n)
{
	size_t len = strlen(sym);

	snprintf(out, n, "n");
	for (const char *l = cfg; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!strncmp(l, "CONFIG_", 7) && !strncmp(l + 7, sym, len) && l[7 + len] == '=') {
			snprintf(out, n, "%.*s", (int)strcspn(l + 8 + len, "\n"), l + 8 + len);
			return;
		}
}

/* Whether config text @cfg sets any symbol (a config, not a comment saying there is none). */
static int config_any(const char *cfg)
{
	for (const char *l = cfg; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		size_t n = strcspn(l, "\n");

		if (!strncmp(l, "CONFIG_", 7) && memchr(l, '=', n))
			return 1;
	}
	return 0;
}

/*
 * The run's kconfig_syms[] as "HZ=250 HZ_PERIODIC=n ... SCHED_AUTOGROUP=y", from its saved
 * config (kconfig), else those nohz.txt states: a symbol a config does not set is "n" there
 * (not set, or the kernel has no such option: RCU_LAZY before 6.2). NULL when neither says.
 */
static char *kconfig_words(const char *dir)
{
	const char *names[] = { "kconfig", "nohz.txt" };
	char *out = NULL;

	for (size_t i = 0; i < 2 && !out; i++) {
		char *p = cli_join(dir, names[i]), *cfg = p ? slurp(p) : NULL, val[64];
		size_t len = 0, cap = 1024;

		if (cfg && config_any(cfg) && (out = malloc(cap)))
			for (size_t k = 0; k < sizeof(kconfig_syms) / sizeof(kconfig_syms[0]);
			     k++) {
				if (i && !kconfig_syms[k].nohz)
					continue;
				config_val(cfg, kconfig_syms[k].sym, val, sizeof(val));
				len += snprintf(out + len, len < cap ? cap - len : 0, "%s%s=%s",
						len ? " " : "", kconfig_syms[k].sym, val);
			}
		free(cfg);
		free(p);
	}
	return out;
}

/*
 * meta.txt's verdict on the run: status=failed (a run boards/target/ts-record.sh refused, its
 * folder renamed from run-<k>.failed) or a workload_status= other than 0 (the workload's exit
 * status: stress-ng's YAML of a failed run holds its metrics all the same). Its figures are no
 * measurement: returns 2 after naming the file and line, else 0.
 */
static int check_failed(const char *mp, const char *meta)
{
	static const char st[] = "status=failed", ws[] = "workload_status=";
	int line = 1;

	for (const char *l = meta; *l; line++) {
		int n = (int)strcspn(l, "\n");

		if ((n == (int)sizeof(st) - 1 && !strncmp(l, st, n)) ||
		    (n > (int)sizeof(ws) - 1 && !strncmp(l, ws, sizeof(ws) - 1) &&
		     strncmp(l + sizeof(ws) - 1, "0", n - sizeof(ws) + 1))) {
			char *why = meta_get(meta, "failure");

			cli_error("%s:%d: the run failed (%.*s%s%s): not compared", mp, line, n, l,
				  why ? "; " : "", why ? why : "");
			free(why);
			return 2;
		}
		l += n;
		l += *l == '\n';
	}
	return 0;
}

static int load_facts(const char *dir, const struct load_opts *o, struct ts_run *r, char **cmd,
		      struct trace_id *id)
{
	char *mp = cli_join(dir, "meta.txt"), *cp = cli_join(dir, "cmdline.txt");
	char *meta = mp ? slurp(mp) : NULL, *v;
	int err = 0;

	*cmd = NULL;
	if (meta && (meta_dup(mp, meta) || meta_lost(mp, meta, &r->lost) ||
		     trace_id(mp, meta, id) || meta_refused(mp, meta, r) ||
		     (!o->summarise && (check_failed(mp, meta) || check_variant(mp, meta, o))))) {
		free(meta);
		free(mp);
		free(cp);
		return 2;
	}
	if (meta) {
		static const struct {
			enum ts_run_fact f;
			const char *key;
		} keys[] = {
			{ TS_FACT_KERNEL, "kernel" },
			{ TS_FACT_CPUS, "cpus_online" },
			{ TS_FACT_EVENTS, "events" },
			{ TS_FACT_BOOT_ARGS, "boot_args" },
			{ TS_FACT_EVENTS_MISSING, "events_missing" },
		};

		for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]) && !err; i++) {
			v = meta_get(meta, keys[i].key);
			err = ts_run_set_fact(r, keys[i].f, v);
			free(v);
		}
		*cmd = meta_get(meta, "workload_cmd");
	}
	if (*cmd && !err) {
		char *p = pinning(*cmd), *w = workload(*cmd);

		err = ts_run_set_fact(r, TS_FACT_PINNING, p) ?:
			      ts_run_set_fact(r, TS_FACT_WORKLOAD, w);
		free(p);
		free(w);
	}
	free(meta);
	meta = cp ? slurp(cp) : NULL;
	if (meta && !err) {
		meta[strcspn(meta, "\n")] = '\0';
		err = ts_run_set_fact(r, TS_FACT_CMDLINE, meta);
	}
	if (!err) {
		v = preempt_model(dir, meta);
		err = ts_run_set_fact(r, TS_FACT_PREEMPT, v);
		free(v);
	}
	if (!err) {
		v = kconfig_words(dir);
		err = ts_run_set_fact(r, TS_FACT_KCONFIG, v);
		free(v);
	}
	free(meta);
	free(mp);
	free(cp);
	return err;
}

/* The benchmark's metrics as "bench.*", and the time per operation of stress-ng's. */
static int add_bench(struct ts_run *r, const struct ts_bench *b)
{
	const char *why_time = "stress-ng's instance count is unknown",
		   *why_cpu = "no usr/sys times";
	double per_op, cpu;
	char name[80];
	int err = 0;

	for (int i = 0; i < b->nr && !err; i++) {
		snprintf(name, sizeof(name), "bench.%s", b->m[i].name);
		err = ts_run_add(r, name, b->m[i].unit, b->m[i].dir, b->m[i].kind, b->m[i].value,
				 NULL);
	}
	if (err || strncmp(b->kind, "stress-ng", 9))
		return err;
	/*
	 * one instance's time per bogo op, and how much of it was on a CPU (usr + sys); a row of
	 * no bogo op never gets here: ts_bench_parse() refuses it (TS_EBENCHNONE)
	 */
	per_op = b->instances * b->wall_s / b->ops * 1e6;
	cpu = b->cpu_s / b->ops * 1e6;
	err = ts_run_add(r, "bench.time_per_op", "us/op", TS_DIR_LOWER, TS_METRIC_VALUE, per_op,
			 why_time);
	err = err   ?:
		      ts_run_add(r, "bench.cpu_per_op", "us/op", TS_DIR_LOWER, TS_METRIC_VALUE, cpu,
				 why_cpu);
	err = err   ?:
		      ts_run_add(r, "bench.off_cpu_per_op", "us/op", TS_DIR_LOWER, TS_METRIC_VALUE,
				 per_op - cpu, why_time);
	return err;
}

/* Does @dir's meta.txt say that the workload exited with status 0? */
static int workload_ok(const char *dir)
{
	char *mp = dir ? cli_join(dir, "meta.txt") : NULL, *meta = mp ? slurp(mp) : NULL;
	char *v = meta ? meta_get(meta, "workload_status") : NULL;
	int ok = v && !strcmp(v, "0");

	free(v);
	free(meta);
	free(mp);
	return ok;
}

/*
 * stress-ng's YAML says nothing of how its run ended: an unsuccessful run (an instance killed,
 * a verification that failed) writes the same metrics, and only its text output, or a meta.txt
 * workload_status=, says so. Read without either, it is read, and said to be read so.
 */
static void yaml_warning(const char *path, const char *name)
{
	fprintf(cli_err(),
		"tickscope: warning: %s%s%s: stress-ng's YAML does not say whether its run failed:"
		" compared as a measurement; its text output (workload.out) or a meta.txt"
		" workload_status=0 beside it would say\n",
		path, name ? "/" : "", name ? name : "");
}

static int load_bench(const struct run_in *in, const char *dir, struct ts_bench *b)
{
	const char *names[] = { "workload.out", "stress-ng.yaml" };
	char *first = NULL;
	int line = 0, fline = 0, err = -ENOENT, ferr = 0;

	if (in->bench) {
		err = ts_bench_read(in->bench, b, &line);
		if (err && line) /* an error of the output's text, at its line */
			return cli_error("%s:%d: %s", in->bench, line, ts_strerror(err));
		if (err)
			return cli_error("%s: %s", in->bench, ts_strerror(err));
		if (!strcmp(b->kind, "stress-ng-yaml") && !workload_ok(dir))
			yaml_warning(in->bench, NULL);
		return 0;
	}
	/* a workload.out by which the run failed: not to be replaced by the YAML of that run */
	for (int i = 0; i < 2 && err && err != -TS_EBENCHFAIL; i++) {
		char *p = dir ? cli_join(dir, names[i]) : NULL;

		if (p && is_file(p)) {
			err = ts_bench_read(p, b, &line);
			if (err && !first) {
				first = strdup(p);
				fline = line;
				ferr = err;
			}
		}
		free(p);
	}
	if (err && first)
		cli_error("%s:%d: %s", first, fline, ts_strerror(ferr));
	else if (err)
		cli_error("%s: no benchmark output (workload.out or stress-ng.yaml); give --bench",
			  in->path);
	else if (!strcmp(b->kind, "stress-ng-yaml") && !workload_ok(dir))
		yaml_warning(in->path, "stress-ng.yaml");
	free(first);
	return err ? 1 : 0;
}

/*
 * meta.txt's result= and result_unit= (boards/target/ts-record.sh copies them from the output
 * beside it, and experiment.sh's order.txt, record.sh's progress and LAVA's measurement show
 * them) against the output compare reads: a value of the wrong form, or another figure than
 * the output's (an edited meta.txt, or files of two runs), was never said. Returns 2 after
 * naming the file and line, else 0.
 */
static int check_result(const char *dir, const struct ts_bench *b)
{
	char *mp = cli_join(dir, "meta.txt"), *meta = mp ? slurp(mp) : NULL, *v = NULL, *u = NULL;
	int vl = 0, ul = 0, err = 0;

	if (meta) {
		const char *pv = meta_at(meta, "result=", &vl),
			   *pu = meta_at(meta, "result_unit=", &ul);

		v = strndup(pv ? pv : "", pv ? strcspn(pv, "\n") : 0);
		u = strndup(pu ? pu : "", pu ? strcspn(pu, "\n") : 0);
		err = v && u ? ts_bench_result(v, u, b) : 0;
	}
	if (err == -TS_ERESULTDIFF)
		cli_error("%s:%d: result=%.40s result_unit=%.40s: %s (%s's %s %.10g %s)", mp, vl, v,
			  u, ts_strerror(err), b->kind, b->m[0].name, b->m[0].value, b->m[0].unit);
	else if (err)
		cli_error("%s:%d: result=%.40s result_unit=%.40s: %s", mp,
			  err == -TS_ERESULTUNIT && ul ? ul : vl, v, u, ts_strerror(err));
	free(v);
	free(u);
	free(meta);
	free(mp);
	return err ? 2 : 0;
}

/* A benchmark output given alone: its metrics, no trace. */
static int load_bench_only(const struct run_in *in, struct ts_run *r)
{
	struct ts_bench b;

	memset(r, 0, sizeof(*r));
	r->lost = NAN;
	r->label = strdup(in->path);
	if (!r->label)
		return cli_error("%s: out of memory", in->path);
	if (load_bench(in, NULL, &b))
		return 1;
	return add_bench(r, &b) ? cli_error("%s: out of memory", in->path) : 0;
}

/* The benchmark's tasks: stress-ng's workers are "stress-ng-<stressor>". */
static char *bench_comm(const char *cmd, const struct ts_bench *b)
{
	const char *base = cmd, *sp;
	char *s;

	if (!strncmp(b->kind, "stress-ng", 9) && b->nr) {
		if (asprintf(&s, "stress-ng-%.*s", (int)strcspn(b->m[0].name, "."), b->m[0].name) <
		    0)
			return NULL;
		return s;
	}
	if (!cmd)
		return NULL;
	sp = cmd + strcspn(cmd, " ");
	for (const char *q = cmd; q < sp; q++)
		if (*q == '/')
			base = q + 1;
	return strndup(base, sp - base);
}

/* perf.data ("PERFILE2") or an xz file (perf.data.xz); anything else is a benchmark output. */
static int is_trace_file(const char *path)
{
	unsigned char m[8] = { 0 };
	FILE *f = fopen(path, "rb");
	size_t n = f ? fread(m, 1, sizeof(m), f) : 0;

	if (f)
		fclose(f);
	return (n == 8 && !memcmp(m, "PERFILE2", 8)) || (n >= 6 && !memcmp(m,
									   "\xfd"
									   "7zXZ",
									   6));
}

int load_run(const struct run_in *in, const struct load_opts *o, struct ts_run *r)
{
	int folder = is_dir(in->path), err;
	char *cmd = NULL, *comm = NULL;
	struct run_in bench_only = { in->path, in->path, NULL };
	struct trace_id id = { NULL, -1 };
	struct ts_bench b;

	if (!folder && !is_file(in->path))
		return cli_error("%s: %s", in->path, strerror(errno ? errno : ENOENT));
	if (!folder && !in->bench && !is_trace_file(in->path))
		return load_bench_only(&bench_only, r);

	memset(r, 0, sizeof(*r));
	r->lost = NAN;
	r->intern = o->intern;
	r->intern_ctx = o->intern_ctx;
	r->label = strdup(in->path);
	if (!r->label)
		return cli_error("%s: out of memory", in->path);
	err = folder ? load_facts(in->path, o, r, &cmd, &id) : 0;
	if (err == 2) {
		free(id.sha256);
		return 2;
	}
	if (err) {
		free(id.sha256);
		return cli_error("%s: out of memory", in->path);
	}
	err = load_bench(in, folder ? in->path : NULL, &b);
	/* with --bench another output stands for the run's: its meta.txt's form alone */
	if (!err && folder)
		err = check_result(in->path, in->bench ? NULL : &b);
	if (!err && add_bench(r, &b))
		err = cli_error("%s: out of memory", in->path);
	if (!err && !o->no_trace) {
		comm = o->comm ? strdup(o->comm) : bench_comm(cmd, &b);
		/* per operation: none done is no figure (a count of 0 gave inf) */
		r->ops = b.ops > 0 ? b.ops : NAN;
		err = load_trace(in->path, folder, in->ksyms, comm, b.ops > 0 ? b.ops : NAN, &id, o,
				 r);
	}
	if (!err && ts_run_infer(r))
		err = cli_error("%s: out of memory", in->path);
	free(id.sha256);
	free(cmd);
	free(comm);
	return err;
}
