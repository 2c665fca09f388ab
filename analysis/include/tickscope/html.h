/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A self-contained HTML report: inline CSS, charts inlined as SVG, nothing loaded from
 * anywhere (no scripts, styles, fonts or images from outside the file); it prints well.
 */
#ifndef TICKSCOPE_HTML_H
#define TICKSCOPE_HTML_H

#include <stddef.h>
#include <stdio.h>

#include "tickscope/chart.h"

/** ts_html_begin() - the page's head (title, style) and its first heading */
void ts_html_begin(FILE *f, const char *title, const char *subtitle);

/** ts_html_section() - a section heading with an anchor id ("charts", "conditions") */
void ts_html_section(FILE *f, const char *id, const char *heading);

/** ts_html_para() - a paragraph; @cls is "note", "warn" or NULL */
void ts_html_para(FILE *f, const char *cls, const char *text);

/** ts_html_text() - @text, HTML-escaped, where the caller is */
void ts_html_text(FILE *f, const char *text);

/** ts_html_pre() - preformatted text (a text report, compare's tables) */
void ts_html_pre(FILE *f, const char *text);

/**
 * ts_html_kv() - a two-column table of @nr name/value pairs: @kv[2i] is the name, @kv[2i+1]
 * the value (NULL values print "-")
 */
void ts_html_kv(FILE *f, const char *caption, const char *const *kv, size_t nr);

/**
 * ts_html_tsv() - a TSV file (header row first) as a table
 * Return: 0, or a negative errno when it cannot be read.
 */
int ts_html_tsv(FILE *f, const char *caption, const char *path);

/**
 * ts_html_chart() - chart @c as a figure: its SVG (@dir/<name>.svg) inlined, ids made unique
 * by @idx; a chart with @c->missing set is a note saying what to record instead
 * Return: 0, or a negative errno when the SVG cannot be read.
 */
int ts_html_chart(FILE *f, const char *dir, const struct ts_chart *c, int idx);

/** ts_html_end() - close the page; Return: 0, or -EIO when writing failed */
int ts_html_end(FILE *f);

#endif
