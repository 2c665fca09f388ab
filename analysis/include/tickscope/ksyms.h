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

/** ts_ksyms_count() - number of symbols loaded */
long ts_ksyms_count(const struct ts_ksyms *k);

#endif
