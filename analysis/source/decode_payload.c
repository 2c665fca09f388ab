// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the per-section decoders (decode_<section>.c) take from a payload besides numbers: its
 * strings, and its text printed with the event's own print fmt, checked against its size.
 */
#include <string.h>
#include "decode_priv.h"

/* A char array or a __data_loc string, copied NUL-terminated into @out. */
void ts_dec_str(struct payload *pl, const struct fld *f, char *out, size_t len)
{
	uint32_t off, n;

	out[0] = 0;
	if (!f->size)
		return;
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		uint32_t loc;

		if ((uint32_t)f->off + 4 > pl->size) {
			pl->bad = 1;
			return;
		}
		memcpy(&loc, pl->p + f->off, 4);
		off = loc & 0xffff;
		n = loc >> 16;
		if (f->flags & TEP_FIELD_IS_RELATIVE)
			off += f->off + 4;
	} else if (f->flags & TEP_FIELD_IS_ARRAY) {
		off = f->off;
		n = f->size;
	} else {
		return; /* a pointer: the string is not in the payload */
	}
	if (off + n > pl->size) {
		pl->bad = 1;
		return;
	}
	if (n >= len && len == TS_COMM_LEN) {
		/* a comm (char[16]): one fixed-size move, its 16 bytes are in the payload */
		memcpy(out, pl->p + off, TS_COMM_LEN);
		out[TS_COMM_LEN - 1] = 0;
		return;
	}
	if (n >= len)
		n = len - 1;
	memcpy(out, pl->p + off, n); /* readers stop at the first NUL: no need to scan for it */
	if (len == TS_COMM_LEN)
		memset(out + n, 0, len - n); /* a comm is compared as 16 bytes (sched's set_comm) */
	else
		out[n] = 0;
}

/* Does every field of the format lie inside the payload (dynamic ones by their __data_loc)? */
static int fields_inside(const struct tep_event *ev, const unsigned char *raw, uint32_t size)
{
	const struct tep_format_field *f;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		f = pass ? ev->format.fields : ev->format.common_fields;
		for (; f; f = f->next) {
			uint32_t loc, off, len;

			if (f->offset < 0 || f->size < 0 || (uint32_t)f->offset + f->size > size)
				return 0;
			if (!(f->flags & TEP_FIELD_IS_DYNAMIC) || f->size < 4)
				continue;
			memcpy(&loc, raw + f->offset, 4);
			off = loc & 0xffff;
			len = loc >> 16;
			if (f->flags & TEP_FIELD_IS_RELATIVE)
				off += f->offset + f->size;
			if (off + len > size)
				return 0;
		}
	}
	return 1;
}

/*
 * Print one payload into d->seq with the event's own print fmt. libtraceevent trusts the
 * payload: a field past its end, or a string without a NUL, is read beyond it. So fields are
 * checked against the size, and the payload is printed from a copy with zeros after it.
 * Return: 0, or -TS_ECORRUPT (d->seq then says so).
 */
int ts_dec_print_info(struct ts_decoder *d, const void *raw, uint32_t size, int cpu)
{
	struct tep_record rec = { .size = size, .cpu = cpu };
	struct tep_event *ev;

	trace_seq_reset(&d->seq);
	if (size < 2 || size > (1u << 16)) {
		trace_seq_puts(&d->seq, "[payload size out of range]");
		trace_seq_terminate(&d->seq);
		return -TS_ECORRUPT;
	}
	memcpy(d->scratch, raw, size);
	memset(d->scratch + size, 0, PRINT_PAD);
	rec.data = d->scratch;
	ev = tep_find_event_by_record(d->tep, &rec);
	if (!ev || !fields_inside(ev, d->scratch, size)) {
		trace_seq_puts(&d->seq, "[payload shorter than its format]");
		trace_seq_terminate(&d->seq);
		return -TS_ECORRUPT;
	}
	tep_print_event(d->tep, &d->seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&d->seq);
	return 0;
}
