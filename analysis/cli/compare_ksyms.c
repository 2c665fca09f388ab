// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kallsyms of a run's trace for `tickscope compare` (compare_trace.c): its sha256 and
 * whether its addresses are all 0, remembered per file in the kallsyms cache folder, and one
 * shared copy of each content there, whose parsed table every run of that kernel maps.
 */
#include <errno.h>
#include <fcntl.h>
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
#include "tickscope/compare_report.h"
#include "tickscope/sha256.h"

/*
 * Whether every address of the kallsyms @path is 0, as /proc/kallsyms reads for a user
 * without the right to see them: every symbol would be the same one. Return: 1, 0, -errno.
 */
static int ksyms_zeroed(const char *path)
{
	FILE *f = fopen(path, "r");
	char *l = NULL;
	size_t cap = 0;
	int lines = 0, zero = 1;

	if (!f)
		return -errno;
	while (zero && getline(&l, &cap, f) > 0) {
		size_t n = strspn(l, "0");

		lines++;
		zero = n && l[n] == ' ';
	}
	free(l);
	fclose(f);
	return lines && zero;
}

/*
 * A kallsyms's (or kallsyms.xz's unpacked) sha256 and whether its addresses are all 0,
 * remembered in the kallsyms cache folder (cli_ksyms_cache()) by the file's device, inode,
 * size and times: a compare from cached summaries then unpacks no kallsyms (5.4 MB each
 * here), and a cold one hashes each kallsyms once, not on every compare.
 */
static int memo_path(const char *xz, char *key, size_t klen, char *path, size_t plen)
{
	int xzed = cli_ends_with(xz, ".xz");
	const char *dir = cli_ksyms_cache();
	char hex[TS_SHA256_HEX];
	struct ts_sha256 s;
	struct stat st;
	int n;

	if (!dir || stat(xz, &st) || !S_ISREG(st.st_mode))
		return -1;
	n = snprintf(key, klen, "%s %llu %llu %lld %lld.%09ld %lld.%09ld", xzed ? "xz" : "file",
		     (unsigned long long)st.st_dev, (unsigned long long)st.st_ino,
		     (long long)st.st_size, (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
		     (long long)st.st_ctim.tv_sec, st.st_ctim.tv_nsec);
	if (n < 0 || (size_t)n >= klen)
		return -1;
	ts_sha256_init(&s);
	ts_sha256_update(&s, key, (size_t)n);
	ts_sha256_final(&s, hex);
	n = snprintf(path, plen, "%s/%s.%s", dir, hex, xzed ? "xzsum" : "ksum");
	return n > 0 && (size_t)n < plen ? 0 : -1;
}

/* Return: 1 with @sha and *@zeroed from the memo of @xz, else 0. */
static int memo_get(const char *xz, char *sha, int *zeroed)
{
	char key[200], path[4200], line[512], want[300];
	size_t n;
	FILE *f;

	if (memo_path(xz, key, sizeof(key), path, sizeof(path)))
		return 0;
	f = fopen(path, "r");
	if (!f)
		return 0;
	n = fread(line, 1, sizeof(line) - 1, f);
	fclose(f);
	line[n] = 0;
	/* "KEY\nSHA256 Z\n": the key again, so that a name's collision cannot answer */
	snprintf(want, sizeof(want), "%s\n", key);
	if (strncmp(line, want, strlen(want)))
		return 0;
	if (sscanf(line + strlen(want), "%64[0-9a-f] %d", sha, zeroed) != 2 ||
	    strlen(sha) != TS_SHA256_HEX - 1 || (*zeroed != 0 && *zeroed != 1))
		return 0;
	return 1;
}

static void memo_put(const char *xz, const char *sha, int zeroed)
{
	char key[200], path[4200], tmp[4220];
	FILE *f;
	int fd;

	if (memo_path(xz, key, sizeof(key), path, sizeof(path)) ||
	    snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp))
		return;
	/* the folder is the kallsyms cache's: made by report, dump or plot, else here */
	ts_mkdir_p(cli_ksyms_cache(), 0700);
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(tmp);
		return;
	}
	fprintf(f, "%s\n%s %d\n", key, sha, zeroed);
	if (fclose(f) || rename(tmp, path))
		unlink(tmp);
}

/*
 * One copy of each kallsyms content, named by its sha256 in the kallsyms cache folder: every
 * run of that kernel reads it, so that its table is parsed once and then mapped from that
 * folder (ts_ksyms_load_cached(), as report keeps its tables), where each run parsed (and
 * first unpacked) its own 121,000-line copy: a quarter of a cold compare's CPU (issue 33).
 * Only a kallsyms that a run was just read with is copied: one that does not parse is named by
 * the user's path, never by the cache's. The copies count within the folder's cap
 * ($TS_KSYMS_CACHE_MB) with the tables, the oldest removed first.
 */
#define SHARED_SUFFIX ".kallsyms"

/*
 * The copy of content @ksha in the cache folder @dir, if there is one, held open in *@fd and
 * named through it: another compare's worker, pruning the folder, may remove the copy at any
 * time, and a run that found it must still read it (by name, a table's key is its file's
 * times, which /proc/self/fd/N gives as the name in the folder did).
 */
static char *shared_ksyms(const char *dir, const char *ksha, int *fd)
{
	struct stat st;
	char *p, *byfd;

	*fd = -1;
	if (!dir || asprintf(&p, "%s/%s" SHARED_SUFFIX, dir, ksha) < 0)
		return NULL;
	/* not touched when used: its times are its table's key (the oldest copy goes first) */
	*fd = open(p, O_RDONLY | O_CLOEXEC);
	free(p);
	if (*fd >= 0 && !fstat(*fd, &st) && S_ISREG(st.st_mode) &&
	    asprintf(&byfd, "/proc/self/fd/%d", *fd) >= 0) {
		if (!stat(byfd, &st))
			return byfd;
		free(byfd); /* no /proc: the copy is not used */
	}
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
	return NULL;
}

/*
 * Copy @from (of content @ksha) into @dir, through a temporary file linked into place: a copy
 * there already (another worker's) is not replaced, so that its table's key stays.
 */
void share_ksyms(const char *dir, const char *from, const char *ksha)
{
	static const char *const suffixes[] = { ".ksyms", SHARED_SUFFIX, NULL };
	char path[4200], tmp[4220], buf[64 * 1024];
	int in = -1, out = -1, bad = 0, lock;
	ssize_t n;

	if (!dir ||
	    snprintf(path, sizeof(path), "%s/%s" SHARED_SUFFIX, dir, ksha) >= (int)sizeof(path) ||
	    snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp) ||
	    ts_mkdir_p(dir, 0700))
		return;
	in = open(from, O_RDONLY | O_CLOEXEC);
	out = in >= 0 ? mkostemp(tmp, O_CLOEXEC) : -1;
	if (out < 0) {
		if (in >= 0)
			close(in);
		return;
	}
	while (!bad && (n = read(in, buf, sizeof(buf))) != 0)
		bad = n < 0 ? errno != EINTR : ts_write_full(out, buf, (size_t)n) != 0;
	close(in);
	bad |= close(out);
	lock = ts_cache_lock(dir);
	/* a folder where files cannot be linked (vfat): renamed, replacing */
	if (!bad && link(tmp, path) && errno != EEXIST)
		bad = rename(tmp, path);
	unlink(tmp);
	if (!bad)
		ts_cache_prune(dir, suffixes, ts_cache_cap("TS_KSYMS_CACHE_MB", 128),
			       strrchr(path, '/') + 1);
	ts_cache_unlock(lock);
}

/*
 * The kallsyms *@ksyms and its content's sha256 into @ksha (the key takes it: it names the
 * functions). A kallsyms seen before (its memo) is not read for it, and a kallsyms.xz not
 * unpacked but when the trace is analysed; else an .xz is unpacked into *@uksyms. One whose
 * every address is 0 is dropped, said. Return: 0, 1 (said).
 */
int usable_ksyms(char **ksyms, char **uksyms, char *ksha)
{
	int memo, kzero = 0, rc;
	long long ksize;
	char why[600];

	*uksyms = NULL;
	if (!*ksyms)
		return 0;
	memo = memo_get(*ksyms, ksha, &kzero);
	if (cli_ends_with(*ksyms, ".xz") && !memo) {
		*uksyms = cli_unxz(*ksyms, why, sizeof(why));
		if (!*uksyms)
			return cli_error("%s: cannot unpack it: %s", *ksyms, why);
	}
	if (!memo) {
		kzero = ksyms_zeroed(*uksyms ? *uksyms : *ksyms) > 0;
		rc = ts_summary_trace_id(*uksyms ? *uksyms : *ksyms, ksha, &ksize);
		if (rc)
			return cli_error("%s: %s", *ksyms, strerror(-rc));
		memo_put(*ksyms, ksha, kzero);
	}
	if (kzero) {
		fprintf(cli_err(),
			"tickscope: warning: %s: every address in it is 0 (read without the right to "
			"see addresses: kptr_restrict); not used: functions are not named\n",
			*ksyms);
		free(*ksyms);
		*ksyms = NULL;
		if (*uksyms)
			unlink(*uksyms);
		free(*uksyms);
		*uksyms = NULL;
	}
	return 0;
}

/*
 * The kallsyms to read the trace with: the cache folder's copy of content @ksha, into *@shared
 * (its folder into *@kdir), else the user's @ksyms, an .xz unpacked into *@uksyms unless it is
 * already. Return: 0, 1 (said).
 */
int trace_ksyms(const char *ksyms, const char *ksha, char **uksyms, char **shared, int *sfd,
		const char **kdir)
{
	char why[600];

	*kdir = ksyms ? cli_ksyms_cache() : NULL;
	*sfd = -1;
	*shared = ksyms ? shared_ksyms(*kdir, ksha, sfd) : NULL;
	if (!*shared && ksyms && cli_ends_with(ksyms, ".xz") && !*uksyms) {
		*uksyms = cli_unxz(ksyms, why, sizeof(why));
		if (!*uksyms)
			return cli_error("%s: cannot unpack it: %s", ksyms, why);
	}
	return 0;
}
