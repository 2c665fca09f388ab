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

FILE *ts_fopen_w(const char *path, int *err)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0666);
	FILE *f;

	if (fd < 0) {
		*err = errno == ELOOP ? -TS_EOUTLINK : -errno;
		return NULL;
	}
	f = fdopen(fd, "w");
	if (!f) {
		*err = -errno;
		close(fd);
	}
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
