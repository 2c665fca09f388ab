// SPDX-License-Identifier: GPL-2.0-only
/*
 * Verdicts: compare each requested value with the final .config and explain every difference in
 * the tree's own Kconfig terms (unmet "depends on", forcing "select", hidden prompts, choices).
 */
#include <ftw.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "lkc.h"
#include "ts_kconfig.h"

#define MAX_HINT_DEPTH 2

struct ts_choice_state {
	struct symbol *choice;
	struct symbol *value;
};

struct ts_choices {
	struct ts_choice_state *v;
	int n;
};

void ts_buf_add(struct ts_buf *b, const char *s)
{
	size_t n = strlen(s);

	if (b->len + n + 1 > b->cap) {
		size_t cap = (b->len + n + 1) * 2;
		char *s2 = realloc(b->s, cap);

		if (!s2)
			return; /* out of memory: the message is cut short, not wrong */
		b->s = s2;
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n + 1);
	b->len += n;
}

void ts_buf_printf(struct ts_buf *b, const char *fmt, ...)
{
	char tmp[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	ts_buf_add(b, tmp);
}

char *ts_buf_take(struct ts_buf *b)
{
	char *s = b->s ? b->s : strdup("");

	memset(b, 0, sizeof(*b));
	return s;
}

void ts_buf_free(struct ts_buf *b)
{
	free(b->s);
	memset(b, 0, sizeof(*b));
}

/* An expression with the current values, in the tree's own syntax: "A [=y] && B [=n]". */
void ts_add_expr(struct ts_buf *b, struct expr *e)
{
	struct gstr gs = str_new();
	const char *s, *p, *cut[] = { "<choice> && ", " && <choice>" };
	size_t skip;

	expr_gstr_print(e, &gs);
	/* A choice member depends on its (nameless) choice: say nothing about it. */
	for (s = str_get(&gs);; s = p + skip) {
		const char *p0 = strstr(s, cut[0]), *p1 = strstr(s, cut[1]);
		char *part;

		p = p0 && (!p1 || p0 < p1) ? p0 : p1;
		if (!p)
			break;
		skip = strlen(p == p0 ? cut[0] : cut[1]);
		part = strndup(s, p - s);
		ts_buf_add(b, part);
		free(part);
	}
	ts_buf_add(b, s);
	str_free(&gs);
}

static const char *prompt_of(struct symbol *sym)
{
	struct property *prop;

	for_all_prompts(sym, prop)
		return prop->text;
	return NULL;
}

static int save_choice(struct symbol *cs, void *data)
{
	struct ts_choices *c = data;
	struct ts_choice_state *v = realloc(c->v, (c->n + 1) * sizeof(*c->v));

	if (!v)
		return 1; /* out of memory: fewer side effects, no wrong ones */
	c->v = v;
	c->v[c->n].choice = cs;
	c->v[c->n].value = ts_chosen(cs);
	c->n++;
	return 0;
}

struct ts_choices *ts_choices_save(void)
{
	struct ts_choices *c = calloc(1, sizeof(*c));

	if (c)
		ts_for_each_choice(save_choice, c);
	return c;
}

void ts_choices_free(struct ts_choices *c)
{
	if (!c)
		return;
	free(c->v);
	free(c);
}

const struct ts_req *ts_find_req(const struct ts_set *set, const char *name)
{
	int i;

	for (i = set->nreqs - 1; i >= 0; i--)
		if (set->reqs[i].kind == TS_REQ_SET && !strcmp(set->reqs[i].name, name))
			return &set->reqs[i];
	return NULL;
}

/* nftw() passes no user data: the search state lives here for the duration of one walk. */
static struct {
	const char *name, *root, *word; /* "config" (where defined) or "select" */
	struct ts_buf *out;
	int found;
} where;

static int where_visit(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	char line[1024], word[16], sym[256];
	FILE *f;

	(void)st;
	if (type != FTW_F || strncmp(path + ftw->base, "Kconfig", 7))
		return 0;
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, " %15s %255s", word, sym) != 2 || strcmp(sym, where.name) ||
		    (strcmp(word, where.word) &&
		     (strcmp(where.word, "config") || strcmp(word, "menuconfig"))))
			continue;
		/* the first three are named, the others counted */
		if (where.found++ < 3)
			ts_buf_printf(where.out, "%s%s", where.found > 1 ? ", " : "",
				      path + strlen(where.root) + 1);
		break;
	}
	fclose(f);
	return 0;
}

/* How many Kconfig files of the tree define (word "config") or select name; the first three
 * are named in b. */
static int find_in_tree(struct ts_buf *b, const char *srctree, const char *word, const char *name)
{
	if (!srctree)
		return 0;
	where.name = name;
	where.root = srctree;
	where.word = word;
	where.out = b;
	where.found = 0;
	nftw(srctree, where_visit, 16, FTW_PHYS);
	return where.found;
}

/* Name the Kconfig files of other arches or options that define an unknown symbol. */
static void add_where_defined(struct ts_buf *b, const char *srctree, const char *name)
{
	struct ts_buf w = { 0 };

	if (find_in_tree(&w, srctree, "config", name) > 3)
		ts_buf_printf(b, " (defined only in %s and %d more, not read for this ARCH)", w.s,
			      where.found - 3);
	else if (where.found)
		ts_buf_printf(b, " (defined only in %s, not read for this ARCH)", w.s);
	ts_buf_free(&w);
}

/* "nothing selects X": in this tree, or only in files this ARCH does not read (arm64 of 4.4
 * has no HAVE_KPROBES, but x86 selects it). */
static void add_nothing_selects(const struct ts_set *set, struct ts_buf *b, const char *name)
{
	struct ts_buf w = { 0 };

	if (find_in_tree(&w, set->srctree, "select", name) > 3)
		ts_buf_printf(b, "; nothing selects %s for ARCH=%s (only %s and %d more select it)",
			      name, set->arch ? set->arch : "?", w.s, where.found - 3);
	else if (where.found)
		ts_buf_printf(b, "; nothing selects %s for ARCH=%s (only %s select%s it)", name,
			      set->arch ? set->arch : "?", w.s, where.found == 1 ? "s" : "");
	else
		ts_buf_printf(b, "; nothing selects %s in this tree", name);
	ts_buf_free(&w);
}

static void hint_sym_low(const struct ts_set *set, struct ts_buf *b, struct symbol *s, int depth);

/* Name the leaves of an unmet dependency: the symbols that are too low, or on when they must
 * be off. Satisfied branches are skipped so the hint points at what to change. */
static void hint_expr(const struct ts_set *set, struct ts_buf *b, struct expr *e, tristate need,
		      int depth)
{
	if (!e || expr_calc_value(e) >= need)
		return;
	switch (e->type) {
	case E_AND:
	case E_OR:
		hint_expr(set, b, e->left.expr, need, depth);
		hint_expr(set, b, e->right.expr, need, depth);
		break;
	case E_SYMBOL:
		hint_sym_low(set, b, e->left.sym, depth);
		break;
	case E_EQUAL:
		/* "depends on FOO=y": FOO is too low, as for a plain "depends on FOO". */
		if (e->right.sym == &symbol_yes || e->right.sym == &symbol_mod)
			hint_sym_low(set, b, e->left.sym, depth);
		break;
	case E_NOT:
		if (e->left.expr->type == E_SYMBOL) {
			struct symbol *s = e->left.expr->left.sym;
			const struct ts_req *r = ts_find_req(set, s->name);

			ts_buf_printf(b, "; %s [=%s] must be off", s->name,
				      sym_get_string_value(s));
			if (s->rev_dep.expr && expr_calc_value(s->rev_dep.expr) > no) {
				ts_buf_add(b, ", but it is selected by ");
				ts_add_expr(b, s->rev_dep.expr);
			} else if (r) {
				ts_buf_printf(b, " (%s:%d sets it)", r->frag, r->line);
			}
		}
		break;
	default:
		break;
	}
}

static void hint_sym_low(const struct ts_set *set, struct ts_buf *b, struct symbol *s, int depth)
{
	const struct ts_req *r;
	struct symbol *cs;

	if (!s->name || (s->flags & SYMBOL_CONST))
		return;
	if (s->type == S_UNKNOWN) {
		ts_buf_printf(b, "; %s is not defined for ARCH=%s", s->name,
			      set->arch ? set->arch : "?");
		return;
	}
	r = ts_find_req(set, s->name);
	cs = ts_choice_of(s);
	if (r && !strcmp(r->value, "m") && sym_get_tristate_value(s) == mod) {
		ts_buf_printf(b, "; %s [=m] as requested at %s:%d, and a dependency at m caps this "
			      "symbol at m: request CONFIG_%s=y", s->name, r->frag, r->line,
			      s->name);
	} else if (r && strcmp(r->value, "n")) {
		ts_buf_printf(b, "; %s, requested at %s:%d, was dropped too", s->name, r->frag,
			      r->line);
	} else if (r) {
		ts_buf_printf(b, "; %s is turned off at %s:%d", s->name, r->frag, r->line);
	} else if (cs) {
		struct symbol *v = ts_chosen(cs);

		ts_buf_printf(b, "; %s is a member of the choice \"%s\", which is %s", s->name,
			      prompt_of(cs) ? prompt_of(cs) : "?",
			      v && v->name ? v->name : "unset");
	} else if (!prompt_of(s)) {
		if (!s->rev_dep.expr) {
			add_nothing_selects(set, b, s->name);
		} else {
			ts_buf_printf(b, "; %s has no prompt and is selected only by ", s->name);
			ts_add_expr(b, s->rev_dep.expr);
		}
	} else {
		ts_buf_printf(b, "; %s is not set: request CONFIG_%s=y", s->name, s->name);
		if (depth < MAX_HINT_DEPTH && ts_dir_dep(s) &&
		    expr_calc_value(ts_dir_dep(s)) == no) {
			ts_buf_printf(b, " (%s depends on ", s->name);
			ts_add_expr(b, ts_dir_dep(s));
			ts_buf_add(b, ")");
			hint_expr(set, b, ts_dir_dep(s), mod, depth + 1);
		}
	}
}

/* The select terms that currently force sym to at least above. */
void ts_add_selects(struct ts_buf *b, struct expr *e, int above, bool *first)
{
	if (!e)
		return;
	if (e->type == E_OR) {
		ts_add_selects(b, e->left.expr, above, first);
		ts_add_selects(b, e->right.expr, above, first);
		return;
	}
	if ((int)expr_calc_value(e) <= above)
		return;
	ts_buf_add(b, *first ? "" : " || ");
	ts_add_expr(b, e);
	*first = false;
}

const char *ts_active_default(struct symbol *sym, struct ts_buf *b)
{
	struct property *prop;

	for_all_defaults(sym, prop) {
		if (expr_calc_value(prop->visible.expr) == no)
			continue;
		ts_buf_add(b, "default ");
		ts_add_expr(b, prop->expr);
		if (prop->visible.expr) {
			ts_buf_add(b, " if ");
			ts_add_expr(b, prop->visible.expr);
		}
		return b->s;
	}
	ts_buf_add(b, "no default applies");
	for_all_defaults(sym, prop) {
		ts_buf_add(b, " (default ");
		ts_add_expr(b, prop->expr);
		if (prop->visible.expr) {
			ts_buf_add(b, " if ");
			ts_add_expr(b, prop->visible.expr);
		}
		ts_buf_add(b, ")");
		break;
	}
	return b->s;
}

/* A prompt that exists but is hidden by its "if" condition: name what to request. */
static bool explain_hidden(const struct ts_set *set, struct ts_buf *b, struct symbol *sym)
{
	struct property *prop;

	for_all_prompts(sym, prop) {
		if (!prop->visible.expr || expr_calc_value(prop->visible.expr) > no)
			continue;
		ts_buf_printf(b, "the prompt of %s is hidden: visible if ", sym->name);
		ts_add_expr(b, prop->visible.expr);
		hint_expr(set, b, prop->visible.expr, mod, 0);
		return true;
	}
	return false;
}

/* Why a bool/tristate ended below the requested value. */
static void explain_low(const struct ts_set *set, struct ts_buf *b, struct symbol *sym,
			tristate want)
{
	struct symbol *cs = ts_choice_of(sym);
	struct property *prompt = NULL, *prop;

	for_all_prompts(sym, prop) {
		prompt = prop;
		break;
	}
	if (ts_dir_dep(sym) && expr_calc_value(ts_dir_dep(sym)) < want) {
		ts_buf_add(b, "depends on ");
		ts_add_expr(b, ts_dir_dep(sym));
		hint_expr(set, b, ts_dir_dep(sym), want, 0);
	} else if (!prompt) {
		ts_buf_printf(b, "%s has no prompt, so only a select or a default can set it",
			      sym->name);
		if (!sym->rev_dep.expr) {
			add_nothing_selects(set, b, sym->name);
		} else {
			ts_buf_add(b, "; selected only by ");
			ts_add_expr(b, sym->rev_dep.expr);
		}
	} else if (prompt->visible.tri < want) {
		ts_buf_add(b, "the prompt is hidden: visible if ");
		ts_add_expr(b, prompt->visible.expr);
		hint_expr(set, b, prompt->visible.expr, want, 0);
	} else if (cs) {
		struct symbol *v = ts_chosen(cs);
		const struct ts_req *r = v && v->name ? ts_find_req(set, v->name) : NULL;

		ts_buf_printf(b, "the choice \"%s\" resolved to %s",
			      prompt_of(cs) ? prompt_of(cs) : "?",
			      v && v->name ? v->name : "nothing");
		if (r && !strcmp(r->value, "y"))
			ts_buf_printf(b, " (requested at %s:%d)", r->frag, r->line);
	} else if (want == mod && modules_sym && sym_get_tristate_value(modules_sym) == no) {
		ts_buf_add(b, "MODULES [=n], so m is not possible");
	} else {
		struct ts_buf d = { 0 };

		/* A visible prompt, its dependencies met: only a request or a select sets it. */
		ts_buf_printf(b, "nothing sets it: no select forces %s and its prompt is visible, so "
			      "only a request does (CONFIG_%s=%s); %s", sym->name, sym->name,
			      want == mod ? "m" : "y", ts_active_default(sym, &d));
		ts_buf_free(&d);
	}
}

/* Why a bool/tristate ended above the requested value. */
static void explain_high(const struct ts_set *set, struct ts_buf *b, struct symbol *sym,
			 tristate want)
{
	struct symbol *cs = ts_choice_of(sym);
	struct ts_buf d = { 0 };
	bool first = true;

	if (sym->rev_dep.expr && expr_calc_value(sym->rev_dep.expr) > want) {
		ts_buf_printf(b, "forced =%s by select: ", sym_get_string_value(sym));
		ts_add_selects(b, sym->rev_dep.expr, want, &first);
	} else if (cs) {
		ts_buf_printf(b,
			      "the choice \"%s\" needs a member and resolved to %s: no other "
			      "visible member was set",
			      prompt_of(cs) ? prompt_of(cs) : "?", sym->name);
	} else if (want == mod && modules_sym && sym_get_tristate_value(modules_sym) == no) {
		ts_buf_add(b, "MODULES [=n]: without module support, a tristate asked for as m is "
			   "built in; request CONFIG_MODULES=y for m");
	} else if (explain_hidden(set, b, sym)) {
		ts_buf_printf(b, "; until then %s", ts_active_default(sym, &d));
	} else if (sym->visible <= want || !prompt_of(sym)) {
		ts_buf_printf(b, "%s cannot be changed here (no visible prompt); %s", sym->name,
			      ts_active_default(sym, &d));
	} else {
		ts_buf_add(b, "kconfig raised it");
	}
	ts_buf_free(&d);
}

/* Why a string/int/hex did not keep its value. */
static void explain_other(const struct ts_set *set, struct ts_buf *b, struct symbol *sym)
{
	struct property *range = ts_range_prop(sym);
	struct ts_buf d = { 0 };

	if (ts_dir_dep(sym) && expr_calc_value(ts_dir_dep(sym)) == no) {
		ts_buf_add(b, "depends on ");
		ts_add_expr(b, ts_dir_dep(sym));
		hint_expr(set, b, ts_dir_dep(sym), mod, 0);
	} else if (sym->visible == no && explain_hidden(set, b, sym)) {
		ts_buf_printf(b, "; until then %s", ts_active_default(sym, &d));
	} else if (sym->visible == no) {
		ts_buf_printf(b, "%s cannot be changed here (no visible prompt); %s", sym->name,
			      ts_active_default(sym, &d));
	} else if (range) {
		ts_buf_add(b, "outside its range ");
		ts_add_expr(b, range->expr);
	} else {
		ts_buf_add(b, "kconfig replaced it");
	}
	ts_buf_free(&d);
}

static tristate tri_of(const char *v)
{
	return !strcmp(v, "y") ? yes : !strcmp(v, "m") ? mod : no;
}

static bool same_value(struct symbol *sym, const char *want)
{
	const char *got = sym_get_string_value(sym);

	switch (sym->type) {
	case S_BOOLEAN:
	case S_TRISTATE:
		return sym_get_tristate_value(sym) == tri_of(want);
	case S_HEX:
		return strtoull(got, NULL, 16) == strtoull(want, NULL, 16);
	default:
		return !strcmp(got, want);
	}
}

static void explain(const struct ts_set *set, struct ts_buf *b, struct symbol *sym,
		    const char *want)
{
	if (sym->type == S_BOOLEAN || sym->type == S_TRISTATE) {
		if (sym_get_tristate_value(sym) < tri_of(want))
			explain_low(set, b, sym, tri_of(want));
		else
			explain_high(set, b, sym, tri_of(want));
	} else {
		explain_other(set, b, sym);
	}
}

/* A value kept that works only with another symbol's (r->eff_name): ineffective without it. A
 * symbol that no Kconfig file of this tree defines is n, as in Kconfig's own expressions, so
 * "if CONFIG_SLOB=n" holds on a tree from after SLOB was removed. */
static void judge_effect(struct ts_set *set, struct ts_req *r, struct ts_buf *b)
{
	struct symbol *e = sym_find(r->eff_name);

	if (e && e->type == S_UNKNOWN)
		e = NULL;
	if (e)
		sym_calc_value(e);
	if (e ? same_value(e, r->eff_value) : !strcmp(r->eff_value, "n"))
		return;
	r->verdict = TS_V_INEFFECTIVE;
	ts_buf_printf(b, "kept but ineffective: it needs %s=%s, which is %s", r->eff_name,
		      r->eff_value, e ? sym_get_string_value(e) : "not defined");
	if (e) {
		ts_buf_add(b, ": ");
		explain(set, b, e, r->eff_value);
	}
}

static void judge_one(struct ts_set *set, struct ts_req *r, const char *kver, const char *arch)
{
	struct symbol *sym = sym_find(r->name);
	struct ts_buf b = { 0 };

	if (sym && sym->type != S_UNKNOWN) {
		sym_calc_value(sym);
		r->final = strdup(sym_get_string_value(sym));
	}
	if (r->kind == TS_REQ_SET && r->overridden_by >= 0) {
		const struct ts_req *l = &set->reqs[r->overridden_by];

		r->verdict = strcmp(l->name, r->name) || strcmp(l->value, r->value) ?
				     TS_V_OVERRIDDEN : TS_V_SAME;
		ts_buf_printf(&b, "%s by %s:%d (%s)",
			      r->verdict == TS_V_SAME ? "asked again" : "overridden", l->frag,
			      l->line, l->raw);
		goto out;
	}
	if (r->era == TS_ERA_MISSING || r->era == TS_ERA_NOT_NEEDED) {
		r->verdict = TS_V_NOT_IN_ERA;
		ts_buf_add(&b, r->era_note);
		goto out;
	}
	if (!sym || sym->type == S_UNKNOWN) {
		r->verdict = TS_V_UNKNOWN;
		ts_buf_printf(&b,
			      "unknown symbol: no Kconfig file of this tree defines %s for ARCH=%s",
			      r->name, arch ? arch : "?");
		add_where_defined(&b, set->srctree, r->name);
		if (r->xfail_before && ts_older_than(kver, r->xfail_before))
			r->expected = true;
		goto out;
	}
	if (same_value(sym, r->value)) {
		r->verdict = r->kind == TS_REQ_CHECK ? TS_V_CHECK_OK : TS_V_KEPT;
		if (r->eff_name)
			judge_effect(set, r, &b);
		goto out;
	}
	r->verdict = r->kind == TS_REQ_CHECK ? TS_V_CHECK_FAILED : TS_V_DROPPED;
	explain(set, &b, sym, r->value);
	if (r->verdict == TS_V_DROPPED && r->xfail_before && ts_older_than(kver, r->xfail_before))
		r->expected = true;
out:
	r->reason = b.s ? ts_buf_take(&b) : NULL;
}

static void add_effect(struct ts_set *set, char *s)
{
	char **e = realloc(set->effects, (set->neffects + 1) * sizeof(*set->effects));

	if (!e) {
		free(s);
		return;
	}
	set->effects = e;
	set->effects[set->neffects++] = s;
}

/* Why a choice left its member, or vanished: the unmet "depends on" of the member or of the
 * choice, and which request turned it off. From 6.13 PREEMPT_RT is a bool outside "Preemption
 * Model", and PREEMPT_NONE and PREEMPT_VOLUNTARY depend on !PREEMPT_RT. */
static bool choice_gone_reason(const struct ts_set *set, struct ts_buf *b, struct symbol *sym)
{
	struct expr *dep = ts_dir_dep(sym);

	if (!dep || expr_calc_value(dep) != no)
		return false;
	if (sym->name)
		ts_buf_printf(b, ": %s depends on ", sym->name);
	else
		ts_buf_add(b, ": the choice depends on ");
	ts_add_expr(b, dep);
	hint_expr(set, b, dep, mod, 0);
	return true;
}

static void choice_effect(struct ts_set *set, struct symbol *cs, struct symbol *was,
			  struct symbol *now, const struct ts_req *asked)
{
	struct ts_buf b = { 0 };
	bool why = false;

	ts_buf_printf(&b, "choice \"%s\" ", prompt_of(cs) ? prompt_of(cs) : "?");
	if (now == was)
		ts_buf_printf(&b, "stayed %s", now && now->name ? now->name : "unset");
	else if (!was)
		ts_buf_printf(&b, "became visible, set to %s", now->name);
	else if (!now)
		ts_buf_printf(&b, "disappeared (was %s)", was->name);
	else
		ts_buf_printf(&b, "reset from %s to %s", was->name, now->name);
	if (asked)
		ts_buf_printf(&b, ": the requested %s (%s:%d) did not survive", asked->name,
			      asked->frag, asked->line);
	else if (was && now != was)
		why = choice_gone_reason(set, &b, now ? was : cs);
	if (!asked && !why)
		ts_buf_add(&b, ", although no fragment set a member");
	add_effect(set, ts_buf_take(&b));
}

/* A choice that ends on another member than the one requested, or that moved without being
 * asked to, is a side effect the user must see (e.g. PREEMPT_RT dropped -> PREEMPT_NONE up to
 * 6.12, PREEMPT_RT kept -> PREEMPT_VOLUNTARY left for PREEMPT from 6.13). */
static void choice_effects(struct ts_set *set, const struct ts_choices *before)
{
	int i, j;

	for (i = 0; i < before->n; i++) {
		struct symbol *cs = before->v[i].choice, *now, *was = before->v[i].value;
		const struct ts_req *asked = NULL;

		now = ts_chosen(cs);
		for (j = 0; j < set->nreqs; j++) {
			const struct ts_req *r = &set->reqs[j];

			if (r->kind == TS_REQ_SET && r->overridden_by < 0 &&
			    !strcmp(r->value, "y") && ts_choice_of(sym_find(r->name)) == cs)
				asked = r;
		}
		if (asked && now && now->name && !strcmp(asked->name, now->name))
			continue;
		if (!asked && now == was)
			continue;
		choice_effect(set, cs, was, now, asked);
	}
}

/* Does the fragment of r name a purpose? A fragment that names none is all purpose. */
static bool file_has_purpose(const struct ts_set *set, const char *file)
{
	int i;

	for (i = 0; i < set->nreqs; i++)
		if (set->reqs[i].purpose && !strcmp(set->reqs[i].file, file))
			return true;
	return false;
}

/* Did r not deliver what it asked? An expected drop (xfail) is a miss only for a purpose. */
static bool missed(const struct ts_req *r)
{
	switch (r->verdict) {
	case TS_V_DROPPED:
	case TS_V_UNKNOWN:
		return !r->expected || r->purpose || r->purpose_of;
	case TS_V_CHECK_FAILED:
		return !r->warn_only;
	case TS_V_INEFFECTIVE:
		return true;
	case TS_V_NOT_IN_ERA:
		return r->era == TS_ERA_MISSING;
	default:
		return false;
	}
}

/* A request that a later fragment asks again with the same value is judged there ("same"): the
 * later request then carries the earlier one's purpose, or a drop of it would be only a warning
 * when the later fragment names other purposes (vmstat-path's KPROBES asked again by tracing). */
static void carry_purposes(struct ts_set *set)
{
	int i;

	for (i = 0; i < set->nreqs; i++) {
		const struct ts_req *s = &set->reqs[i];
		struct ts_req *l;

		if (s->kind != TS_REQ_SET || s->overridden_by < 0)
			continue;
		l = &set->reqs[s->overridden_by];
		if (strcmp(l->name, s->name) || strcmp(l->value, s->value))
			continue;
		if (!s->purpose && file_has_purpose(set, s->file))
			continue;
		if (!l->purpose && !l->purpose_of && file_has_purpose(set, l->file))
			l->purpose_of = s->frag;
	}
}

void ts_verdict_judge(struct ts_set *set, const struct ts_choices *before, const char *kver,
		      const char *arch)
{
	int i;

	carry_purposes(set);
	for (i = 0; i < set->nreqs; i++) {
		struct ts_req *r = &set->reqs[i];

		judge_one(set, r, kver, arch);
		set->counts[r->verdict]++;
		if (r->expected)
			set->expected++;
		if (missed(r)) {
			if (r->purpose || r->purpose_of || !file_has_purpose(set, r->file)) {
				r->failed = true;
				if (set->allow_drops)
					set->allowed++;
				else
					set->failures++;
			} else {
				r->warned = true;
				set->warnings++;
			}
		}
		if (r->verdict == TS_V_INEFFECTIVE) {
			struct ts_buf b = { 0 };

			ts_buf_printf(&b, "CONFIG_%s=%s (%s:%d) is %s", r->name, r->value, r->frag,
				      r->line, r->reason);
			add_effect(set, ts_buf_take(&b));
		}
	}
	if (before)
		choice_effects(set, before);
}
