// SPDX-License-Identifier: GPL-2.0-only
/*
 * The perf tracing data section (versions 0.5 and 0.6): split it into header_page, the ftrace
 * and event formats, kallsyms, printk formats and saved cmdlines, and hand each to libtraceevent.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>

#include "tickscope/error.h"
#include "tracedata.h"

struct cur {
	const unsigned char *base, *p, *end;
	char *err;
	size_t errlen;
};

static int bad(struct cur *c, const char *what)
{
	if (c->err)
		snprintf(c->err, c->errlen, "tracing data offset %#zx: %s",
			 (size_t)(c->p - c->base), what);
	return -TS_ETRACEDATA;
}

static int get_str(struct cur *c, const char **s, const char *what)
{
	const unsigned char *nul = memchr(c->p, 0, c->end - c->p);

	if (!nul)
		return bad(c, what);
	*s = (const char *)c->p;
	c->p = nul + 1;
	return 0;
}

static int get_num(struct cur *c, int bytes, uint64_t *v, const char *what)
{
	uint32_t v32;

	if (c->end - c->p < bytes)
		return bad(c, what);
	if (bytes == 4) {
		memcpy(&v32, c->p, 4);
		*v = v32;
	} else {
		memcpy(v, c->p, 8);
	}
	c->p += bytes;
	return 0;
}

/* A u32/u64 size followed by that many bytes of text. */
static int get_blob(struct cur *c, int size_bytes, const unsigned char **blob, uint64_t *len,
		    const char *what)
{
	int ret = get_num(c, size_bytes, len, what);

	if (ret)
		return ret;
	if ((uint64_t)(c->end - c->p) < *len)
		return bad(c, what);
	*blob = c->p;
	c->p += *len;
	return 0;
}

/* libtraceevent wants NUL-terminated text for kallsyms/printk/cmdlines. */
static int parse_text(struct tep_handle *tep, const unsigned char *blob, uint64_t len,
		      int (*fn)(struct tep_handle *, const char *))
{
	char *s;
	int ret;

	if (!len)
		return 0;
	s = malloc(len + 1);
	if (!s)
		return -ENOMEM;
	memcpy(s, blob, len);
	s[len] = 0;
	ret = fn(tep, s);
	free(s);
	return ret;
}

/*
 * libtraceevent's printk parser reads past the end of a line without ": ", so every line must
 * look like perf writes it, `0xffffffff81e2c0d8 : "Start context switch"`, before it goes in.
 */
static int check_printk(struct cur *c, const unsigned char *blob, uint64_t len)
{
	const unsigned char *p = blob, *end = blob + len;

	while (p < end) {
		const unsigned char *nl = memchr(p, '\n', end - p), *e = nl ? nl : end;
		const unsigned char *colon = memchr(p, ':', e - p);

		if (e > p && (p[0] != '0' || !colon || e - colon < 4 || colon[1] != ' ' ||
			      colon[2] != '"' || e[-1] != '"' || memchr(p, 0, e - p))) {
			c->p = p;
			return bad(c, "malformed printk format line");
		}
		p = e + 1;
	}
	return 0;
}

struct reject {
	ts_reject_fn fn;
	void *ctx;
};

static int parse_formats(struct tep_handle *tep, struct cur *c, const char *sys,
			 const struct reject *rj)
{
	uint64_t nr, len, i;
	const unsigned char *blob;
	char why[160], name[64];
	int ret;

	ret = get_num(c, 4, &nr, "event format count");
	if (ret)
		return ret;
	for (i = 0; i < nr; i++) {
		ret = get_blob(c, 8, &blob, &len, "event format");
		if (ret)
			return ret;
		if (ts_format_check((const char *)blob, len, why, sizeof(why))) {
			int id = ts_format_id((const char *)blob, len, name, sizeof(name));

			if (rj->fn)
				rj->fn(rj->ctx, id, sys, name, why);
			continue;
		}
		if (tep_parse_event(tep, (const char *)blob, len, sys)) {
			/* perf warns and goes on; so do we, and the id stays unknown */
			continue;
		}
	}
	return 0;
}

int ts_tracedata_parse(struct tep_handle *tep, const void *data, size_t size, char *err,
		       size_t errlen, ts_reject_fn reject, void *ctx)
{
	const struct reject rj = { reject, ctx };
	struct cur c = { data, data, (const unsigned char *)data + size, err, errlen };
	const char *version, *name, *sys;
	uint64_t v, len, nr, i;
	const unsigned char *blob;
	int ret, v06, long_size;

	if (size < 10 || memcmp(c.p, "\027\010\104tracing", 10))
		return bad(&c, "bad magic");
	c.p += 10;
	ret = get_str(&c, &version, "version string");
	if (ret)
		return ret;
	if (strcmp(version, "0.5") && strcmp(version, "0.6"))
		return bad(&c, "unsupported version (want 0.5 or 0.6)");
	v06 = !strcmp(version, "0.6");
	if (c.end - c.p < 6)
		return bad(&c, "cut short before the page size");
	if (c.p[0])
		return bad(&c, "big-endian tracing data is not supported");
	if (c.p[1] != 4 && c.p[1] != 8)
		return bad(&c, "long size is neither 4 nor 8");
	tep_set_file_bigendian(tep, TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, TEP_LITTLE_ENDIAN);
	long_size = c.p[1];
	tep_set_long_size(tep, long_size);
	c.p += 2;
	ret = get_num(&c, 4, &v, "page size");
	if (ret)
		return ret;
	tep_set_page_size(tep, (int)v);

	ret = get_str(&c, &name, "header_page name");
	if (!ret && strcmp(name, "header_page"))
		ret = bad(&c, "expected header_page");
	if (!ret)
		ret = get_blob(&c, 8, &blob, &len, "header_page");
	if (ret)
		return ret;
	tep_parse_header_page(tep, (char *)blob, len, long_size);
	ret = get_str(&c, &name, "header_event name");
	if (!ret && strcmp(name, "header_event"))
		ret = bad(&c, "expected header_event");
	if (!ret)
		ret = get_blob(&c, 8, &blob, &len, "header_event");
	if (ret)
		return ret;

	ret = parse_formats(tep, &c, "ftrace", &rj);
	if (ret)
		return ret;
	ret = get_num(&c, 4, &nr, "system count");
	if (ret)
		return ret;
	for (i = 0; i < nr; i++) {
		ret = get_str(&c, &sys, "system name");
		if (!ret)
			ret = parse_formats(tep, &c, sys, &rj);
		if (ret)
			return ret;
	}
	ret = get_blob(&c, 4, &blob, &len, "kallsyms");
	if (!ret)
		ret = parse_text(tep, blob, len, tep_parse_kallsyms);
	if (ret)
		return ret < 0 && ret != -ENOMEM ? bad(&c, "kallsyms") : ret;
	ret = get_blob(&c, 4, &blob, &len, "printk formats");
	if (!ret)
		ret = check_printk(&c, blob, len);
	if (ret)
		return ret;
	ret = parse_text(tep, blob, len, tep_parse_printk_formats);
	if (ret)
		return ret < 0 && ret != -ENOMEM ? bad(&c, "printk formats") : ret;
	if (v06 && c.p < c.end) {
		ret = get_blob(&c, 8, &blob, &len, "saved cmdlines");
		if (!ret)
			ret = parse_text(tep, blob, len, tep_parse_saved_cmdlines);
		if (ret)
			return ret < 0 && ret != -ENOMEM ? bad(&c, "saved cmdlines") : ret;
	}
	return 0;
}
