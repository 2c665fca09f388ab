/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * dump's two halves: the reader's thread (cmd_dump.c) writes the part of each line that names
 * the thread, whose name only it knows at that point of the trace, and queues it with the
 * sample; the printing thread (dump_lines.c) writes the rest of the line and the output.
 */
#ifndef TS_CLI_DUMP_H
#define TS_CLI_DUMP_H

#include <stddef.h>
#include <stdint.h>

#include "outbuf.h"

struct ts_decoder;

enum dump_fmt { FMT_TEXT, FMT_TSV, FMT_JSON, FMT_NONE };

/* The thread's part of a line is at most this long (a 31-byte comm, JSON-escaped). */
#define DUMP_HEAD_MAX 256

/*
 * A sample on its way to the printer, 8-aligned: the thread's part of its line, then its
 * payload at the next multiple of 8.
 */
struct dump_rec {
	uint64_t time;
	uint64_t off; /* the record's offset, for the message when its payload does not print */
	const char *name; /* the event's name, the decoder's string */
	uint32_t len; /* of the whole entry, a multiple of 8 */
	uint32_t raw_size;
	int32_t tp_id;
	uint32_t cpu;
	uint32_t head_len;
	uint32_t pad;
	char data[];
};

static inline const unsigned char *dump_rec_raw(const struct dump_rec *r)
{
	return (const unsigned char *)r->data + ((r->head_len + 7u) & ~7u);
}

struct dump_lines;

/**
 * dump_lines_open() - the printer: lines in @fmt onto @fd, payloads printed through @printer
 * @width: the text form's event name column
 *
 * The TSV header row is written first. Return: 0 or -ENOMEM.
 */
int dump_lines_open(struct dump_lines **lp, enum dump_fmt fmt, struct ts_decoder *printer,
		    int width, int fd);

/**
 * dump_lines_reserve() - room for an entry with @raw_size bytes of payload, in the batch being
 * filled; a full batch goes to the printing thread first (started on the first one; with no
 * thread to be had, this thread prints it)
 * Return: the entry to fill, or NULL once the printer has stopped on an error.
 */
struct dump_rec *dump_lines_reserve(struct dump_lines *l, uint32_t raw_size);

/** dump_lines_commit() - queue the entry just reserved, its head_len and raw_size set */
void dump_lines_commit(struct dump_lines *l, struct dump_rec *r);

/**
 * dump_lines_finish() - print what is queued, join the printing thread, write the output out
 * @off: set to the offset of the sample whose payload did not fit its format, on that error
 * @werr: set to the first write(2) error (negative), or 0
 * Return: 0, or the printer's error (its line is the output's last).
 */
int dump_lines_finish(struct dump_lines *l, uint64_t *off, int *werr);

/** dump_lines_free() - free the printer (NULL is fine); after dump_lines_finish() */
void dump_lines_free(struct dump_lines *l);

/* @s as a JSON string, and as a TSV cell (tabs and newlines as spaces). */
void dump_json_str(struct outbuf *o, const char *s, size_t n);
void dump_tsv_str(struct outbuf *o, const char *s, size_t n);

/*
 * Whether @n bytes at @s, a payload's string, need no escape in JSON (@json) or TSV; the bytes
 * after them up to the next multiple of 8 are read (dump_rec payloads are padded to it).
 */
int dump_plain_payload_str(const char *s, size_t n, int json);

#endif
