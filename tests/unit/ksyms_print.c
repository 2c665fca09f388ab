// SPDX-License-Identifier: GPL-2.0-only
/*
 * The printer's symbols from the kallsyms table (ts_ksyms_print_find()) against libtraceevent's
 * own: the same kallsyms text given to tep_parse_kallsyms(), and every address of interest
 * (each symbol's, one before and after, inside, below the first, past the last) looked up by
 * both. Symbols of one address, '$' names, absolute and data symbols, module symbols, a name of
 * two words and a file out of address order are in it; parsed and moved (KASLR) tables alike.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>

#include "tap.h"
#include "tickscope/ksyms.h"

static const char table[] = "ffffffffc0002000 t mod_b\t[mymod]\n"
			    "ffffffffc0001000 t mod_a\t[mymod]\n"
			    "ffffffffc0001000 T mod_a_alias\t[mymod]\n"
			    "0000000000000000 A fixed_percpu_data\n"
			    "ffffffff81000000 T _text\n"
			    "ffffffff81000000 T _stext\n"
			    "ffffffff81000000 t startup_64\n"
			    "ffffffff81000040 t $x.local\n"
			    "ffffffff81000080 a abs_sym\n"
			    "ffffffff81001000 t tick_nohz_handler\n"
			    "ffffffff81001000 W tick_weak\n"
			    "ffffffff81001000 T tick_global\n"
			    "ffffffff81001100 t two words\n"
			    "ffffffff81002000 D some_data\n"
			    "ffffffff81002800 r some_rodata\n"
			    "ffffffff81003000 T last_text\n";

/* Both printers' answer for @addr: the same name and start, or both none. */
static int same(struct tep_handle *tep, const struct ts_ksyms *k, uint64_t addr, char *msg,
		size_t len)
{
	const char *want = tep_find_function(tep, addr), *got, *mod;
	uint64_t want_start = want ? tep_find_function_address(tep, addr) : 0, start = 0;
	size_t n = 0;

	got = ts_ksyms_print_find(k, addr, &start, &n, &mod);
	snprintf(msg, len, "%#llx: libtraceevent %s+%#llx, table %.*s+%#llx",
		 (unsigned long long)addr, want ? want : "(none)",
		 (unsigned long long)(addr - want_start), got ? (int)n : 6, got ? got : "(none)",
		 (unsigned long long)(addr - start));
	if (!want || !got)
		return !want && !got;
	return strlen(want) == n && !strncmp(want, got, n) && want_start == start;
}

/* Every address of interest in @text's symbols, moved by @delta, looked up in both. */
static void compare(const char *text, const char *what, uint64_t delta, const char *ref,
		    uint64_t ref_addr)
{
	struct tep_handle *tep = tep_alloc();
	struct ts_ksyms *k = NULL;
	char *path = tap_tmp_file(text), *moved = NULL, msg[256];
	const char *p;
	int bad = 0, n = 0, line = 0;
	int64_t d = 0;

	if (!tep || ts_ksyms_load(&k, path, &line)) {
		ok(0, "%s: loaded", what);
		goto out;
	}
	if (delta) { /* libtraceevent gets the kernel's lines moved, and no module's */
		size_t len = strlen(text);

		moved = calloc(1, len * 2 + 1);
		for (p = text; moved && *p; p = strchr(p, '\n') + 1) {
			unsigned long long a = strtoull(p, NULL, 16);
			const char *e = strchr(p, '\n');

			if (memchr(p, '[', e - p))
				continue;
			sprintf(moved + strlen(moved), "%016llx%.*s\n", a + delta,
				(int)(e - p - 16), p + 16);
		}
		ok(moved && !ts_ksyms_relocate(k, ref, ref_addr, &d) && d == (int64_t)delta,
		   "%s: the table is moved by %#llx", what, (unsigned long long)delta);
		text = moved;
	}
	ok(!tep_parse_kallsyms(tep, text), "%s: libtraceevent parses the same kallsyms", what);
	ok(!ts_ksyms_print_error(k), "%s: the printer takes the table", what);
	for (p = text; *p; p = strchr(p, '\n') + 1) {
		uint64_t a = strtoull(p, NULL, 16);
		static const int64_t steps[] = { -1, 0, 1, 0x10, 0x7ff, 0x800, 0x1000, 0x100000 };

		for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++, n++)
			if (!same(tep, k, a + steps[i], msg, sizeof(msg)) && !bad++)
				ok(0, "%s: %s", what, msg);
	}
	ok(!bad, "%s: %d addresses name the same symbol and offset in both (%d differ)", what, n,
	   bad);
	ok(!ts_ksyms_print_find(k, 0xffffffff80000000ULL, &(uint64_t){ 0 }, &(size_t){ 0 }, &p),
	   "%s: below every symbol, none", what);
out:
	free(moved);
	ts_ksyms_free(k);
	if (tep)
		tep_free(tep);
	unlink(path);
}

int main(void)
{
	struct ts_ksyms *k = NULL;
	char *path;
	int line = 0;

	compare(table, "parsed", 0, NULL, 0);
	compare(table, "moved 32 MiB", 0x2000000, "_text", 0xffffffff83000000ULL);

	/* A line without a name fails libtraceevent's whole table: the printer's too. */
	path = tap_tmp_file("ffffffff81000000 T _text\nffffffff81001000 t  \n");
	if (!ts_ksyms_load(&k, path, &line))
		ok(ts_ksyms_print_error(k) < 0, "a name of spaces only fails the printer's table");
	else
		ok(1, "a name of spaces only is refused at load (%d)", line);
	ts_ksyms_free(k);
	unlink(path);
	return tap_done();
}
