// SPDX-License-Identifier: GPL-2.0-only
/*
 * A run's trace metrics for `tickscope compare`: perf.data (or perf.data.xz, unpacked into a
 * temporary file) through every model once. Its summary is read from "<perf.data>.tsum" beside
 * it (`tickscope summary` writes it there), else from the user's cache (cli_cache_file(),
 * where compare writes it: never into the run folder), keyed by the file's size and mtime, the
 * tool's version, the benchmark's comm and operation count, and the sha256 of the kallsyms file
 * its symbols come from (compare_ksyms.c). A run folder without its trace: compare_summary.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "compare_trace.h"
#include "common/cache.h"
#include "common/io.h"
#include "unxz.h"
#include "tickscope/analysis.h"
#include "tickscope/cpath.h"
#include "tickscope/error.h"
#include "tickscope/info.h"
#include "tickscope/metric.h"
#include "tickscope/reader.h"
#include "tickscope/compare_report.h"
#include "tickscope/report.h"
#include "tickscope/sched.h"
#include "tickscope/sha256.h"
#include "tickscope/source.h"

/* @dir/@name, else @dir/@name.xz; NULL if neither is a file. */
static char *find(const char *dir, const char *name)
{
	struct stat st;
	char *p = cli_join(dir, name), *x;

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

struct feed_ctx {
	struct ts_analysis *a;
	struct ts_cpath *path; /* NULL without the benchmark's comm */
};

static int feed(void *ctx, const struct ts_event *ev, const struct ts_sample *s)
{
	struct feed_ctx *fc = ctx;

	return ts_analysis_feed(fc->a, ev) ?: (fc->path ? ts_cpath_feed(fc->path, ev) : 0);
}

/* Whether @file starts as a perf.data does (file or pipe mode: both start with PERFILE2) */
static int is_perf_data(const char *file)
{
	char magic[8];
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	int ok = fd >= 0 && read(fd, magic, sizeof(magic)) == (ssize_t)sizeof(magic) &&
		 !memcmp(magic, "PERFILE2", sizeof(magic));

	if (fd >= 0)
		close(fd);
	return ok;
}

/*
 * The trace's sha256 and size against what meta.txt recorded; prints one line on mismatch,
 * saying what the file is instead: not a perf.data, one cut short, or another trace.
 */
static int check_id(const char *label, const char *file, const struct trace_id *id, char *sha,
		    long long *size)
{
	int err = ts_summary_trace_id(file, sha, size);

	if (err)
		return cli_error("%s: %s", label, strerror(-err));
	if (id->sha256 && (strcmp(sha, id->sha256) || (id->size >= 0 && *size != id->size)) &&
	    !is_perf_data(file))
		return cli_error(
			"%s: %s%lld bytes that are not a perf.data (no PERFILE2 at the "
			"start), not the trace meta.txt records (%lld bytes, sha256 %.16s...)",
			label, strcmp(label, file) ? "unpacks to " : "", *size, id->size,
			id->sha256);
	if (id->sha256 && strcmp(sha, id->sha256) && id->size >= 0 && *size < id->size)
		return cli_error("%s: %sa perf.data cut short: %lld of the %lld bytes meta.txt "
				 "records (sha256 %.16s..., not %.16s...)",
				 label, strcmp(label, file) ? "unpacks to " : "", *size, id->size,
				 sha, id->sha256);
	if (id->sha256 && (strcmp(sha, id->sha256) || (id->size >= 0 && *size != id->size)))
		return cli_error("%s: sha256 %.16s... (%lld bytes), but meta.txt records %.16s... "
				 "(%lld bytes): not the trace this run recorded, or damaged since",
				 label, sha, *size, id->sha256, id->size);
	return 0;
}

/*
 * Checking a trace against meta.txt (check_id()) in the read that decodes it: @label the
 * user's file, @file the one read (an unpacked copy of @label, or @label), @sha and @size the
 * answer; @checked once check_id() ran, before the read.
 */
struct trace_check {
	const char *label, *file;
	const struct trace_id *id;
	char *sha;
	long long *size;
	int checked;
};

/*
 * After the reader: its hash of the file (ts_reader_hashed()) against meta.txt's; a mismatch,
 * or a file the reader could not hash whole, goes through check_id() (which reads it again and
 * says what the file is instead), so that no figure of another trace is used. Return: 0, 1.
 */
static int check_read(struct trace_check *tc, struct ts_sha256 *h, struct ts_source *src)
{
	const struct trace_id *id = tc->id;

	tc->checked = 1;
	if (src && ts_reader_hashed(ts_source_reader(src), tc->size)) {
		ts_sha256_final(h, tc->sha);
		if (!id->sha256 ||
		    (!strcmp(tc->sha, id->sha256) && (id->size < 0 || *tc->size == id->size)))
			return 0;
	}
	return check_id(tc->label, tc->file, id, tc->sha, tc->size);
}

/*
 * A run's trace is read(), not mapped (ts_reader_opts.read_runs, as every command's): the runs then point into the buffers the scanner read
 * (each byte crosses the memory once, and is merged while still in the cache), where mapped
 * they point into the page cache and the merge faults every page in, walks the records a
 * second time from memory and drops the pages behind it (madvise). On `make bench`'s 2 x 10
 * runs, cold, a quarter to a third less CPU, one worker or two (docs/scale.md); the peak RSS
 * is larger by a round budget (8 MiB) a worker.
 *
 * Run every model over @data; prints one line on failure. @kcache: the folder of parsed
 * kallsyms tables to take @ksyms's from (NULL: parse it). @tc: the trace checked against
 * meta.txt already, else here, by the reader's hash (a failed read checks it first: a
 * damaged upload is said as such, not as what the decoder made of it).
 */
static int analyse(const char *label, const char *data, const char *ksyms, const char *kcache,
		   const char *comm, double ops, const struct load_opts *o, const char *key,
		   struct trace_check *tc, struct ts_run *r)
{
	struct ts_sha256 h;
	struct ts_report_opts ro = { 0 };
	struct ts_source_opts so = { .input = data,
				     .kallsyms = ksyms,
				     .ksyms_cache = kcache,
				     .formats_cache = cli_formats_cache(),
				     .need_decoder = 1,
				     .symbols = ksyms ? TS_SYMS_TABLE : 0,
				     .threaded = !o->one_thread,
				     .cpus_taken = o->one_thread,
				     .keep_arena = 1 };
	struct ts_analysis_opts ao = { 0 };
	struct ts_source *src = NULL;
	struct ts_analysis *a = NULL;
	struct feed_ctx fc = { 0 };
	int err = ts_analysis_new(&a, &ao);

	/* the analysis is fed each event first: its workload tree is up to date for the path */
	err = err   ?:
		      (comm ? ts_cpath_new(&fc.path, comm, ts_sched_wltree(ts_analysis_sched(a))) :
			      0);
	fc.a = a;
	if (!tc->checked) {
		ts_sha256_init(&h);
		so.sha256 = &h;
	}
	if (!err) {
		err = ts_source_open(&src, &so);
		if (!err) {
			ts_source_note_recorded(src, a);
			err = ts_source_run(src, feed, &fc);
		}
		/* the trace is the one meta.txt records before any figure of it is used */
		if (!tc->checked && check_read(tc, &h, err ? NULL : src)) {
			err = 1;
			goto out;
		}
		if (!err) {
			/* metrics name functions through the kallsyms, loaded by now */
			ts_source_report_opts(src, &ro);
			ts_analysis_set_symbols(a, ro.sym, ro.sym_ctx);
			err = ts_source_run_facts(src, r);
		}
		/* said when the summary is computed; a cached one was computed with this line */
		if (!err)
			cli_warn_filters(cli_err(), label, src);
		if (err) {
			/* the source names the file it read: the user's, or xz's temporary one */
			const char *m = src ? ts_source_error(src) : ts_strerror(err);
			size_t n = strlen(data);

			if (!strncmp(m, data, n) && !strncmp(m + n, ": ", 2))
				m += n + 2;
			cli_error("%s%s: %s", label, strcmp(label, data) ? " (unpacked)" : "", m);
			goto out;
		}
	}
	err = err ?: cli_finish(src, a);
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

/*
 * A summary of this trace under another key: the file was copied or unpacked since (tar keeps
 * the time to the second, the key has its nanoseconds), or it came from a board with its
 * summary. The trace line proves which trace it is: take it, and key it to the file as it is
 * now in the user's cache, @dst (best effort; NULL: none). Return: 1 taken, 0 not, -ENOMEM.
 */
static int same_trace(const char *cpath, const char *dst, const char *data, const char *key,
		      const char *comm, double ops, const char *sha, long long size,
		      const struct load_opts *o, struct ts_run *r)
{
	struct ts_run tmp = { .lost = NAN };
	struct ts_summary_head h;
	const char *ks = strrchr(key, '\t');
	int line, rc = 0, from = r->nr, lock;
	char want[32];

	if (!ts_summary_head(cpath, &h, &line) && !strcmp(h.format, TS_SUMMARY_MAGIC) && ks &&
	    !strcmp(h.ksyms, ks + 1) && !strcmp(h.version, o->version) &&
	    !strcmp(h.comm, comm ? comm : "-") &&
	    !strcmp(h.ops, ts_summary_ops(ops, want, sizeof(want))) && !strcmp(h.sha256, sha) &&
	    h.trace_size == size)
		rc = ts_summary_read(cpath, h.key, &tmp, NULL);
	if (rc > 0 && o->hook && !o->hook->cached(o->hook->ctx, data, h.key))
		rc = 0; /* the charts need the trace read again */
	for (int i = 0; rc > 0 && i < tmp.nr; i++) {
		const struct ts_run_metric *m = &tmp.m[i];

		rc = ts_run_add(r, m->name, m->unit, m->dir, m->kind, m->value, m->why_null) ?: 1;
	}
	for (int k = TS_FACT_TRACE_FIRST; rc > 0 && k < TS_FACT_TRACE_END; k++)
		rc = (tmp.fact[k] ? ts_run_set_fact(r, k, tmp.fact[k]) : 0) ?: 1;
	if (rc > 0) {
		r->lost = tmp.lost;
		memcpy(r->section, tmp.section, sizeof(r->section));
		if (dst && !cli_cache_mkdir(&lock)) {
			if (!ts_summary_write(dst, key, sha, size, r, from))
				cli_cache_used(dst);
			ts_cache_unlock(lock);
		}
	}
	ts_run_release(&tmp);
	ts_summary_head_release(&h);
	return rc == -TS_ESUMMARY || rc == -TS_ESUMMARYCUT ? 0 : rc;
}

/*
 * The summary cached for this very file (its size and time, in @key) into @r: the one beside
 * the trace, @cpath (tickscope summary or a board wrote it), else compare's own in the user's
 * cache, @upath; unless the options want the trace read. Return: 1 taken, 0 not, -1 (said).
 */
static int from_cache(const char *cpath, const char *upath, const char *data, const char *key,
		      const struct load_opts *o, struct ts_run *r)
{
	const char *p = cpath;
	int rc = 0;

	if (o->no_cache || o->summarise || o->check)
		return 0;
	if (cpath)
		rc = ts_summary_read(cpath, key, r, NULL);
	if (rc <= 0 && rc != -ENOMEM && upath) {
		p = upath;
		rc = ts_summary_read(upath, key, r, NULL);
		if (rc > 0) /* used now: the last to be pruned */
			utimensat(AT_FDCWD, upath, NULL, 0);
	}
	if (rc == -ENOMEM) {
		cli_error("%s: out of memory", p);
		return -1;
	}
	return rc > 0 && (!o->hook || o->hook->cached(o->hook->ctx, data, key));
}

/* The cache key of @data read with kallsyms of content @ksha (NULL: none); NULL when said. */
static char *run_key(const char *data, const char *ksha, const char *comm, double ops,
		     const struct load_opts *o)
{
	char *key = ts_summary_key_sha(data, ksha, comm, ops, o->version);

	if (!key)
		cli_error("%s: %s", data, strerror(errno));
	return key;
}

/*
 * Trace @data, unpacked into *@udata when compressed, checked against what meta.txt records
 * (@tc->id: its sha256 into @tc->sha, its size into @tc->size) now when @now, else by
 * analyse() in the read that decodes it. Return: 0, 1 (said).
 */
static int open_trace(const char *data, char **udata, int now, struct trace_check *tc)
{
	char why[600];

	*udata = cli_ends_with(data, ".xz") ? cli_unxz(data, why, sizeof(why)) : NULL;
	if (cli_ends_with(data, ".xz") && !*udata)
		return cli_error("%s: cannot unpack it: %s", data, why);
	tc->label = data;
	tc->file = *udata ? *udata : data;
	tc->checked = now;
	return now ? check_id(tc->label, tc->file, tc->id, tc->sha, tc->size) : 0;
}

/* Whether @path is there (a summary that same_trace() might take); NULL is not. */
static int exists(const char *path)
{
	struct stat st;

	return path && !stat(path, &st);
}

/*
 * The summary of @r's metrics from @from on, of the trace whose sha256 and size are @sha and
 * @size: beside the trace, @cpath, for tickscope summary, else in the user's cache, @upath,
 * when it can be written. Return: 0, 1 (said).
 */
static int keep_summary(const char *cpath, const char *upath, const char *key, const char *sha,
			long long size, const struct load_opts *o, const struct ts_run *r, int from)
{
	int rc, lock;

	if (o->summarise && cpath) {
		/* summary names the run folder as its output; it must write there */
		rc = ts_summary_write(cpath, key, sha, size, r, from);
		if (rc)
			return cli_error("cannot write %s: %s", cpath, ts_strerror(rc));
	} else if (upath && !cli_cache_mkdir(&lock)) {
		/* compare goes without a cache it cannot write */
		if (!ts_summary_write(upath, key, sha, size, r, from))
			cli_cache_used(upath);
		ts_cache_unlock(lock);
	}
	return 0;
}

int load_trace(const char *path, int folder, const char *given, const char *comm, double ops,
	       const struct trace_id *id, const struct load_opts *o, struct ts_run *r)
{
	char *data = folder ? find(path, "perf.data") : strdup(path);
	char *ksyms = given ? strdup(given) : folder ? find(path, "kallsyms") : NULL;
	char *cpath = NULL, *upath = NULL, *key = NULL, *shared = NULL;
	char *udata = NULL, *uksyms = NULL, sha[TS_SHA256_HEX], ksha[TS_SHA256_HEX];
	const char *kdir;
	int err = 0, from = r->nr, rc, now, sfd = -1;
	long long size = 0;
	struct trace_check tc = { .id = id, .sha = sha, .size = &size };

	if (!data) {
		free(ksyms); /* a run without its trace may still have its kallsyms */
		return folder ? from_summary(path, comm, ops, id, o, r) :
				cli_error("%s: out of memory", path);
	}
	err = usable_ksyms(&ksyms, &uksyms, ksha);
	if (err)
		goto out;
	key = run_key(data, ksyms ? ksha : NULL, comm, ops, o);
	if (!key) {
		err = 1;
		goto out;
	}
	/* read beside the trace; written there by summary alone, by compare in the user's cache */
	if (asprintf(&cpath, "%s.tsum", data) < 0)
		cpath = NULL;
	upath = cli_cache_file(data, ".tsum");
	rc = from_cache(cpath, upath, data, key, o, r);
	if (rc) {
		err = rc < 0;
		goto out;
	}
	if (o->check && !id->sha256)
		goto out; /* a trace meta.txt does not name: nothing to check it against */
	/*
	 * The sha256 before the read when a summary there might be of this trace (same_trace()
	 * needs it) or only the check is asked for; else in the read that decodes the trace.
	 */
	now = o->check || (!o->no_cache && !o->summarise && (exists(cpath) || exists(upath)));
	err = open_trace(data, &udata, now, &tc);
	if (err || o->check)
		goto out;
	rc = 0;
	if (now && cpath)
		rc = same_trace(cpath, upath, data, key, comm, ops, sha, size, o, r);
	if (!rc && now && upath)
		rc = same_trace(upath, upath, data, key, comm, ops, sha, size, o, r);
	if (rc < 0)
		err = cli_error("%s: out of memory", data);
	if (rc)
		goto out;
	err = trace_ksyms(ksyms, ksha, &uksyms, &shared, &sfd, &kdir);
	if (err)
		goto out;
	err = analyse(data, udata ? udata : data,
		      shared ? shared :
		      uksyms ? uksyms :
			       ksyms,
		      shared ? kdir : NULL, comm, ops, o, key, &tc, r);
	if (!err && ksyms && !shared)
		share_ksyms(kdir, uksyms ? uksyms : ksyms, ksha);
	err = err ?: keep_summary(cpath, upath, key, sha, size, o, r, from);
out:
	if (udata)
		unlink(udata);
	if (uksyms)
		unlink(uksyms);
	free(udata);
	free(uksyms);
	free(shared);
	if (sfd >= 0)
		close(sfd);
	free(data);
	free(ksyms);
	free(cpath);
	free(upath);
	free(key);
	return err ? 1 : 0;
}
