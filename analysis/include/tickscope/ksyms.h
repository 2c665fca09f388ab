/* SPDX-License-Identifier: GPL-2.0-only */
/* Kernel symbol lookup from a kallsyms file, for reports (models keep raw addresses). */
#ifndef TICKSCOPE_KSYMS_H
#define TICKSCOPE_KSYMS_H

#include <stdint.h>

struct ts_ksyms;

/**
 * ts_ksyms_load() - read a /proc/kallsyms-format file
 * @kp: out
 * @path: the file
 * @errline: out, may be NULL: the 1-based line of a parse error
 * Return: 0 or a negative code.
 */
int ts_ksyms_load(struct ts_ksyms **kp, const char *path, int *errline);

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

/** ts_ksyms_count() - number of symbols loaded */
long ts_ksyms_count(const struct ts_ksyms *k);

#endif
