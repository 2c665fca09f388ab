// SPDX-License-Identifier: GPL-2.0-only
/*
 * dump's printer: each queued sample's line (time, cpu, event, and the payload through the
 * compiled printer or every field by name) into the output, on a thread of its own, so that
 * printing runs on one CPU while the reader's thread reads, merges and decodes on the other.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/memo.h"
#include "dump.h"
#include "tickscope/decode.h"

/* ---- the printer's state: what it keeps made, and the output -------------------------- */

/*
 * A field name's separator and name as a line writes them, " name=" or ",\"name\":", made
 * once per field of the format (keyed by libtraceevent's name, which lives as long as it).
 */
#define NR_NAMES 512
#define NR_EVENTS 64
#define NR_FLINES 256
#define NR_CPU_TEXT 256

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
	struct ts_memo memo; /* the fields' text by their bytes, when none is a __data_loc */
};

/*
 * The part of a line that names the CPU, made once per CPU: the text form's " [%03u] ", TSV's
 * "\t%u\t", JSON's ",\"cpu\":%u"; written with one 16-byte move.
 */
struct cpu_part {
	char text[15];
	uint8_t len; /* 0: not made yet */
};

/* Everything the printing thread writes: nothing here is touched by the reader's thread. */
struct printer {
	enum dump_fmt fmt;
	struct ts_decoder *dec; /* the source's printer: this thread's alone */
	struct outbuf out;
	int width;
	int first; /* the next field is the event's first */
	struct name names[NR_NAMES];
	struct name events[NR_EVENTS]; /* the text form's padded event names */
	struct fline flines[NR_FLINES]; /* by tracepoint id */
	uint64_t sec; /* the last line's seconds, as the format writes them before the ns */
	uint32_t sec_len;
	char sec_text[32];
	struct cpu_part cpu_text[NR_CPU_TEXT]; /* a line's CPU part by CPU */
};

/*
 * " name=", or ",\"name\":" with JSON's escapes; NULL when out of memory. At least
 * NAME_COPY + 1 bytes, so that a short one is copied in one fixed-size move.
 */
#define NAME_COPY 32
static char *make_name(int json, const char *name, size_t *len)
{
	size_t n = 6 * strlen(name) + 4;
	char *t = calloc(1, n > NAME_COPY + 1 ? n : NAME_COPY + 1), *p = t;

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
static void field_name(struct printer *d, const char *name)
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
	ts_memo_free(&l->memo);
	memset(l, 0, sizeof(*l));
}

static void free_names(struct printer *d)
{
	for (int i = 0; i < NR_NAMES; i++)
		free(d->names[i].text);
	for (int i = 0; i < NR_EVENTS; i++)
		free(d->events[i].text);
	for (int i = 0; i < NR_FLINES; i++)
		fline_free(&d->flines[i]);
}

/* ---- TSV and JSON: every field by name ------------------------------------------------- */

/* One field's value; strings quoted in JSON, arrays as lists. Out-of-range fields print -. */
static void print_value(struct printer *d, const struct ts_field_value *v)
{
	struct outbuf *o = &d->out;
	const char *str = (const char *)v->data;
	int json = d->fmt == FMT_JSON;
	uint32_t i;
	size_t n;

	switch (v->type) {
	case TS_FIELD_STRING: /* up to its NUL, at most 255 bytes */
		n = strnlen(str, v->len < 255 ? v->len : 255);
		if (dump_plain_payload_str(str, n, json)) {
			if (json)
				ob_putc(o, '"');
			ob_mem(o, str, n);
			if (json)
				ob_putc(o, '"');
		} else if (json)
			dump_json_str(o, str, n);
		else
			dump_tsv_str(o, str, n);
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
	struct printer *d = ctx;

	field_name(d, v->name);
	d->first = 0;
	print_value(d, v);
	return 0;
}

/*
 * The fields' text depends on their bytes alone when none is a __data_loc string and the
 * payload holds them all (then no field prints as out of range): the memo's key.
 */
static void memo_span(struct fline *l)
{
	uint32_t lo = UINT32_MAX, hi = 0;

	for (int i = 0; i < l->nr; i++) {
		if (l->f[i].dynamic)
			return;
		lo = l->f[i].off < lo ? l->f[i].off : lo;
		hi = l->f[i].off + l->f[i].size > hi ? l->f[i].off + l->f[i].size : hi;
	}
	if (hi > lo)
		ts_memo_span(&l->memo, lo, hi, hi);
}

/* The event's part of TSV and JSON lines is allocated this long at least, copied whole. */
#define EVENT_COPY 64

/*
 * @tp_id's fields with their names as this format writes them, and the event's part of the
 * line (@name: the decoder's string), made on its first sample.
 */
static struct fline *fline_of(struct printer *d, int tp_id, const char *name)
{
	struct fline *l = &d->flines[(unsigned int)tp_id % NR_FLINES];
	size_t n;
	int i;

	if (l->names && l->tp_id == tp_id)
		return l;
	n = strlen(name);
	fline_free(l);
	l->f = ts_decoder_fields(d->dec, tp_id, &l->nr);
	if (!l->f)
		return NULL;
	l->names = calloc(l->nr ? l->nr : 1, sizeof(*l->names));
	for (i = 0; l->names && i < l->nr; i++)
		l->names[i].text = make_name(d->fmt == FMT_JSON, l->f[i].name, &l->names[i].len);
	l->event.text = calloc(1, n + 32 > EVENT_COPY ? n + 32 : EVENT_COPY);
	if (l->event.text)
		l->event.len = sprintf(
			l->event.text,
			d->fmt == FMT_JSON ? ",\"event\":\"%s\",\"fields\":{" : "%s\t", name);
	l->tp_id = tp_id;
	memo_span(l);
	return l->names && l->event.text ? l : NULL;
}

/* The event's part of the line, then its fields. */
static void print_fields(struct printer *d, const struct dump_rec *r)
{
	struct fline *l = fline_of(d, r->tp_id, r->name);
	const unsigned char *raw = dump_rec_raw(r);
	uint64_t key[TS_MEMO_WORDS];
	struct ts_memo_ent *e = NULL;
	struct ts_field_value v;
	size_t start;
	int i, hit;

	d->first = 1;
	if (l && l->event.len <= EVENT_COPY) { /* a fixed-size copy: ob_line() made the room */
		memcpy(d->out.b + d->out.n, l->event.text, EVENT_COPY);
		d->out.n += l->event.len;
	} else if (l) {
		ob_mem(&d->out, l->event.text, l->event.len);
	} else if (d->fmt == FMT_JSON) {
		ob_str(&d->out, ",\"event\":\"");
		ob_str(&d->out, r->name);
		ob_str(&d->out, "\",\"fields\":{");
	} else {
		ob_str(&d->out, r->name);
		ob_putc(&d->out, '\t');
	}
	if (!l) { /* out of memory for the names: each made as it comes */
		ts_decoder_for_each_field(d->dec, r->tp_id, raw, r->raw_size, print_field, d);
		return;
	}
	e = ts_memo_find(&l->memo, raw, r->raw_size, key, &hit);
	if (hit) { /* a fixed-size copy: ob_line() made the room */
		memcpy(d->out.b + d->out.n, e->text, TS_MEMO_TEXT);
		d->out.n += e->len;
		return;
	}
	start = d->out.n;
	for (i = 0; i < l->nr; i++) {
		const struct ts_field_desc *f = &l->f[i];
		const struct name *nm = &l->names[i];

		if (nm->text && nm->len <= NAME_COPY) { /* a fixed-size copy: the room is there */
			memcpy(d->out.b + d->out.n, nm->text + d->first, NAME_COPY);
			d->out.n += nm->len - d->first;
		} else if (nm->text) {
			ob_mem(&d->out, nm->text + d->first, nm->len - d->first);
		} else {
			field_name(d, f->name);
		}
		d->first = 0;
		/* most fields are numbers at a fixed place */
		if (f->type == TS_FIELD_NUM && !f->dynamic &&
		    (uint64_t)f->off + f->size <= r->raw_size) {
			ob_snum(&d->out, ts_field_num(raw + f->off, f->size, f->is_signed),
				f->is_signed);
			ob_room(&d->out, 64);
			continue;
		}
		ts_field_get(f, raw, r->raw_size, &v);
		print_value(d, &v);
	}
	if (e && d->out.n >= start) /* else the buffer was written out in between */
		ts_memo_keep(&l->memo, e, key, d->out.b + start, d->out.n - start);
}

/* ---- time, cpu and the event's name ---------------------------------------------------- */

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

/* ": %*s: " of an event name into @e, made once per name (keyed by the decoder's string) */
static const struct name *make_event_part(struct printer *d, struct name *e, const char *name)
{
	int w = d->width > 1000 ? 1000 : d->width, n;

	n = strlen(name);
	e->len = (n > w ? n : w) + 4;
	e->text = calloc(1, e->len > 48 ? e->len : 48); /* text_line() copies 48 bytes at once */
	e->key = e->text ? name : NULL;
	if (!e->text)
		return NULL;
	memcpy(e->text, ": ", 2);
	memset(e->text + 2, ' ', e->len - 4 - n);
	memcpy(e->text + e->len - 2 - n, name, n);
	memcpy(e->text + e->len - 2, ": ", 2);
	return e;
}

/*
 * The event's part, from the table (a few probes from the name's slot; NULL when none is free
 * or no memory: the line writes it then). The slot is the top bits of a product: names
 * allocated one after the other must not share one.
 */
static inline const struct name *event_part(struct printer *d, const char *name)
{
	unsigned int i = (unsigned int)((uintptr_t)name * 0x9e3779b97f4a7c15ULL >> 58), k;

	_Static_assert(NR_EVENTS == 64, "event_part() takes a slot from 6 bits");
	for (k = 0; k < 8; k++, i = (i + 1) % NR_EVENTS) {
		struct name *e = &d->events[i];

		if (e->key == name)
			return e;
		if (!e->key)
			return make_event_part(d, e, name);
	}
	return NULL;
}

/*
 * Seconds as the format writes them before the nanoseconds ("%5llu.", or time_ns's leading
 * digits), kept until they change.
 */
static inline void put_seconds(struct printer *d, uint64_t sec)
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
	memcpy(d->sec_text, o->b + start, d->sec_len); /* at most 21 bytes */
}

/* time_ns: the kept seconds, then nine digits (or the nanoseconds alone in the first second) */
static inline void put_time_ns(struct printer *d, uint64_t time)
{
	struct outbuf *o = &d->out;

	if (time < 1000000000ULL) {
		ob_num(o, time, 0, ' ');
		return;
	}
	put_seconds(d, time / 1000000000ULL);
	ts_digits9(o->b + o->n, (uint32_t)(time % 1000000000ULL));
	o->n += 9;
}

/*
 * The thread's part of the line: a fixed-size copy when short (OB_SLACK leaves room; the
 * entry's payload, or the batch's BATCH_SLACK, follows it): 32 bytes for text and TSV, 64 for
 * JSON's ",\"tid\":%d,\"pid\":%d,\"comm\":" and its string.
 */
static inline void put_head(struct outbuf *o, const struct dump_rec *r)
{
	if (r->head_len <= 32) {
		memcpy(o->b + o->n, r->data, 32);
		o->n += r->head_len;
		return;
	}
	if (r->head_len <= 64) {
		memcpy(o->b + o->n, r->data, 64);
		o->n += r->head_len;
		return;
	}
	ob_mem(o, r->data, r->head_len);
}

/* put_cpu()'s first line on @cpu: the part written, and kept in @t (out of line: rare). */
static __attribute__((noinline)) void make_cpu_part(struct printer *d, struct cpu_part *t,
						    uint32_t cpu)
{
	struct outbuf *o = &d->out;
	size_t start = o->n;

	switch (d->fmt) {
	case FMT_TEXT:
		ob_mem(o, " [", 2);
		ob_num(o, cpu, 3, '0');
		ob_mem(o, "] ", 2);
		break;
	case FMT_TSV:
		ob_putc(o, '\t');
		ob_num(o, cpu, 0, ' ');
		ob_putc(o, '\t');
		break;
	default:
		ob_mem(o, ",\"cpu\":", 7);
		ob_num(o, cpu, 0, ' ');
	}
	if (cpu >= NR_CPU_TEXT || o->n - start > sizeof(t->text))
		return;
	memcpy(t->text, o->b + start, o->n - start);
	t->len = (uint8_t)(o->n - start);
}

/*
 * The part that names @cpu (struct cpu_part) from the table: one 16-byte move, OB_SLACK
 * leaves room for the bytes past its length, which the line's next part overwrites.
 */
static inline void put_cpu(struct printer *d, uint32_t cpu)
{
	struct outbuf *o = &d->out;
	struct cpu_part *t = &d->cpu_text[cpu % NR_CPU_TEXT];

	if (cpu < NR_CPU_TEXT && t->len) {
		memcpy(o->b + o->n, t, sizeof(*t));
		o->n += t->len;
		return;
	}
	make_cpu_part(d, t, cpu);
}

/* The text line, as printf("%16s %5d [%03u] %5llu.%09llu: %*s: %s\n"), the head queued. */
static int text_line(struct printer *d, const struct dump_rec *r)
{
	struct outbuf *o = &d->out;
	const struct name *ev;
	const char *text;
	size_t len;
	int ret;

	put_head(o, r);
	put_cpu(d, r->cpu);
	put_seconds(d, r->time / 1000000000ULL);
	ts_digits9(o->b + o->n, (uint32_t)(r->time % 1000000000ULL)); /* %09llu */
	o->n += 9;
	ev = event_part(d, r->name);
	if (ev && ev->len <= 48) { /* a fixed-size copy; OB_SLACK leaves room */
		memcpy(o->b + o->n, ev->text, 48);
		o->n += ev->len;
	} else if (ev) {
		ob_mem(o, ev->text, ev->len);
	} else {
		ob_mem(o, ": ", 2);
		pad_str(o, r->name, d->width > 1000 ? 1000 : d->width);
		ob_mem(o, ": ", 2);
	}
	ob_line(o); /* the printer writes in place, up to OB_LINE - 1 bytes */
	ret = ts_decoder_print(d->dec, r->tp_id, dump_rec_raw(r), r->raw_size, (int)r->cpu,
			       o->b + o->n, OB_SIZE - o->n - 1, &text, &len);
	if (text == o->b + o->n)
		o->n += len;
	else
		ob_mem(o, text, len);
	ob_putc(o, '\n');
	return ret; /* non-zero: the payload does not fit its format */
}

static int print_rec(struct printer *d, const struct dump_rec *r)
{
	struct outbuf *o = &d->out;

	ob_line(o);
	switch (d->fmt) {
	case FMT_TEXT:
		return text_line(d, r);
	case FMT_TSV:
		put_time_ns(d, r->time);
		put_cpu(d, r->cpu);
		put_head(o, r);
		print_fields(d, r);
		ob_putc(o, '\n');
		return 0;
	default:
		ob_str(o, "{\"time\":");
		put_time_ns(d, r->time);
		put_cpu(d, r->cpu);
		put_head(o, r);
		print_fields(d, r);
		ob_str(o, "}}\n");
		return 0;
	}
}

/* ---- batches, and the thread that prints them ------------------------------------------ */

/*
 * The reader's thread fills one batch of entries while the printer prints the others; a
 * batch changes hands under the lock, about once per 500 samples, so the lock costs
 * nothing that shows. NR_BATCHES of BATCH bytes bound the memory, and how far the reader
 * may run ahead. A thread that waits is woken only when half the batches are there for it
 * (queued for the printer, free for the reader), not at each one: a sleep and a wake-up
 * cost each side tens of microseconds, and the faster side would otherwise pay them on
 * every batch. 64 batches (4 MiB): on a loaded machine a woken printer waits milliseconds
 * for a CPU, and 16 (1 MiB, about 1 ms of the reader's work) filled up meanwhile; the
 * sleeps of a 4.3 M-sample dump went from about 1,000 to about 300 (issue 33).
 */
#define NR_BATCHES 64
#define WAKE_AT (NR_BATCHES / 2)
#define BATCH (64u << 10)
#define BATCH_SLACK 64 /* put_head() reads up to 64 bytes at once, past a short last entry */

struct batch {
	unsigned char *buf;
	size_t used; /* set when the batch is handed over */
};

/*
 * Each thread's part on cache lines of its own (the struct is allocated 64-aligned): the
 * reader moves its position on every sample, and a line the printer reads meanwhile would
 * cross between the CPUs each time.
 */
struct dump_lines {
	/* the printing thread's; this thread's before it starts, or without */
	struct printer pr __attribute__((aligned(64)));
	struct batch b[NR_BATCHES] __attribute__((aligned(64)));

	/* the reader's thread */
	unsigned int fill __attribute__((aligned(64))); /* b[fill % NR_BATCHES] is being filled */
	size_t used; /* bytes of it so far */
	int thread; /* 1: the printing thread runs; -1: none to be had, this thread prints */
	pthread_t tid;

	/* both, under the lock */
	pthread_mutex_t lock __attribute__((aligned(64)));
	pthread_cond_t work, room;
	unsigned int queued; /* batches handed over */
	unsigned int printed; /* batches the printer is through with */
	int done; /* no batch will come */
	int printer_waits, reader_waits; /* asleep on work, on room */
	int err; /* the printer's error: the batches after it are dropped */
	uint64_t err_off;
};

/* Print one batch; on an error, the entry's offset into *@off. */
static int print_batch(struct printer *d, const struct batch *b, uint64_t *off)
{
	size_t pos = 0, used = b->used;
	int ret;

	while (pos < used) {
		const struct dump_rec *r = (const void *)(b->buf + pos);

		ret = print_rec(d, r);
		if (ret) {
			*off = r->off;
			return ret;
		}
		pos += r->len;
	}
	return 0;
}

/*
 * A waiting side is signalled after the lock is dropped, and its flag cleared by the side that
 * signals, so that one wake-up is sent per sleep: woken while the other side still held the
 * lock, a thread went back to sleep on the mutex at once (on a loaded machine the wake-up
 * often preempts the side that signals, inside its critical section), and every handover cost
 * two sleeps and two wake-ups (issue 33).
 */
static void *printer_main(void *arg)
{
	struct dump_lines *l = arg;
	uint64_t off = 0;
	int ret = 0, err, wake = 0;

	pthread_mutex_lock(&l->lock);
	for (;;) {
		while (l->printed == l->queued && !l->done) {
			if (wake) { /* the reader first: it may be what the queue waits for */
				pthread_mutex_unlock(&l->lock);
				pthread_cond_signal(&l->room);
				pthread_mutex_lock(&l->lock);
				wake = 0;
				continue;
			}
			l->printer_waits = 1;
			pthread_cond_wait(&l->work, &l->lock);
		}
		l->printer_waits = 0;
		if (l->printed == l->queued)
			break;
		err = l->err;
		pthread_mutex_unlock(&l->lock);
		if (wake)
			pthread_cond_signal(&l->room);
		if (!err)
			ret = print_batch(&l->pr, &l->b[l->printed % NR_BATCHES], &off);
		pthread_mutex_lock(&l->lock);
		if (ret && !l->err) {
			l->err = ret;
			l->err_off = off;
		}
		l->printed++;
		wake = l->reader_waits &&
		       (l->err || NR_BATCHES - (l->queued - l->printed) >= WAKE_AT);
		if (wake)
			l->reader_waits = 0;
	}
	pthread_mutex_unlock(&l->lock);
	if (wake)
		pthread_cond_signal(&l->room);
	return NULL;
}

/*
 * Hand the batch being filled over (print it here without a thread), then wait until the
 * next one is free. The printing thread starts with the first full batch: a trace that fits
 * one (@last) is printed here. Return: 0, or the printer's error.
 */
static int submit(struct dump_lines *l, int last)
{
	struct batch *b = &l->b[l->fill % NR_BATCHES];
	uint64_t off = 0;
	int ret, wake;

	b->used = l->used;
	l->used = 0;
	if (!l->thread)
		l->thread = last || pthread_create(&l->tid, NULL, printer_main, l) ? -1 : 1;
	if (l->thread < 0) {
		ret = l->err ? 0 : print_batch(&l->pr, b, &off);
		if (ret) {
			l->err = ret;
			l->err_off = off;
		}
		return l->err;
	}
	pthread_mutex_lock(&l->lock);
	l->queued = ++l->fill;
	wake = l->printer_waits && l->queued - l->printed >= WAKE_AT;
	if (wake)
		l->printer_waits = 0; /* signalled once: see printer_main() */
	while (l->fill - l->printed >= NR_BATCHES && !l->err) {
		if (wake) /* before this thread sleeps, which drops the lock */
			pthread_cond_signal(&l->work);
		wake = 0;
		l->reader_waits = 1;
		pthread_cond_wait(&l->room, &l->lock);
	}
	l->reader_waits = 0;
	ret = l->err;
	pthread_mutex_unlock(&l->lock);
	if (wake)
		pthread_cond_signal(&l->work);
	return ret;
}

struct dump_rec *dump_lines_reserve(struct dump_lines *l, uint32_t raw_size)
{
	size_t need = sizeof(struct dump_rec) + DUMP_HEAD_MAX + ((raw_size + 7u) & ~7u);

	if (l->used + need > BATCH && submit(l, 0))
		return NULL;
	return (struct dump_rec *)(l->b[l->fill % NR_BATCHES].buf + l->used);
}

void dump_lines_commit(struct dump_lines *l, struct dump_rec *r)
{
	r->len = sizeof(*r) + ((r->head_len + 7u) & ~7u) + ((r->raw_size + 7u) & ~7u);
	l->used += r->len;
}

int dump_lines_open(struct dump_lines **lp, enum dump_fmt fmt, struct ts_decoder *printer,
		    int width, int fd)
{
	struct dump_lines *l = aligned_alloc(64, (sizeof(*l) + 63) / 64 * 64);
	int i;

	*lp = l;
	if (!l)
		return -ENOMEM;
	memset(l, 0, sizeof(*l));
	l->pr.fmt = fmt;
	l->pr.dec = printer;
	l->pr.width = width;
	pthread_mutex_init(&l->lock, NULL);
	pthread_cond_init(&l->work, NULL);
	pthread_cond_init(&l->room, NULL);
	for (i = 0; i < NR_BATCHES; i++) {
		l->b[i].buf = malloc(BATCH + BATCH_SLACK);
		if (!l->b[i].buf)
			return -ENOMEM;
	}
	if (ob_open(&l->pr.out, fd))
		return -ENOMEM;
	if (fmt == FMT_TSV)
		ob_str(&l->pr.out, "time_ns\tcpu\ttid\tcomm\tevent\tfields\n");
	return 0;
}

int dump_lines_finish(struct dump_lines *l, uint64_t *off, int *werr)
{
	int ret = 0;

	if (l->used)
		ret = submit(l, 1);
	if (l->thread > 0) {
		pthread_mutex_lock(&l->lock);
		l->done = 1;
		pthread_mutex_unlock(&l->lock);
		pthread_cond_signal(&l->work);
		pthread_join(l->tid, NULL);
		l->thread = 0;
		ret = l->err;
	}
	*off = l->err_off;
	*werr = ob_close(&l->pr.out);
	return ret ? ret : l->err;
}

void dump_lines_free(struct dump_lines *l)
{
	int i;

	if (!l)
		return;
	ob_close(&l->pr.out);
	free_names(&l->pr);
	for (i = 0; i < NR_BATCHES; i++)
		free(l->b[i].buf);
	pthread_mutex_destroy(&l->lock);
	pthread_cond_destroy(&l->work);
	pthread_cond_destroy(&l->room);
	free(l);
}
