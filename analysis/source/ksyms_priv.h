/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The kallsyms table's layout, shared by its parser (ksyms.c) and its cache (ksyms_cache.c),
 * and the rule of which symbols libtraceevent's printer holds (the decoder's too).
 */
#ifndef TS_KSYMS_PRIV_H
#define TS_KSYMS_PRIV_H

#include <stddef.h>
#include <stdint.h>

#define NO_MODULE UINT32_MAX

struct ksym {
	uint64_t addr;
	uint32_t name; /* offset into names */
	uint32_t module; /* offset into names of "mod" in "\t[mod]", NO_MODULE for the kernel's */
	char type; /* kallsyms' type letter */
};

struct ts_ksyms {
	struct ksym *syms; /* in the file's order */
	long nr, alloc;
	uint32_t *text; /* indices of the text symbols, by address (then file order) */
	long nr_text;
	/*
	 * The symbols libtraceevent's printer would name an address by (every type but absolute
	 * ones, no '$' names), by address and the later in the file first among equal ones;
	 * print_err: the error such a printer meets in the table (0, or -TS_EKALLSYMS).
	 */
	uint32_t *print;
	long nr_print;
	int print_err;
	char *names;
	size_t names_len, names_alloc;
	/*
	 * A table read from the cache points into this private mapping of it (syms, names and
	 * text until a move builds text anew: text_owned); NULL for a parsed one.
	 */
	void *map;
	size_t map_len;
	int text_owned, print_owned;
};

/* (Re)build k->text and k->print, the symbols by address. Return: 0 or -ENOMEM. */
int ts_ksyms_index(struct ts_ksyms *k);

/*
 * ts_ksym_printable() - whether libtraceevent's printer would hold the symbol @name of @type
 * (in @module, "mod]" or "mod", NULL for the kernel's), had its line "%016llx %c %s\t[%s]" been
 * parsed as tep_parse_kallsyms() parses one: 1 yes, 0 left out (a '$' name, an absolute
 * symbol), or -TS_EKALLSYMS where such a parse fails the whole table (no name, a name or a
 * module longer than the 512 bytes it keeps of them). @word and @len: the name's first word,
 * which is what it keeps of the name.
 */
int ts_ksym_printable(const char *name, char type, const char *module, const char **word,
		      size_t *len);

#endif
