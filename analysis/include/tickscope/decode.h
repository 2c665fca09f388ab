/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Tracepoint decoding with libtraceevent: the tracing data section goes in, and raw sample
 * payloads come out as struct ts_event. Field descriptors are looked up once per event id.
 */
#ifndef TICKSCOPE_DECODE_H
#define TICKSCOPE_DECODE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "tickscope/event.h"

struct ts_decoder;
struct tep_handle;

/**
 * ts_decoder_new() - parse a perf tracing data section (version 0.5 or 0.6)
 * @dp: out: the decoder
 * @data: the section as stored in the file (endianness, long size and page size inside)
 * @len: its length
 * @err: out, may be NULL: a message naming the offset inside the section on failure
 *
 * Return: 0 or a negative code.
 */
int ts_decoder_new(struct ts_decoder **dp, const void *data, size_t len, char *err, size_t errlen);

/**
 * ts_decoder_new_like() - ts_decoder_new() for a second decoder of the same section
 * @like: a decoder made from the same @data and @len (the same bytes, still there), or NULL
 *
 * When @like's probe child found nothing in the section that crashes libtraceevent, this one
 * forks none (a millisecond or more at the start of a dump).
 */
int ts_decoder_new_like(struct ts_decoder **dp, const struct ts_decoder *like, const void *data,
			size_t len, char *err, size_t errlen);

/**
 * ts_decoder_new_cached() - ts_decoder_new() that keeps what its probe child found
 * @cache: a folder of markers (ts_decoder_cache_dir()), or NULL for none
 *
 * A marker there of a clean probe of these very bytes, by the same libtraceevent, stands for
 * the probe child (a fork and a second parse of the formats); a clean probe leaves one.
 */
int ts_decoder_new_cached(struct ts_decoder **dp, const void *data, size_t len, const char *cache,
			  char *err, size_t errlen);

/**
 * ts_decoder_cache_dir() - the user's folder of probe markers, for ts_decoder_new_cached():
 * $TS_FORMATS_CACHE ("" or "off": none), else $XDG_CACHE_HOME/tickscope/formats, else
 * ~/.cache/tickscope/formats. Return: the folder (in @buf, or the environment's), or NULL.
 */
const char *ts_decoder_cache_dir(char *buf, size_t len);

/** ts_decoder_free() - free the decoder (NULL is fine) */
void ts_decoder_free(struct ts_decoder *d);

/**
 * ts_decoder_decode() - turn one raw tracepoint payload into a typed event
 * @d: the decoder
 * @tp_id: the tracepoint id (the attr's config)
 * @raw: the payload (PERF_SAMPLE_RAW)
 * @size: its size
 * @ev: in: time, cpu, pid and ips already set by the caller; out: kind, name and the union
 *
 * Unknown ids are an error (-TS_ENOFORMAT); tracepoints the models do not use decode to
 * TS_EV_OTHER. A payload shorter than its format says is -TS_ECORRUPT.
 */
int ts_decoder_decode(struct ts_decoder *d, int tp_id, const void *raw, uint32_t size,
		      struct ts_event *ev);

/**
 * ts_decoder_name() - ts_decoder_decode() for a consumer that reads only @ev's tp_id, name
 * and kind (a printer of the payload): the union is left unset when every field the kind's
 * decoder reads lies inside the payload, as a decode of this id already found; else it is
 * the full decode, with its error.
 */
int ts_decoder_name(struct ts_decoder *d, int tp_id, const void *raw, uint32_t size,
		    struct ts_event *ev);

/**
 * ts_decoder_kind() - the enum ts_event_kind that samples of @tp_id decode to
 * Return: the kind, or a negative code when the id has no usable format.
 */
int ts_decoder_kind(struct ts_decoder *d, int tp_id);

/**
 * ts_decoder_print() - the payload as perf script's "trace" field prints it (the format's
 * print fmt, with libtraceevent's plugins loaded as perf loads them)
 * @buf: where the compiled printer writes, @cap bytes (a line longer than that, or an event
 *       it cannot print, is printed by libtraceevent into the decoder's own buffer)
 * @text: set to the text, not NUL-terminated: in @buf, or the decoder's until its next call
 * @len: set to its length
 * Return: 0, or a negative code when the payload does not fit its format (@text then holds
 * what libtraceevent printed of it)
 */
int ts_decoder_print(struct ts_decoder *d, int tp_id, const void *raw, uint32_t size, int cpu,
		     char *buf, size_t cap, const char **text, size_t *len);

/** ts_decoder_error() - what the last failing call found wrong (event and field) */
const char *ts_decoder_error(const struct ts_decoder *d);

/** ts_decoder_event_name() - "system:name" for a tracepoint id, or NULL */
const char *ts_decoder_event_name(struct ts_decoder *d, int tp_id);

enum ts_field_type {
	TS_FIELD_BAD = 0, /* the field lies outside the payload */
	TS_FIELD_NUM, /* @num, sign-extended when @is_signed */
	TS_FIELD_STRING, /* @len bytes at @data, not NUL-terminated (stop at a NUL) */
	TS_FIELD_ARRAY, /* @nr elements of @elsize bytes at @data: ts_field_array_at() */
};

/* One field of a payload, as its format describes it; valid during the callback. */
struct ts_field_value {
	const char *name;
	enum ts_field_type type;
	int is_signed;
	uint64_t num;
	const unsigned char *data;
	uint32_t len, elsize, nr;
};

typedef int (*ts_field_fn)(void *ctx, const struct ts_field_value *v);

/**
 * ts_decoder_for_each_field() - every field of a payload, in the format's order
 * @d: the decoder
 * @tp_id: the tracepoint id
 * @raw: the payload
 * @size: its size
 * @fn: called per field; a non-zero return stops the walk
 * @ctx: passed to @fn
 * Return: 0, -TS_ENOFORMAT for an unknown id, or what @fn returned.
 */
int ts_decoder_for_each_field(struct ts_decoder *d, int tp_id, const void *raw, uint32_t size,
			      ts_field_fn fn, void *ctx);

/* A field of a tracepoint's format, as printers of every field read it (ts_field_get()). */
struct ts_field_desc {
	const char *name;
	uint32_t off, size; /* in the payload; a __data_loc field: its location word */
	uint32_t elsize; /* TS_FIELD_ARRAY's element size */
	uint8_t type; /* what the field holds when it lies inside the payload */
	uint8_t is_signed, dynamic, relative;
};

/**
 * ts_decoder_fields() - the fields of @tp_id's format, in its order, described once per id
 * @nr: set to their count
 * Return: the descriptors (valid as long as the decoder), or NULL for an unknown id.
 */
const struct ts_field_desc *ts_decoder_fields(struct ts_decoder *d, int tp_id, int *nr);

/** ts_field_get() - the value of field @f in the payload @raw of @size bytes */
void ts_field_get(const struct ts_field_desc *f, const void *raw, uint32_t size,
		  struct ts_field_value *v);

/**
 * ts_field_num() - the number of @size bytes at @p, sign-extended when @is_signed, as
 * ts_field_get() reads a TS_FIELD_NUM (inline, for printers of every field)
 */
static inline uint64_t ts_field_num(const unsigned char *p, uint32_t size, int is_signed)
{
	uint64_t v = 0;
	uint32_t v4;
	uint16_t v2;

	switch (size) {
	case 8:
		memcpy(&v, p, 8);
		return v;
	case 4:
		memcpy(&v4, p, 4);
		return is_signed ? (uint64_t)(int64_t)(int32_t)v4 : v4;
	case 2:
		memcpy(&v2, p, 2);
		return is_signed ? (uint64_t)(int64_t)(int16_t)v2 : v2;
	case 1:
		return is_signed ? (uint64_t)(int64_t)(int8_t)p[0] : p[0];
	}
	memcpy(&v, p, size > 8 ? 8 : size);
	if (is_signed && size && size < 8 && (v >> (size * 8 - 1)) & 1)
		v |= ~0ULL << (size * 8);
	return v;
}

/** ts_field_array_at() - element @i of a TS_FIELD_ARRAY, sign-extended when signed */
int64_t ts_field_array_at(const struct ts_field_value *v, uint32_t i);

struct ts_ksyms;

/**
 * ts_decoder_take_ksyms() - resolve the printer's function and data addresses (%ps) with @k
 * @d: the decoder
 * @k: the symbols, already moved to the recording boot (ts_ksyms_relocate()); the decoder
 *     owns them from here on, and frees them, whatever it returns
 *
 * Each address prints the symbol libtraceevent's own table would have given it.
 * Return: 0, -ENOMEM, -EALREADY on a second call, or -TS_EKALLSYMS on a line libtraceevent
 * would refuse.
 */
int ts_decoder_take_ksyms(struct ts_decoder *d, struct ts_ksyms *k);

/**
 * ts_decoder_function() - the function the printer names @addr by (%ps), and where it starts
 * @start: out, may be NULL: the function's address (%pS prints @addr's offset from it)
 * Return: its name, or NULL when no symbol holds @addr (the printer prints the address).
 */
const char *ts_decoder_function(struct ts_decoder *d, uint64_t addr, uint64_t *start);

/**
 * ts_decoder_may_print_syms() - whether any event of the tracing data may print a function's
 * name (so that ts_decoder_defer_ksyms()'s @load could be called at all)
 */
int ts_decoder_may_print_syms(struct ts_decoder *d);

/**
 * ts_decoder_defer_ksyms() - give the printer its symbols only when it needs them
 * @d: the decoder
 * @load: called once, by ts_decoder_print() on the thread that prints, before the first
 *        payload whose event may name a function (a %ps-like conversion in its print fmt,
 *        or a libtraceevent plugin's handler); it calls ts_decoder_take_ksyms(). What it
 *        returns, ts_decoder_print() returns.
 * @ctx: @load's
 *
 * Loading a kallsyms costs tens of milliseconds and megabytes, and most traces print no
 * function at all.
 */
void ts_decoder_defer_ksyms(struct ts_decoder *d, int (*load)(void *ctx, struct ts_decoder *d),
			    void *ctx);

#endif
