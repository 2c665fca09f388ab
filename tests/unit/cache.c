// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit tests of the cache folders' upkeep (common/cache.c): ts_cache_prune() keeps a folder
 * within its cap, the files used longest ago going first, and writers that each place a file
 * and prune under ts_cache_lock() leave the last one placed when the cap is 0. Without the
 * lock, two writers' prunes removed each other's file and left none: CI saw it in
 * tests/compare-cache.t, "TS_SUMMARY_CACHE_MB=0 keeps one file", as compare's workers wrote
 * their summaries at the same time. The oracle is the folder's listing (readdir).
 */
#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/cache.h"
#include "tap.h"

#define WRITERS 4
#define ROUNDS 1000

static const char *const suffixes[] = { ".tsum", NULL };

/* The files in @dir named ...@suffix (NULL: temporaries); the first into @first (256 bytes) */
static int count(const char *dir, const char *suffix, char *first)
{
	struct dirent *e;
	DIR *d = opendir(dir);
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d))) {
		size_t l = strlen(e->d_name), s = suffix ? strlen(suffix) : 0;

		if (suffix ? l < s || strcmp(e->d_name + l - s, suffix) :
			     !strstr(e->d_name, ".tsum."))
			continue;
		if (!n++ && first)
			snprintf(first, 256, "%s", e->d_name);
	}
	closedir(d);
	return n;
}

/* "@dir/<64 hex of @id>.tsum" into @path, its name into @name */
static void name_of(const char *dir, int id, char *path, size_t len, char *name)
{
	snprintf(name, 80, "%064x.tsum", id);
	snprintf(path, len, "%s/%s", dir, name);
}

/* A file of @bytes bytes placed at @path through a temporary file, as the caches write. */
static int place(const char *dir, const char *path, const char *name, size_t bytes, int locked,
		 long long cap)
{
	char tmp[4200], buf[256] = { 0 };
	int fd, lock = -1, bad = 0;

	snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path);
	fd = mkstemp(tmp);
	if (fd < 0)
		return -1;
	for (size_t at = 0; at < bytes && !bad; at += sizeof(buf))
		bad = write(fd, buf, bytes - at < sizeof(buf) ? bytes - at : sizeof(buf)) < 0;
	if (locked)
		lock = ts_cache_lock(dir);
	if (close(fd) || bad || rename(tmp, path)) {
		unlink(tmp);
		bad = -1;
	} else {
		ts_cache_prune(dir, suffixes, cap, name);
	}
	ts_cache_unlock(lock);
	return bad;
}

struct writer {
	const char *dir;
	int id;
	pthread_barrier_t *start, *done;
	int failed;
};

static void *write_rounds(void *arg)
{
	struct writer *w = arg;
	char path[4200], name[80];

	for (int r = 0; r < ROUNDS; r++) {
		pthread_barrier_wait(w->start);
		name_of(w->dir, r * WRITERS + w->id, path, sizeof(path), name);
		w->failed |= place(w->dir, path, name, 100, 1, 0) != 0;
		pthread_barrier_wait(w->done);
	}
	return NULL;
}

/* WRITERS threads place a file each at once, ROUNDS times; one file is left after each round */
static void test_writers(const char *dir)
{
	pthread_barrier_t start, done;
	struct writer w[WRITERS];
	pthread_t t[WRITERS];
	int bad_rounds = 0, counts[WRITERS + 2] = { 0 }, failed = 0, n;

	pthread_barrier_init(&start, NULL, WRITERS + 1);
	pthread_barrier_init(&done, NULL, WRITERS + 1);
	for (int i = 0; i < WRITERS; i++) {
		w[i] = (struct writer){ .dir = dir, .id = i, .start = &start, .done = &done };
		pthread_create(&t[i], NULL, write_rounds, &w[i]);
	}
	for (int r = 0; r < ROUNDS; r++) {
		pthread_barrier_wait(&start);
		pthread_barrier_wait(&done);
		n = count(dir, ".tsum", NULL);
		counts[n >= 0 && n <= WRITERS ? n : WRITERS + 1]++;
		bad_rounds += n != 1;
	}
	for (int i = 0; i < WRITERS; i++) {
		pthread_join(t[i], NULL);
		failed |= w[i].failed;
	}
	ok(!failed, "%d writers placed their files", WRITERS);
	ok(!bad_rounds,
	   "cap 0, %d writers at once, %d rounds: one file left after each (rounds "
	   "leaving 0/1/2/3/4 files: %d/%d/%d/%d/%d)",
	   WRITERS, ROUNDS, counts[0], counts[1], counts[2], counts[3], counts[4]);
	is_int(count(dir, NULL, NULL), 0, "no temporary file is left");
	pthread_barrier_destroy(&start);
	pthread_barrier_destroy(&done);
}

/* The cap: the files used longest ago go first, never the one named to keep. */
static void test_cap(const char *dir)
{
	char path[4200], name[80], left[256];
	struct timespec t[2] = { { 0 }, { 0 } };

	/* the file of id 1000 + i used i + 1 hours ago */
	for (int i = 0; i < 4; i++) {
		name_of(dir, 1000 + i, path, sizeof(path), name);
		place(dir, path, name, 1024, 1, 1LL << 40);
		t[0].tv_sec = t[1].tv_sec = time(NULL) - 3600 * (i + 1);
		utimensat(AT_FDCWD, path, t, 0);
	}
	is_int(count(dir, ".tsum", NULL), 4, "a cap of 1 TiB keeps the 4 files placed");
	ts_cache_prune(dir, suffixes, 2560, NULL);
	is_int(count(dir, ".tsum", NULL), 2, "cap 2.5 KiB over 1 KiB files: two are kept");
	name_of(dir, 1001, path, sizeof(path), name);
	ok(!access(path, F_OK), "... the second newest, %s, among them", name);
	ts_cache_prune(dir, suffixes, 1024, name);
	count(dir, ".tsum", left);
	ok(count(dir, ".tsum", NULL) == 1 && !strcmp(left, name),
	   "cap 1 KiB keeping the older of two: it is the one left (%s)", left);
}

int main(void)
{
	char dir[] = "/tmp/ts-cache-unit.XXXXXX", cmd[64];

	if (!mkdtemp(dir)) {
		printf("Bail out! mkdtemp\n");
		return 1;
	}
	test_writers(dir);
	snprintf(cmd, sizeof(cmd), "rm -f %s/*", dir);
	if (system(cmd))
		diag("could not empty %s", dir);
	test_cap(dir);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		diag("could not remove %s", dir);
	return tap_done();
}
