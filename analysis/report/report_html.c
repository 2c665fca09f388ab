// SPDX-License-Identifier: GPL-2.0-only
/*
 * The self-contained HTML report: one file with inline CSS and the gnuplot charts inlined as
 * SVG; no script, and nothing it refers to lives outside the file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tickscope/html.h"
#include "common/io.h"

static const char style[] =
	"body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;color:#222;"
	"max-width:72rem;margin:0 auto;padding:1rem 1.5rem}\n"
	"h1{font-size:1.5rem;margin:.5rem 0 0}h2{font-size:1.2rem;margin:2rem 0 .5rem;"
	"border-bottom:1px solid #ccc}\n"
	".sub{color:#555;margin:.2rem 0 1rem}\n"
	"pre{font:12.5px/1.35 ui-monospace,'DejaVu Sans Mono',monospace;background:#f6f6f6;"
	"padding:.6rem .8rem;overflow-x:auto;border-radius:4px}\n"
	"table{border-collapse:collapse;margin:.5rem 0 1rem;font-size:13.5px}\n"
	"th,td{border:1px solid #ddd;padding:.2rem .5rem;text-align:left;vertical-align:top}\n"
	"th{background:#f0f0f0}td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
	"caption{text-align:left;font-weight:600;padding:.2rem 0}\n"
	"figure{margin:1rem 0 2rem}figure svg{width:100%;height:auto;display:block}\n"
	"figcaption{font-weight:600;margin-bottom:.3rem}\n"
	"p.cap{color:#555;margin:.2rem 0}\n"
	".missing p{background:#fff8e1;border-left:4px solid #f0b400;padding:.5rem .8rem}\n"
	"p.warn{background:#fdecea;border-left:4px solid #d93025;padding:.5rem .8rem}\n"
	"p.note{color:#555}\n"
	"nav a{margin-right:1rem}\n"
	"pre{white-space:pre-wrap}td{overflow-wrap:anywhere}\n"
	"table.runs{width:100%;table-layout:fixed;font-size:12px}\n"
	"@media print{body{max-width:none;font-size:11pt}nav{display:none}"
	"figure,table,pre{break-inside:avoid}pre{white-space:pre-wrap;background:none}"
	"h2{break-after:avoid}}\n";

static void esc(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		default:
			fputc(*s, f);
		}
	}
}

void ts_html_text(FILE *f, const char *text)
{
	esc(f, text);
}

void ts_html_begin(FILE *f, const char *title, const char *subtitle)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>",
	      f);
	esc(f, title);
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", style);
	esc(f, title);
	fputs("</h1>\n", f);
	if (subtitle) {
		fputs("<p class=\"sub\">", f);
		esc(f, subtitle);
		fputs("</p>\n", f);
	}
}

void ts_html_section(FILE *f, const char *id, const char *heading)
{
	fputs("<h2 id=\"", f);
	esc(f, id);
	fputs("\">", f);
	esc(f, heading);
	fputs("</h2>\n", f);
}

void ts_html_para(FILE *f, const char *cls, const char *text)
{
	if (cls)
		fprintf(f, "<p class=\"%s\">", cls);
	else
		fputs("<p>", f);
	esc(f, text);
	fputs("</p>\n", f);
}

void ts_html_pre(FILE *f, const char *text)
{
	fputs("<pre>", f);
	esc(f, text);
	fputs("</pre>\n", f);
}

void ts_html_kv(FILE *f, const char *caption, const char *const *kv, size_t nr)
{
	size_t i;

	fputs("<table class=\"kv\">", f);
	if (caption) {
		fputs("<caption>", f);
		esc(f, caption);
		fputs("</caption>", f);
	}
	fputc('\n', f);
	for (i = 0; i < nr; i++) {
		fputs("<tr><th>", f);
		esc(f, kv[2 * i]);
		fputs("</th><td>", f);
		esc(f, kv[2 * i + 1] ? kv[2 * i + 1] : "-");
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

/* Whether a cell reads as a number (right-aligned): digits, sign, point, exponent, % or ~. */
static int numeric(const char *s)
{
	int digit = 0;

	for (; *s; s++) {
		if (*s >= '0' && *s <= '9')
			digit = 1;
		else if (!strchr("+-.eE%~ ", *s))
			return 0;
	}
	return digit;
}

static void tsv_row(FILE *f, char *line, int head)
{
	char *cell, *save = NULL;

	line[strcspn(line, "\r\n")] = 0;
	fputs("<tr>", f);
	for (cell = strtok_r(line, "\t", &save); cell; cell = strtok_r(NULL, "\t", &save)) {
		fputs(head ? "<th>" : numeric(cell) ? "<td class=\"n\">" : "<td>", f);
		esc(f, cell);
		fputs(head ? "</th>" : "</td>", f);
	}
	fputs("</tr>\n", f);
}

int ts_html_tsv(FILE *f, const char *caption, const char *path)
{
	FILE *in = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	int head = 1;

	if (!in)
		return -errno;
	fputs("<table class=\"tsv\">", f);
	if (caption) {
		fputs("<caption>", f);
		esc(f, caption);
		fputs("</caption>", f);
	}
	fputc('\n', f);
	while (getline(&line, &cap, in) > 0) {
		tsv_row(f, line, head);
		head = 0;
	}
	fputs("</table>\n", f);
	free(line);
	fclose(in);
	return 0;
}

/*
 * Copy gnuplot's SVG from its <svg element on, without the namespace declarations (HTML
 * gives inline SVG its namespace) and with every id, and every reference to one, prefixed
 * by "c<idx>-": two charts on one page must not share ids such as gpPt7.
 */
/*
 * Where gnuplot's own title @title ("<text>TITLE</text>", escaped as gnuplot escapes) is in
 * @svg, or NULL: the figure's caption says it, so the copy leaves it out.
 */
static const char *svg_title(const char *svg, const char *title, size_t *len)
{
	char want[1024], clean[512];
	size_t n = 0;

	snprintf(clean, sizeof(clean), "%s", title);
	ts_chart_clean(clean);
	n = (size_t)snprintf(want, sizeof(want), "<text>");
	for (const char *p = clean; *p && n + 8 < sizeof(want); p++)
		n += (size_t)snprintf(want + n, sizeof(want) - n, "%s",
				      *p == '&' ? "&amp;" :
				      *p == '<' ? "&lt;" :
				      *p == '>' ? "&gt;" :
						  (char[2]){ *p, 0 });
	snprintf(want + n, sizeof(want) - n, "</text>");
	*len = strlen(want);
	return *clean ? strstr(svg, want) : NULL;
}

static void svg_copy(FILE *f, const char *s, int idx, const char *title)
{
	size_t tlen = 0;
	const char *skip = svg_title(s, title, &tlen);
	static const char *const refs[] = { "id='", "id=\"", "href='#", "href=\"#", "url(#" };
	const char *p = strstr(s, "<svg");
	size_t i, n;
	int serial = 0;

	while (p && *p) {
		if (p == skip) {
			p += tlen;
			continue;
		}
		if (!strncmp(p, " xmlns", 6)) {
			const char *q = strchr(p, '"');

			q = q ? strchr(q + 1, '"') : NULL;
			if (q) {
				p = q + 1;
				continue;
			}
		}
		for (i = 0; i < sizeof(refs) / sizeof(refs[0]); i++) {
			n = strlen(refs[i]);
			if (!strncmp(p, refs[i], n)) {
				fprintf(f, "%sc%d-", refs[i], idx);
				p += n;
				/* gnuplot repeats its plot groups' ids; nothing refers to them */
				if (i < 2 && !strncmp(p, "gnuplot_plot_", 13))
					fprintf(f, "%d-", serial++);
				break;
			}
		}
		if (i == sizeof(refs) / sizeof(refs[0]))
			fputc(*p++, f);
	}
}

static char *slurp(const char *path, int *err)
{
	FILE *in = fopen(path, "r");
	char *buf = NULL;
	long size;

	if (!in) {
		*err = -errno;
		return NULL;
	}
	if (fseek(in, 0, SEEK_END) || (size = ftell(in)) < 0 || fseek(in, 0, SEEK_SET)) {
		*err = -EIO;
	} else if (!(buf = malloc((size_t)size + 1))) {
		*err = -ENOMEM;
	} else if (fread(buf, 1, (size_t)size, in) != (size_t)size) {
		*err = -EIO;
		free(buf);
		buf = NULL;
	} else {
		buf[size] = 0;
	}
	fclose(in);
	return buf;
}

int ts_html_chart(FILE *f, const char *dir, const struct ts_chart *c, int idx)
{
	char path[4096];
	char *svg;
	int err = 0;

	fprintf(f, "<figure class=\"chart%s\" id=\"chart-", c->missing[0] ? " missing" : "");
	esc(f, c->name);
	fputs("\">\n<figcaption>", f);
	esc(f, c->title);
	fputs("</figcaption>\n", f);
	if (c->missing[0]) {
		fputs("<p>Not drawn: ", f);
		esc(f, c->missing);
		fputs(".</p>\n</figure>\n", f);
		return 0;
	}
	snprintf(path, sizeof(path), "%s/%s.svg", dir, c->name);
	svg = slurp(path, &err);
	if (svg) {
		svg_copy(f, svg, idx, c->title);
		free(svg);
	}
	if (c->caption[0]) {
		fputs("<p class=\"cap\">", f);
		esc(f, c->caption);
		fputs("</p>\n", f);
	}
	fputs("</figure>\n", f);
	return err;
}

int ts_html_end(FILE *f)
{
	fputs("<p class=\"note\">Written by tickscope; charts drawn by gnuplot. This file loads "
	      "nothing from anywhere.</p>\n</body>\n</html>\n",
	      f);
	return ts_stream_err(f);
}
