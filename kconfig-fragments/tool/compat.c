// SPDX-License-Identifier: GPL-2.0-only
/*
 * The few kconfig internals that changed between kernel eras (choices, the symbol table),
 * behind one small interface. The driver picks the era from the tree's headers (TS_KC_* flags).
 */
#include <stdlib.h>

#include "lkc.h"
#ifdef TS_KC_CHOICE_MENU
#include <list.h> /* scripts/include/, 6.9 and later */
#endif
#include "ts_kconfig.h"

/* Depth-first walk of the menu tree, the same in every era since 2.6. */
static struct menu *menu_walk_next(struct menu *m)
{
	if (m->list)
		return m->list;
	while (m && !m->next)
		m = m->parent;
	return m ? m->next : NULL;
}

#ifdef TS_KC_CHOICE_MENU
/* 6.11 and later: a choice member sits on its choice menu's choice_members list. */
struct symbol *ts_choice_of(struct symbol *sym)
{
	struct menu *m;

	if (!sym || !sym->name || !sym_is_choice_value(sym))
		return NULL;
	m = sym_get_choice_menu(sym);
	return m ? m->sym : NULL;
}

static struct menu *choice_menu(struct symbol *cs)
{
	struct menu *m;

	list_for_each_entry(m, &cs->menus, link)
		return m;
	return NULL;
}

int ts_choice_members(struct symbol *cs, struct symbol **out, int max)
{
	struct menu *m = choice_menu(cs);
	struct symbol *s;
	int n = 0;

	if (!m)
		return 0;
	list_for_each_entry(s, &m->choice_members, choice_link)
		if (n < max)
			out[n++] = s;
	return n;
}
#else
/* Up to 6.10: the choice is the symbol of the member's P_CHOICE property, whose expression
 * lists the members. */
struct symbol *ts_choice_of(struct symbol *sym)
{
	if (!sym || !sym_is_choice_value(sym) || !sym_get_choice_prop(sym))
		return NULL;
	return prop_get_symbol(sym_get_choice_prop(sym));
}

int ts_choice_members(struct symbol *cs, struct symbol **out, int max)
{
	struct property *prop = sym_get_choice_prop(cs);
	struct symbol *s;
	struct expr *e;
	int n = 0;

	if (!prop)
		return 0;
	expr_list_for_each_sym(prop->expr, e, s)
		if (n < max)
			out[n++] = s;
	return n;
}
#endif

/* The member a choice resolved to. Not curr.val: for an invisible choice it is not a symbol. */
struct symbol *ts_chosen(struct symbol *cs)
{
	struct symbol *m[TS_CHOICE_MAX];
	int i, n = ts_choice_members(cs, m, TS_CHOICE_MAX);

	sym_calc_value(cs);
	for (i = 0; i < n; i++) {
		sym_calc_value(m[i]);
		if (sym_get_tristate_value(m[i]) == yes)
			return m[i];
	}
	return NULL;
}

int ts_for_each_choice(int (*fn)(struct symbol *cs, void *data), void *data)
{
	struct menu *m;
	int ret;

	for (m = &rootmenu; m; m = menu_walk_next(m)) {
		if (!m->sym || !sym_is_choice(m->sym))
			continue;
		ret = fn(m->sym, data);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * The "depends on" of a symbol, with its menus' and ifs'. From 6.11 kconfig no longer sets
 * dir_dep for a choice and its members (PREEMPT_VOLUNTARY's "depends on !PREEMPT_RT" is only
 * in its menu's dep): take it from where the prompt sits, which every era has.
 */
struct expr *ts_dir_dep(struct symbol *sym)
{
	struct property *prop;

	if (sym->dir_dep.expr || !(sym_is_choice(sym) || sym_is_choice_value(sym)))
		return sym->dir_dep.expr;
	for_all_prompts(sym, prop)
		if (prop->menu)
			return prop->menu->dep;
	return NULL;
}

/* The active "range" of an int/hex symbol. Ours: sym_get_range_prop() is static before 4.19. */
struct property *ts_range_prop(struct symbol *sym)
{
	struct property *prop;

	for_all_properties(sym, prop, P_RANGE)
		if (expr_calc_value(prop->visible.expr) != no)
			return prop;
	return NULL;
}
