// SPDX-License-Identifier: GPL-2.0-only
/*
 * `tickscope record`'s tracepoint list: -e arguments expanded against tracefs into names and
 * ids, with the names the running kernel lacks kept apart so that they can be listed.
 */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record.h"

const char *rec_tracefs(int *err)
{
	static const char *const where[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	char path[64];
	size_t i;

	*err = -ENOENT;
	for (i = 0; i < sizeof(where) / sizeof(where[0]); i++) {
		snprintf(path, sizeof(path), "%s/events/header_page", where[i]);
		if (!access(path, R_OK))
			return where[i];
		if (errno == EACCES)
			*err = -EACCES;
	}
	return NULL;
}

static int push(char ***v, int *nr, int *alloc, const char *s)
{
	char **n;

	if (*nr == *alloc) {
		*alloc = *alloc ? 2 * *alloc : 16;
		n = realloc(*v, sizeof(**v) * (size_t)*alloc);
		if (!n)
			return -ENOMEM;
		*v = n;
	}
	(*v)[*nr] = strdup(s);
	return (*v)[(*nr)++] ? 0 : -ENOMEM;
}

static int read_id(const char *tracefs, const char *sys, const char *ev, uint64_t *id)
{
	char path[PATH_MAX];
	unsigned long long v;
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/events/%s/%s/id", tracefs, sys, ev);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	ok = fscanf(f, "%llu", &v) == 1;
	fclose(f);
	*id = v;
	return ok ? 0 : -EINVAL;
}

static int add_one(struct rec_events *e, const char *tracefs, const char *sys, const char *ev)
{
	char name[512];
	uint64_t id = 0, *n;
	int i, err;

	snprintf(name, sizeof(name), "%s:%s", sys, ev);
	for (i = 0; i < e->nr; i++)
		if (!strcmp(e->name[i], name))
			return 0; /* named twice: recorded once */
	err = read_id(tracefs, sys, ev, &id);
	if (err == -ENOENT)
		return push(&e->missing, &e->nr_missing, &e->missing_alloc, name);
	if (err)
		return err;
	if (e->nr == e->alloc) {
		n = realloc(e->id, sizeof(*n) * (size_t)(e->alloc ? 2 * e->alloc : 16));
		if (!n)
			return -ENOMEM;
		e->id = n;
	}
	e->id[e->nr] = id;
	return push(&e->name, &e->nr, &e->alloc, name);
}

/* every directory entry of @dir matching @pat, through add_one (or deeper for systems) */
static int add_glob(struct rec_events *e, const char *tracefs, const char *sys, const char *ev)
{
	char path[PATH_MAX];
	struct dirent *d;
	int err = 0, any = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "%s/events%s%s", tracefs, strpbrk(sys, "*?[") ? "" : "/",
		 strpbrk(sys, "*?[") ? "" : sys);
	dir = opendir(path);
	if (!dir)
		return errno == ENOENT ? 1 : -errno;
	while (!err && (d = readdir(dir))) {
		if (d->d_name[0] == '.' || d->d_type != DT_DIR)
			continue;
		if (strpbrk(sys, "*?[")) {
			if (!fnmatch(sys, d->d_name, 0) && strcmp(d->d_name, "ftrace")) {
				err = add_glob(e, tracefs, d->d_name, ev);
				any += err == 0;
				err = err > 0 ? 0 : err;
			}
		} else if (!fnmatch(ev, d->d_name, 0)) {
			err = add_one(e, tracefs, sys, d->d_name);
			any++;
		}
	}
	closedir(dir);
	return err ?: !any;
}

int rec_events_add(struct rec_events *e, const char *tracefs, const char *arg, const char **bad)
{
	char *list = strdup(arg), *save = NULL, *tok, *colon;
	int err = list ? 0 : -ENOMEM;

	for (tok = list ? strtok_r(list, ",", &save) : NULL; !err && tok;
	     tok = strtok_r(NULL, ",", &save)) {
		colon = strchr(tok, ':');
		if (!colon || colon == tok || !colon[1] || strchr(colon + 1, ':') ||
		    strchr(tok, '/')) {
			*bad = arg + (tok - list);
			err = -EINVAL;
			break;
		}
		*colon = 0;
		if (strpbrk(tok, "*?[") || strpbrk(colon + 1, "*?[")) {
			err = add_glob(e, tracefs, tok, colon + 1);
			if (err > 0) { /* a pattern that matches nothing: listed as missing */
				*colon = ':';
				err = push(&e->missing, &e->nr_missing, &e->missing_alloc, tok);
			}
		} else {
			err = add_one(e, tracefs, tok, colon + 1);
		}
	}
	free(list);
	return err;
}

void rec_events_free(struct rec_events *e)
{
	int i;

	for (i = 0; i < e->nr; i++)
		free(e->name[i]);
	for (i = 0; i < e->nr_missing; i++)
		free(e->missing[i]);
	free(e->name);
	free(e->id);
	free(e->missing);
	memset(e, 0, sizeof(*e));
}
