// SPDX-License-Identifier: GPL-2.0-only
/*
 * A run's trace metrics for `tickscope compare`: perf.data (or perf.data.xz, unpacked into a
 * temporary file) through every model once, then cached in "<perf.data>.tsum", keyed by the
 * file's size and mtime, the tool's version, the benchmark's comm and operation count.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "compare_trace.h"
#include "tickscope/analysis.h"
#include "tickscope/cpath.h"
#include "tickscope/error.h"
#include "tickscope/metric.h"
#include "tickscope/report.h"
#include "tickscope/source.h"

extern char **environ;

#define CACHE_MAGIC "tickscope-summary 5" /* bump when the metrics change */

static char *join(const char *dir, const char *name)
{
	char *p;

	return asprintf(&p, "%s/%s", dir, name) < 0 ? NULL : p;
}

/* @dir/@name, else @dir/@name.xz; NULL if neither is a file. */
static char *find(const char *dir, const char *name)
{
	struct stat st;
	char *p = join(dir, name), *x;

	if (p && !stat(p, &st) && S_ISREG(st.st_mode))
		return p;
	free(p);
	x = NULL;
	if (asprintf(&x, "%s/%s.xz", dir, name) < 0)
		return NULL;
	if (!stat(x, &st) && S_ISREG(st.st_mode))
		return x;
	free(x);
	return NULL;
}

static int ends_with(const char *s, const char *suf)
{
	size_t n = strlen(s), m = strlen(suf);

	return n >= m && !strcmp(s + n - m, suf);
}

/* Unpack @xz into a new temporary file with `xz -dc`; Return: its path, or NULL. */
static char *unxz(const char *xz)
{
	const char *tmp = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char *path = NULL, *argv[] = { "xz", "-dc", "--", (char *)xz, NULL };
	posix_spawn_file_actions_t fa;
	int fd, status = -1;
	pid_t pid;

	if (asprintf(&path, "%s/tickscope-cmp-XXXXXX", tmp) < 0)
		return NULL;
	fd = mkstemp(path);
	if (fd < 0) {
		free(path);
		return NULL;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fd, 1);
	if (!posix_spawnp(&pid, "xz", &fa, NULL, argv, environ))
		waitpid(pid, &status, 0);
	posix_spawn_file_actions_destroy(&fa);
	close(fd);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		unlink(path);
		free(path);
		return NULL;
	}
	return path;
}

struct copy_ctx {
	struct ts_run *r;
	double ops;
};

/* Every metric; off-CPU stacks also per operation of the benchmark, for the explanation. */
static int copy_metric(void *ctx, const struct ts_metric *m)
{
	static const char pre[] = "sched.offcpu_stack.";
	struct copy_ctx *cc = ctx;
	size_t n = strlen(m->name);
	char *name;
	int err = ts_run_add(cc->r, m->name, m->unit, m->dir, m->kind, m->value, m->why_null);

	if (err || strncmp(m->name, pre, sizeof(pre) - 1) || n < sizeof(pre) + 4 ||
	    strcmp(m->name + n - 4, ".sum") || !strcmp(m->name + n - 6, ".S.sum") ||
	    !strcmp(m->name + n - 6, ".D.sum"))
		return err;
	if (asprintf(&name, "offcpu_stack_per_op.%.*s", (int)(n - sizeof(pre) + 1 - 4),
		     m->name + sizeof(pre) - 1) < 0)
		return -ENOMEM;
	err = ts_run_add(cc->r, name, "ns/op", TS_DIR_LOWER, TS_METRIC_VALUE, m->value / cc->ops,
			 "the benchmark's operation count is unknown");
	free(name);
	return err;
}

struct feed_ctx {
	struct ts_analysis *a;
	struct ts_cpath *path; /* NULL without the benchmark's comm */
};

static int feed(void *ctx, const struct ts_event *ev, const struct ts_sample *s)
{
	struct feed_ctx *fc = ctx;

	return ts_analysis_feed(fc->a, ev) ?: (fc->path ? ts_cpath_feed(fc->path, ev) : 0);
}

/* Run every model over @data; prints one line on failure. */
static int analyse(const char *label, const char *data, const char *ksyms, const char *comm,
		   double ops, struct ts_run *r)
{
	struct ts_source_opts so = { .input = data,
				     .kallsyms = ksyms,
				     .need_decoder = 1,
				     .symbols = ksyms ? TS_SYMS_TABLE : 0,
				     .threaded = 1 };
	struct ts_analysis_opts ao = { 0 };
	struct ts_source *src = NULL;
	struct ts_analysis *a = NULL;
	struct feed_ctx fc = { 0 };
	uint64_t lost, recs;
	int err = ts_analysis_new(&a, &ao);

	err = err ?: (comm ? ts_cpath_new(&fc.path, comm) : 0);
	fc.a = a;
	if (!err) {
		err = ts_source_open(&src, &so);
		if (!err) {
			struct ts_report_opts ro = { 0 };

			/* metrics name functions through the recording's kallsyms */
			ts_source_report_opts(src, &ro);
			ts_analysis_set_symbols(a, ro.sym, ro.sym_ctx);
			ts_source_note_recorded(src, a);
			err = ts_source_run(src, feed, &fc);
		}
		if (err) {
			cli_error("%s: %s", label, src ? ts_source_error(src) : ts_strerror(err));
			goto out;
		}
	}
	err = err ?: ts_analysis_finish(a);
	err = err ?: ts_analysis_metrics(a, copy_metric, &(struct copy_ctx){ r, ops });
	if (!err && comm)
		err = ts_run_add_task_metrics(r, a, comm, ops) ?:
			      ts_run_add_path_metrics(r, fc.path, ops);
	if (!err) {
		ts_analysis_lost(a, &lost, &recs);
		r->lost = (double)lost;
	}
	if (err)
		cli_error("%s: %s", label, ts_strerror(err));
out:
	ts_cpath_free(fc.path);
	ts_source_close(src);
	ts_analysis_free(a);
	return err;
}

static char *cache_key(const char *data, const char *comm, double ops, const char *version)
{
	struct stat st;
	char *k;

	if (stat(data, &st))
		return NULL;
	if (asprintf(&k, CACHE_MAGIC "\t%s\t%lld\t%lld.%09ld\t%s\t%.17g", version,
		     (long long)st.st_size, (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
		     comm ? comm : "-", ops) < 0)
		return NULL;
	return k;
}

/* One cached metric: "m NAME UNIT DIR KIND VALUE WHY" (tabs); Return: 0 or -1. */
static int cache_metric(char *l, struct ts_run *r)
{
	char *f[7], *save = NULL;
	int n = 0;

	for (char *t = strtok_r(l, "\t", &save); t && n < 7; t = strtok_r(NULL, "\t", &save))
		f[n++] = t;
	if (n < 6 || strcmp(f[0], "m"))
		return -1;
	return ts_run_add(r, f[1], f[2], (enum ts_metric_dir)atoi(f[3]),
			  (enum ts_metric_kind)atoi(f[4]), strtod(f[5], NULL), n > 6 ? f[6] : NULL);
}

/* Read the cache if its key matches; Return: 1 when used, 0 when not. */
static int cache_read(const char *path, const char *key, struct ts_run *r)
{
	FILE *f = fopen(path, "r");
	char *l = NULL;
	size_t cap = 0;
	ssize_t n;
	int ok;

	if (!f)
		return 0;
	n = getline(&l, &cap, f);
	ok = n > 0 && (l[n - 1] = '\0', !strcmp(l, key));
	while (ok && (n = getline(&l, &cap, f)) > 0) {
		if (l[n - 1] == '\n')
			l[n - 1] = '\0';
		if (!strncmp(l, "lost\t", 5))
			r->lost = strtod(l + 5, NULL);
		else if (cache_metric(l, r))
			ok = 0;
	}
	free(l);
	fclose(f);
	return ok;
}

/* Write the cache atomically; a folder we cannot write to just goes without. */
static void cache_write(const char *path, const char *key, const struct ts_run *r, int from)
{
	char *tmp;
	FILE *f;

	if (asprintf(&tmp, "%s.XXXXXX", path) < 0)
		return;
	{
		int fd = mkstemp(tmp);

		if (fd >= 0)
			fchmod(fd, 0644);
		f = fd < 0 ? NULL : fdopen(fd, "w");
	}
	if (!f) {
		free(tmp);
		return;
	}
	fprintf(f, "%s\nlost\t%.17g\n", key, r->lost);
	for (int i = from; i < r->nr; i++) {
		const struct ts_run_metric *m = &r->m[i];

		fprintf(f, "m\t%s\t%s\t%d\t%d\t%.17g", m->name, m->unit, m->dir, m->kind, m->value);
		fprintf(f, m->why_null ? "\t%s\n" : "\n", m->why_null);
	}
	if (fclose(f) || rename(tmp, path))
		unlink(tmp);
	free(tmp);
}

int load_trace(const char *path, int folder, const char *comm, double ops,
	       const struct load_opts *o, struct ts_run *r)
{
	char *data = folder ? find(path, "perf.data") : strdup(path);
	char *ksyms = folder ? find(path, "kallsyms") : NULL, *cpath = NULL, *key = NULL;
	char *udata = NULL, *uksyms = NULL;
	int err = 0, from = r->nr;

	if (!data)
		return folder ? 0 : cli_error("%s: out of memory", path);
	key = cache_key(data, comm, ops, o->version);
	if (!key) {
		err = cli_error("%s: %s", data, strerror(errno));
		goto out;
	}
	if (asprintf(&cpath, "%s.tsum", data) < 0)
		cpath = NULL;
	if (!o->no_cache && cpath && cache_read(cpath, key, r))
		goto out;
	udata = ends_with(data, ".xz") ? unxz(data) : NULL;
	uksyms = ksyms && ends_with(ksyms, ".xz") ? unxz(ksyms) : NULL;
	if ((ends_with(data, ".xz") && !udata) || (ksyms && ends_with(ksyms, ".xz") && !uksyms)) {
		err = cli_error("%s: cannot unpack with xz -dc", udata ? ksyms : data);
		goto out;
	}
	err = analyse(data, udata ? udata : data, uksyms ? uksyms : ksyms, comm, ops, r);
	if (!err && cpath)
		cache_write(cpath, key, r, from);
out:
	if (udata)
		unlink(udata);
	if (uksyms)
		unlink(uksyms);
	free(udata);
	free(uksyms);
	free(data);
	free(ksyms);
	free(cpath);
	free(key);
	return err ? 1 : 0;
}
