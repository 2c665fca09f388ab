// SPDX-License-Identifier: GPL-2.0-only
/*
 * The whole effect of a variant: every line that differs between the base and the final .config
 * (as scripts/diffconfig compares them), grouped by why kconfig changed it, confounders flagged.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lkc.h"
#include "ts_kconfig.h"

struct ts_notes {
	char **name, **note;
	int n;
};

static int add_pair(char ***a, char ***b, int *n, const char *x, const char *y)
{
	char **a2 = realloc(*a, (*n + 1) * sizeof(char *));
	char **b2;

	if (!a2)
		return -ENOMEM;
	*a = a2;
	b2 = realloc(*b, (*n + 1) * sizeof(char *));
	if (!b2)
		return -ENOMEM;
	*b = b2;
	(*a)[*n] = strdup(x);
	(*b)[*n] = strdup(y);
	(*n)++;
	return 0;
}

/* "CONFIG_X=v" or "# CONFIG_X is not set" (v = "n"), as scripts/diffconfig reads them. */
static bool parse_line(char *line, char **name, char **value)
{
	char *e;

	line[strcspn(line, "\n")] = 0;
	if (!strncmp(line, "CONFIG_", 7) && (e = strchr(line, '='))) {
		*e = 0;
		*name = line + 7;
		*value = e + 1;
		return true;
	}
	if (!strncmp(line, "# CONFIG_", 9) && (e = strstr(line, " is not set")) && !e[11]) {
		*e = 0;
		*name = line + 9;
		*value = "n";
		return true;
	}
	return false;
}

struct cfg_line {
	char *name, *value;
	int order;
};

static int by_name_order(const void *a, const void *b)
{
	const struct cfg_line *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : x->order - y->order;
}

/* Sort by name; of several lines for one symbol, the last wins, as in kconfig. */
static void cfg_sort(struct ts_cfg *cfg)
{
	struct cfg_line *l = calloc(cfg->n ? cfg->n : 1, sizeof(*l));
	int i, n = 0;

	if (!l)
		return; /* unsorted: ts_cfg_get falls back to a linear search */
	for (i = 0; i < cfg->n; i++)
		l[i] = (struct cfg_line){ cfg->name[i], cfg->value[i], i };
	qsort(l, cfg->n, sizeof(*l), by_name_order);
	for (i = 0; i < cfg->n; i++) {
		if (i + 1 < cfg->n && !strcmp(l[i].name, l[i + 1].name)) {
			free(l[i].name);
			free(l[i].value);
			continue;
		}
		cfg->name[n] = l[i].name;
		cfg->value[n++] = l[i].value;
	}
	cfg->n = n;
	cfg->sorted = true;
	free(l);
}

int ts_cfg_read(struct ts_cfg *cfg, const char *path, struct ts_err *err)
{
	char line[4096], *name, *value;
	FILE *f = fopen(path, "r");

	memset(cfg, 0, sizeof(*cfg));
	if (!f) {
		snprintf(err->msg, sizeof(err->msg), "%s: %s", path, strerror(errno));
		return -errno;
	}
	while (fgets(line, sizeof(line), f))
		if (parse_line(line, &name, &value) &&
		    add_pair(&cfg->name, &cfg->value, &cfg->n, name, value)) {
			fclose(f);
			snprintf(err->msg, sizeof(err->msg), "%s: out of memory", path);
			return -ENOMEM;
		}
	fclose(f);
	cfg_sort(cfg);
	return 0;
}

const char *ts_cfg_get(const struct ts_cfg *cfg, const char *name)
{
	int lo = 0, hi = cfg->n - 1, i;

	if (!cfg->sorted) {
		for (i = cfg->n - 1; i >= 0; i--)
			if (!strcmp(cfg->name[i], name))
				return cfg->value[i];
		return NULL;
	}
	while (lo <= hi) {
		int mid = (lo + hi) / 2, c = strcmp(cfg->name[mid], name);

		if (!c)
			return cfg->value[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return NULL;
}

void ts_cfg_free(struct ts_cfg *cfg)
{
	int i;

	for (i = 0; i < cfg->n; i++) {
		free(cfg->name[i]);
		free(cfg->value[i]);
	}
	free(cfg->name);
	free(cfg->value);
	memset(cfg, 0, sizeof(*cfg));
}

/* confounders.tsv: "SYMBOL<TAB>what it confounds", # comments. */
struct ts_notes *ts_notes_read(const char *path, struct ts_err *err)
{
	struct ts_notes *n = calloc(1, sizeof(*n));
	char line[1024], *tab;
	FILE *f = fopen(path, "r");
	int lineno = 0;

	if (!f || !n) {
		snprintf(err->msg, sizeof(err->msg), "%s: %s", path, strerror(errno));
		goto fail;
	}
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		line[strcspn(line, "\n")] = 0;
		if (!line[0] || line[0] == '#')
			continue;
		tab = strchr(line, '\t');
		if (!tab || !tab[1]) {
			snprintf(err->msg, sizeof(err->msg),
				 "%s:%d: expected SYMBOL<TAB>note", path, lineno);
			goto fail;
		}
		*tab = 0;
		if (add_pair(&n->name, &n->note, &n->n, line, tab + 1)) {
			snprintf(err->msg, sizeof(err->msg), "%s: out of memory", path);
			goto fail;
		}
	}
	fclose(f);
	return n;
fail:
	if (f)
		fclose(f);
	ts_notes_free(n);
	return NULL;
}

void ts_notes_free(struct ts_notes *n)
{
	int i;

	if (!n)
		return;
	for (i = 0; i < n->n; i++) {
		free(n->name[i]);
		free(n->note[i]);
	}
	free(n->name);
	free(n->note);
	free(n);
}

/* Name the requested symbols among the leaves of e that changed in the direction that explains
 * the change: turned on (on = true) for a select or dependency now met, off for one now unmet;
 * a "!" flips it. "KPROBE_EVENTS (tracing.config:37)". */
static void add_requested_leaves(const struct ts_set *set, struct ts_buf *b, struct expr *e,
				 bool on, bool *first)
{
	const struct ts_req *r;
	struct symbol *s;

	if (!e)
		return;
	switch (e->type) {
	case E_AND:
	case E_OR:
		add_requested_leaves(set, b, e->left.expr, on, first);
		add_requested_leaves(set, b, e->right.expr, on, first);
		return;
	case E_NOT:
		add_requested_leaves(set, b, e->left.expr, !on, first);
		return;
	case E_SYMBOL:
	case E_EQUAL:
	case E_UNEQUAL:
		s = e->left.sym;
		break;
	default:
		return;
	}
	r = s && s->name ? ts_find_req(set, s->name) : NULL;
	if (!r || !r->final || (r->base ? !strcmp(r->base, r->final) : !strcmp(r->final, "n")))
		return; /* only requests that changed something explain a change */
	if (strcmp(r->final, "n") ? !on : on)
		return;
	ts_buf_printf(b, "%s%s (%s:%d)", *first ? "; requested: " : ", ", s->name, r->frag,
		      r->line);
	*first = false;
}

/* Why kconfig changed a symbol that no fragment asked for, and which group it belongs to. */
static enum ts_group explain_change(const struct ts_set *set, struct ts_buf *b,
				    struct ts_change *c)
{
	struct symbol *sym = sym_find(c->name), *cs;
	struct ts_buf d = { 0 };
	bool first = true, boolish;

	if (!sym || sym->type == S_UNKNOWN) {
		ts_buf_add(b, "not a symbol of this tree");
		return TS_G_CHOICE;
	}
	sym_calc_value(sym);
	boolish = sym->type == S_BOOLEAN || sym->type == S_TRISTATE;
	if (boolish && sym_get_tristate_value(sym) > no && sym->rev_dep.expr &&
	    expr_calc_value(sym->rev_dep.expr) > no) {
		ts_buf_add(b, "selected by ");
		ts_add_selects(b, sym->rev_dep.expr, no, &first);
		first = true;
		add_requested_leaves(set, b, sym->rev_dep.expr, true, &first);
		return TS_G_PULLED;
	}
	if (boolish && sym_get_tristate_value(sym) == no && ts_dir_dep(sym) &&
	    expr_calc_value(ts_dir_dep(sym)) == no) {
		ts_buf_add(b, c->new ? "off: depends on " : "gone: depends on ");
		ts_add_expr(b, ts_dir_dep(sym));
		add_requested_leaves(set, b, ts_dir_dep(sym), false, &first);
		return TS_G_PULLED;
	}
	if (boolish && sym_get_tristate_value(sym) == no && sym->rev_dep.expr && c->old &&
	    strcmp(c->old, "n")) {
		ts_buf_add(b, "no longer selected: selected only by ");
		ts_add_expr(b, sym->rev_dep.expr);
		add_requested_leaves(set, b, sym->rev_dep.expr, false, &first);
		return TS_G_PULLED;
	}
	if ((!c->new || !c->old) && ts_dir_dep(sym)) {
		ts_buf_add(b, c->new ? "now visible: depends on " : "gone: depends on ");
		ts_add_expr(b, ts_dir_dep(sym));
		add_requested_leaves(set, b, ts_dir_dep(sym), c->new != NULL, &first);
		return TS_G_PULLED;
	}
	cs = ts_choice_of(sym);
	if (cs) {
		struct symbol *now = ts_chosen(cs);
		struct property *prop;
		const char *prompt = "?";

		for_all_prompts(cs, prop) {
			prompt = prop->text;
			break;
		}
		ts_buf_printf(b, "choice \"%s\" is now %s", prompt,
			      now && now->name ? now->name : "unset");
		return TS_G_CHOICE;
	}
	ts_active_default(sym, &d);
	ts_buf_add(b, d.s ? d.s : "");
	ts_buf_free(&d);
	return TS_G_CHOICE;
}

static const char *note_of(const struct ts_notes *notes, const char *name)
{
	int i;

	for (i = 0; notes && i < notes->n; i++)
		if (!strcmp(notes->name[i], name))
			return notes->note[i];
	return NULL;
}

static int add_change(struct ts_set *set, const char *name, const char *old, const char *new)
{
	struct ts_change *d = realloc(set->diff, (set->ndiff + 1) * sizeof(*d));

	if (!d)
		return -ENOMEM;
	set->diff = d;
	d += set->ndiff++;
	memset(d, 0, sizeof(*d));
	d->name = strdup(name);
	d->old = old ? strdup(old) : NULL;
	d->new = new ? strdup(new) : NULL;
	return 0;
}

static int by_group_name(const void *a, const void *b)
{
	const struct ts_change *x = a, *y = b;

	if (x->group != y->group)
		return x->group < y->group ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Call after conf_read(final): the reasons are computed with the final values. */
void ts_diff_build(struct ts_set *set, const struct ts_cfg *base, const struct ts_cfg *final,
		   const struct ts_notes *notes)
{
	int i;

	for (i = 0; i < final->n; i++) {
		const char *old = ts_cfg_get(base, final->name[i]);

		if ((!old || strcmp(old, final->value[i])) &&
		    add_change(set, final->name[i], old, final->value[i]))
			return;
	}
	for (i = 0; i < base->n; i++)
		if (!ts_cfg_get(final, base->name[i]) &&
		    add_change(set, base->name[i], base->value[i], NULL))
			return;
	for (i = 0; i < set->ndiff; i++) {
		struct ts_change *c = &set->diff[i];
		const struct ts_req *r = ts_find_req(set, c->name);
		struct ts_buf b = { 0 };

		if (!strcmp(c->old ? c->old : "n", "n") && !strcmp(c->new ? c->new : "n", "n")) {
			c->group = TS_G_SHOWN;
			ts_buf_add(&b, c->new ? "its prompt became visible" : "its prompt was hidden");
		} else if (r) {
			c->group = TS_G_REQUESTED;
			ts_buf_printf(&b, "%s:%d", r->frag, r->line);
		} else {
			c->group = explain_change(set, &b, c);
		}
		c->why = ts_buf_take(&b);
		if (strcmp(c->old ? c->old : "n", c->new ? c->new : "n"))
			c->confounder = note_of(notes, c->name);
	}
	qsort(set->diff, set->ndiff, sizeof(*set->diff), by_group_name);
}

void ts_diff_free(struct ts_set *set)
{
	int i;

	for (i = 0; i < set->ndiff; i++) {
		free(set->diff[i].name);
		free(set->diff[i].old);
		free(set->diff[i].new);
		free(set->diff[i].why);
	}
	free(set->diff);
	set->diff = NULL;
	set->ndiff = 0;
}
