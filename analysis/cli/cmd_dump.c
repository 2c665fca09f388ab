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
#include "dump.h"
#include "outbuf.h"
#include "tickscope/error.h"
#include "tickscope/source.h"

static const char dump_help[] =
	"usage: tickscope dump [-i] FILE [--kallsyms FILE] [--format text|tsv|json|none]\n\n"
	"Print every tracepoint sample in time order. The text form is perf script's\n"
	"`-F comm,tid,cpu,time,event,trace --ns`; tests hold the two equal line by line.\n\n"
	"  -i, --input FILE     the perf.data file (default: perf.data), or - for a pipe-mode\n"
	"                       stream on stdin\n"
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

/* The reader's thread's side: the thread names it keeps made, and the queue to the printer. */
#define NR_HEADS 64

struct dump {
	enum dump_fmt fmt;
	struct ts_source *src;
	struct ts_reader *reader;
	struct dump_lines *lines;
	uint64_t n;
	/*
	 * By tid: the line's part that names the thread (text: "%16s %5d"; TSV: tid, comm;
	 * JSON: tid, pid, comm), valid while no side-band event came since (gen: a COMM, FORK
	 * or EXIT may rename a thread)
	 */
	struct head {
		uint32_t tid, pid, gen, len;
		char text[80];
	} heads[NR_HEADS];
	uint32_t gen;
};

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

/*
 * The part of @s's line that names its thread, written into @p (an entry's room of
 * DUMP_HEAD_MAX bytes) and kept in @h; its length. Out of line: the reader's thread calls it
 * on a miss only, and on_event() stays a leaf on a hit.
 */
static __attribute__((noinline)) uint32_t head_line(struct dump *d, struct head *h, char *p,
						    const struct ts_sample *s)
{
	struct outbuf ob = { .b = p }, *o = &ob;
	const char *comm;
	size_t n;

	comm = ts_source_comm(d->src, s->tid);
	n = strlen(comm); /* a comm is at most 31 bytes (TS_COMM_MAX) */
	switch (d->fmt) {
	case FMT_TEXT:
		if (n < 16)
			ob_fill(o, ' ', 16 - n);
		ob_mem(o, comm, n);
		ob_putc(o, ' ');
		if ((int)s->tid < 0) { /* %5d of a negative tid */
			char t[16];

			ob_mem(o, t, snprintf(t, sizeof(t), "%5d", (int)s->tid));
		} else {
			ob_num(o, s->tid, 5, ' ');
		}
		break;
	case FMT_TSV: /* a tid of -1 (perf's ":-1") is -1 here too, as in the text */
		ob_snum(o, (uint64_t)(int64_t)(int32_t)s->tid, 1);
		ob_putc(o, '\t');
		dump_tsv_str(o, comm, n);
		ob_putc(o, '\t');
		break;
	default:
		ob_str(o, ",\"tid\":");
		ob_snum(o, (uint64_t)(int64_t)(int32_t)s->tid, 1);
		ob_str(o, ",\"pid\":");
		ob_snum(o, (uint64_t)(int64_t)(int32_t)s->pid, 1);
		ob_str(o, ",\"comm\":");
		dump_json_str(o, comm, n);
	}
	head_keep(d, h, s, o->b, o->n);
	return (uint32_t)o->n;
}

/* A sample goes to the printer with its thread's part of the line; COMM, FORK, EXIT rename. */
static int on_event(void *ctx, const struct ts_event *ev, const struct ts_sample *s)
{
	struct dump *d = ctx;
	struct dump_rec *r;
	struct head *h;
	int hit;

	if (!s) {
		d->gen++;
		return 0;
	}
	d->n++;
	if (d->fmt == FMT_NONE)
		return 0;
	r = dump_lines_reserve(d->lines, s->raw_size);
	if (!r)
		return -ECANCELED; /* the printer stopped on an error: dump_lines_finish() has it */
	h = head_of(d, s, &hit);
	if (hit && h->len <= 32) { /* fixed-size copies are a few moves: the room is larger */
		memcpy(r->data, h->text, 32);
		r->head_len = h->len;
	} else if (hit) {
		memcpy(r->data, h->text, sizeof(h->text));
		r->head_len = h->len;
	} else {
		r->head_len = head_line(d, h, r->data, s);
	}
	r->time = s->time;
	r->off = ts_reader_last_offset(d->reader);
	r->name = ev->name;
	r->raw_size = s->raw_size;
	r->tp_id = ev->tp_id;
	r->cpu = s->cpu;
	memcpy((unsigned char *)dump_rec_raw(r), s->raw, s->raw_size);
	dump_lines_commit(d->lines, r);
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

static int parse_format(const char *s, enum dump_fmt *f)
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

/*
 * Read and print: the printer's error comes first, at an earlier sample than where the reader
 * stopped (it said -ECANCELED there), and is named as the reader names a sample's.
 */
static int dump_run(struct dump *d, const struct cli_common *cc, int *werr)
{
	uint64_t off = 0;
	int ret, pret;

	*werr = 0;
	d->reader = ts_source_reader(d->src);
	if (d->fmt != FMT_NONE &&
	    dump_lines_open(&d->lines, d->fmt, ts_source_printer(d->src), event_width(d->src),
			    STDOUT_FILENO))
		return cli_error("out of memory");
	ret = ts_source_run(d->src, on_event, d);
	pret = d->lines ? dump_lines_finish(d->lines, &off, werr) : 0;
	cli_warnings(d->src);
	if (pret && ts_source_printer_error(d->src))
		return cli_error("%s", ts_source_printer_error(d->src));
	if (pret)
		return cli_error("%s: offset %#llx: %s", strcmp(cc->input, "-") ? cc->input : "<stdin>",
				 (unsigned long long)off, ts_strerror(pret));
	if (ret)
		return cli_error("%s", ts_source_error(d->src));
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
	o.ksyms_cache = cli_ksyms_cache();
	o.formats_cache = cli_formats_cache();
	o.unordered = cc.file_order;
	o.strict = cc.strict;
	o.symbols = d.fmt == FMT_TEXT ? TS_SYMS_PRINT : 0;
	o.names_only = d.fmt != FMT_NONE; /* none is the decoder's own speed */
	o.every_attr = 1; /* perf script prints a repeated tracepoint's samples too */
	o.own_printer = d.fmt != FMT_NONE; /* dump_lines.c prints on a thread of its own */
	clock_gettime(CLOCK_MONOTONIC, &t0);
	fflush(stdout);
	ret = ts_source_open(&d.src, &o);
	if (ret) {
		cli_warnings(d.src);
		cli_error("%s", d.src ? ts_source_error(d.src) : ts_strerror(ret));
		ts_source_close(d.src);
		return 1;
	}
	ret = dump_run(&d, &cc, &werr);
	dump_lines_free(d.lines);
	if (!ret && werr && werr != -EPIPE)
		ret = cli_error("writing the output: %s", ts_strerror(werr));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (!ret && d.fmt == FMT_NONE)
		print_rate(&d, &t0, &t1, cc.file_order);
	ts_source_close(d.src);
	return ret;
}
