// SPDX-License-Identifier: GPL-2.0-only
/*
 * Markers of tracing data a probe child found clean (tracedata.c), kept in a cache folder, so
 * that every report of one kernel and event list does not fork a child to parse the same
 * formats again (a fork and 4-5 M instructions: half of a report of 10k samples, issue 33).
 * A marker is named by the sha256 of its key and holds the key itself: the sha256 of the bytes
 * the probe parsed, the formats refused before it, and the libtraceevent that parsed them. A
 * file that does not hold exactly the key it is named for is a miss, never trusted.
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <traceevent/event-parse.h>

#include "common/cache.h"
#include "common/io.h"
#include "tickscope/decode.h"
#include "tracedata.h"

/*
 * The marker's format, and what the probe does (its steps in tracedata.c): a change to either
 * bumps it, so that no marker vouches for a probe that parsed less.
 */
#define VERSION 1
/* the folder's markers are kept within this many MiB ($TS_FORMATS_CACHE_MB) */
#define CACHE_MB 1

static const char *const marker_suffixes[] = { ".vetted", NULL };

/*
 * The libtraceevent this process parses with, in @buf: its file, device, inode, size and times
 * (one rebuilt or upgraded in place is another). Return: 0, or -1 when it cannot be told.
 */
static int library_id(char *buf, size_t len)
{
	Dl_info info;
	struct stat st;
	int n;

	if (!dladdr((void *)tep_alloc, &info) || !info.dli_fname || stat(info.dli_fname, &st))
		return -1;
	n = snprintf(buf, len, "%s %llu %llu %lld %lld.%09ld %lld.%09ld", info.dli_fname,
		     (unsigned long long)st.st_dev, (unsigned long long)st.st_ino,
		     (long long)st.st_size, (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
		     (long long)st.st_ctim.tv_sec, st.st_ctim.tv_nsec);
	return n > 0 && (size_t)n < len ? 0 : -1;
}

int ts_vetted_key(char *key, size_t len, const char *sum, const size_t *refused, size_t nr)
{
	char lib[4200];
	size_t i;
	int n;

	if (library_id(lib, sizeof(lib)))
		return -1;
	n = snprintf(key, len, "tickscope-vetted %d\nsections %s\nlibtraceevent %s\nrefused",
		     VERSION, sum, lib);
	for (i = 0; i < nr && n > 0 && (size_t)n < len; i++)
		n += snprintf(key + n, len - n, " %zu", refused[i]);
	if (n > 0 && (size_t)n < len)
		n += snprintf(key + n, len - n, "\n");
	return n > 0 && (size_t)n < len ? 0 : -1;
}

int ts_vetted_cached(const char *dir, const char *key)
{
	size_t klen = strlen(key);
	char path[4200], *buf;
	ssize_t n;
	int fd, ok;

	if (ts_cache_path(dir, key, ".vetted", path, sizeof(path)))
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	buf = malloc(klen + 1);
	n = buf ? read(fd, buf, klen + 1) : -1;
	close(fd);
	/* exactly the key: a longer, shorter or other file is not this marker */
	ok = n == (ssize_t)klen && !memcmp(buf, key, klen);
	free(buf);
	/* used now: the last to be pruned */
	if (ok)
		utimensat(AT_FDCWD, path, NULL, 0);
	return ok;
}

void ts_vetted_store(const char *dir, const char *key)
{
	char path[4200], tmp[4300];
	const char *name;
	int fd, bad, lock;

	if (ts_cache_path(dir, key, ".vetted", path, sizeof(path)) || ts_mkdir_p(dir, 0700) ||
	    snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp))
		return;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return;
	bad = ts_write_full(fd, key, strlen(key));
	name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	lock = ts_cache_lock(dir);
	if (close(fd) || bad || rename(tmp, path))
		unlink(tmp);
	else
		ts_cache_prune(dir, marker_suffixes, ts_cache_cap("TS_FORMATS_CACHE_MB", CACHE_MB),
			       name);
	ts_cache_unlock(lock);
}

const char *ts_decoder_cache_dir(char *buf, size_t len)
{
	return ts_cache_dir("TS_FORMATS_CACHE", "formats", buf, len);
}
