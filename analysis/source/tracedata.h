/* SPDX-License-Identifier: GPL-2.0-only */
/* Private to the decoder: parse perf's tracing data section into a tep handle. */
#ifndef TS_TRACEDATA_H
#define TS_TRACEDATA_H

#include <stddef.h>

struct tep_handle;

/* Told of each event format refused before libtraceevent could crash on it. */
typedef void (*ts_reject_fn)(void *ctx, int id, const char *sys, const char *name, const char *why);

/*
 * ts_tracedata_parse() - feed every part of the section to @tep
 * @kallsyms: set to whether the section held kallsyms text of its own (now in @tep's
 *            function list)
 * @vetted: in: 1 when these bytes have been through a probe child that found nothing
 *          libtraceevent crashes on (then none is forked); out: whether that holds now
 * @cache: a folder of markers of sections found clean (tracedata_cache.c), or NULL: one
 *         there for these bytes stands for the probe, and a clean probe leaves one
 * Return: 0, or -TS_ETRACEDATA with @err naming the offset inside the section.
 */
int ts_tracedata_parse(struct tep_handle *tep, const void *data, size_t size, char *err,
		       size_t errlen, ts_reject_fn reject, void *ctx, int *kallsyms, int *vetted,
		       const char *cache);

/*
 * ts_vetted_key() - what a marker of a clean probe vouches for, into @key: the sha256 @sum of
 * the bytes probed, the indices of the formats refused before it (skipped by the probe), and
 * the libtraceevent of this process. Return: 0, or -1 when it cannot be had.
 */
int ts_vetted_key(char *key, size_t len, const char *sum, const size_t *refused, size_t nr);

/* ts_vetted_cached() - does @dir hold the marker of @key, intact? (1 or 0) */
int ts_vetted_cached(const char *dir, const char *key);

/* ts_vetted_store() - leave the marker of @key in @dir (best effort), and prune the folder */
void ts_vetted_store(const char *dir, const char *key);

/*
 * ts_format_check() - is this event format safe to hand to tep_parse_event()?
 * Return: 0, or -1 with @why saying what is wrong (a print fmt naming a field the format
 * lacks, or dividing by anything but a non-zero constant).
 */
int ts_format_check(const char *text, size_t len, char *why, size_t whylen);

/* ts_format_id() - the "ID:" of a format (-1 if none), and its "name:" into @name */
int ts_format_id(const char *text, size_t len, char *name, size_t namelen);

/*
 * ts_cmdlines_check() - would tep_parse_saved_cmdlines() take this saved cmdlines text?
 * Return: 0, or 1 + the offset in @text of the first line it would refuse.
 */
size_t ts_cmdlines_check(const void *text, size_t len);

#endif
