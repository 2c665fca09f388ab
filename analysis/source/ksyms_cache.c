// SPDX-License-Identifier: GPL-2.0-only
/*
 * Parsed kallsyms tables kept in a cache folder, so that a kernel's 120,000-line kallsyms is
 * parsed once per version of the file rather than on every report (issue 33): read back, a
 * table is a private mapping of its cache file, checked, not parsed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cache.h"
#include "common/io.h"
#include "ksyms_priv.h"
#include "tickscope/error.h"
#include "tickscope/ksyms.h"
#include "tickscope/sha256.h"

#define MAGIC "tickscope-ksyms\n" /* 16 bytes, no NUL */
#define VERSION 4 /* 2: the printer's index; 3: the sum over the symbols and indices; 4: in lanes */
#define ENDIAN 0x01020304u
#define KEY_MAX 512
/* the folder's tables are kept within this many MiB ($TS_KSYMS_CACHE_MB): about 20 kernels */
#define CACHE_MB 128

/* The cache file: this header, the key, the symbols, the text and print indices, the names. */
struct hdr {
	char magic[16];
	uint32_t version, symsize, keylen, endian;
	int64_t nr, nr_text, nr_print;
	int32_t print_err;
	uint32_t pad;
	uint64_t names_len;
	uint64_t sum; /* sum_update() over the symbols and the two indices, as in the file */
};

static size_t pad8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/*
 * Four 64-bit FNV-1a lanes over 8-byte words, word i into lane i % 4 (a last partial word
 * padded with zeros, as the file pads the indices), folded into one at the end: a table damaged
 * in place, its size intact (an offset or an index pointing outside it, or at another symbol),
 * is told apart at load, where a check of each offset at lookup would print a missing name
 * first. Four lanes, not one chain: the multiplies of one word need not wait for the last's
 * (a 3.9 MB table: about 0.45 ms of CPU, against 1.05 for one chain).
 */
struct fsum {
	uint64_t h[4];
	uint64_t words; /* the words summed: the next goes into lane words % 4 */
};

#define SUM_SEED 0xcbf29ce484222325ULL
#define SUM_PRIME 0x100000001b3ULL

static void sum_init(struct fsum *s)
{
	unsigned int i;

	for (i = 0; i < 4; i++)
		s->h[i] = SUM_SEED + i;
	s->words = 0;
}

static void sum_word(struct fsum *s, uint64_t w)
{
	s->h[s->words & 3] = (s->h[s->words & 3] ^ w) * SUM_PRIME;
	s->words++;
}

/* the 8-byte word at @b, of any alignment (a fixed-size copy: one load) */
static uint64_t word_at(const unsigned char *b)
{
	uint64_t w;

	memcpy(&w, b, sizeof(w));
	return w;
}

static void sum_update(struct fsum *s, const void *p, size_t n)
{
	const unsigned char *b = p, *end;
	uint64_t w, h0, h1, h2, h3;

	/* whole words: first up to lane 0 */
	for (; n >= 8 && (s->words & 3); b += 8, n -= 8)
		sum_word(s, word_at(b));
	/*
	 * Then four words a step, each lane in a register and each word loaded straight into
	 * its lane's xor (no copy through memory: 11 instructions a step, not 20); the word
	 * count once, before the loop.
	 */
	h0 = s->h[0];
	h1 = s->h[1];
	h2 = s->h[2];
	h3 = s->h[3];
	end = b + (n & ~(size_t)31);
	s->words += (n / 32) * 4;
	n &= 31;
	for (; b != end; b += 32) {
		h0 = (h0 ^ word_at(b)) * SUM_PRIME;
		h1 = (h1 ^ word_at(b + 8)) * SUM_PRIME;
		h2 = (h2 ^ word_at(b + 16)) * SUM_PRIME;
		h3 = (h3 ^ word_at(b + 24)) * SUM_PRIME;
	}
	s->h[0] = h0;
	s->h[1] = h1;
	s->h[2] = h2;
	s->h[3] = h3;
	for (; n >= 8; b += 8, n -= 8)
		sum_word(s, word_at(b));
	if (n) { /* the last partial word */
		w = 0;
		memcpy(&w, b, n);
		sum_word(s, w);
	}
}

static uint64_t sum_final(const struct fsum *s)
{
	uint64_t h = SUM_SEED;
	unsigned int i;

	for (i = 0; i < 4; i++)
		h = (h ^ s->h[i]) * SUM_PRIME;
	return (h ^ s->words) * SUM_PRIME;
}

/* The sum of @len bytes of @fd from @off, read (not mapped: the pages stay out of the RSS). */
static int sum_file(int fd, off_t off, size_t len, uint64_t *sum)
{
	static const size_t chunk = 1 << 16;
	unsigned char *buf = malloc(chunk);
	struct fsum h;

	if (!buf)
		return -1;
	sum_init(&h);
	while (len) {
		ssize_t n = pread(fd, buf, len < chunk ? len : chunk, off);

		if (n <= 0)
			break;
		sum_update(&h, buf, (size_t)n);
		off += n;
		len -= (size_t)n;
	}
	free(buf);
	*sum = sum_final(&h);
	return len ? -1 : 0;
}

/* @path's contents into @s's hash (a small /proc file). Return: 0 or -errno. */
static int hash_file(struct ts_sha256 *s, const char *path)
{
	char buf[4096];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	while ((n = read(fd, buf, sizeof(buf))) > 0)
		ts_sha256_update(s, buf, (size_t)n);
	close(fd);
	return n < 0 ? -EIO : 0;
}

int ts_ksyms_modules_sum(struct ts_sha256 *s, const char *path)
{
	char line[1024];
	FILE *f = fopen(path, "re");
	int ret = 0;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *save = NULL, *tok = strtok_r(line, " \t\n", &save);

		/* name size refcount used-by state address [taint]: the 3rd to 5th move */
		for (int i = 1; tok; tok = strtok_r(NULL, " \t\n", &save), i++) {
			if (i >= 3 && i <= 5)
				continue;
			ts_sha256_update(s, tok, strlen(tok) + 1);
		}
		ts_sha256_update(s, "\n", 1);
	}
	if (ferror(f))
		ret = -EIO;
	fclose(f);
	return ret;
}

/*
 * What a table of @path is valid for, in @key (with the format's version, so that binaries
 * of two versions do not replace each other's tables). A file: its device, inode, size and times
 * (the change time moves on any write and cannot be set back). /proc/kallsyms: the running
 * kernel's notes (its build id) and boot (KASLR places it anew at each), the modules loaded
 * and where (/proc/modules, but not its use counts, which move as modules are used: the key
 * would change between two runs), and who reads it (kptr_restrict and the user decide whether
 * addresses show). Return: 0, or -1 when @path is not to be cached.
 */
static int make_key(const char *path, char *key, size_t len)
{
	char hex[TS_SHA256_HEX];
	struct ts_sha256 s;
	struct stat st;
	int n, ret;

	if (!strcmp(path, "/proc/kallsyms")) {
		ts_sha256_init(&s);
		/* the notes hold the build id; a kernel without modules has no /proc/modules */
		ret = ts_ksyms_modules_sum(&s, "/proc/modules");
		if ((ret && ret != -ENOENT) || hash_file(&s, "/sys/kernel/notes") ||
		    hash_file(&s, "/proc/sys/kernel/random/boot_id") ||
		    hash_file(&s, "/proc/sys/kernel/kptr_restrict"))
			return -1;
		ts_sha256_final(&s, hex);
		n = snprintf(key, len, "v%d proc %s %u", VERSION, hex, (unsigned int)geteuid());
	} else {
		if (stat(path, &st) || !S_ISREG(st.st_mode))
			return -1;
		n = snprintf(key, len, "v%d file %llu %llu %lld %lld.%09ld %lld.%09ld", VERSION,
			     (unsigned long long)st.st_dev, (unsigned long long)st.st_ino,
			     (long long)st.st_size, (long long)st.st_mtim.tv_sec,
			     st.st_mtim.tv_nsec, (long long)st.st_ctim.tv_sec, st.st_ctim.tv_nsec);
	}
	return n > 0 && (size_t)n < len ? 0 : -1;
}

/*
 * Is the mapped table whole (its names end)? Its symbols and indices were summed as read
 * (map_table()); ksyms.c checks each offset it reads too, but a name edited in place (same
 * length) is not seen: the names are not summed, so that a table stays cheap to load.
 */
static int check_table(const struct ts_ksyms *k)
{
	return !k->names_len || k->names[k->names_len - 1] ? -1 : 0;
}

/* Is the header at @h, of a file of @size bytes, not one of a table for @key (@klen bytes)? */
static int bad_header(const struct hdr *h, size_t size, const char *key, size_t klen)
{
	size_t off = sizeof(*h) + pad8(klen);

	return memcmp(h->magic, MAGIC, sizeof(h->magic)) || h->version != VERSION ||
	       h->symsize != sizeof(struct ksym) || h->endian != ENDIAN || h->keylen != klen ||
	       size < off || memcmp(h + 1, key, klen) || h->nr <= 0 || h->nr_text < 0 ||
	       h->nr_text > h->nr || h->nr_print < 0 || h->nr_print > h->nr ||
	       (h->print_err && h->print_err != -TS_EKALLSYMS) || (uint64_t)h->nr > size / 8;
}

/*
 * The table over @map (@size bytes, its header checked): its symbols at @off, then the text and
 * print indices, then the names at @need. NULL when out of memory.
 */
static struct ts_ksyms *table_of(void *map, size_t size, size_t off, size_t need)
{
	const struct hdr *h = map;
	struct ts_ksyms *k = calloc(1, sizeof(*k));

	if (!k)
		return NULL;
	k->map = map;
	k->map_len = size;
	k->syms = (struct ksym *)((char *)map + off);
	k->nr = k->alloc = h->nr;
	k->text = (uint32_t *)((char *)k->syms + h->nr * sizeof(struct ksym));
	k->nr_text = h->nr_text;
	k->print = k->text + pad8((size_t)h->nr_text * 4) / 4;
	k->nr_print = h->nr_print;
	k->print_err = h->print_err;
	k->names = (char *)map + need;
	k->names_len = k->names_alloc = h->names_len;
	return k;
}

/* The table cached at @path for @key, mapped. Return: 0, or -1 (missing, stale, damaged). */
static int map_table(struct ts_ksyms **kp, const char *path, const char *key)
{
	size_t klen = strlen(key), off, need;
	struct ts_ksyms *k;
	const struct hdr *h;
	uint64_t sum;
	struct stat st;
	void *map;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || (size_t)st.st_size < sizeof(*h)) {
		close(fd);
		return -1;
	}
	/* private and writable: a move to the recording boot (KASLR) writes its own copy */
	map = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED) {
		close(fd);
		return -1;
	}
	/*
	 * Lookups read a few pages of it: no read-ahead, so that the pages they do not read
	 * do not come in and count in the process's RSS.
	 */
	madvise(map, (size_t)st.st_size, MADV_RANDOM);
	h = map;
	off = sizeof(*h) + pad8(klen);
	if (bad_header(h, (size_t)st.st_size, key, klen))
		goto out_unmap;
	need = off + (size_t)h->nr * sizeof(struct ksym) + pad8((size_t)h->nr_text * 4) +
	       pad8((size_t)h->nr_print * 4);
	if (h->names_len > (size_t)st.st_size || need + h->names_len != (size_t)st.st_size ||
	    sum_file(fd, (off_t)off, need - off, &sum) || sum != h->sum)
		goto out_unmap;
	close(fd);
	k = table_of(map, (size_t)st.st_size, off, need);
	if (!k)
		goto out_unmap_closed;
	if (check_table(k)) {
		ts_ksyms_free(k);
		return -1;
	}
	*kp = k;
	return 0;
out_unmap:
	close(fd);
out_unmap_closed:
	munmap(map, (size_t)st.st_size);
	return -1;
}

/* the folder's own files (its memos, compare_trace.c, are not counted) */
static const char *const table_suffixes[] = { ".ksyms", NULL };

/* Keep @k (as parsed: not moved) at @path, through a temporary file renamed into place. */
static void store_table(const struct ts_ksyms *k, const char *dir, const char *path,
			const char *key)
{
	static const char zero[8];
	struct hdr h = { .version = VERSION, .symsize = sizeof(struct ksym), .endian = ENDIAN };
	struct fsum fs;
	size_t klen = strlen(key), tlen = (size_t)k->nr_text * 4, plen = (size_t)k->nr_print * 4;
	char tmp[4200];
	int fd, bad, lock;

	if (ts_mkdir_p(dir, 0700) ||
	    snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp))
		return;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		return;
	memcpy(h.magic, MAGIC, sizeof(h.magic));
	h.keylen = (uint32_t)klen;
	h.nr = k->nr;
	h.nr_text = k->nr_text;
	h.nr_print = k->nr_print;
	h.print_err = k->print_err;
	h.names_len = k->names_len;
	sum_init(&fs);
	sum_update(&fs, k->syms, (size_t)k->nr * sizeof(*k->syms));
	sum_update(&fs, k->text, tlen);
	sum_update(&fs, k->print, plen);
	h.sum = sum_final(&fs);
	bad = ts_write_full(fd, &h, sizeof(h)) || ts_write_full(fd, key, klen) ||
	      ts_write_full(fd, zero, pad8(klen) - klen) ||
	      ts_write_full(fd, k->syms, (size_t)k->nr * sizeof(*k->syms)) ||
	      ts_write_full(fd, k->text, tlen) || ts_write_full(fd, zero, pad8(tlen) - tlen) ||
	      ts_write_full(fd, k->print, plen) || ts_write_full(fd, zero, pad8(plen) - plen) ||
	      ts_write_full(fd, k->names, k->names_len);
	/*
	 * Written, its pages sit in the page cache as large folios, and a later run's mapping
	 * would map a whole folio at each lookup's fault (megabytes of RSS for a few reads):
	 * out of the page cache, it is read back a page at a time (MADV_RANDOM in map_table()).
	 */
	if (!bad && !fdatasync(fd))
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	lock = ts_cache_lock(dir);
	if (close(fd) || bad || rename(tmp, path))
		unlink(tmp);
	else
		ts_cache_prune(dir, table_suffixes, ts_cache_cap("TS_KSYMS_CACHE_MB", CACHE_MB),
			       strrchr(path, '/') ? strrchr(path, '/') + 1 : path);
	ts_cache_unlock(lock);
}

int ts_ksyms_load_cached(struct ts_ksyms **kp, const char *path, const char *cache, int *errline)
{
	char key[KEY_MAX], again[KEY_MAX], cpath[4096];
	int ret;

	*kp = NULL;
	if (!cache || !cache[0] || make_key(path, key, sizeof(key)) ||
	    ts_cache_path(cache, key, ".ksyms", cpath, sizeof(cpath)))
		return ts_ksyms_load(kp, path, errline);
	if (!map_table(kp, cpath, key)) {
		/* used now: the last to be pruned (the times of a file are its, not the key's) */
		utimensat(AT_FDCWD, cpath, NULL, 0);
		return 0;
	}
	ret = ts_ksyms_load(kp, path, errline);
	/* kept only if the file did not change while it was read */
	if (!ret && (*kp)->nr && !make_key(path, again, sizeof(again)) && !strcmp(key, again))
		store_table(*kp, cache, cpath, key);
	return ret;
}

const char *ts_ksyms_cache_dir(char *buf, size_t len)
{
	return ts_cache_dir("TS_KSYMS_CACHE", "kallsyms", buf, len);
}
