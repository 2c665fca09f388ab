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
 * ts_decoder_kind() - the enum ts_event_kind that samples of @tp_id decode to
 * Return: the kind, or a negative code when the id has no usable format.
 */
int ts_decoder_kind(struct ts_decoder *d, int tp_id);

/**
 * ts_decoder_print() - print the payload as perf script's "trace" field does
 * (the format's print fmt, with libtraceevent's plugins loaded as perf loads them)
 */
int ts_decoder_print(struct ts_decoder *d, int tp_id, const void *raw, uint32_t size, int cpu,
		     FILE *out);

/** ts_decoder_error() - what the last failing call found wrong (event and field) */
const char *ts_decoder_error(const struct ts_decoder *d);

/** ts_decoder_event_name() - "system:name" for a tracepoint id, or NULL */
const char *ts_decoder_event_name(struct ts_decoder *d, int tp_id);

/** ts_decoder_tep() - the libtraceevent handle (source layer only, never in models) */
struct tep_handle *ts_decoder_tep(struct ts_decoder *d);

struct ts_ksyms;

/**
 * ts_decoder_set_ksyms() - resolve the printer's function and data addresses (%ps) with @k
 * @d: the decoder
 * @k: the symbols, already moved to the recording boot (ts_ksyms_relocate())
 * Return: 0, -ENOMEM, or -TS_EKALLSYMS when libtraceevent refuses them.
 */
int ts_decoder_set_ksyms(struct ts_decoder *d, const struct ts_ksyms *k);

#endif
