// SPDX-License-Identifier: GPL-2.0-only
/*
 * tickscope dump: every tracepoint sample, one line each: perf script's text form, TSV with a
 * header row, JSON lines with every decoded field, or nothing (a decode-only pass).
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "outbuf.h"
#include "tickscope/error.h"
#include "tickscope/source.h"

static const char dump_help[] =
	"usage: tickscope dump [-i] FILE [--kallsyms FILE] [--format text|tsv|json|none]\n\n"
	"Print every tracepoint sample in time order. The text form is perf script's\n"
	"`-F comm,tid,cpu,time,event,trace --ns`; tests hold the two equal line by line.\n\n"
	"  -i, --input FILE     the perf.data file, or - for a pipe-mode stream on stdin\n"
	"      --kallsyms FILE  resolve function fields with this kallsyms (of the recording\n"
	"                       kernel, moved to the recording boot's addresses as perf does);\n"
	"                       by default the running kernel's, only if the file's kernel\n"
	"                       build id matches it\n"
	"      --format FMT     text (default); tsv: time_ns cpu tid comm event fields;\n"
	"                       json: one object per line with every field; none: decode\n"
	"                       only, and print on stderr the rate and what time order cost\n"
	"                       (one pass, or MB read again or spilled past the round budget)\n"
	"      --file-order     skip time ordering (faster; differs from perf script)\n"
	"      --strict         a pipe-mode stream cut inside a record is an error (exit 1);\n"
	"                       by default the records before the cut are used and a warning\n"
	"                       says where the input was cut\n"
	"  -h, --help           this text\n";

enum fmt { FMT_TEXT, FMT_TSV, FMT_JSON, FMT_NONE };

/*
 * A field name's separator and name as a line writes them, " name=" or ",\"name\":", made
 * once per field of the format (keyed by libtraceevent's name, which lives as long as it).
 */
#define NR_NAMES 512
#define NR_EVENTS 64
#define NR_FLINES 256
#define NR_HEADS 64

struct name {
	const char *key;
	char *text;
	size_t len;
};

/* The fields of one tracepoint, and their names as TSV or JSON writes them. */
struct fline {
	int tp_id;
	int nr;
	const struct ts_field_desc *f;
	struct name *names; /* the i-th field's " name=" or ",\"name\":" (text NULL: no memory) */
	struct name event; /* "name\t", or ",\"event\":\"name\",\"fields\":{" */
};

struct dump {
	enum fmt fmt;
	struct name names[NR_NAMES];
	struct name events[NR_EVENTS]; /* the text form's padded event names */
	struct fline flines[NR_FLINES]; /* by tracepoint id */
	struct ts_source *src;
	struct ts_decoder *dec;
	struct outbuf out;
	int width;
	int first; /* the next field is the event's first */
	uint64_t n;
	/*
	 * By tid: the line's part that names the thread (text: "%16s %6d"; TSV: tid, comm;
	 * JSON: tid, pid, comm), valid while no side-band event came since (gen: a COMM, FORK
	 * or EXIT may rename a thread)
	 */
	struct head {
		uint32_t tid, pid, gen, len;
		char text[80];
	} heads[NR_HEADS];
	uint32_t gen;
	uint64_t sec; /* the last line's seconds, as the format writes them before the ns */
	uint32_t sec_len;
	char sec_text[28];
};

#define ONES 0x0101010101010101ULL
#define HIGHS 0x8080808080808080ULL

/* Whether a byte of @x is 0 (exact as to whether there is one, not as to where). */
static inline uint64_t zero_byte(uint64_t x)
{
	return (x - ONES) & ~x & HIGHS;
}

/* A byte JSON escapes (below 0x20, '"' or '\\') in @x? */
static inline uint64_t json_special(uint64_t x)
{
	return ((x - 0x20 * ONES) & ~x & HIGHS) | zero_byte(x ^ ('"' * ONES)) |
	       zero_byte(x ^ ('\\' * ONES));
}

/* A byte TSV replaces (a tab or a newline) in @x? */
static inline uint64_t tsv_special(uint64_t x)
{
	return zero_byte(x ^ ('\t' * ONES)) | zero_byte(x ^ ('\n' * ONES));
}

/* Whether @n bytes at @s need no escape: eight at a time, the tail one by one. */
static int plain_str(const char *s, size_t n, int json)
{
	size_t i = 0;
	uint64_t x;

	for (; i + 8 <= n; i += 8) {
		memcpy(&x, s + i, 8);
		if (json ? json_special(x) : tsv_special(x))
			return 0;
	}
	for (; i < n; i++) {
		unsigned char c = s[i];

		if (json ? c < 0x20 || c == '"' || c == '\\' : c == '\t' || c == '\n')
			return 0;
	}
	return 1;
}

/* @s as a JSON string: the runs that need no escape copied whole. */
static void json_str(struct outbuf *o, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t i, run = 0;

	ob_putc(o, '"');
	if (plain_str(s, n, 1)) { /* nearly always */
		ob_mem(o, s, n);
		ob_putc(o, '"');
		return;
	}
	for (i = 0; i < n; i++) {
		unsigned char c = s[i];

		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		ob_mem(o, s + run, i - run);
		run = i + 1;
		ob_room(o, 8);
		ob_putc(o, '\\');
		if (c >= 0x20) {
			ob_putc(o, c);
			continue;
		}
		ob_mem(o, "u00", 3);
		ob_putc(o, hex[c >> 4]);
		ob_putc(o, hex[c & 15]);
	}
	ob_mem(o, s + run, n - run);
	ob_putc(o, '"');
}

/* TSV cells must not hold tabs or newlines: those become spaces. */
static void tsv_str(struct outbuf *o, const char *s, size_t n)
{
	size_t i, run = 0;

	if (plain_str(s, n, 0)) {
		ob_mem(o, s, n);
		return;
	}
	for (i = 0; i < n; i++) {
		if (s[i] != '\t' && s[i] != '\n')
			continue;
		ob_mem(o, s + run, i - run);
		ob_putc(o, ' ');
		run = i + 1;
	}
	ob_mem(o, s + run, n - run);
}

/* " name=", or ",\"name\":" with JSON's escapes; NULL when out of memory. */
static char *make_name(int json, const char *name, size_t *len)
{
	char *t = malloc(6 * strlen(name) + 4), *p = t;

	if (!t)
		return NULL;
	*p++ = json ? ',' : ' ';
	if (json)
		*p++ = '"';
	for (; *name; name++) {
		unsigned char c = *name;

		if (json && (c < 0x20 || c == '"' || c == '\\'))
			p += c < 0x20 ? sprintf(p, "\\u%04x", c) : sprintf(p, "\\%c", c);
		else
			*p++ = c;
	}
	if (json)
		*p++ = '"';
	*p++ = json ? ':' : '=';
	*len = p - t;
	return t;
}

/* Write @name's separator (none for the first field) and name, from the table when there. */
static void field_name(struct dump *d, const char *name)
{
	unsigned int i = (unsigned int)(((uintptr_t)name >> 3) * 0x9e3779b1u) % NR_NAMES, k;
	struct name *e = NULL;
	size_t len = 0;
	char *t;

	for (k = 0; k < 8; k++, i = (i + 1) % NR_NAMES) {
		if (d->names[i].key == name) {
			e = &d->names[i];
			break;
		}
		if (!d->names[i].key) {
			e = &d->names[i];
			e->text = make_name(d->fmt == FMT_JSON, name, &e->len);
			e->key = e->text ? name : NULL;
			break;
		}
	}
	if (e && e->key) {
		ob_mem(&d->out, e->text + d->first, e->len - d->first);
		return;
	}
	t = make_name(d->fmt == FMT_JSON, name, &len); /* the table is full */
	if (t)
		ob_mem(&d->out, t + d->first, len - d->first);
	free(t);
}

static void fline_free(struct fline *l)
{
	for (int i = 0; l->names && i < l->nr; i++)
		free(l->names[i].text);
	free(l->names);
	free(l->event.text);
	memset(l, 0, sizeof(*l));
}

static void free_names(struct dump *d)
{
	for (int i = 0; i < NR_NAMES; i++)
		free(d->names[i].text);
	for (int i = 0; i < NR_EVENTS; i++)
		free(d->events[i].text);
	for (int i = 0; i < NR_FLINES; i++)
		fline_free(&d->flines[i]);
}

/* One field's value; strings quoted in JSON, arrays as lists. Out-of-range fields print -. */
static void print_value(struct dump *d, const struct ts_field_value *v)
{
	struct outbuf *o = &d->out;
	const char *str = (const char *)v->data;
	int json = d->fmt == FMT_JSON;
	uint32_t i;
	size_t n;

	switch (v->type) {
	case TS_FIELD_STRING: /* up to its NUL, at most 255 bytes */
		n = strnlen(str, v->len < 255 ? v->len : 255);
		if (json)
			json_str(o, str, n);
		else
			tsv_str(o, str, n);
		break;
	case TS_FIELD_ARRAY:
		if (json)
			ob_putc(o, '[');
		for (i = 0; i < v->nr; i++) {
			ob_room(o, 32);
			if (i)
				ob_putc(o, ',');
			ob_snum(o, ts_field_array_at(v, i), 1);
		}
		if (json)
			ob_putc(o, ']');
		break;
	case TS_FIELD_NUM:
		ob_snum(o, v->num, v->is_signed);
		break;
	default:
		ob_str(o, json ? "null" : "-");
	}
	ob_room(o, 64);
}

static int print_field(void *ctx, const struct ts_field_value *v)
{
	struct dump *d = ctx;

	field_name(d, v->name);
	d->first = 0;
	print_value(d, v);
	return 0;
}

/*
 * @tp_id's fields with their names as this format writes them, and the event's part of the
 * line (@name: the decoder's string), made on its first sample.
 */
static const struct fline *fline_of(struct dump *d, int tp_id, const char *name)
{
	struct fline *l = &d->flines[(unsigned int)tp_id % NR_FLINES];
	size_t n = strlen(name);
	int i;

	if (l->names && l->tp_id == tp_id)
		return l;
	fline_free(l);
	l->f = ts_decoder_fields(d->dec, tp_id, &l->nr);
	if (!l->f)
		return NULL;
	l->names = calloc(l->nr ? l->nr : 1, sizeof(*l->names));
	for (i = 0; l->names && i < l->nr; i++)
		l->names[i].text = make_name(d->fmt == FMT_JSON, l->f[i].name, &l->names[i].len);
	l->event.text = malloc(n + 32);
	if (l->event.text)
		l->event.len = sprintf(
			l->event.text,
			d->fmt == FMT_JSON ? ",\"event\":\"%s\",\"fields\":{" : "%s\t", name);
	l->tp_id = tp_id;
	return l->names && l->event.text ? l : NULL;
}

/* The event's part of the line, then its fields. */
static void print_fields(struct dump *d, const struct ts_sample *s, const char *name)
{
	const struct fline *l = fline_of(d, (int)s->attr->config, name);
	struct ts_field_value v;
	int i;

	d->first = 1;
	if (l) {
		ob_mem(&d->out, l->event.text, l->event.len);
	} else if (d->fmt == FMT_JSON) {
		ob_str(&d->out, ",\"event\":\"");
		ob_str(&d->out, name);
		ob_str(&d->out, "\",\"fields\":{");
	} else {
		ob_str(&d->out, name);
		ob_putc(&d->out, '\t');
	}
	if (!l) { /* out of memory for the names: each made as it comes */
		ts_decoder_for_each_field(d->dec, (int)s->attr->config, s->raw, s->raw_size,
					  print_field, d);
		return;
	}
	for (i = 0; i < l->nr; i++) {
		ts_field_get(&l->f[i], s->raw, s->raw_size, &v);
		if (l->names[i].text)
			ob_mem(&d->out, l->names[i].text + d->first, l->names[i].len - d->first);
		else
			field_name(d, v.name);
		d->first = 0;
		print_value(d, &v);
	}
}

/* Append @s right-aligned in @w columns (never cut), as printf's %*s. */
static void pad_str(struct outbuf *o, const char *s, int w)
{
	int n = strlen(s);

	if (w > n) {
		memset(o->b + o->n, ' ', w - n);
		o->n += w - n;
	}
	ob_mem(o, s, n);
}

/* ": %*s: " of an event name, made once per name (keyed by the decoder's string). */
static const struct name *event_part(struct dump *d, const char *name)
{
	unsigned int i = (unsigned int)(((uintptr_t)name >> 3) * 0x9e3779b1u) % NR_EVENTS;
	struct name *e = &d->events[i];
	int w = d->width > 1000 ? 1000 : d->width, n;

	if (e->key == name)
		return e;
	free(e->text);
	n = strlen(name);
	e->len = (n > w ? n : w) + 4;
	e->text = calloc(1, e->len > 48 ? e->len : 48); /* text_head() copies 48 bytes at once */
	e->key = e->text ? name : NULL;
	if (!e->text)
		return NULL;
	memcpy(e->text, ": ", 2);
	memset(e->text + 2, ' ', e->len - 4 - n);
	memcpy(e->text + e->len - 2 - n, name, n);
	memcpy(e->text + e->len - 2, ": ", 2);
	return e;
}

/* The cached part that names @s's thread, or a slot to fill (*@hit 0). */
static struct head *head_of(struct dump *d, const struct ts_sample *s, int *hit)
{
	struct head *h = &d->heads[s->tid % NR_HEADS];

	*hit = h->gen == d->gen && h->tid == s->tid && h->pid == s->pid;
	return h;
}

/* Keep @len bytes at @p in @h, when they fit. */
static void head_keep(struct dump *d, struct head *h, const struct ts_sample *s, const char *p,
		      size_t len)
{
	if (len > sizeof(h->text))
		return;
	memcpy(h->text, p, len);
	h->len = (uint32_t)len;
	h->tid = s->tid;
	h->pid = s->pid;
	h->gen = d->gen;
}

/* The part of @s's line that names its thread, from the cache or written and kept. */
static void head_line(struct dump *d, const struct ts_sample *s)
{
	struct outbuf *o = &d->out;
	size_t start = o->n, n;
	const char *comm;
	struct head *h;
	int hit;

	h = head_of(d, s, &hit);
	if (hit) { /* a fixed-size copy is a few moves; OB_SLACK leaves room */
		memcpy(o->b + o->n, h->text, sizeof(h->text));
		o->n += h->len;
		return;
	}
	comm = ts_source_comm(d->src, s->tid);
	n = strlen(comm);
	switch (d->fmt) {
	case FMT_TEXT:
		if (n < 16)
			ob_fill(o, ' ', 16 - n);
		ob_mem(o, comm, n);
		ob_putc(o, ' ');
		if ((int)s->tid < 0) { /* %6d of a negative tid */
			char t[16];

			ob_mem(o, t, snprintf(t, sizeof(t), "%6d", (int)s->tid));
		} else {
			ob_num(o, s->tid, 6, ' ');
		}
		break;
	case FMT_TSV:
		ob_num(o, s->tid, 0, ' ');
		ob_putc(o, '\t');
		tsv_str(o, comm, n);
		ob_putc(o, '\t');
		break;
	default:
		ob_str(o, ",\"tid\":");
		ob_num(o, s->tid, 0, ' ');
		ob_str(o, ",\"pid\":");
		ob_num(o, s->pid, 0, ' ');
		ob_str(o, ",\"comm\":");
		json_str(o, comm, n);
	}
	head_keep(d, h, s, o->b + start, o->n - start);
}

/*
 * Seconds as the format writes them before the nanoseconds ("%5llu.", or time_ns's leading
 * digits), kept until they change.
 */
static void put_seconds(struct dump *d, uint64_t sec)
{
	struct outbuf *o = &d->out;
	size_t start = o->n;

	if (sec == d->sec && d->sec_len) {
		memcpy(o->b + o->n, d->sec_text, sizeof(d->sec_text));
		o->n += d->sec_len;
		return;
	}
	if (d->fmt == FMT_TEXT) {
		ob_num(o, sec, 5, ' ');
		ob_putc(o, '.');
	} else {
		ob_num(o, sec, 0, ' ');
	}
	d->sec = sec;
	d->sec_len = (uint32_t)(o->n - start);
	memcpy(d->sec_text, o->b + start, d->sec_len);
}

/* time_ns: the kept seconds, then nine digits (or the nanoseconds alone in the first second) */
static void put_time_ns(struct dump *d, uint64_t time)
{
	struct outbuf *o = &d->out;

	if (time < 1000000000ULL) {
		ob_num(o, time, 0, ' ');
		return;
	}
	put_seconds(d, time / 1000000000ULL);
	ob_fill(o, '0', 9);
	ob_digits(o->b + o->n, time % 1000000000ULL);
}

/* The text line's head, as printf("%16s %6d [%03u] %5llu.%09llu: %*s: "). */
static void text_head(struct dump *d, const struct ts_sample *s, const char *name)
{
	struct outbuf *o = &d->out;
	const struct name *ev;

	head_line(d, s);
	ob_mem(o, " [", 2);
	ob_num(o, s->cpu, 3, '0');
	ob_mem(o, "] ", 2);
	put_seconds(d, s->time / 1000000000ULL);
	ob_fill(o, '0', 9); /* %09llu: nine digits, zeros first */
	ob_digits(o->b + o->n, s->time % 1000000000ULL);
	ev = event_part(d, name);
	if (ev && ev->len <= 48) { /* a fixed-size copy; OB_SLACK leaves room */
		memcpy(o->b + o->n, ev->text, 48);
		o->n += ev->len;
		return;
	}
	if (ev) {
		ob_mem(o, ev->text, ev->len);
		return;
	}
	ob_mem(o, ": ", 2);
	pad_str(o, name, d->width > 1000 ? 1000 : d->width);
	ob_mem(o, ": ", 2);
}

static int text_line(struct dump *d, const struct ts_event *ev, const struct ts_sample *s)
{
	struct outbuf *o = &d->out;
	const char *text;
	size_t len;
	int ret;

	text_head(d, s, ev->name);
	ob_line(o); /* the printer writes in place, up to OB_LINE - 1 bytes */
	ret = ts_decoder_print(d->dec, ev->tp_id, s->raw, s->raw_size, s->cpu, o->b + o->n,
			       OB_SIZE - o->n - 1, &text, &len);
	if (text == o->b + o->n)
		o->n += len;
	else
		ob_mem(o, text, len);
	ob_putc(o, '\n');
	return ret; /* non-zero: the payload does not fit its format */
}

static int on_event(void *ctx, const struct ts_event *ev, const struct ts_sample *s)
{
	struct dump *d = ctx;
	struct outbuf *o = &d->out;

	if (!s) { /* COMM, FORK, EXIT: names may change */
		d->gen++;
		return 0;
	}
	d->n++;
	if (d->fmt == FMT_NONE)
		return 0;
	ob_line(o);
	switch (d->fmt) {
	case FMT_TEXT:
		return text_line(d, ev, s);
	case FMT_TSV:
		put_time_ns(d, s->time);
		ob_putc(o, '\t');
		ob_num(o, s->cpu, 0, ' ');
		ob_putc(o, '\t');
		head_line(d, s);
		print_fields(d, s, ev->name);
		ob_putc(o, '\n');
		break;
	default:
		ob_str(o, "{\"time\":");
		put_time_ns(d, s->time);
		ob_str(o, ",\"cpu\":");
		ob_num(o, s->cpu, 0, ' ');
		head_line(d, s);
		print_fields(d, s, ev->name);
		ob_str(o, "}}\n");
	}
	return 0;
}

/* decode-only's line: the rate, and what time order cost (one read, or bytes read again). */
static void print_rate(struct dump *d, const struct timespec *t0, const struct timespec *t1,
		       int file_order)
{
	const struct ts_file_info *in = ts_reader_info(ts_source_reader(d->src));
	double s = (t1->tv_sec - t0->tv_sec) + (t1->tv_nsec - t0->tv_nsec) / 1e9, mb = 1 << 20;

	fprintf(stderr, "decoded %llu samples in %.3f s (%.2f M samples/s)",
		(unsigned long long)d->n, s, s > 0 ? d->n / s / 1e6 : 0.0);
	if (file_order) {
		fputc('\n', stderr);
		return;
	}
	if (!in->reread_bytes && !in->spilled_bytes)
		fprintf(stderr, "; time order: one pass");
	else
		fprintf(stderr, "; time order: %.1f MB read again, %.1f MB spilled",
			in->reread_bytes / mb, in->spilled_bytes / mb);
	fprintf(stderr, " (largest round %.1f MB, round budget %.0f %s)\n",
		in->max_round_bytes / mb,
		in->round_budget >= (1u << 20) ? in->round_budget / mb : in->round_budget / 1024.0,
		in->round_budget >= (1u << 20) ? "MB" : "KB");
}

static int event_width(struct ts_source *src)
{
	struct ts_reader *r = ts_source_reader(src);
	int nr, k, w = 0;
	char buf[64];

	ts_reader_attrs(r, &nr);
	for (k = 0; k < nr; k++) {
		int n = strlen(cli_event_name(r, ts_source_decoder(src), k, buf, sizeof(buf)));

		w = n > w ? n : w;
	}
	return w;
}

static int parse_format(const char *s, enum fmt *f)
{
	static const char *const names[] = { "text", "tsv", "json", "none" };
	int i;

	for (i = 0; i < 4; i++)
		if (!strcmp(s, names[i])) {
			*f = i;
			return 0;
		}
	return -1;
}

static int dump_option(void *ctx, int opt)
{
	struct dump *d = ctx;

	if (opt != 'f')
		return CLI_USAGE;
	if (parse_format(optarg, &d->fmt))
		return cli_error("--format: '%s' is not text, tsv, json or none", optarg) + 1;
	return 0;
}

int cmd_dump(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "format", required_argument, NULL, 'f' },
		{ 0 },
	};
	struct cli_common cc = { .name = "dump",
				 .help = dump_help,
				 .common = CLI_KALLSYMS | CLI_FILE_ORDER | CLI_STRICT |
					   CLI_ONE_INPUT };
	struct ts_source_opts o = { .need_decoder = 1 };
	struct dump d = { .fmt = FMT_TEXT, .gen = 1 };
	struct timespec t0, t1;
	int werr, ret = cli_parse(argc, argv, &cc, longopts, dump_option, &d);

	if (ret)
		return ret < 0 ? 0 : ret;
	o.input = cc.input;
	o.kallsyms = cc.kallsyms;
	o.unordered = cc.file_order;
	o.strict = cc.strict;
	o.symbols = d.fmt == FMT_TEXT ? TS_SYMS_PRINT : 0;
	o.names_only = d.fmt != FMT_NONE; /* none is the decoder's own speed */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (ob_open(&d.out, STDOUT_FILENO))
		return cli_error("out of memory");
	fflush(stdout);
	ret = ts_source_open(&d.src, &o);
	if (!ret) {
		d.dec = ts_source_decoder(d.src);
		d.width = event_width(d.src);
		if (d.fmt == FMT_TSV)
			ob_str(&d.out, "time_ns\tcpu\ttid\tcomm\tevent\tfields\n");
		ret = ts_source_run(d.src, on_event, &d);
	}
	werr = ob_close(&d.out);
	cli_warnings(d.src);
	if (ret) {
		cli_error("%s", d.src ? ts_source_error(d.src) : ts_strerror(ret));
		free_names(&d);
		ts_source_close(d.src);
		return 1;
	}
	if (werr && werr != -EPIPE) {
		free_names(&d);
		ts_source_close(d.src);
		return cli_error("writing the output: %s", strerror(-werr));
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (d.fmt == FMT_NONE)
		print_rate(&d, &t0, &t1, cc.file_order);
	free_names(&d);
	ts_source_close(d.src);
	return 0;
}
