// SPDX-License-Identifier: GPL-2.0-only
/*
 * A guard in front of tep_parse_event(): libtraceevent 1.7 crashes on some malformed formats
 * (a print fmt naming a field the format lacks; a division by zero, constant or at print
 * time). Formats are checked for those before libtraceevent sees them.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracedata.h"

#define MAX_FIELDS 128

struct fields {
	const char *name[MAX_FIELDS];
	int len[MAX_FIELDS];
	int nr;
};

/* "\tfield:unsigned long foo[4];\toffset:..." -> "foo" */
static void add_field(struct fields *f, const char *line, const char *end)
{
	const char *semi = memchr(line, ';', end - line), *p, *e;

	if (!semi || f->nr == MAX_FIELDS)
		return;
	e = semi;
	p = memchr(line, '[', semi - line);
	if (p)
		e = p;
	while (e > line && isspace((unsigned char)e[-1]))
		e--;
	for (p = e; p > line && (isalnum((unsigned char)p[-1]) || p[-1] == '_'); p--)
		;
	if (p == e)
		return;
	f->name[f->nr] = p;
	f->len[f->nr++] = e - p;
}

static int has_field(const struct fields *f, const char *name, int len)
{
	int i;

	for (i = 0; i < f->nr; i++)
		if (f->len[i] == len && !memcmp(f->name[i], name, len))
			return 1;
	return 0;
}

/* A non-zero integer literal at @p (decimal, octal or hex, with U/L suffixes)? */
static int nonzero_literal(const char *p, const char *end)
{
	char buf[32];
	size_t n = 0;
	char *stop;

	while (p < end && *p == ' ')
		p++;
	while (p + n < end && n < sizeof(buf) - 1 && isalnum((unsigned char)p[n]))
		n++;
	if (!n || !isdigit((unsigned char)p[0]))
		return 0;
	memcpy(buf, p, n);
	buf[n] = 0;
	if (strtoull(buf, &stop, 0) == 0)
		return 0;
	while (*stop == 'u' || *stop == 'U' || *stop == 'l' || *stop == 'L')
		stop++;
	return *stop == 0;
}

/* Check the argument list of a print fmt line: field references and divisions. */
static int check_args(const struct fields *f, const char *p, const char *end, char *why,
		      size_t whylen)
{
	int in_str = 0;

	for (; p < end; p++) {
		if (in_str) {
			if (*p == '\\' && p + 1 < end)
				p++;
			else if (*p == '"')
				in_str = 0;
			continue;
		}
		if (*p == '"') {
			in_str = 1;
		} else if ((*p == '/' || *p == '%') && !nonzero_literal(p + 1, end)) {
			snprintf(why, whylen,
				 "its print fmt divides by something not a non-zero "
				 "constant ('%c')",
				 *p);
			return -1;
		} else if (!strncmp(p, "REC->", 5) && end - p > 5) {
			const char *n = p + 5, *e = n;

			while (e < end && (isalnum((unsigned char)*e) || *e == '_'))
				e++;
			if (!has_field(f, n, e - n)) {
				snprintf(why, whylen, "its print fmt names REC->%.*s, not a field",
					 (int)(e - n > 40 ? 40 : e - n), n);
				return -1;
			}
			p = e - 1;
		}
	}
	return 0;
}

int ts_format_check(const char *text, size_t len, char *why, size_t whylen)
{
	const char *p = text, *end = text + len, *pf = NULL, *pf_end = NULL;
	struct fields f = { .nr = 0 };

	while (p < end) {
		const char *nl = memchr(p, '\n', end - p), *e = nl ? nl : end;
		const char *s = p;

		while (s < e && isspace((unsigned char)*s))
			s++;
		if (e - s > 6 && !memcmp(s, "field:", 6))
			add_field(&f, s + 6, e);
		else if (e - s > 10 && !memcmp(s, "print fmt:", 10)) {
			pf = s + 10;
			pf_end = e;
		}
		p = e + 1;
	}
	if (!pf)
		return 0; /* libtraceevent reports a format without one itself */
	/* skip the format string itself: the arguments follow its closing quote */
	while (pf < pf_end && *pf != '"')
		pf++;
	for (pf++; pf < pf_end && *pf != '"'; pf++)
		if (*pf == '\\' && pf + 1 < pf_end)
			pf++;
	return check_args(&f, pf + 1, pf_end, why, whylen);
}

int ts_format_id(const char *text, size_t len, char *name, size_t namelen)
{
	const char *p = text, *end = text + len;
	int id = -1;

	if (namelen)
		name[0] = 0;
	while (p < end) {
		const char *nl = memchr(p, '\n', end - p), *e = nl ? nl : end;

		if (e - p > 6 && !memcmp(p, "name: ", 6) && namelen)
			snprintf(name, namelen, "%.*s", (int)(e - p - 6), p + 6);
		else if (e - p > 4 && !memcmp(p, "ID: ", 4))
			id = atoi(p + 4);
		p = e + 1;
	}
	return id;
}
