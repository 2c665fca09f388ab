// SPDX-License-Identifier: GPL-2.0-only
/*
 * The kallsyms reader: text symbols only, module suffixes, unsorted input, bad lines, and
 * moving another boot's symbols (KASLR).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "tickscope/error.h"
#include "tickscope/ksyms.h"
#include "tickscope/sha256.h"

static void check(const struct ts_ksyms *k, uint64_t addr, const char *want, uint64_t want_off)
{
	uint64_t off = 0;
	const char *got = ts_ksyms_lookup(k, addr, &off);

	if (!want) {
		ok(got == NULL, "%#llx is below every symbol", (unsigned long long)addr);
		return;
	}
	ok(got && !strcmp(got, want) && off == want_off, "%#llx is %s+%#llx (got %s+%#llx)",
	   (unsigned long long)addr, want, (unsigned long long)want_off, got ? got : "NULL",
	   (unsigned long long)off);
}

/* The sha256 of what ts_ksyms_modules_sum() takes of a /proc/modules file holding @text. */
static void modules_hex(const char *text, char *hex)
{
	struct ts_sha256 s;
	char *path = tap_tmp_file(text);

	ts_sha256_init(&s);
	if (ts_ksyms_modules_sum(&s, path))
		strcpy(hex, "error");
	else
		ts_sha256_final(&s, hex);
	unlink(path);
}

/*
 * The kallsyms cache's key for /proc/kallsyms follows which modules are loaded and where, not
 * their use counts: with the whole file hashed, loading a filesystem's users made every run
 * parse the 120k-line table again.
 */
static void modules_key(void)
{
	char a[TS_SHA256_HEX], b[TS_SHA256_HEX], c[TS_SHA256_HEX], d[TS_SHA256_HEX];
	struct ts_sha256 s;

	modules_hex("ext4 1032192 1 - Live 0xffffffffc0a2d000\n"
		    "crc16 12288 1 ext4, Live 0xffffffffc0a1a000\n"
		    "vfat 24576 0 - Live 0xffffffffc0a00000 (E)\n",
		    a);
	modules_hex("ext4 1032192 3 - Live 0xffffffffc0a2d000\n"
		    "crc16 12288 2 ext4,jbd2, Live 0xffffffffc0a1a000\n"
		    "vfat 24576 1 - Unloading 0xffffffffc0a00000 (E)\n",
		    b);
	modules_hex("ext4 1032192 1 - Live 0xffffffffc0a2e000\n"
		    "crc16 12288 1 ext4, Live 0xffffffffc0a1a000\n"
		    "vfat 24576 0 - Live 0xffffffffc0a00000 (E)\n",
		    c);
	modules_hex("ext4 1032192 1 - Live 0xffffffffc0a2d000\n"
		    "crc16 12288 1 ext4, Live 0xffffffffc0a1a000\n",
		    d);
	ok(!strcmp(a, b) && strcmp(a, "error"),
	   "modules key: the same when only use counts, users and state moved");
	ok(strcmp(a, c) && strcmp(c, "error"), "modules key: another when a module moved");
	ok(strcmp(a, d) && strcmp(d, "error"), "modules key: another when a module went");
	ts_sha256_init(&s);
	is_int(ts_ksyms_modules_sum(&s, "/nonexistent/modules"), -ENOENT,
	       "modules key: a missing file is -ENOENT (a kernel without modules)");
}

int main(void)
{
	struct ts_ksyms *k;
	int line = 0, ret;
	char *path, *big;

	/* modules come last in /proc/kallsyms, and a copy may be in any order */
	path = tap_tmp_file("ffffffffc0001000 t mod_fn\t[mymod]\n"
			    "ffffffff81000000 T _text\n"
			    "ffffffff81002000 D some_data\n"
			    "ffffffff81001000 t tick_nohz_handler\n"
			    "ffffffff81003000 W weak_fn");
	ret = ts_ksyms_load(&k, path, &line);
	is_int(ret, 0, "a kallsyms file with a module, data and no final newline loads");
	is_int(ts_ksyms_count(k), 4, "its four text symbols are kept, the data one is not");
	check(k, 0xffffffff81000010, "_text", 0x10);
	check(k, 0xffffffff81001000, "tick_nohz_handler", 0);
	check(k, 0xffffffff81002100, "tick_nohz_handler", 0x1100);
	check(k, 0xffffffff81003004, "weak_fn", 4);
	check(k, 0xffffffffc0001008, "mod_fn", 8);
	check(k, 0xffffffff80000000, NULL, 0);
	ts_ksyms_free(k);
	unlink(path);

	/* another boot (KASLR): the kernel moves as one piece, modules cannot be placed */
	{
		const char *text = "ffffffffc0001000 t mod_fn\t[mymod]\n"
				   "ffffffff81000000 T _text\n"
				   "ffffffff81001000 t tick_nohz_handler\n";
		int64_t delta = 1;

		path = tap_tmp_file(text);
		ts_ksyms_load(&k, path, &line);
		is_int(ts_ksyms_relocate(k, "_stext", 0xffffffff83000000, &delta), -ENOENT,
		       "relocating by a symbol the file lacks fails");
		is_int(ts_ksyms_count(k), 3, "and changes nothing");
		is_int(ts_ksyms_relocate(k, "_text", 0xffffffff81000000, &delta), 0,
		       "relocating to the same place");
		is_int(delta, 0, "moves nothing");
		check(k, 0xffffffffc0001008, "mod_fn", 8);
		is_int(ts_ksyms_relocate(k, "_text", 0xffffffff8a200000, &delta), 0,
		       "relocating to another boot's _text");
		ok(delta == 0x9200000, "moves by the difference (%#llx)",
		   (unsigned long long)delta);
		check(k, 0xffffffff8a201010, "tick_nohz_handler", 0x10);
		check(k, 0xffffffff81001010, NULL, 0);
		is_int(ts_ksyms_count(k), 2, "the module symbol is dropped");
		ts_ksyms_free(k);
		unlink(path);

		path = tap_tmp_file(text);
		ts_ksyms_load(&k, path, &line);
		is_int(ts_ksyms_relocate(k, "_text", 0xffffffff80000000, &delta), 0,
		       "relocating downwards");
		ok(delta == -0x1000000, "by a negative difference (%lld)", (long long)delta);
		check(k, 0xffffffff80001004, "tick_nohz_handler", 4);
		ts_ksyms_free(k);
		unlink(path);
	}

	path = tap_tmp_file("ffffffff81000000 T _text\nnot a kallsyms line\n");
	ret = ts_ksyms_load(&k, path, &line);
	is_int(ret, -TS_EKALLSYMS, "a bad line is an error");
	is_int(line, 2, "naming its line");
	ok(k == NULL, "and no table is returned");
	unlink(path);

	/* Two good lines, then 2 MB without a newline: more than the reader's 1 MB chunk. */
	big = malloc(2 << 20);
	if (big) {
		static const char head[] = "ffffffff81000000 T _text\nffffffff81000010 T _stext\n";

		memset(big, 'x', (2 << 20) - 1);
		big[(2 << 20) - 1] = 0;
		memcpy(big, head, sizeof(head) - 1);
		path = tap_tmp_file(big);
		free(big);
		ret = ts_ksyms_load(&k, path, &line);
		is_int(ret, -TS_EKALLSYMS, "a line longer than a chunk is not kallsyms");
		is_int(line, 3, "naming the line after the last one read whole");
		unlink(path);
	}

	path = tap_tmp_file("");
	is_int(ts_ksyms_load(&k, path, &line), -TS_EKALLSYMS, "an empty file is an error");
	unlink(path);
	is_int(ts_ksyms_load(&k, "/nonexistent/kallsyms", &line), -2, "a missing file is -ENOENT");
	modules_key();
	return tap_done();
}
