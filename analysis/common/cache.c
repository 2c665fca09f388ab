// SPDX-License-Identifier: GPL-2.0-only
/*
 * The user's cache folders: where they are and how they are kept within a cap (cache.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cache.h"
#include "tickscope/sha256.h"

/* a writer's temporary file this old was left by one that died */
#define STALE_TMP_S 3600
#define HEX 64

const char *ts_cache_dir(const char *env, const char *sub, char *buf, size_t len)
{
	const char *val = getenv(env), *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int n;

	if (val)
		return val[0] && strcmp(val, "off") ? val : NULL;
	if (xdg && xdg[0] == '/')
		n = snprintf(buf, len, "%s/tickscope/%s", xdg, sub);
	else if (home && home[0] == '/')
		n = snprintf(buf, len, "%s/.cache/tickscope/%s", home, sub);
	else
		return NULL;
	return n > 0 && (size_t)n < len ? buf : NULL;
}

int ts_cache_path(const char *dir, const char *key, const char *suffix, char *path, size_t len)
{
	char hex[TS_SHA256_HEX];
	struct ts_sha256 s;
	int n;

	ts_sha256_init(&s);
	ts_sha256_update(&s, key, strlen(key));
	ts_sha256_final(&s, hex);
	n = snprintf(path, len, "%s/%s%s", dir, hex, suffix);
	return n > 0 && (size_t)n < len ? 0 : -1;
}

long long ts_cache_cap(const char *env, double def_mb)
{
	const char *val = getenv(env);
	char *end;
	double mb = val && *val ? strtod(val, &end) : -1;

	if (!(mb >= 0 && mb < 1e9) || (val && *val && *end))
		mb = def_mb;
	return (long long)(mb * 1024 * 1024);
}

struct entry {
	char *name;
	long long size;
	struct timespec used; /* the last write or hit (readers touch it) */
};

static int newest_first(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->used.tv_sec != y->used.tv_sec)
		return x->used.tv_sec < y->used.tv_sec ? 1 : -1;
	if (x->used.tv_nsec != y->used.tv_nsec)
		return x->used.tv_nsec < y->used.tv_nsec ? 1 : -1;
	return strcmp(x->name, y->name);
}

/* "<64 hex><suffix>": a cached file; "<64 hex><suffix>.XXXXXX": a writer's temporary file. */
static int cached_name(const char *n, const char *const *suffixes, int *tmp)
{
	size_t h = strspn(n, "0123456789abcdef");

	*tmp = 0;
	if (h != HEX)
		return 0;
	for (; *suffixes; suffixes++) {
		size_t s = strlen(*suffixes);

		if (strncmp(n + h, *suffixes, s))
			continue;
		if (!n[h + s])
			return 1;
		*tmp = n[h + s] == '.' && strlen(n + h + s + 1) == 6;
		if (*tmp)
			return 0;
	}
	return 0;
}

void ts_cache_prune(const char *dir, const char *const *suffixes, long long cap, const char *keep)
{
	long long total = 0;
	struct entry *v = NULL, *nv;
	size_t nr = 0, alloc = 0;
	struct dirent *e;
	struct stat st;
	time_t now = time(NULL);
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), tmp;
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((e = readdir(d))) {
		int cached = cached_name(e->d_name, suffixes, &tmp);

		if ((!cached && !tmp) || fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) ||
		    !S_ISREG(st.st_mode))
			continue;
		if (tmp) {
			if (now - st.st_mtim.tv_sec > STALE_TMP_S)
				unlinkat(fd, e->d_name, 0);
			continue;
		}
		if (nr == alloc) {
			alloc = alloc ? 2 * alloc : 64;
			nv = realloc(v, alloc * sizeof(*v));
			if (!nv)
				goto out;
			v = nv;
		}
		v[nr].name = strdup(e->d_name);
		if (!v[nr].name)
			goto out;
		v[nr].size = (long long)st.st_size;
		v[nr].used = st.st_mtim;
		total += v[nr++].size;
	}
	if (total <= cap)
		goto out;
	qsort(v, nr, sizeof(*v), newest_first);
	/* from the oldest, until the rest fits */
	for (size_t i = nr; i-- > 0 && total > cap;) {
		if (keep && !strcmp(v[i].name, keep))
			continue;
		if (!unlinkat(fd, v[i].name, 0) || errno == ENOENT)
			total -= v[i].size;
	}
out:
	for (size_t i = 0; i < nr; i++)
		free(v[i].name);
	free(v);
	closedir(d);
}

int ts_cache_lock(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	while (flock(fd, LOCK_EX))
		if (errno != EINTR) {
			close(fd);
			return -1;
		}
	return fd;
}

void ts_cache_unlock(int lock)
{
	if (lock >= 0)
		close(lock); /* the lock goes with the last descriptor of its open file */
}
