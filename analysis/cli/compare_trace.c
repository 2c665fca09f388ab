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
#include "tickscope/compare_report.h"
#include "tickscope/report.h"
#include "tickscope/source.h"

extern char **environ;

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
		   double ops, const struct load_opts *o, const char *key, struct ts_run *r)
{
	struct ts_report_opts ro = { 0 };
	struct ts_source_opts so = { .input = data,
				     .kallsyms = ksyms,
				     .need_decoder = 1,
				     .symbols = ksyms ? TS_SYMS_TABLE : 0,
				     .threaded = !o->one_thread };
	struct ts_analysis_opts ao = { 0 };
	struct ts_source *src = NULL;
	struct ts_analysis *a = NULL;
	struct feed_ctx fc = { 0 };
	int err = ts_analysis_new(&a, &ao);

	err = err ?: (comm ? ts_cpath_new(&fc.path, comm) : 0);
	fc.a = a;
	if (!err) {
		err = ts_source_open(&src, &so);
		if (!err) {
			ts_source_note_recorded(src, a);
			err = ts_source_run(src, feed, &fc);
		}
		if (!err) {
			/* metrics name functions through the kallsyms, loaded by now */
			ts_source_report_opts(src, &ro);
			ts_analysis_set_symbols(a, ro.sym, ro.sym_ctx);
		}
		if (err) {
			cli_error("%s: %s", label, src ? ts_source_error(src) : ts_strerror(err));
			goto out;
		}
	}
	err = err ?: ts_analysis_finish(a);
	err = err ?: ts_run_add_analysis(r, a, fc.path, comm, ops);
	if (!err && o->hook) /* the charts fold this run into its variant */
		err = o->hook->analysis(o->hook->ctx, a, &ro, comm, label, key);
	if (err)
		cli_error("%s: %s", label, ts_strerror(err));
out:
	ts_cpath_free(fc.path);
	ts_source_close(src);
	ts_analysis_free(a);
	return err;
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
	key = ts_summary_key(data, comm, ops, o->version);
	if (!key) {
		err = cli_error("%s: %s", data, strerror(errno));
		goto out;
	}
	if (asprintf(&cpath, "%s.tsum", data) < 0)
		cpath = NULL;
	if (!o->no_cache && cpath && ts_summary_read(cpath, key, r) > 0 &&
	    (!o->hook || o->hook->cached(o->hook->ctx, data, key)))
		goto out;
	udata = ends_with(data, ".xz") ? unxz(data) : NULL;
	uksyms = ksyms && ends_with(ksyms, ".xz") ? unxz(ksyms) : NULL;
	if ((ends_with(data, ".xz") && !udata) || (ksyms && ends_with(ksyms, ".xz") && !uksyms)) {
		err = cli_error("%s: cannot unpack with xz -dc", udata ? ksyms : data);
		goto out;
	}
	err = analyse(data, udata ? udata : data, uksyms ? uksyms : ksyms, comm, ops, o, key, r);
	if (!err && cpath)
		ts_summary_write(cpath, key, r,
				 from); /* a folder we cannot write to goes without */
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
