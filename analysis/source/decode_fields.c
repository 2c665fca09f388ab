// SPDX-License-Identifier: GPL-2.0-only
/*
 * Every field of a tracepoint payload by its format, for dump's TSV and JSON: names, numbers
 * (sign-extended as the format says), strings and arrays, without libtraceevent's types. The
 * fields are described once per tracepoint id; reading one is then a few loads.
 */
#include <errno.h>
#include <stdlib.h>

#include "decode_priv.h"

static int is_string_field(const struct tep_format_field *f)
{
	return (f->flags & TEP_FIELD_IS_STRING) ||
	       ((f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) && f->elementsize == 1 &&
		strstr(f->type, "char"));
}

int64_t ts_field_array_at(const struct ts_field_value *v, uint32_t i)
{
	return (int64_t)ts_field_num(v->data + (size_t)i * v->elsize, v->elsize, v->is_signed);
}

static void describe(const struct tep_format_field *f, struct ts_field_desc *d)
{
	d->name = f->name;
	d->off = (uint32_t)f->offset;
	d->size = (uint32_t)f->size;
	d->is_signed = !!(f->flags & TEP_FIELD_IS_SIGNED);
	d->dynamic = !!(f->flags & TEP_FIELD_IS_DYNAMIC);
	d->relative = !!(f->flags & TEP_FIELD_IS_RELATIVE);
	if (is_string_field(f)) {
		d->type = TS_FIELD_STRING;
	} else if ((f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) && f->elementsize &&
		   f->elementsize <= 8) {
		d->type = TS_FIELD_ARRAY;
		d->elsize = (uint32_t)f->elementsize;
	} else {
		d->type = TS_FIELD_NUM;
	}
}

const struct ts_field_desc *ts_decoder_fields(struct ts_decoder *d, int tp_id, int *nr)
{
	struct evcache *c = ts_dec_lookup(d, tp_id);
	const struct tep_format_field *f;
	int n = 0;

	*nr = 0;
	if (!c || !c->ev)
		return NULL;
	if (c->fields || c->nr_fields < 0) {
		*nr = c->nr_fields;
		return c->fields;
	}
	for (f = c->ev->format.fields; f; f = f->next)
		n++;
	c->fields = calloc(n ? n : 1, sizeof(*c->fields));
	if (!c->fields) {
		c->nr_fields = -1;
		return NULL;
	}
	for (n = 0, f = c->ev->format.fields; f; f = f->next)
		describe(f, &c->fields[n++]);
	*nr = c->nr_fields = n;
	return c->fields;
}

/* The value of @f in @raw; TS_FIELD_BAD when it lies outside the payload. */
void ts_field_get(const struct ts_field_desc *f, const void *raw, uint32_t size,
		  struct ts_field_value *v)
{
	const unsigned char *p = raw;
	uint32_t off = f->off, len = f->size;

	v->name = f->name;
	v->type = TS_FIELD_BAD;
	v->is_signed = f->is_signed;
	if (f->dynamic) {
		uint32_t loc;

		if ((uint64_t)off + 4 > size)
			return;
		memcpy(&loc, p + off, 4);
		len = loc >> 16;
		off = (loc & 0xffff) + (f->relative ? off + 4 : 0);
	}
	if ((uint64_t)off + len > size)
		return;
	v->data = p + off;
	v->len = len;
	v->type = f->type;
	if (f->type == TS_FIELD_ARRAY) {
		v->elsize = f->elsize;
		v->nr = len / f->elsize;
	} else if (f->type == TS_FIELD_NUM) {
		v->num = ts_field_num(p + off, len, f->is_signed);
	}
}

int ts_decoder_for_each_field(struct ts_decoder *d, int tp_id, const void *raw, uint32_t size,
			      ts_field_fn fn, void *ctx)
{
	const struct ts_field_desc *f = NULL;
	struct ts_field_value v;
	int i, nr = 0, ret;

	if (!tep_find_event(d->tep, tp_id))
		return -TS_ENOFORMAT;
	f = ts_decoder_fields(d, tp_id, &nr);
	if (!f)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		memset(&v, 0, sizeof(v));
		ts_field_get(&f[i], raw, size, &v);
		ret = fn(ctx, &v);
		if (ret)
			return ret;
	}
	return 0;
}
