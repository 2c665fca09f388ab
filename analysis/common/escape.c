// SPDX-License-Identifier: GPL-2.0-only
/* Escaping names for TSV cells and text: \t \n \r \\ and \xHH for other control characters. */
#include <stdio.h>
#include <string.h>

#include "tickscope/escape.h"

/* The escape of byte @c into @e (NUL-terminated); Return: its length (1 when none is needed). */
static size_t esc(unsigned char c, char e[5])
{
	switch (c) {
	case '\t':
		return (size_t)snprintf(e, 5, "\\t");
	case '\n':
		return (size_t)snprintf(e, 5, "\\n");
	case '\r':
		return (size_t)snprintf(e, 5, "\\r");
	case '\\':
		return (size_t)snprintf(e, 5, "\\\\");
	default:
		if (c < 0x20 || c == 0x7f)
			return (size_t)snprintf(e, 5, "\\x%02x", c);
		e[0] = (char)c;
		e[1] = '\0';
		return 1;
	}
}

const char *ts_escape(const char *s, char *buf, size_t n)
{
	size_t len = 0, k;
	char e[5];

	if (!n)
		return buf;
	for (; s && *s; s++) {
		k = esc((unsigned char)*s, e);
		if (len + k >= n)
			break;
		memcpy(buf + len, e, k);
		len += k;
	}
	buf[len] = '\0';
	return buf;
}

void ts_escape_put(FILE *f, const char *s)
{
	char e[5];

	for (; s && *s; s++) {
		if (esc((unsigned char)*s, e) == 1)
			fputc(*s, f);
		else
			fputs(e, f);
	}
}
