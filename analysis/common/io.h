/* SPDX-License-Identifier: GPL-2.0-only */
/* File I/O the layers share: whole buffers written, folders made with their parents. */
#ifndef TICKSCOPE_IO_H
#define TICKSCOPE_IO_H

#include <stddef.h>

/* ts_write_full() - write all @len bytes of @p to @fd. Return: 0, or -errno (-EIO for 0). */
int ts_write_full(int fd, const void *p, size_t len);

/* ts_mkdir_p() - make @dir and its missing parents with @mode. Return: 0 or -errno. */
int ts_mkdir_p(const char *dir, unsigned int mode);

#endif
