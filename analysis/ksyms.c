// SPDX-License-Identifier: GPL-2.0-only
/* Kernel text symbols from a kallsyms file, sorted by address for lookup by reports. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tickscope/error.h"
#include "tickscope/ksyms.h"

struct ksym {
	uint64_t addr;
	uint32_t name; /* offset into names */
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

static int add(struct ts_ksyms *k, uint64_t addr, const char *name)
{
	size_t len = strlen(name) + 1;

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
	memcpy(k->names + k->names_len, name, len);
	k->syms[k->nr].addr = addr;
	k->syms[k->nr].name = k->names_len;
	k->names_len += len;
	k->nr++;
	return 0;
}

int ts_ksyms_load(struct ts_ksyms **kp, const char *path, int *errline)
{
	struct ts_ksyms *k;
	char line[512], name[256], type;
	unsigned long long addr;
	int lineno = 0, ret = 0;
	FILE *f;

	*kp = NULL;
	f = fopen(path, "r");
	if (!f)
		return -errno;
	k = calloc(1, sizeof(*k));
	if (!k) {
		fclose(f);
		return -ENOMEM;
	}
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3) {
			if (errline)
				*errline = lineno;
			ret = -TS_EKALLSYMS;
			goto out_free;
		}
		/* text symbols only: function pointers in events point at code */
		if (type != 't' && type != 'T' && type != 'w' && type != 'W')
			continue;
		ret = add(k, addr, name);
		if (ret)
			goto out_free;
	}
	if (!k->nr) {
		if (errline)
			*errline = lineno;
		ret = -TS_EKALLSYMS;
		goto out_free;
	}
	qsort(k->syms, k->nr, sizeof(*k->syms), cmp_ksym);
	fclose(f);
	*kp = k;
	return 0;
out_free:
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

long ts_ksyms_count(const struct ts_ksyms *k)
{
	return k ? k->nr : 0;
}
