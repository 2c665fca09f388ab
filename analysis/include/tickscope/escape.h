/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Names from a trace or a command line (task names, variant names, run folders) in TSV cells
 * and text: a tab, a newline or another control character would split a row or play on the
 * terminal. They are written as \t, \n, \r, \\ and \xHH (docs/report-tsv.md).
 */
#ifndef TS_ESCAPE_H
#define TS_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

/**
 * ts_escape() - @s with its control characters and backslashes escaped, into @buf of @n bytes
 * (cut at a whole escape when it does not fit); Return: @buf
 */
const char *ts_escape(const char *s, char *buf, size_t n);

/** ts_escape_put() - write @s escaped to @f, whatever its length */
void ts_escape_put(FILE *f, const char *s);

#endif
