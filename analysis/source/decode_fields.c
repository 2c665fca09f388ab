// SPDX-License-Identifier: GPL-2.0-only
/*
 * Every field of a tracepoint payload by its format, for dump's TSV and JSON: names, numbers
 * (sign-extended as the format says), strings and arrays, without libtraceevent's types.
 */
#include "decode_priv.h"

static int is_string_field(const struct tep_format_field *f)
{
	return (f->flags & TEP_FIELD_IS_STRING) ||
	       ((f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) && f->elementsize == 1 &&
		strstr(f->type, "char"));
}

static uint64_t field_num(const unsigned char *p, uint32_t size, int is_signed)
{
	uint64_t v = 0;

	memcpy(&v, p, size > 8 ? 8 : size);
	if (is_signed && size < 8 && (v >> (size * 8 - 1)) & 1)
		v |= ~0ULL << (size * 8);
	return v;
}

int64_t ts_field_array_at(const struct ts_field_value *v, uint32_t i)
{
	return (int64_t)field_num(v->data + (size_t)i * v->elsize, v->elsize, v->is_signed);
}

/* The value of @f in @raw; TS_FIELD_BAD when it lies outside the payload. */
static void field_value(const struct tep_format_field *f, const unsigned char *raw, uint32_t size,
			struct ts_field_value *v)
{
	uint32_t off = f->offset, len = f->size;

	v->name = f->name;
	v->type = TS_FIELD_BAD;
	v->is_signed = !!(f->flags & TEP_FIELD_IS_SIGNED);
	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		uint32_t loc;

		if (off + 4 > size)
			return;
		memcpy(&loc, raw + off, 4);
		len = loc >> 16;
		off = (loc & 0xffff) + (f->flags & TEP_FIELD_IS_RELATIVE ? off + 4 : 0);
	}
	if (off + len > size)
		return;
	v->data = raw + off;
	v->len = len;
	if (is_string_field(f)) {
		v->type = TS_FIELD_STRING;
	} else if ((f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) && f->elementsize &&
		   f->elementsize <= 8) {
		v->type = TS_FIELD_ARRAY;
		v->elsize = (uint32_t)f->elementsize;
		v->nr = len / v->elsize;
	} else {
		v->type = TS_FIELD_NUM;
		v->num = field_num(raw + off, len, v->is_signed);
	}
}

int ts_decoder_for_each_field(struct ts_decoder *d, int tp_id, const void *raw, uint32_t size,
			      ts_field_fn fn, void *ctx)
{
	struct tep_event *ev = tep_find_event(d->tep, tp_id);
	struct tep_format_field *f;
	struct ts_field_value v;
	int ret;

	if (!ev)
		return -TS_ENOFORMAT;
	for (f = ev->format.fields; f; f = f->next) {
		memset(&v, 0, sizeof(v));
		field_value(f, raw, size, &v);
		ret = fn(ctx, &v);
		if (ret)
			return ret;
	}
	return 0;
}
