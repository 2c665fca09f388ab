// SPDX-License-Identifier: GPL-2.0-only
/* File I/O the layers share (common/io.h). */
#include <errno.h>
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
