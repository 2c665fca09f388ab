// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel symbols from a kallsyms file: loaded and moved (KASLR) once, looked up by reports
 * (text symbols, sorted by address) and by the printer's %ps (libtraceevent's choice of
 * symbols and its search, over the same table).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "tickscope/error.h"
#include "tickscope/ksyms.h"

#include "ksyms_priv.h"

#define CHUNK (1 << 20)

/*
 * A table mapped from the cache is checked where it is read rather than all at once, which
 * would bring every page of it in: a name's offset or an index outside the table reads as no
 * name, no symbol (a damaged cache then prints an address, it does not crash).
 */
static const char *name_at(const struct ts_ksyms *k, uint32_t off)
{
	return off < k->names_len ? k->names + off : NULL;
}

static const struct ksym *sym_at(const struct ts_ksyms *k, uint32_t i)
{
	return i < (uint64_t)k->nr ? &k->syms[i] : NULL;
}

static int is_text(char type)
{
	return type == 't' || type == 'T' || type == 'w' || type == 'W';
}

static int cmp_text(const void *a, const void *b, void *arg)
{
	const struct ts_ksyms *k = arg;
	uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
	uint64_t x = k->syms[i].addr, y = k->syms[j].addr;

	if (x != y)
		return x < y ? -1 : 1;
	return i < j ? -1 : i > j;
}

/* The text symbols' index: function pointers in events point at code. */
static int text_index(struct ts_ksyms *k)
{
	long i, n = 0;
	int sorted = 1;

	if (k->text_owned)
		free(k->text);
	k->text = malloc((k->nr ? k->nr : 1) * sizeof(*k->text));
	k->text_owned = 1;
	if (!k->text)
		return -ENOMEM;
	for (i = 0; i < k->nr; i++) {
		if (!is_text(k->syms[i].type))
			continue;
		if (n && k->syms[k->text[n - 1]].addr > k->syms[i].addr)
			sorted = 0;
		k->text[n++] = (uint32_t)i;
	}
	k->nr_text = n;
	if (!sorted) /* /proc/kallsyms is sorted but for modules; a copy may not be */
		qsort_r(k->text, n, sizeof(*k->text), cmp_text, k);
	return 0;
}

/* The end of the whitespace-free word at @s, as scanf's %s takes it. */
static const char *word_end(const char *s)
{
	while (*s && !isspace((unsigned char)*s))
		s++;
	return s;
}

int ts_ksym_printable(const char *name, char type, const char *module, const char **word,
		      size_t *len)
{
	const char *ne;

	while (isspace((unsigned char)*name))
		name++;
	ne = word_end(name);
	*word = name;
	*len = (size_t)(ne - name);
	if (ne == name)
		return -TS_EKALLSYMS;
	if (*name == '$' || type == 'A' || type == 'a')
		return 0;
	if (ne - name >= 512)
		return -TS_EKALLSYMS;
	if (*ne || !module) /* a word shorter than the name has no module */
		return 1;
	return *word_end(module) && strlen(module) + 2 > 512 ? -TS_EKALLSYMS : 1;
}

/* ts_ksym_printable() of a symbol of the table: a name or module outside it fails it. */
static int printable(const struct ts_ksyms *k, const struct ksym *s)
{
	const char *name = name_at(k, s->name), *mod = NULL, *word;
	size_t len;

	if (!name)
		return -TS_EKALLSYMS;
	if (s->module != NO_MODULE && !(mod = name_at(k, s->module)))
		return -TS_EKALLSYMS;
	return ts_ksym_printable(name, s->type, mod, &word, &len);
}

/* By address, and the later in the file first among equal ones. */
static int cmp_print(const void *a, const void *b, void *arg)
{
	const struct ts_ksyms *k = arg;
	uint32_t i = *(const uint32_t *)a, j = *(const uint32_t *)b;
	uint64_t x = k->syms[i].addr, y = k->syms[j].addr;

	if (x != y)
		return x < y ? -1 : 1;
	return i > j ? -1 : i < j;
}

/*
 * The printer's index (k->print), in the order libtraceevent's list of functions would take:
 * each one registered prepends itself, and the first lookup sorts the list stably by address.
 * /proc/kallsyms is in address order already: then each run of one address is reversed, and
 * nothing sorted. The first symbol that fails the table stops it (k->print_err).
 */
static int print_index(struct ts_ksyms *k)
{
	long i, j, m, n = 0;
	int sorted = 1, ret;

	if (k->print_owned)
		free(k->print);
	k->print = malloc((k->nr ? k->nr : 1) * sizeof(*k->print));
	k->print_owned = 1;
	k->nr_print = 0;
	k->print_err = 0;
	if (!k->print)
		return -ENOMEM;
	for (i = 0; i < k->nr; i++) {
		ret = printable(k, &k->syms[i]);
		if (ret < 0) {
			k->print_err = ret;
			return 0;
		}
		if (!ret)
			continue;
		if (n && k->syms[k->print[n - 1]].addr > k->syms[i].addr)
			sorted = 0;
		k->print[n++] = (uint32_t)i;
	}
	k->nr_print = n;
	if (!sorted) {
		qsort_r(k->print, n, sizeof(*k->print), cmp_print, k);
		return 0;
	}
	for (i = 0; i < n; i = j) {
		uint64_t at = k->syms[k->print[i]].addr;

		for (j = i + 1; j < n && k->syms[k->print[j]].addr == at; j++)
			;
		for (m = 0; m < (j - i) / 2; m++) {
			uint32_t t = k->print[i + m];

			k->print[i + m] = k->print[j - 1 - m];
			k->print[j - 1 - m] = t;
		}
	}
	return 0;
}

int ts_ksyms_index(struct ts_ksyms *k)
{
	int ret = text_index(k);

	return ret ? ret : print_index(k);
}

/* Copy @len bytes of @s into the names, NUL-terminated; Return: its offset, or -ENOMEM. */
static long add_name(struct ts_ksyms *k, const char *s, size_t len)
{
	size_t off = k->names_len;

	if (k->names_len + len + 1 > k->names_alloc) {
		size_t n = k->names_alloc ? k->names_alloc * 2 : 1 << 20;
		void *p;

		while (k->names_len + len + 1 > n)
			n *= 2;
		p = realloc(k->names, n);
		if (!p)
			return -ENOMEM;
		k->names = p;
		k->names_alloc = n;
	}
	memcpy(k->names + off, s, len);
	k->names[off + len] = 0;
	k->names_len += len + 1;
	return (long)off;
}

static int add(struct ts_ksyms *k, uint64_t addr, char type, const char *name, size_t namelen,
	       const char *mod, size_t modlen)
{
	long n_off, m_off = 0;

	if (k->nr == k->alloc) {
		long n = k->alloc ? k->alloc * 2 : 65536;
		void *p = realloc(k->syms, n * sizeof(*k->syms));

		if (!p)
			return -ENOMEM;
		k->syms = p;
		k->alloc = n;
	}
	n_off = add_name(k, name, namelen);
	if (n_off >= 0 && mod)
		m_off = add_name(k, mod, modlen);
	if (n_off < 0 || m_off < 0)
		return -ENOMEM;
	/* zeroed whole: the cache writes the table as it is, padding included (ksyms_cache.c) */
	memset(&k->syms[k->nr], 0, sizeof(*k->syms));
	k->syms[k->nr].addr = addr;
	k->syms[k->nr].name = (uint32_t)n_off;
	k->syms[k->nr].module = mod ? (uint32_t)m_off : NO_MODULE;
	k->syms[k->nr].type = type;
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

/*
 * One line, "ffffffff81000000 T _text\t[module]": parsed by hand, as /proc/kallsyms has some
 * 200,000 of them and sscanf() made loading it most of a report's time.
 */
static int parse_line(struct ts_ksyms *k, char *p, char *e)
{
	char *sp = memchr(p, ' ', e - p), *name, *end, *mod = NULL, *mend = NULL;
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
	name = sp + 3;
	end = memchr(name, '\t', e - name);
	if (!end)
		end = e;
	if (end > name && end[-1] == '\r')
		end--;
	if (end == name)
		return -TS_EKALLSYMS;
	if (end < e && *end == '\t') { /* "\t[mod]" */
		mod = end + 1 + (end + 1 < e && end[1] == '[');
		mend = memchr(mod, ']', e - mod);
		if (!mend)
			mend = e;
	}
	return add(k, addr, sp[1], name, end - name, mod, mod ? (size_t)(mend - mod) : 0);
}

/*
 * Every line of @f through parse_line(), a chunk at a time (@buf holds CHUNK + 1 bytes); a line
 * cut at the chunk's end moves to the front of the next. *@lineno: the lines read, and on an
 * error the line to name. Return: 0, or the first line's error.
 */
static int read_lines(struct ts_ksyms *k, FILE *f, char *buf, int *lineno, int *rerr)
{
	char *p, *nl, *end;
	size_t len = 0, n;
	int ret;

	for (;;) {
		n = fread(buf + len, 1, CHUNK - len, f);
		if (!n && ferror(f) && errno)
			*rerr = errno; /* EISDIR says more than EIO */
		len += n;
		end = buf + len;
		for (p = buf; p < end; p = nl + 1) {
			nl = memchr(p, '\n', end - p);
			if (!nl && n)
				break; /* the rest of this line comes with the next chunk */
			if (!nl)
				nl = end; /* the last line, without a newline */
			++*lineno;
			ret = parse_line(k, p, nl);
			if (ret)
				return ret;
		}
		if (!n)
			return 0;
		len = p < end ? (size_t)(end - p) : 0;
		if (len == CHUNK) { /* no newline in a whole chunk: not kallsyms */
			++*lineno;
			return -TS_EKALLSYMS;
		}
		memmove(buf, p, len);
	}
}

int ts_ksyms_load(struct ts_ksyms **kp, const char *path, int *errline)
{
	struct ts_ksyms *k;
	int lineno = 0, ret = 0, rerr = EIO;
	char *buf;
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
	ret = read_lines(k, f, buf, &lineno, &rerr);
	if (!ret && (ferror(f) || !k->nr)) {
		ret = ferror(f) ? -rerr : -TS_EKALLSYMS;
		lineno = 0; /* no line is wrong: none is a symbol (an empty file) */
	}
	if (ret) {
		if (errline)
			*errline = lineno;
		goto out_free;
	}
	ret = ts_ksyms_index(k);
	if (ret)
		goto out_free;
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
	if (k->text_owned)
		free(k->text);
	if (k->print_owned)
		free(k->print);
	if (k->map) {
		munmap(k->map, k->map_len);
	} else {
		free(k->syms);
		free(k->names);
	}
	free(k);
}

const char *ts_ksyms_lookup(const struct ts_ksyms *k, uint64_t addr, uint64_t *off)
{
	const struct ksym *sym;
	const char *name;
	long lo = 0, hi;

	if (!k || !k->nr_text || !(sym = sym_at(k, k->text[0])) || addr < sym->addr)
		return NULL;
	hi = k->nr_text - 1;
	while (lo < hi) { /* the last symbol at or below addr */
		long mid = lo + (hi - lo + 1) / 2;

		sym = sym_at(k, k->text[mid]);
		if (!sym)
			return NULL;
		if (sym->addr <= addr)
			lo = mid;
		else
			hi = mid - 1;
	}
	sym = sym_at(k, k->text[lo]);
	name = sym ? name_at(k, sym->name) : NULL;
	if (name && off)
		*off = addr - sym->addr;
	return name;
}

const char *ts_ksyms_print_find(const struct ts_ksyms *k, uint64_t addr, uint64_t *start,
				size_t *len, const char **module)
{
	size_t lo = 0, hi = k ? (size_t)k->nr_print : 0, mid;
	const struct ksym *s, *n;
	const char *name;
	uint64_t next;

	/* glibc's bsearch() step by step, with libtraceevent's compare of two functions */
	while (lo < hi) {
		mid = (lo + hi) / 2;
		s = sym_at(k, k->print[mid]);
		n = mid + 1 < (size_t)k->nr_print ? sym_at(k, k->print[mid + 1]) : s;
		if (!s || !n)
			return NULL;
		next = mid + 1 < (size_t)k->nr_print ? n->addr : 0;
		if (addr == s->addr || (addr > s->addr && addr < next)) {
			name = name_at(k, s->name);
			if (!name)
				return NULL;
			while (isspace((unsigned char)*name))
				name++;
			*start = s->addr;
			*len = (size_t)(word_end(name) - name);
			*module = s->module != NO_MODULE ? name_at(k, s->module) : NULL;
			return name;
		}
		if (addr < s->addr)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

int ts_ksyms_print_error(const struct ts_ksyms *k)
{
	return k->print_err;
}

int ts_ksyms_relocate(struct ts_ksyms *k, const char *ref, uint64_t ref_addr, int64_t *delta)
{
	uint64_t d = 0;
	long i, n = 0;
	int found = 0;

	*delta = 0;
	for (i = 0; i < k->nr && !found; i++) {
		if (k->syms[i].module == NO_MODULE && is_text(k->syms[i].type) &&
		    name_at(k, k->syms[i].name) && !strcmp(k->names + k->syms[i].name, ref)) {
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
		if (k->syms[i].module != NO_MODULE)
			continue;
		k->syms[n] = k->syms[i];
		k->syms[n++].addr += d;
	}
	k->nr = n;
	*delta = (int64_t)d;
	return ts_ksyms_index(k);
}

/* The kernel's (not a module's) text symbol @name, or NULL. */
static const struct ksym *kernel_text(const struct ts_ksyms *k, const char *name)
{
	long i;

	for (i = 0; i < k->nr; i++)
		if (k->syms[i].module == NO_MODULE && is_text(k->syms[i].type) &&
		    name_at(k, k->syms[i].name) && !strcmp(k->names + k->syms[i].name, name))
			return &k->syms[i];
	return NULL;
}

/* x86_64 maps the kernel at -2 GiB; arm64 below that, in the upper half; 0 for others. */
#define X86_64_KTEXT 0xffffffff80000000ULL
#define UPPER_HALF 0xffff000000000000ULL

int ts_ksyms_all_zero(const struct ts_ksyms *k)
{
	long i;

	for (i = 0; i < k->nr && !k->syms[i].addr; i++)
		;
	return i == k->nr;
}

int ts_ksyms_check(const struct ts_ksyms *k, const char *arch, const char *ref, uint64_t ref_addr,
		   char *why, size_t len)
{
	const struct ksym *r = ref && ref[0] ? kernel_text(k, ref) : NULL, *t = r;
	int x86 = !strcmp(arch, "x86_64"), a64 = !strcmp(arch, "aarch64") || !strcmp(arch, "arm64");
	long i;
	uint64_t d;

	if (ts_ksyms_all_zero(k)) {
		snprintf(why, len, TS_KSYMS_ALL_ZERO_WHY);
		return 1;
	}

	/* without the reference symbol, the kernel's lowest text symbol tells the arch */
	for (i = 0; !t && i < k->nr_text; i++)
		if (sym_at(k, k->text[i]) && k->syms[k->text[i]].module == NO_MODULE &&
		    name_at(k, k->syms[k->text[i]].name))
			t = &k->syms[k->text[i]];
	if (!t) {
		snprintf(why, len, "it has no kernel text symbol: not a kernel's kallsyms?");
		return 1;
	}
	if ((x86 && t->addr < X86_64_KTEXT) ||
	    (a64 && (t->addr >= X86_64_KTEXT || t->addr < UPPER_HALF))) {
		snprintf(why, len,
			 "its kernel text (%s at %#llx) is not where an %s kernel lives: the "
			 "kallsyms of another architecture?",
			 k->names + t->name, (unsigned long long)t->addr, arch);
		return 1;
	}
	if (!ref || !ref[0])
		return 0;
	if (!r) {
		snprintf(why, len,
			 "it has no %s, the symbol the recording places the kernel by: "
			 "the kallsyms of another kernel?",
			 ref);
		return 1;
	}
	d = ref_addr > t->addr ? ref_addr - t->addr : t->addr - ref_addr;
	/* x86_64 KASLR moves the kernel inside its 1 GiB text mapping; more is another kernel */
	if (x86 && d >= (1ULL << 30)) {
		snprintf(why, len,
			 "its %s (%#llx) is %#llx away from the recording's (%#llx), more than "
			 "KASLR moves a kernel: the kallsyms of another kernel?",
			 ref, (unsigned long long)t->addr, (unsigned long long)d,
			 (unsigned long long)ref_addr);
		return 1;
	}
	return 0;
}

long ts_ksyms_count(const struct ts_ksyms *k)
{
	return k ? k->nr_text : 0;
}

int ts_ksyms_each(const struct ts_ksyms *k, ts_ksym_fn fn, void *ctx)
{
	const struct ksym *s;
	long i;
	int ret;

	for (i = 0; i < k->nr; i++) {
		s = &k->syms[i];
		if (!name_at(k, s->name) || (s->module != NO_MODULE && !name_at(k, s->module)))
			return -TS_EKALLSYMS;
		ret = fn(ctx, s->addr, s->type, k->names + s->name,
			 s->module != NO_MODULE ? k->names + s->module : NULL);
		if (ret)
			return ret;
	}
	return 0;
}
