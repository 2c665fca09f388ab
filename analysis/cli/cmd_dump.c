// SPDX-License-Identifier: GPL-2.0-only
/*
 * tickscope dump: every tracepoint sample, one line each: perf script's text form, TSV with a
 * header row, JSON lines with every decoded field, or nothing (a decode-only pass).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
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
	"                       only, and print the rate on stderr\n"
	"      --file-order     skip time ordering (faster; differs from perf script)\n"
	"      --strict         a pipe-mode stream cut inside a record is an error (exit 1);\n"
	"                       by default the records before the cut are used and a warning\n"
	"                       says where the input was cut\n"
	"  -h, --help           this text\n";

enum fmt { FMT_TEXT, FMT_TSV, FMT_JSON, FMT_NONE };

struct dump {
	enum fmt fmt;
	struct ts_source *src;
	int width;
	int first; /* the next field is the event's first */
	uint64_t n;
};

static void json_str(FILE *f, const char *s)
{
	putc('"', f);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			putc(c, f);
	}
	putc('"', f);
}

/* TSV cells must not hold tabs or newlines. */
static void tsv_str(FILE *f, const char *s)
{
	for (; *s; s++)
		putc(*s == '\t' || *s == '\n' ? ' ' : *s, f);
}

/* @v in decimal, negative when @is_signed says so, as printf's %lld / %llu. */
static void put_num(uint64_t v, int is_signed)
{
	char t[24], *e = t + sizeof(t), *q = e;
	int neg = is_signed && (int64_t)v < 0;

	if (neg)
		v = -v;
	do {
		*--q = '0' + v % 10;
		v /= 10;
	} while (v);
	if (neg)
		*--q = '-';
	fwrite(q, 1, e - q, stdout);
}

/* One field's value; strings quoted in JSON, arrays as lists. Out-of-range fields print -. */
static int print_field(void *ctx, const struct ts_field_value *v)
{
	struct dump *d = ctx;
	char buf[256];
	uint32_t i;

	if (d->fmt == FMT_JSON) {
		fputs(d->first ? "" : ",", stdout);
		json_str(stdout, v->name);
		putchar(':');
	} else {
		if (!d->first)
			putchar(' ');
		fputs(v->name, stdout);
		putchar('=');
	}
	d->first = 0;
	switch (v->type) {
	case TS_FIELD_STRING:
		snprintf(buf, sizeof(buf), "%.*s", (int)v->len, (const char *)v->data);
		if (d->fmt == FMT_JSON)
			json_str(stdout, buf);
		else
			tsv_str(stdout, buf);
		break;
	case TS_FIELD_ARRAY:
		fputs(d->fmt == FMT_JSON ? "[" : "", stdout);
		for (i = 0; i < v->nr; i++)
			printf("%s%lld", i ? "," : "", (long long)ts_field_array_at(v, i));
		fputs(d->fmt == FMT_JSON ? "]" : "", stdout);
		break;
	case TS_FIELD_NUM:
		put_num(v->num, v->is_signed);
		break;
	default:
		fputs(d->fmt == FMT_JSON ? "null" : "-", stdout);
	}
	return 0;
}

static void print_fields(struct dump *d, const struct ts_sample *s)
{
	d->first = 1;
	ts_decoder_for_each_field(ts_source_decoder(d->src), (int)s->attr->config, s->raw,
				  s->raw_size, print_field, d);
}

/* Append @s right-aligned in @w columns (never cut), as printf's %*s. */
static char *pad_str(char *p, const char *s, int w)
{
	int n = strlen(s);

	for (; w > n; w--)
		*p++ = ' ';
	memcpy(p, s, n);
	return p + n;
}

/* Append @v in decimal, right-aligned in @w columns with @fill (' ' or '0'). */
static char *pad_num(char *p, unsigned long long v, int w, char fill)
{
	char t[24], *e = t + sizeof(t), *q = e;

	do {
		*--q = '0' + v % 10;
		v /= 10;
	} while (v);
	for (w -= e - q; w > 0; w--)
		*p++ = fill;
	memcpy(p, q, e - q);
	return p + (e - q);
}

/* The text line's head, as printf("%16s %6d [%03u] %5llu.%09llu: %*s: ") without printf. */
static void text_head(const struct dump *d, const char *comm, const struct ts_sample *s,
		      const char *name)
{
	char buf[512], *p = buf;

	if (strlen(comm) > 200 || strlen(name) > 200 || d->width > 200 || (int)s->tid < 0) {
		printf("%16s %6d [%03u] %5llu.%09llu: %*s: ", comm, (int)s->tid, s->cpu,
		       (unsigned long long)(s->time / 1000000000ULL),
		       (unsigned long long)(s->time % 1000000000ULL), d->width, name);
		return;
	}
	p = pad_str(p, comm, 16);
	*p++ = ' ';
	p = pad_num(p, s->tid, 6, ' ');
	*p++ = ' ';
	*p++ = '[';
	p = pad_num(p, s->cpu, 3, '0');
	*p++ = ']';
	*p++ = ' ';
	p = pad_num(p, s->time / 1000000000ULL, 5, ' ');
	*p++ = '.';
	p = pad_num(p, s->time % 1000000000ULL, 9, '0');
	*p++ = ':';
	*p++ = ' ';
	p = pad_str(p, name, d->width);
	*p++ = ':';
	*p++ = ' ';
	fwrite(buf, 1, p - buf, stdout);
}

static int on_event(void *ctx, const struct ts_event *ev, const struct ts_sample *s)
{
	struct dump *d = ctx;
	const char *comm;
	int ret;

	if (!s)
		return 0;
	d->n++;
	if (d->fmt == FMT_NONE)
		return 0;
	comm = ts_source_comm(d->src, s->tid);
	switch (d->fmt) {
	case FMT_TEXT:
		text_head(d, comm, s, ev->name);
		ret = ts_decoder_print(ts_source_decoder(d->src), ev->tp_id, s->raw, s->raw_size,
				       s->cpu, stdout);
		putchar('\n');
		if (ret)
			return ret; /* the payload does not fit its format */
		break;
	case FMT_TSV:
		put_num(s->time, 0);
		putchar('\t');
		put_num(s->cpu, 0);
		putchar('\t');
		put_num(s->tid, 0);
		putchar('\t');
		tsv_str(stdout, comm);
		printf("\t%s\t", ev->name);
		print_fields(d, s);
		putchar('\n');
		break;
	case FMT_JSON:
		printf("{\"time\":%llu,\"cpu\":%u,\"tid\":%u,\"pid\":%u,\"comm\":",
		       (unsigned long long)s->time, s->cpu, s->tid, s->pid);
		json_str(stdout, comm);
		printf(",\"event\":\"%s\",\"fields\":{", ev->name);
		print_fields(d, s);
		printf("}}\n");
		break;
	default:
		break;
	}
	return 0;
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
	struct dump d = { .fmt = FMT_TEXT };
	struct timespec t0, t1;
	int ret = cli_parse(argc, argv, &cc, longopts, dump_option, &d);

	if (ret)
		return ret < 0 ? 0 : ret;
	o.input = cc.input;
	o.kallsyms = cc.kallsyms;
	o.unordered = cc.file_order;
	o.strict = cc.strict;
	o.symbols = d.fmt == FMT_TEXT ? TS_SYMS_PRINT : 0;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ret = ts_source_open(&d.src, &o);
	if (!ret) {
		d.width = event_width(d.src);
		if (d.fmt == FMT_TSV)
			printf("time_ns\tcpu\ttid\tcomm\tevent\tfields\n");
		ret = ts_source_run(d.src, on_event, &d);
	}
	fflush(stdout);
	cli_warnings(d.src);
	if (ret) {
		cli_error("%s", d.src ? ts_source_error(d.src) : ts_strerror(ret));
		ts_source_close(d.src);
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (d.fmt == FMT_NONE) {
		double s = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;

		fprintf(stderr, "decoded %llu samples in %.3f s (%.2f M samples/s)\n",
			(unsigned long long)d.n, s, s > 0 ? d.n / s / 1e6 : 0.0);
	}
	ts_source_close(d.src);
	return 0;
}
