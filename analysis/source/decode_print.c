// SPDX-License-Identifier: GPL-2.0-only
/*
 * dump's fast printer, run: a compiled print fmt (decode_print_compile.c) over a payload,
 * checked against the payload's size first, as libtraceevent's line would read it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/digits.h"
#include "decode_print.h"

struct obuf {
	char *b;
	size_t n, cap;
	int bad; /* overflow or a string outside the payload */
};

/* Whether @n more bytes leave the text below its room (render() fails at o.n >= cap). */
static inline int room(const struct obuf *o, size_t n)
{
	return o->n + n < o->cap;
}

static inline void put(struct obuf *o, const char *s, size_t n)
{
	if (!room(o, n)) {
		o->bad = 1;
		return;
	}
	memcpy(o->b + o->n, s, n);
	o->n += n;
}

/*
 * @n bytes at @s, where @pad bytes may be read: one fixed-size copy when @n fits in them (the
 * program's copies of the format, of its string atoms and of its flag and symbol names have
 * TS_PRINT_LIT_PAD bytes after them; a learnt string's array holds more).
 */
static inline void put_pad(struct obuf *o, const char *s, size_t n, size_t pad)
{
	if (n <= pad && room(o, pad)) {
		memcpy(o->b + o->n, s, pad);
		o->n += n;
		return;
	}
	put(o, s, n);
}

static inline void put_lit(struct obuf *o, const char *s, size_t n)
{
	put_pad(o, s, n, TS_PRINT_LIT_PAD);
}

/* @v in decimal (at least @w digits, zeros first) or in hex, written in place. */
static void putu_w(struct obuf *o, uint64_t v, int hex, int w)
{
	int n = hex ? ts_nxdigits(v) : ts_ndigits(v), z = w > n ? w - n : 0;

	if (!room(o, (size_t)n + z)) {
		o->bad = 1;
		return;
	}
	memset(o->b + o->n, '0', z);
	o->n += z + n;
	if (hex)
		ts_xdigits(o->b + o->n, v);
	else
		ts_digits(o->b + o->n, v);
}

static void putu(struct obuf *o, uint64_t v, int hex)
{
	putu_w(o, v, hex, 0);
}

/* @v in decimal, written in place: a plain %u, or %d's magnitude */
static inline void putdec(struct obuf *o, uint64_t v)
{
	int n = ts_ndigits(v);

	if (!room(o, (size_t)n)) {
		o->bad = 1;
		return;
	}
	o->n += n;
	ts_digits(o->b + o->n, v);
}

/* strnlen() of at most 16 bytes that may all be read: two words, the first NUL's byte. */
static inline size_t strnlen16(const char *s, size_t max)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
	uint64_t w[2], z;
	size_t n = 16;

	memcpy(w, s, 16);
	/* the lowest flagged byte is exact: a false one only follows a true NUL */
	if ((z = (w[0] - ones) & ~w[0] & highs))
		n = __builtin_ctzll(z) / 8;
	else if ((z = (w[1] - ones) & ~w[1] & highs))
		n = 8 + __builtin_ctzll(z) / 8;
	return n < max ? n : max;
#else
	return strnlen(s, max);
#endif
}

/* xeval() without its call in the usual case, a field alone */
static inline uint64_t xval(const struct xn *x, const unsigned char *p)
{
	return x->op == XN_FIELD ? rd(p + x->off, (int)x->size) : xeval(x, p);
}

/* A __data_loc string or a char array, bounded by its length and the payload. */
static void field_str(struct obuf *o, const struct sn *f, const unsigned char *p, uint32_t size)
{
	uint32_t off = f->off, len = f->size;
	const char *s;

	if (f->dynamic) {
		uint32_t loc = (uint32_t)rd(p + f->off, 4);

		off = (loc & 0xffff) + (f->relative ? off + 4 : 0);
		len = loc >> 16;
	}
	if (off + len > size) {
		o->bad = 1;
		len = 0;
	}
	s = (const char *)p + off;
	if (len <= 16 && (uint64_t)off + 16 <= size && room(o, 16)) { /* a comm: one move */
		memcpy(o->b + o->n, s, 16);
		o->n += strnlen16(s, len);
		return;
	}
	put(o, s, strnlen(s, len));
}

static void flags_str(struct obuf *o, const struct sn *f, const unsigned char *p)
{
	uint64_t v = xval(f->x, p), fv;
	int any = 0, i;

	for (i = 0; i < f->nt; i++) {
		fv = f->t[i].v;
		if (!v && !fv) {
			put_lit(o, f->t[i].s, f->t[i].len);
			break;
		}
		if (fv && (v & fv) == fv) {
			if (any)
				put_lit(o, f->s, f->len);
			put_lit(o, f->t[i].s, f->t[i].len);
			any = 1;
			v &= ~fv;
		}
	}
	if (v) {
		if (any)
			put_lit(o, f->s, f->len);
		put(o, "0x", 2);
		putu(o, v, 1);
	}
}

static void arg_str(struct obuf *o, const struct sn *f, const unsigned char *p, uint32_t size)
{
	uint64_t v;
	int i;

	switch (f->op) {
	case SN_LIT:
		put_lit(o, f->s, f->len);
		return;
	case SN_FIELD:
		field_str(o, f, p, size);
		return;
	case SN_COND:
		arg_str(o, xeval(f->x, p) ? f->a : f->b, p, size);
		return;
	case SN_FLAGS:
		flags_str(o, f, p);
		return;
	default: /* SN_SYMBOL */
		v = xval(f->x, p);
		for (i = 0; i < f->nt; i++)
			if (v == f->t[i].v) {
				put_lit(o, f->t[i].s, f->t[i].len);
				return;
			}
		put(o, "0x", 2);
		putu(o, v, 1);
	}
}

/* %ps and friends: the symbol (+offset for S and F), or the address in hex. */
static void func_str(struct obuf *o, struct tep_handle *tep, struct ts_print_prog *pr, char pfn,
		     uint64_t v)
{
	/* libtraceevent searches every symbol: remember the last address of each slot */
	struct func *fn = &pr->funcs[(v >> 4) % NR_FUNCS];

	if (fn->addr != v || !fn->addr) {
		fn->addr = v;
		fn->name = tep_find_function(tep, v);
		fn->base = fn->name ? tep_find_function_address(tep, v) : 0;
	}
	if (!fn->name) {
		put(o, "0x", 2);
		putu(o, v, 1);
		return;
	}
	put(o, fn->name, strlen(fn->name));
	if (pfn == 'S' || pfn == 'F') {
		put(o, "+0x", 3);
		putu(o, v - fn->base, 1);
	}
}

static void num_str(struct obuf *o, const struct piece *pc, uint64_t v)
{
	char t[64];
	int n;

	if (!pc->wide && pc->conv != 'p')
		v = pc->conv == 'd' || pc->conv == 'i' ? (uint64_t)(int64_t)(int32_t)v :
							 (uint32_t)v;
	if (pc->plain && (pc->conv == 'd' || pc->conv == 'i') && (int64_t)v < 0) {
		put(o, "-", 1);
		putu(o, -v, 0);
	} else if (pc->plain && pc->conv != 'X' && pc->conv != 'o') {
		if (pc->conv == 'p' && !v)
			put(o, "(nil)", 5);
		else if (pc->conv == 'p')
			put(o, "0x", 2);
		if (v || pc->conv != 'p')
			putu(o, v, pc->conv == 'x' || pc->conv == 'p');
	} else if (pc->zpad && (pc->conv == 'u' || (int64_t)v >= 0)) {
		putu_w(o, v, 0, pc->zpad);
	} else {
		n = snprintf(t, sizeof(t), pc->spec, (long long)v);
		if (n < 0 || n >= (int)sizeof(t))
			o->bad = 1;
		else
			put(o, t, n);
	}
}

/* The string learnt for @addr; 0, or -1 when not learnt yet (libtraceevent prints it). */
static int ptr_str(struct obuf *o, const struct ts_print_prog *pr, uint64_t addr)
{
	for (int i = 0; i < pr->nr_learnt; i++)
		if (pr->learnt[i].addr == addr) {
			put_pad(o, pr->learnt[i].s, pr->learnt[i].len, 48);
			return 0;
		}
	return -1;
}

/* Whether every dynamic field of @pr lies inside the @size bytes at @p (as decode.c's
 * fields_inside()) */
static inline int dyn_inside(const struct ts_print_prog *pr, const unsigned char *p, uint32_t size)
{
	for (int i = 0; i < pr->nr_dyn; i++) {
		uint32_t loc = (uint32_t)rd(p + pr->dyn[i]->offset, 4), off = loc & 0xffff;

		if (pr->dyn[i]->flags & TEP_FIELD_IS_RELATIVE)
			off += pr->dyn[i]->offset + pr->dyn[i]->size;
		if (off + (loc >> 16) > size)
			return 0;
	}
	return 1;
}

/*
 * Render @raw with @pr into @buf; with @at, the pointer's piece is left out and @at and @addr
 * say where it goes and what it is.
 */
static long render(struct tep_handle *tep, struct ts_print_prog *pr, const void *raw, uint32_t size,
		   char *buf, size_t cap, size_t *at, uint64_t *addr)
{
	const unsigned char *p = raw;
	struct obuf o = { buf, 0, cap, 0 };
	const struct piece *pc;
	uint64_t v;
	int i;

	if (size < pr->min_size || !dyn_inside(pr, p, size))
		return -1;
	for (i = 0; i < pr->nr; i++) { /* the last piece is the only PK_END */
		pc = &pr->p[i];
		put_lit(&o, pc->lit, pc->litlen);
		switch (pc->kind) {
		case PK_END:
			break;
		case PK_PTR:
			if (at) {
				*at = o.n;
				*addr = xeval(pc->x, p);
			} else if (ptr_str(&o, pr, xval(pc->x, p))) {
				return -1;
			}
			break;
		case PK_STR:
			arg_str(&o, pc->s, p, size);
			break;
		case PK_FUNC:
			func_str(&o, tep, pr, pc->pfn, xval(pc->x, p));
			break;
		case PK_SDEC: /* as num_str(): an int unless l, ll or z */
			v = xval(pc->x, p);
			if (!pc->wide)
				v = (uint64_t)(int64_t)(int32_t)v;
			if ((int64_t)v < 0) {
				put(&o, "-", 1);
				v = -v;
			}
			putdec(&o, v);
			break;
		case PK_UDEC:
			v = xval(pc->x, p);
			putdec(&o, pc->wide ? v : (uint32_t)v);
			break;
		case PK_HEX:
			v = xval(pc->x, p);
			putu(&o, pc->wide ? v : (uint32_t)v, 1);
			break;
		default:
			num_str(&o, pc, xval(pc->x, p));
		}
	}
	if (o.bad || o.n >= cap)
		return -1;
	return (long)o.n;
}

/*
 * Render @raw with program @pr into @buf, not NUL-terminated; its length, or -1 when the
 * payload is not one this printer can vouch for (then libtraceevent prints it, and says what
 * is wrong with it), the text does not fit, or a pointer's string is not learnt yet. A text
 * the memo holds is copied from it.
 */
long ts_print_run(struct tep_handle *tep, struct ts_print_prog *pr, const void *raw, uint32_t size,
		  char *buf, size_t cap)
{
	uint64_t key[TS_MEMO_WORDS];
	struct ts_memo_ent *e;
	int hit;
	long n;

	if (size < pr->min_size)
		return -1;
	e = ts_memo_find(&pr->memo, raw, size, key, &hit);
	if (hit && e->len < cap) {
		memcpy(buf, e->text, cap > TS_MEMO_TEXT ? TS_MEMO_TEXT : e->len);
		return e->len;
	}
	n = render(tep, pr, raw, size, buf, cap, NULL, NULL);
	if (e && n > 0)
		ts_memo_keep(&pr->memo, e, key, buf, n);
	return n;
}

/*
 * libtraceevent printed @raw as @text: learn its pointer's string, what @text holds between
 * the compiled printer's own text before and after the pointer's piece.
 */
void ts_print_learn(struct tep_handle *tep, struct ts_print_prog *pr, const void *raw,
		    uint32_t size, const char *text)
{
	size_t tl = strlen(text), at = 0, mid;
	struct learnt *l;
	uint64_t addr = 0;
	char buf[1024];
	long n;

	if (!pr->nr_ptr || pr->nr_learnt == MAX_LEARNT)
		return;
	n = render(tep, pr, raw, size, buf, sizeof(buf), &at, &addr);
	if (n < 0 || tl < (size_t)n || tl - n >= sizeof(l->s))
		return;
	mid = tl - n;
	if (memcmp(text, buf, at) || memcmp(text + at + mid, buf + at, n - at))
		return;
	l = &pr->learnt[pr->nr_learnt++];
	l->addr = addr;
	l->len = (uint8_t)mid;
	memcpy(l->s, text + at, mid);
}
