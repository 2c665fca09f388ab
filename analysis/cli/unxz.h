/* SPDX-License-Identifier: GPL-2.0-only */
/* An .xz file unpacked into a temporary file in-process (liblzma), for compare and summary. */
#ifndef TS_UNXZ_H
#define TS_UNXZ_H

#include <stddef.h>

/*
 * cli_unxz() - unpack @xz into a new file in $TMPDIR (or /tmp)
 * @why: out, on failure: what went wrong, in xz(1)'s words ("xz: File format not recognized")
 *
 * Return: the new file's path (the caller unlinks and frees it), or NULL.
 */
char *cli_unxz(const char *xz, char *why, size_t n);

#endif
