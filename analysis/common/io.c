// SPDX-License-Identifier: GPL-2.0-only
/* File I/O the layers share (common/io.h). */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/io.h"
#include "tickscope/error.h"

int ts_stdio_guard(void)
{
	int closed = 0;

	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		/* read-only: a write to a closed stdout still fails, with EBADF */
		if (open("/dev/null", fd == 2 ? O_WRONLY : O_RDONLY) != fd)
			return -EBADF;
		closed |= 1 << fd;
	}
	return closed;
}

int ts_write_full(int fd, const void *p, size_t len)
{
	const char *c = p;
	ssize_t n;

	while (len) {
		n = write(fd, c, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EBADF && fd == 1)
			return -TS_ESTDOUT;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		c += n;
		len -= (size_t)n;
	}
	return 0;
}

int ts_stream_err(FILE *f)
{
	if (!ferror(f))
		return 0;
	switch (errno) {
	case ENOSPC:
	case EDQUOT:
	case EFBIG:
	case EROFS:
	case EPIPE:
	case EIO:
		return -errno;
	case EBADF: /* the stand-in of a closed stdout (ts_stdio_guard()) */
		return -TS_ESTDOUT;
	}
	return -EIO;
}

int ts_out_keep_add(struct ts_out_keep *k, const char *path)
{
	struct stat st;

	if (!path || stat(path, &st) || !S_ISREG(st.st_mode))
		return 0;
	if (k->nr >= TS_OUT_KEEP_MAX)
		return -E2BIG;
	k->f[k->nr].dev = st.st_dev;
	k->f[k->nr++].ino = st.st_ino;
	return 0;
}

static int kept(const struct ts_out_keep *k, const struct stat *st)
{
	int i;

	for (i = 0; k && i < k->nr; i++)
		if (k->f[i].dev == st->st_dev && k->f[i].ino == st->st_ino)
			return 1;
	return 0;
}

int ts_out_kept(const struct ts_out_keep *k, const char *path)
{
	struct stat st;

	return k && k->nr && !lstat(path, &st) && kept(k, &st);
}

FILE *ts_fopen_w(const char *path, const struct ts_out_keep *k, int *err)
{
	int keeps = k && k->nr;
	/* with inputs to keep, truncated only once it is known not to be one of them */
	int fd = open(path, O_WRONLY | O_CREAT | (keeps ? 0 : O_TRUNC) | O_NOFOLLOW | O_CLOEXEC,
		      0666);
	struct stat st;
	FILE *f;

	if (fd < 0) {
		*err = errno == ELOOP ? -TS_EOUTLINK : -errno;
		return NULL;
	}
	if (keeps && !fstat(fd, &st) &&
	    (kept(k, &st) || (S_ISREG(st.st_mode) && ftruncate(fd, 0)))) {
		*err = kept(k, &st) ? -TS_EOUTINPUT : -errno;
		close(fd);
		return NULL;
	}
	f = fdopen(fd, "w");
	if (!f) {
		*err = -errno;
		close(fd);
	}
	return f;
}

/* Whether the file open at @fd starts with the @len bytes of @head. */
static int starts_with(int fd, const char *head, size_t len)
{
	char buf[512];
	size_t off = 0;
	ssize_t n;

	while (off < len) {
		n = pread(fd, buf, len - off < sizeof(buf) ? len - off : sizeof(buf), (off_t)off);
		if (n <= 0 || memcmp(buf, head + off, (size_t)n))
			return 0;
		off += (size_t)n;
	}
	return 1;
}

int ts_out_check(const char *path, const struct ts_out_keep *k, const char *head)
{
	struct stat st;
	int fd, other;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -errno;
	if (S_ISLNK(st.st_mode))
		return -TS_EOUTLINK;
	if (kept(k, &st))
		return -TS_EOUTINPUT;
	/* a FIFO: ts_fopen_w()'s open() waited for a reader, for ever */
	if (!S_ISREG(st.st_mode))
		return -TS_EOUTKIND;
	if (!head || !st.st_size)
		return 0;
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	other = !starts_with(fd, head, strlen(head));
	close(fd);
	return other ? -TS_EOUTOTHER : 0;
}

FILE *ts_fopen_table(const char *path, const struct ts_out_keep *k, const char *head, int *err)
{
	FILE *f;

	*err = ts_out_check(path, k, head);
	if (*err)
		return NULL;
	f = ts_fopen_w(path, k, err);
	if (f)
		fputs(head, f);
	return f;
}

int ts_fclose_err(FILE *f)
{
	int err = ts_stream_err(f);

	if (fclose(f) && !err)
		err = errno ? -errno : -EIO;
	return err;
}

int ts_mkdir_p(const char *dir, unsigned int mode)
{
	char p[4096];
	size_t i, n = strlen(dir);

	if (!n || n >= sizeof(p))
		return -ENAMETOOLONG;
	memcpy(p, dir, n + 1);
	for (i = 1; i <= n; i++) {
		if (p[i] != '/' && p[i])
			continue;
		p[i] = 0;
		if (mkdir(p, (mode_t)mode) && errno != EEXIST)
			return -errno;
		p[i] = dir[i];
	}
	return 0;
}

const char *ts_packed_hint(const void *p, size_t n)
{
	static const struct {
		size_t len;
		const char *magic, *hint;
	} kinds[] = {
		{ 6, "\3757zXZ", "an xz file: unpack it first (xz -dk)" },
		{ 2, "\037\213", "a gzip file: unpack it first (gzip -dk)" },
		{ 4, "\050\265\057\375", "a zstd file: unpack it first (zstd -d)" },
		{ 3, "BZh", "a bzip2 file: unpack it first (bzip2 -dk)" },
	};
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (n >= kinds[i].len && !memcmp(p, kinds[i].magic, kinds[i].len))
			return kinds[i].hint;
	return NULL;
}

const char *ts_packed_hint_file(const char *path)
{
	unsigned char head[8];
	ssize_t n = -1;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	if (fd >= 0) {
		n = read(fd, head, sizeof(head));
		close(fd);
	}
	return n > 0 ? ts_packed_hint(head, (size_t)n) : NULL;
}
