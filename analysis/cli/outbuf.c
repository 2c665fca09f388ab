// SPDX-License-Identifier: GPL-2.0-only
/* The output buffer of outbuf.h: its allocation and its write(2) loop. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "outbuf.h"
#include "tickscope/error.h"

int ob_open(struct outbuf *o, int fd)
{
	o->b = malloc(OB_SIZE);
	o->n = 0;
	o->fd = fd;
	o->err = 0;
	return o->b ? 0 : -ENOMEM;
}

static void write_all(struct outbuf *o, const char *p, size_t n)
{
	while (n && !o->err) {
		ssize_t w = write(o->fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			/* EBADF: a closed stdout's stand-in (ts_stdio_guard()) */
			o->err = w < 0 ? (errno == EBADF ? -TS_ESTDOUT : -errno) : -EIO;
			break;
		}
		p += w;
		n -= w;
	}
}

int ob_flush(struct outbuf *o)
{
	write_all(o, o->b, o->n);
	o->n = 0;
	return o->err;
}

void ob_write(struct outbuf *o, const void *s, size_t n)
{
	if (o->n + n + OB_SLACK <= OB_SIZE) {
		memcpy(o->b + o->n, s, n);
		o->n += n;
		return;
	}
	ob_flush(o);
	if (n > OB_SIZE / 2) {
		write_all(o, s, n);
		return;
	}
	memcpy(o->b, s, n);
	o->n = n;
}

int ob_close(struct outbuf *o)
{
	int err = o->b ? ob_flush(o) : 0;

	free(o->b);
	o->b = NULL;
	return err;
}
