// SPDX-License-Identifier: GPL-2.0-only
/*
 * The per-run summary file of `tickscope compare` (<perf.data>.tsum), written by compare, by
 * `tickscope summary` and by the dlfilter plugin (--dlarg summary=FILE): a key line, the
 * trace it was computed from, then "lost" and one line per metric.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tickscope/analysis.h"
#include "tickscope/compare_report.h"
#include "common/io.h"
#include "tickscope/error.h"

const char *ts_summary_ops(double ops, char *buf, size_t len)
{
	snprintf(buf, len, "%.17g", ops);
	return buf;
}

char *ts_summary_key_sha(const char *data, const char *ksyms_sha, const char *comm, double ops,
			 const char *version)
{
	char *k, o[32];
	struct stat st;

	if (stat(data, &st))
		return NULL;
	if (asprintf(&k, TS_SUMMARY_MAGIC "\t%s\t%lld\t%lld.%09ld\t%s\t%s\t%s%s", version,
		     (long long)st.st_size, (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
		     comm ? comm : "-", ts_summary_ops(ops, o, sizeof(o)),
		     ksyms_sha ? "ksyms:" : "-", ksyms_sha ? ksyms_sha : "") < 0)
		return NULL;
	return k;
}

char *ts_summary_key(const char *data, const char *ksyms, const char *comm, double ops,
		     const char *version)
{
	char ks[TS_SHA256_HEX];
	struct stat st;
	long long size;
	int err;

	if (stat(data, &st))
		return NULL;
	if (ksyms) {
		err = ts_summary_trace_id(ksyms, ks, &size);
		if (err) {
			errno = -err;
			return NULL;
		}
	}
	return ts_summary_key_sha(data, ksyms ? ks : NULL, comm, ops, version);
}

/* Split @l at tabs into at most @max fields; Return: how many. */
static int split(char *l, char **f, int max)
{
	char *save = NULL;
	int n = 0;

	for (char *t = strtok_r(l, "\t", &save); t && n < max; t = strtok_r(NULL, "\t", &save))
		f[n++] = t;
	return n;
}

/* A decimal count that is all digits; Return: it, or -1. */
static long long count(const char *s)
{
	char *end;
	long long v;

	if (!*s || strspn(s, "0123456789") != strlen(s))
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	return errno ? -1 : v;
}

/*
 * A value as ts_summary_write() prints it ("%.17g"): a finite decimal, or "nan" for a figure not
 * measured; Return: 0, or -1 for anything else ("inf", strtod()'s hexadecimal, a blank).
 */
static int real(const char *s, double *v)
{
	char *end;

	if (!strcmp(s, "nan") || !strcmp(s, "-nan")) {
		*v = NAN;
		return 0;
	}
	if (!*s || strspn(s, "0123456789.eE+-") != strlen(s))
		return -1;
	*v = strtod(s, &end);
	return *end || !isfinite(*v) ? -1 : 0;
}

static int getline_nl(char **l, size_t *cap, FILE *f)
{
	ssize_t n = getline(l, cap, f);

	if (n > 0 && (*l)[n - 1] == '\n')
		(*l)[--n] = '\0';
	return (int)n;
}

/*
 * "tickscope-summary N\tVERSION\tSIZE\tMTIME\tCOMM\tOPS\tKSYMS" into @h (strings copied);
 * formats before 11 have no KSYMS: their fields are read, and the format says the rest.
 */
static int parse_key(char *l, struct ts_summary_head *h)
{
	char *f[8];
	int n;

	h->key = strdup(l);
	if (!h->key)
		return -ENOMEM;
	n = split(l, f, 8);
	if (n < 6 || strncmp(f[0], "tickscope-summary ", 18) || count(f[2]) < 0)
		return -TS_ESUMMARY;
	h->format = strdup(f[0]);
	h->version = strdup(f[1]);
	h->comm = strdup(f[4]);
	h->ops = strdup(f[5]);
	h->ksyms = strdup(n > 6 ? f[6] : "-");
	h->file_size = count(f[2]);
	if (!h->format || !h->version || !h->comm || !h->ops || !h->ksyms)
		return -ENOMEM;
	return n == 7 || strcmp(h->format, TS_SUMMARY_MAGIC) ? 0 : -TS_ESUMMARY;
}

/* "trace\tSHA256\tSIZE" */
static int parse_trace(char *l, struct ts_summary_head *h)
{
	char *f[4];
	int n = split(l, f, 4);

	if (n != 3 || strcmp(f[0], "trace") || strlen(f[1]) != TS_SHA256_HEX - 1 ||
	    strspn(f[1], "0123456789abcdef") != TS_SHA256_HEX - 1 || count(f[2]) < 0)
		return -TS_ESUMMARY;
	memcpy(h->sha256, f[1], TS_SHA256_HEX);
	h->trace_size = count(f[2]);
	return 0;
}

/*
 * @path for reading if it is a regular file, else NULL (errno EINVAL): a FIFO there (a run's
 * perf.data.tsum) had fopen() wait for a writer for ever, and compare and summary with it.
 */
static FILE *open_summary(const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	FILE *f;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		errno = EINVAL;
		return NULL;
	}
	f = fdopen(fd, "r");
	if (!f)
		close(fd);
	return f;
}

int ts_summary_head(const char *path, struct ts_summary_head *h, int *line)
{
	FILE *f = open_summary(path);
	char *l = NULL;
	size_t cap = 0;
	int err;

	memset(h, 0, sizeof(*h));
	h->trace_size = -1;
	*line = 1;
	if (!f)
		return -errno;
	err = getline_nl(&l, &cap, f) > 0 ? parse_key(l, h) : -TS_ESUMMARY;
	if (!err) {
		*line = 2;
		err = getline_nl(&l, &cap, f) > 0 ? parse_trace(l, h) : -TS_ESUMMARY;
	}
	free(l);
	fclose(f);
	return err;
}

void ts_summary_head_release(struct ts_summary_head *h)
{
	free(h->key);
	free(h->format);
	free(h->version);
	free(h->comm);
	free(h->ops);
	free(h->ksyms);
	memset(h, 0, sizeof(*h));
}

/* One metric: "m NAME UNIT DIR KIND VALUE [WHY]" (tabs); Return: 0, -TS_ESUMMARY, -ENOMEM. */
static int one_metric(char *l, struct ts_run *r)
{
	char *f[8];
	int n = split(l, f, 8);
	double v;

	if (n < 6 || n > 7 || strcmp(f[0], "m") || count(f[3]) < 0 || count(f[3]) > TS_DIR_HIGHER ||
	    count(f[4]) < 0 || count(f[4]) > TS_METRIC_RATE || real(f[5], &v))
		return -TS_ESUMMARY;
	return ts_run_add(r, f[1], f[2], (enum ts_metric_dir)atoi(f[3]),
			  (enum ts_metric_kind)atoi(f[4]), v, n > 6 ? f[6] : NULL);
}

/* One fact of the trace: "fact NAME VALUE" (tabs); Return: 0, -TS_ESUMMARY, -ENOMEM. */
static int one_fact(char *l, struct ts_run *r)
{
	char *f[4];
	int n = split(l, f, 4);

	for (int k = TS_FACT_TRACE_FIRST; n == 3 && k < TS_FACT_TRACE_END; k++)
		if (!strcmp(f[1], ts_cmp_fact_name(k)))
			return r->fact[k] ? -TS_ESUMMARY : ts_run_set_fact(r, k, f[2]);
	return -TS_ESUMMARY;
}

static const char *const presence_names[] = {
	[TS_PRESENT] = "present",
	[TS_RECORDED_EMPTY] = "empty",
	[TS_NOT_RECORDED] = "not-recorded",
};

/*
 * Whether the trace recorded a family of events: "section NAME STATE" (tabs), STATE one of
 * presence_names; Return: 0, -TS_ESUMMARY, -ENOMEM.
 */
static int one_section(char *l, struct ts_run *r)
{
	char *f[4];
	int n = split(l, f, 4);

	for (int k = 0; n == 3 && k < TS_SEC_NR; k++) {
		if (strcmp(f[1], ts_run_section_name(k)))
			continue;
		for (int p = 0; p <= TS_NOT_RECORDED && !r->section[k]; p++)
			if (!strcmp(f[2], presence_names[p])) {
				r->section[k] = 1 + p;
				return 0;
			}
		break;
	}
	return -TS_ESUMMARY;
}

/*
 * Every line after the trace's into @r: "lost", the header's facts ("fact", format 13 on),
 * why the recording's filters are unknown ("filters", format 18 on), the families of events
 * recorded ("section", format 14 on), the metrics, "end N".
 * Return: 0, -TS_ESUMMARY (at *@line), -TS_ESUMMARYCUT, -ENOMEM.
 */
static int body(FILE *f, struct ts_run *r, int *line)
{
	char *l = NULL;
	size_t cap = 0;
	int err = 0, lost = 0, done = 0;

	while (!err && getline_nl(&l, &cap, f) >= 0) {
		++*line;
		if (done) {
			err = -TS_ESUMMARY; /* nothing after the end */
		} else if (!strncmp(l, "lost\t", 5)) {
			/* a count of lost events, or nan: not known */
			if (real(l + 5, &r->lost) || r->lost < 0 || lost++ || r->nr)
				err = -TS_ESUMMARY;
		} else if (!strncmp(l, "fact\t", 5) && lost && !r->nr) {
			err = one_fact(l, r);
		} else if (!strncmp(l, "filters\t", 8) && lost && !r->nr && !r->filters_unknown) {
			err = l[8] ? ts_run_set_filters_unknown(r, l + 8) : -TS_ESUMMARY;
		} else if (!strncmp(l, "section\t", 8) && lost && !r->nr) {
			err = one_section(l, r);
		} else if (!strncmp(l, "end\t", 4)) {
			done = 1;
			err = !lost || count(l + 4) != r->nr ? -TS_ESUMMARY : 0;
		} else {
			err = lost ? one_metric(l, r) : -TS_ESUMMARY;
		}
	}
	free(l);
	if (!err && !done)
		++*line;
	return err ?: done ? 0 : -TS_ESUMMARYCUT;
}

int ts_summary_read(const char *path, const char *key, struct ts_run *r, int *line)
{
	struct ts_run tmp = { .lost = NAN };
	FILE *f = open_summary(path);
	char *l = NULL;
	size_t cap = 0;
	int n, err = 0, where = 1;

	if (!f)
		return 0;
	n = getline_nl(&l, &cap, f);
	if (n <= 0 || strcmp(l, key)) {
		free(l);
		fclose(f);
		return 0;
	}
	where = 2;
	err = getline_nl(&l, &cap, f) > 0 ? parse_trace(l, &(struct ts_summary_head){ 0 }) :
					    -TS_ESUMMARY;
	free(l);
	err = err ?: body(f, &tmp, &where);
	fclose(f);
	/* all or nothing: a summary cut short must not leave half its metrics in @r */
	for (int i = 0; !err && i < tmp.nr; i++) {
		const struct ts_run_metric *m = &tmp.m[i];

		err = ts_run_add(r, m->name, m->unit, m->dir, m->kind, m->value, m->why_null);
	}
	for (int k = TS_FACT_TRACE_FIRST; !err && k < TS_FACT_TRACE_END; k++)
		err = tmp.fact[k] ? ts_run_set_fact(r, k, tmp.fact[k]) : 0;
	err = err ?: tmp.filters_unknown ? ts_run_set_filters_unknown(r, tmp.filters_unknown) : 0;
	if (!err) {
		r->lost = tmp.lost;
		memcpy(r->section, tmp.section, sizeof(r->section));
	}
	ts_run_release(&tmp);
	if (line)
		*line = where;
	return err ?: 1;
}

/* The summary's text, as ts_summary_write() writes it, to @f. */
static void summary_print(FILE *f, const char *key, const char *sha256, long long trace_size,
			  const struct ts_run *r, int from)
{
	fprintf(f, "%s\ntrace\t%s\t%lld\nlost\t%.17g\n", key, sha256, trace_size, r->lost);
	for (int k = TS_FACT_TRACE_FIRST; k < TS_FACT_TRACE_END; k++) {
		if (!r->fact[k])
			continue;
		fprintf(f, "fact\t%s\t", ts_cmp_fact_name(k));
		for (const char *c = r->fact[k]; *c; c++) /* one field of one line */
			fputc(*c == '\t' || *c == '\n' ? ' ' : *c, f);
		fputc('\n', f);
	}
	if (r->filters_unknown) {
		fputs("filters\t", f);
		for (const char *c = r->filters_unknown; *c; c++)
			fputc(*c == '\t' || *c == '\n' ? ' ' : *c, f);
		fputc('\n', f);
	}
	for (int k = 0; k < TS_SEC_NR; k++)
		if (ts_run_section(r, k) >= 0)
			fprintf(f, "section\t%s\t%s\n", ts_run_section_name(k),
				presence_names[ts_run_section(r, k)]);
	for (int i = from; i < r->nr; i++) {
		const struct ts_run_metric *m = &r->m[i];

		fprintf(f, "m\t%s\t%s\t%d\t%d\t%.17g", m->name, m->unit, m->dir, m->kind, m->value);
		fprintf(f, m->why_null ? "\t%s\n" : "\n", m->why_null);
	}
	fprintf(f, "end\t%d\n", r->nr - from);
}

/*
 * Whether the regular file @path (not through a link) holds exactly the @len bytes of @text.
 * A summary computed again (compare --no-cache) is most often the one already there: leaving
 * it in place spares the file system freeing the old one's blocks, which on a file system
 * mounted with `discard` waits for the disk (30-50 ms a run, issue 33).
 */
static int same_text(const char *path, const char *text, size_t len)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	char buf[8192];
	struct stat st;
	size_t at = 0;
	ssize_t n = 0;

	if (fd < 0)
		return 0;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (size_t)st.st_size != len) {
		close(fd);
		return 0;
	}
	while (at < len && (n = read(fd, buf, sizeof(buf))) > 0 && (size_t)n <= len - at &&
	       !memcmp(buf, text + at, n))
		at += n;
	/* all of it, and nothing after */
	n = at == len && n >= 0 ? read(fd, buf, 1) : -1;
	close(fd);
	return at == len && !n;
}

int ts_summary_write(const char *path, const char *key, const char *sha256, long long trace_size,
		     const struct ts_run *r, int from)
{
	char *tmp = NULL, *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int fd = -1, err;

	if (!f)
		return -ENOMEM;
	summary_print(f, key, sha256, trace_size, r, from);
	err = ferror(f) ? -ENOMEM : 0;
	if (fclose(f) || err) {
		free(text);
		return -ENOMEM;
	}
	if (same_text(path, text, len)) {
		/* written now, as far as the cache's pruning (by age) is concerned */
		utimensat(AT_FDCWD, path, NULL, 0);
		free(text);
		return 0;
	}
	if (asprintf(&tmp, "%s.XXXXXX", path) < 0) {
		free(text);
		return -ENOMEM;
	}
	fd = mkstemp(tmp);
	err = fd < 0 ? -errno : 0;
	if (!err)
		fchmod(fd, 0644);
	err = err ?: ts_write_full(fd, text, len);
	if (fd >= 0 && close(fd) && !err)
		err = -errno;
	if (!err && rename(tmp, path)) /* its own reason: a folder in its place is EISDIR */
		err = -errno;
	if (err && fd >= 0)
		unlink(tmp);
	free(tmp);
	free(text);
	return err;
}

int ts_summary_trace_id(const char *path, char *hex, long long *size)
{
	static const size_t chunk = 1 << 20;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char *buf = malloc(chunk);
	struct ts_sha256 s;
	ssize_t n = 0;
	int err = 0;

	if (fd < 0 || !buf) {
		err = fd < 0 ? -errno : -ENOMEM;
		goto out;
	}
	ts_sha256_init(&s);
	while ((n = read(fd, buf, chunk)) > 0)
		ts_sha256_update(&s, buf, (size_t)n);
	if (n < 0) {
		err = -errno;
		goto out;
	}
	*size = (long long)s.bytes;
	ts_sha256_final(&s, hex);
out:
	if (fd >= 0)
		close(fd);
	free(buf);
	return err;
}
