// SPDX-License-Identifier: GPL-2.0-only
/*
 * Kernel eras: the table of README.md ("Kernel eras") says when a symbol the fragments use
 * appeared and what did its job before. A request for a symbol this tree does not define is
 * then asked of the era's stand-in, or judged "not in this era", never a bare unknown.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lkc.h"
#include "ts_kconfig.h"

#define ERA_BEGIN "<!-- era-table"
#define ERA_END "<!-- /era-table -->"

/* Version "6.1.192" older than "6.12"? Missing parts count as 0; an unknown kver is not old. */
bool ts_older_than(const char *kver, const char *before)
{
	int a[3] = { 0 }, b[3] = { 0 }, i;

	if (!kver || sscanf(kver, "%d.%d.%d", &a[0], &a[1], &a[2]) < 2)
		return false;
	sscanf(before, "%d.%d.%d", &b[0], &b[1], &b[2]);
	for (i = 0; i < 3; i++)
		if (a[i] != b[i])
			return a[i] < b[i];
	return false;
}

/* The text of one cell, without blanks and backticks around it. */
static char *cell(const char *s, size_t n)
{
	while (n && (isspace((unsigned char)*s) || *s == '`')) {
		s++;
		n--;
	}
	while (n && (isspace((unsigned char)s[n - 1]) || s[n - 1] == '`'))
		n--;
	return strndup(s, n);
}

static bool symbol_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isupper((unsigned char)*s) && !isdigit((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

/* "all", or architectures as ARCH= names them, separated by commas or blanks */
static bool arch_list(const char *s)
{
	if (!strcmp(s, "all"))
		return true;
	if (!*s)
		return false;
	for (; *s; s++)
		if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s) && *s != '_' &&
		    *s != ',' && *s != ' ')
			return false;
	return true;
}

/* Does the row speak for ARCH? x86 stands for x86_64 and i386 as arch/x86 does. */
static bool arch_fits(const struct ts_era *e, const char *arch)
{
	const char *p = e->arch;
	size_t n;

	if (!arch || !strcmp(e->arch, "all"))
		return true;
	while (*p) {
		p += strspn(p, ", ");
		n = strcspn(p, ", ");
		if (n && ((strlen(arch) == n && !strncmp(p, arch, n)) ||
			  (n == 3 && !strncmp(p, "x86", 3) &&
			   (!strcmp(arch, "x86_64") || !strcmp(arch, "i386")))))
			return true;
		p += n;
	}
	return false;
}

/*
 * "| SYM | ARCH | 5.3 | STANDIN, none or not needed | note |" into e; -EINVAL when it is
 * not.
 */
static int parse_row(const char *line, struct ts_era *e)
{
	char *c[5] = { NULL };
	const char *p = line + 1, *bar;
	int n = 0, ok;

	while (n < 5 && (bar = strchr(p, '|'))) {
		c[n++] = cell(p, bar - p);
		p = bar + 1;
	}
	ok = n == 5 && symbol_name(c[0]) && arch_list(c[1]) &&
	     (isdigit((unsigned char)c[2][0]) || (!strcmp(c[2], "rt") && symbol_name(c[3]))) &&
	     (symbol_name(c[3]) || !strcmp(c[3], "none") || !strcmp(c[3], "not needed"));
	if (!ok) {
		while (n)
			free(c[--n]);
		return -EINVAL;
	}
	memset(e, 0, sizeof(*e));
	e->sym = c[0];
	e->arch = c[1];
	e->from = c[2];
	e->not_needed = !strcmp(c[3], "not needed");
	if (symbol_name(c[3]))
		e->standin = c[3];
	else
		free(c[3]);
	e->note = c[4];
	return 0;
}

int ts_eras_read(struct ts_eras *eras, const char *path, struct ts_err *err)
{
	char line[2048];
	int lineno = 0, in = 0;
	FILE *f = fopen(path, "r");

	memset(eras, 0, sizeof(*eras));
	if (!f) {
		snprintf(err->msg, sizeof(err->msg), "%s: %s", path, strerror(errno));
		return -errno;
	}
	while (fgets(line, sizeof(line), f)) {
		struct ts_era *v;

		lineno++;
		if (!strncmp(line, ERA_BEGIN, strlen(ERA_BEGIN))) {
			in = 1;
			continue;
		}
		if (!strncmp(line, ERA_END, strlen(ERA_END)))
			break;
		/* the header row and the |---| row are not symbols */
		if (!in || line[0] != '|' || strstr(line, "---") || !strncmp(line, "| Symbol", 8))
			continue;
		v = realloc(eras->v, (eras->n + 1) * sizeof(*eras->v));
		if (!v)
			break;
		eras->v = v;
		if (parse_row(line, &eras->v[eras->n])) {
			snprintf(err->msg, sizeof(err->msg),
				 "%s:%d: era table row: expected '| SYMBOL | all or ARCH,... | "
				 "VERSION or rt | STANDIN, none or not needed | what changed |'",
				 path, lineno);
			fclose(f);
			ts_eras_free(eras);
			return -EINVAL;
		}
		eras->n++;
	}
	fclose(f);
	if (!eras->n) {
		snprintf(err->msg, sizeof(err->msg), "%s: no era table (%s ... %s)", path,
			 ERA_BEGIN, ERA_END);
		return -EINVAL;
	}
	return 0;
}

void ts_eras_free(struct ts_eras *eras)
{
	int i;

	for (i = 0; i < eras->n; i++) {
		free(eras->v[i].sym);
		free(eras->v[i].arch);
		free(eras->v[i].from);
		free(eras->v[i].standin);
		free(eras->v[i].note);
	}
	free(eras->v);
	memset(eras, 0, sizeof(*eras));
}

/* A row of the RT patch (From "rt"): not an era of mainline, see ts_era_apply(). */
static bool rt_row(const struct ts_era *e)
{
	return !strcmp(e->from, "rt");
}

static bool has_prompt(struct symbol *sym)
{
	struct property *prop;

	for_all_prompts(sym, prop)
		return true;
	return false;
}

static bool defined(const char *name)
{
	struct symbol *sym = sym_find(name);

	return sym && sym->type != S_UNKNOWN;
}

static void note(struct ts_req *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(struct ts_req *r, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	free(r->era_note);
	r->era_note = strdup(buf);
}

/* Ask for name instead: the merged line and every later check use this era's symbol. */
static int replace(struct ts_req *r, const char *name)
{
	char buf[4096];
	const char *eq = r->raw ? strchr(r->raw, '=') : NULL;

	if (r->raw) {
		if (eq)
			snprintf(buf, sizeof(buf), "CONFIG_%s%s", name, eq);
		else
			snprintf(buf, sizeof(buf), "# CONFIG_%s is not set", name);
		free(r->raw);
		r->raw = strdup(buf);
	}
	r->asked = r->name;
	r->name = strdup(name);
	r->era = TS_ERA_STANDIN;
	return r->name ? 0 : -ENOMEM;
}

/* The row that says what stood in for sym in an era older than this tree's, when the tree
 * defines that stand-in (ARM_PSCI_CPUIDLE -> ARM_CPUIDLE -> ARM64_CPUIDLE on 3.18). */
static const struct ts_era *older_standin(const struct ts_set *set, const char *sym)
{
	int i;

	for (i = 0; i < set->eras->n; i++) {
		const struct ts_era *e = &set->eras->v[i];

		if (!strcmp(e->sym, sym) && !rt_row(e) && arch_fits(e, set->arch) &&
		    ts_older_than(set->kver, e->from) && e->standin && defined(e->standin))
			return e;
	}
	return NULL;
}

/* The other way: an older era's symbol asked of a tree where its successor does the job (or
 * where neither is). @k: this tree's version, for the notes. */
static int successor_apply(const struct ts_set *set, struct ts_req *r, const char *k)
{
	int i;

	for (i = 0; i < set->eras->n; i++) {
		const struct ts_era *e = &set->eras->v[i];

		if (!e->standin || strcmp(e->standin, r->name) || !arch_fits(e, set->arch) ||
		    rt_row(e))
			continue;
		if (ts_older_than(set->kver, e->from)) {
			/* the stand-in's own era, but this tree has neither */
			r->era = TS_ERA_MISSING;
			note(r,
			     "not in this tree: CONFIG_%s did the job of CONFIG_%s before %s, and "
			     "Linux %s has neither (%s)",
			     r->name, e->sym, e->from, k, e->note);
			return 0;
		}
		if (!defined(e->sym))
			continue;
		note(r,
		     "CONFIG_%s is of an older era (CONFIG_%s replaced it in %s; this is Linux "
		     "%s): CONFIG_%s is asked instead (%s)",
		     r->name, e->sym, e->from, k, e->sym, e->note);
		return replace(r, e->sym);
	}
	return 0;
}

/*
 * The RT patch renames within its era: on a tree that defines the row's stand-in (only
 * RT-patched trees do), a symbol that has no prompt there is asked of the stand-in (PREEMPT,
 * which the RT patch's PREEMPT__LL selects on 4.x-rt). The row that applies to @r, or NULL.
 */
static const struct ts_era *rt_standin(const struct ts_set *set, const struct ts_req *r)
{
	int i;

	for (i = 0; i < set->eras->n; i++) {
		const struct ts_era *e = &set->eras->v[i];
		struct symbol *sym = sym_find(r->name);

		if (!rt_row(e) || strcmp(e->sym, r->name) || !arch_fits(e, set->arch) ||
		    !defined(e->standin) || !defined(r->name) || has_prompt(sym))
			continue;
		return e;
	}
	return NULL;
}

/*
 * @r asks for @e's symbol, which appeared after this tree's Linux @k: its stand-in here, the
 * stand-in's own stand-in of an older era, or the note that this era has none.
 */
static int later_era(const struct ts_set *set, struct ts_req *r, const struct ts_era *e,
		     const char *k)
{
	const struct ts_era *older;

	if (e->standin && defined(e->standin)) {
		note(r,
		     "CONFIG_%s is not in this era (Linux %s; it appeared in %s): here "
		     "CONFIG_%s does its job (%s)",
		     e->sym, k, e->from, e->standin, e->note);
		return replace(r, e->standin);
	}
	older = e->standin ? older_standin(set, e->standin) : NULL;
	if (older) {
		/* the stand-in had a stand-in of its own in an older era */
		note(r,
		     "CONFIG_%s is not in this era (Linux %s; it appeared in %s), nor is "
		     "CONFIG_%s (%s): here CONFIG_%s does its job (%s; %s)",
		     e->sym, k, e->from, e->standin, older->from, older->standin, e->note,
		     older->note);
		return replace(r, older->standin);
	}
	r->era = e->not_needed ? TS_ERA_NOT_NEEDED : TS_ERA_MISSING;
	note(r, "not in this era: CONFIG_%s appeared in %s, this is Linux %s; %s%s%s%s", e->sym,
	     e->from, k, e->not_needed ? "before it nothing was needed: " : "",
	     e->standin ? "this tree has no CONFIG_" : "", e->standin ? e->standin : "",
	     e->standin ? " either; " : "");
	/* the note after the stand-in sentence: what the era had, or lacked */
	note(r, "%s%s", r->era_note, e->note);
	return 0;
}

/* A request for a symbol this tree does not define: the era table's stand-in, or the note that
 * the symbol is not in this era. Symbols of a later era than the tree's only: a symbol that
 * this era has but the ARCH does not read stays an unknown symbol, with where it is defined. */
int ts_era_apply(const struct ts_set *set, struct ts_req *r)
{
	const char *k = set->kver ? set->kver : "?";
	const struct ts_era *rt, *foreign = NULL;
	bool fits = false;
	int i;

	if (!set->eras)
		return 0;
	rt = rt_standin(set, r);
	if (rt) {
		note(r,
		     "CONFIG_%s has no prompt on this RT-patched tree (Linux %s): here CONFIG_%s "
		     "does its job (%s)",
		     rt->sym, k, rt->standin, rt->note);
		return replace(r, rt->standin);
	}
	if (defined(r->name))
		return 0;
	for (i = 0; i < set->eras->n; i++) {
		const struct ts_era *e = &set->eras->v[i];

		if (strcmp(e->sym, r->name) || rt_row(e))
			continue;
		if (!arch_fits(e, set->arch)) {
			foreign = e; /* another architecture's symbol */
			continue;
		}
		fits = true;
		if (ts_older_than(set->kver, e->from))
			return later_era(set, r, e, k);
	}
	if (foreign && !fits) {
		/* a fragment of another architecture: nothing of this one stands in for it */
		r->era = TS_ERA_MISSING;
		note(r,
		     "not for this architecture: CONFIG_%s is of %s (from %s there; %s), this is "
		     "ARCH=%s, Linux %s",
		     r->name, foreign->arch, foreign->from, foreign->note, set->arch, k);
		return 0;
	}
	return successor_apply(set, r, k);
}
