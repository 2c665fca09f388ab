/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The one kallsyms path: load a kallsyms file, move it to the recording boot (KASLR) once, look
 * text symbols up for reports (models keep raw addresses) and %ps for the printer.
 */
#ifndef TICKSCOPE_KSYMS_H
#define TICKSCOPE_KSYMS_H

#include <stddef.h>
#include <stdint.h>

struct ts_ksyms;

/**
 * ts_ksyms_load() - read a /proc/kallsyms-format file
 * @kp: out
 * @path: the file
 * @errline: out, may be NULL: the 1-based line of a parse error, 0 when the file holds no
 *	symbol at all (-TS_EKALLSYMS: an empty file)
 * Return: 0 or a negative code.
 */
int ts_ksyms_load(struct ts_ksyms **kp, const char *path, int *errline);

/**
 * ts_ksyms_load_cached() - ts_ksyms_load() through a folder of parsed tables
 * @cache: the folder (made when missing); NULL or "" for none
 *
 * A table is kept per version of a file (its device, inode, size, modification and change
 * times) and, for /proc/kallsyms, per running kernel, boot, set of loaded modules and user;
 * read back, it is mapped and checked instead of parsed. A cache that cannot be read or
 * written is passed by: the file is parsed as by ts_ksyms_load().
 * Return: as ts_ksyms_load().
 */
int ts_ksyms_load_cached(struct ts_ksyms **kp, const char *path, const char *cache, int *errline);

/**
 * ts_ksyms_cache_dir() - the user's folder of parsed tables, for ts_ksyms_load_cached()
 * @buf: where the path is written, @len its size
 *
 * $TS_KSYMS_CACHE when set ("" or "off": none), else $XDG_CACHE_HOME/tickscope/kallsyms (an
 * absolute $XDG_CACHE_HOME only, as the XDG rule says), else $HOME/.cache/tickscope/kallsyms.
 * Return: the folder (@buf, or the environment's string), or NULL for none.
 */
const char *ts_ksyms_cache_dir(char *buf, size_t len);

struct ts_sha256;

/**
 * ts_ksyms_modules_sum() - hash what of a /proc/modules-format file places the modules
 * @s: the hash, updated
 * @path: the file
 *
 * Each module's name, size, address and taint flags, not its reference count, users or state,
 * which change as modules are used while the symbols stay: a kallsyms table's cache key.
 * Return: 0, or -errno when @path cannot be read.
 */
int ts_ksyms_modules_sum(struct ts_sha256 *s, const char *path);

/** ts_ksyms_free() - free (NULL is fine) */
void ts_ksyms_free(struct ts_ksyms *k);

/**
 * ts_ksyms_lookup() - the symbol containing @addr
 * @off: out, may be NULL: @addr minus the symbol's start
 * Return: the name, or NULL when @addr is below the first symbol or @k is NULL.
 */
const char *ts_ksyms_lookup(const struct ts_ksyms *k, uint64_t addr, uint64_t *off);

/**
 * ts_ksyms_relocate() - move the symbols to another boot's kernel address (KASLR)
 * @ref: the reference symbol perf records the kernel's address by ("_text")
 * @ref_addr: its address in the recording boot
 * @delta: out: how far the kernel symbols moved (0 when the boots agree)
 *
 * The kernel image moves as one piece, so its symbols shift by one delta, as perf shifts
 * them; module symbols cannot be placed that way and are dropped when it is not 0.
 * Return: 0, or -ENOENT when @ref is not among the symbols (nothing is changed).
 */
int ts_ksyms_relocate(struct ts_ksyms *k, const char *ref, uint64_t ref_addr, int64_t *delta);

/**
 * ts_ksyms_all_zero() - is every address in this kallsyms 0? (read without the right to see
 * addresses: kptr_restrict); such a table names every address wrongly
 */
int ts_ksyms_all_zero(const struct ts_ksyms *k);

/* What ts_ksyms_all_zero() means, as the messages say it */
#define TS_KSYMS_ALL_ZERO_WHY                                                 \
	"every address in it is 0: a kallsyms read without the right to see " \
	"addresses (kptr_restrict; read it as root)"

/**
 * ts_ksyms_check() - does this kallsyms fit the recording? (call before ts_ksyms_relocate())
 * @arch: the recording's arch ("x86_64", "aarch64", ...; "" when unknown)
 * @ref: perf's reference symbol ("_text"), "" when the recording has no kernel map
 * @ref_addr: its address in the recording boot
 * @why: out: what does not fit, when the return is 1
 *
 * What can be checked without the kernel image: the kernel text's address against where
 * @arch places a kernel, the reference symbol's presence, and (x86_64) a move larger than
 * KASLR makes. Return: 0 when nothing looks wrong, 1 with @why set.
 */
int ts_ksyms_check(const struct ts_ksyms *k, const char *arch, const char *ref, uint64_t ref_addr,
		   char *why, size_t len);

/**
 * ts_ksyms_print_find() - the symbol a %ps of @addr names, as libtraceevent's printer finds it
 * @start: out: its address
 * @len: out: the length of its name (not NUL-terminated when the kallsyms line's name had
 *	more than one word: the printer takes the first)
 * @module: out: its module's name, NULL for the kernel's
 *
 * libtraceevent holds every symbol of a kallsyms but the absolute ones and '$' names, sorted
 * by address, and takes a symbol for an address at it or below the next one's; the last
 * symbol has no end. Among symbols of one address, its bsearch() picks one as glibc's steps
 * go: this runs the same steps over the same order, so that dump prints perf script's names
 * from the table the reports use. Return: the name, or NULL (print the address).
 */
const char *ts_ksyms_print_find(const struct ts_ksyms *k, uint64_t addr, uint64_t *start,
				size_t *len, const char **module);

/**
 * ts_ksyms_print_error() - whether libtraceevent's printer could take this table
 * Return: 0, or -TS_EKALLSYMS when a symbol fails it (a line without a name, a name or a module
 * longer than it keeps).
 */
int ts_ksyms_print_error(const struct ts_ksyms *k);

/** ts_ksyms_count() - number of text symbols loaded (the ones lookups see) */
long ts_ksyms_count(const struct ts_ksyms *k);

/* A symbol as ts_ksyms_each() hands it on; @module NULL for the kernel's own. */
typedef int (*ts_ksym_fn)(void *ctx, uint64_t addr, char type, const char *name,
			  const char *module);

/**
 * ts_ksyms_each() - every symbol (all types), in the file's order
 * @k: the symbols, moved or not
 * @fn: called per symbol; a non-zero return stops the walk
 * @ctx: passed to @fn
 *
 * The decoder gives libtraceevent's printer the symbols this way, so that dump prints what
 * the reports name. Return: 0, or what @fn returned.
 */
int ts_ksyms_each(const struct ts_ksyms *k, ts_ksym_fn fn, void *ctx);

#endif
