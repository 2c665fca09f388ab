// SPDX-License-Identifier: GPL-2.0-only
/*
 * The per-run summary file of `tickscope compare` (<perf.data>.tsum), written by compare and by
 * the dlfilter plugin (--dlarg summary=FILE): a key line, then "lost" and one line per metric.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tickscope/compare_report.h"

char *ts_summary_key(const char *data, const char *comm, double ops, const char *version)
{
	struct stat st;
	char *k;

	if (stat(data, &st))
		return NULL;
	if (asprintf(&k, TS_SUMMARY_MAGIC "\t%s\t%lld\t%lld.%09ld\t%s\t%.17g", version,
		     (long long)st.st_size, (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
		     comm ? comm : "-", ops) < 0)
		return NULL;
	return k;
}

/* One metric: "m NAME UNIT DIR KIND VALUE [WHY]" (tabs); Return: 0, 1 (malformed), -ENOMEM. */
static int one_metric(char *l, struct ts_run *r)
{
	char *f[7], *save = NULL;
	int n = 0;

	for (char *t = strtok_r(l, "\t", &save); t && n < 7; t = strtok_r(NULL, "\t", &save))
		f[n++] = t;
	if (n < 6 || strcmp(f[0], "m"))
		return 1;
	return ts_run_add(r, f[1], f[2], (enum ts_metric_dir)atoi(f[3]),
			  (enum ts_metric_kind)atoi(f[4]), strtod(f[5], NULL), n > 6 ? f[6] : NULL);
}

int ts_summary_read(const char *path, const char *key, struct ts_run *r)
{
	FILE *f = fopen(path, "r");
	char *l = NULL;
	size_t cap = 0;
	ssize_t n;
	int ok, err = 0;

	if (!f)
		return 0;
	n = getline(&l, &cap, f);
	if (n > 0 && l[n - 1] == '\n')
		l[n - 1] = '\0';
	ok = n > 0 && !strcmp(l, key);
	while (ok && !err && (n = getline(&l, &cap, f)) > 0) {
		if (l[n - 1] == '\n')
			l[n - 1] = '\0';
		if (!strncmp(l, "lost\t", 5))
			r->lost = strtod(l + 5, NULL);
		else if ((err = one_metric(l, r)) > 0)
			ok = 0;
	}
	free(l);
	fclose(f);
	return err < 0 ? err : ok;
}

int ts_summary_write(const char *path, const char *key, const struct ts_run *r, int from)
{
	char *tmp;
	FILE *f = NULL;
	int fd, err = 0;

	if (asprintf(&tmp, "%s.XXXXXX", path) < 0)
		return -ENOMEM;
	fd = mkstemp(tmp);
	if (fd >= 0) {
		fchmod(fd, 0644);
		f = fdopen(fd, "w");
	}
	if (!f) {
		err = -errno;
		if (fd >= 0)
			close(fd);
		free(tmp);
		return err;
	}
	fprintf(f, "%s\nlost\t%.17g\n", key, r->lost);
	for (int i = from; i < r->nr; i++) {
		const struct ts_run_metric *m = &r->m[i];

		fprintf(f, "m\t%s\t%s\t%d\t%d\t%.17g", m->name, m->unit, m->dir, m->kind, m->value);
		fprintf(f, m->why_null ? "\t%s\n" : "\n", m->why_null);
	}
	if (ferror(f) | fclose(f) || rename(tmp, path)) {
		err = -EIO;
		unlink(tmp);
	}
	free(tmp);
	return err;
}
