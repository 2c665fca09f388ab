// SPDX-License-Identifier: GPL-2.0-only
/* File I/O the layers share (common/io.h). */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/io.h"

int ts_write_full(int fd, const void *p, size_t len)
{
	const char *c = p;
	ssize_t n;

	while (len) {
		n = write(fd, c, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		c += n;
		len -= (size_t)n;
	}
	return 0;
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
