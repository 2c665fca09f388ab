// SPDX-License-Identifier: GPL-2.0-only
/* Kernel text symbols from a kallsyms file, sorted by address for lookup by reports. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tickscope/error.h"
#include "tickscope/ksyms.h"

#define CHUNK (1 << 20)

struct ksym {
	uint64_t addr;
	uint32_t name; /* offset into names */
	uint32_t module; /* from a module ("\t[mod]" after the name) */
};

struct ts_ksyms {
	struct ksym *syms;
	long nr, alloc;
	char *names;
	size_t names_len, names_alloc;
};

static int cmp_ksym(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int add(struct ts_ksyms *k, uint64_t addr, const char *name, size_t namelen, int module)
{
	size_t len = namelen + 1;

	if (k->nr == k->alloc) {
		long n = k->alloc ? k->alloc * 2 : 65536;
		void *p = realloc(k->syms, n * sizeof(*k->syms));

		if (!p)
			return -ENOMEM;
		k->syms = p;
		k->alloc = n;
	}
	if (k->names_len + len > k->names_alloc) {
		size_t n = k->names_alloc ? k->names_alloc * 2 : 1 << 20;
		void *p;

		while (k->names_len + len > n)
			n *= 2;
		p = realloc(k->names, n);
		if (!p)
			return -ENOMEM;
		k->names = p;
		k->names_alloc = n;
	}
	memcpy(k->names + k->names_len, name, namelen);
	k->names[k->names_len + namelen] = 0;
	k->syms[k->nr].addr = addr;
	k->syms[k->nr].name = k->names_len;
	k->syms[k->nr].module = module;
	k->names_len += len;
	k->nr++;
	return 0;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static int is_text(char type)
{
	return type == 't' || type == 'T' || type == 'w' || type == 'W';
}

/*
 * One line, "ffffffff81000000 T _text\t[module]": parsed by hand, as /proc/kallsyms has some
 * 200,000 of them and sscanf() made loading it most of a report's time. Only text symbols
 * are kept: function pointers in events point at code.
 */
static int parse_line(struct ts_ksyms *k, char *p, char *e)
{
	char *sp = memchr(p, ' ', e - p), *name, *end;
	uint64_t addr = 0;
	int v;

	if (!sp || sp == p || sp - p > 16 || e - sp < 4 || sp[2] != ' ')
		return -TS_EKALLSYMS;
	for (; p < sp; p++) { /* every line's address must be hex, kept or not */
		v = hexval(*p);
		if (v < 0)
			return -TS_EKALLSYMS;
		addr = addr << 4 | v;
	}
	if (!is_text(sp[1]))
		return 0;
	name = sp + 3;
	end = memchr(name, '\t', e - name);
	if (!end)
		end = e;
	if (end > name && end[-1] == '\r')
		end--;
	if (end == name)
		return -TS_EKALLSYMS;
	return add(k, addr, name, end - name, end < e && *end == '\t');
}

int ts_ksyms_load(struct ts_ksyms **kp, const char *path, int *errline)
{
	struct ts_ksyms *k;
	char *buf, *p, *nl, *end;
	size_t len = 0, n;
	int lineno = 0, ret = 0, sorted = 1;
	FILE *f;

	*kp = NULL;
	f = fopen(path, "r");
	if (!f)
		return -errno;
	k = calloc(1, sizeof(*k));
	buf = malloc(CHUNK + 1);
	if (!k || !buf) {
		ret = -ENOMEM;
		goto out_free;
	}
	/* a chunk at a time; a line cut at the chunk's end moves to the front of the next */
	for (;;) {
		n = fread(buf + len, 1, CHUNK - len, f);
		len += n;
		end = buf + len;
		for (p = buf; p < end; p = nl + 1) {
			nl = memchr(p, '\n', end - p);
			if (!nl && n)
				break; /* the rest of this line comes with the next chunk */
			if (!nl)
				nl = end; /* the last line, without a newline */
			lineno++;
			ret = parse_line(k, p, nl);
			if (ret) {
				if (errline)
					*errline = lineno;
				goto out_free;
			}
			if (k->nr > 1 && k->syms[k->nr - 1].addr < k->syms[k->nr - 2].addr)
				sorted = 0;
		}
		if (!n)
			break;
		len = p < end ? (size_t)(end - p) : 0;
		if (len == CHUNK) { /* no newline in a whole chunk: not kallsyms */
			if (errline)
				*errline = lineno + 1;
			ret = -TS_EKALLSYMS;
			goto out_free;
		}
		memmove(buf, p, len);
	}
	if (ferror(f) || !k->nr) {
		if (errline)
			*errline = lineno;
		ret = ferror(f) ? -EIO : -TS_EKALLSYMS;
		goto out_free;
	}
	if (!sorted) /* /proc/kallsyms is sorted but for modules; a copy may not be */
		qsort(k->syms, k->nr, sizeof(*k->syms), cmp_ksym);
	free(buf);
	fclose(f);
	*kp = k;
	return 0;
out_free:
	free(buf);
	fclose(f);
	ts_ksyms_free(k);
	return ret;
}

void ts_ksyms_free(struct ts_ksyms *k)
{
	if (!k)
		return;
	free(k->syms);
	free(k->names);
	free(k);
}

const char *ts_ksyms_lookup(const struct ts_ksyms *k, uint64_t addr, uint64_t *off)
{
	long lo = 0, hi;

	if (!k || !k->nr || addr < k->syms[0].addr)
		return NULL;
	hi = k->nr - 1;
	while (lo < hi) { /* the last symbol at or below addr */
		long mid = lo + (hi - lo + 1) / 2;

		if (k->syms[mid].addr <= addr)
			lo = mid;
		else
			hi = mid - 1;
	}
	if (off)
		*off = addr - k->syms[lo].addr;
	return k->names + k->syms[lo].name;
}

int ts_ksyms_relocate(struct ts_ksyms *k, const char *ref, uint64_t ref_addr, int64_t *delta)
{
	uint64_t d = 0;
	long i, n = 0;
	int found = 0;

	*delta = 0;
	for (i = 0; i < k->nr && !found; i++) {
		if (!k->syms[i].module && !strcmp(k->names + k->syms[i].name, ref)) {
			d = ref_addr - k->syms[i].addr;
			found = 1;
		}
	}
	if (!found)
		return -ENOENT;
	if (!d)
		return 0;
	/* the kernel moved as one piece; modules were placed apart, so their names would lie */
	for (i = 0; i < k->nr; i++) {
		if (k->syms[i].module)
			continue;
		k->syms[n] = k->syms[i];
		k->syms[n++].addr += d;
	}
	k->nr = n;
	*delta = (int64_t)d;
	return 0;
}

long ts_ksyms_count(const struct ts_ksyms *k)
{
	return k ? k->nr : 0;
}
