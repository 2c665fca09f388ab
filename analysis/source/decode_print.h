/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to dump's compiled printer (decode_print_compile.c builds a program, decode_print.c
 * runs it): the flattened expressions, the pieces of a print fmt, and the program.
 */
#ifndef TS_DECODE_PRINT_H
#define TS_DECODE_PRINT_H

#include "common/memo.h"
#include "decode_priv.h"

/* Bytes after the program's copy of the print fmt, so that a literal is copied 16 at a time */
#define TS_PRINT_LIT_PAD 16

/* @v cast as the print fmt casts it: 64, 32, 16 or 8 bits, negative for signed types */
static inline uint64_t cast(uint64_t v, int bits)
{
	switch (bits) {
	case 32:
		return (uint32_t)v;
	case -32:
		return (uint64_t)(int64_t)(int32_t)v;
	case 16:
		return (uint16_t)v;
	case -16:
		return (uint64_t)(int64_t)(int16_t)v;
	case 8:
		return (uint8_t)v;
	case -8:
		return (uint64_t)(int64_t)(int8_t)v;
	default:
		return v;
	}
}

/* A field of @size bytes at @p, zero-extended as libtraceevent reads it */
static inline uint64_t rd(const unsigned char *p, int size)
{
	uint64_t v = 0;

	switch (size) {
	case 1:
		return p[0];
	case 2: {
		uint16_t x;

		memcpy(&x, p, 2);
		return x;
	}
	case 4: {
		uint32_t x;

		memcpy(&x, p, 4);
		return x;
	}
	default:
		memcpy(&v, p, size < 8 ? size : 8);
		return v;
	}
}

/*
 * A binary operator of the print fmt (@o0 and @o1, its characters), as C computes it on
 * unsigned 64-bit values.
 */
static inline uint64_t binop(char o0, char o1, uint64_t l, uint64_t r)
{
	switch (o0) {
	case '|':
		return o1 == '|' ? l || r : l | r;
	case '&':
		return o1 == '&' ? l && r : l & r;
	case '+':
		return l + r;
	case '-':
		return l - r;
	case '*':
		return l * r;
	case '/':
		return r ? l / r : 0;
	case '^':
		return l ^ r;
	case '=':
		return l == r;
	case '!':
		return l != r;
	case '<':
		if (o1 == '<')
			return r < 64 ? l << r : 0;
		return o1 == '=' ? l <= r : l < r;
	case '>':
		if (o1 == '>')
			return r < 64 ? l >> r : 0;
		return o1 == '=' ? l >= r : l > r;
	default:
		return 0;
	}
}

/*
 * A numeric expression of the print fmt, flattened: a field at its offset, a constant (every
 * part without a field is folded into one at compile time), a cast, ?:, or an operator.
 */
enum { XN_CONST, XN_FIELD, XN_CAST, XN_COND, XN_UN, XN_BIN };

struct xn {
	uint8_t op;
	char o0, o1; /* the operator's characters */
	int8_t bits; /* XN_CAST: cast_bits() */
	uint32_t off, size; /* XN_FIELD */
	uint64_t k; /* XN_CONST */
	const struct xn *a, *b, *c;
};

/* A flag or symbol of __print_flags() / __print_symbolic(), its value parsed. */
struct fsym {
	uint64_t v;
	const char *s;
	uint32_t len;
};

/* A %s argument: a literal, a string field, ?:, or flags and symbols of a value. */
enum { SN_LIT, SN_FIELD, SN_COND, SN_FLAGS, SN_SYMBOL };

struct sn {
	uint8_t op;
	uint8_t dynamic, relative;
	uint32_t off, size; /* SN_FIELD */
	const char *s; /* SN_LIT; SN_FLAGS: the delimiter */
	uint32_t len;
	const struct xn *x; /* SN_COND's test, the value of SN_FLAGS and SN_SYMBOL */
	const struct sn *a, *b; /* SN_COND */
	const struct fsym *t;
	int nt;
};

/* The numeric value of @x, as libtraceevent evaluates it (fields read unsigned). */
static inline uint64_t xeval(const struct xn *x, const unsigned char *p)
{
	uint64_t l, r;

	switch (x->op) {
	case XN_CONST:
		return x->k;
	case XN_FIELD:
		return rd(p + x->off, (int)x->size);
	case XN_CAST:
		return cast(xeval(x->a, p), x->bits);
	case XN_COND:
		return xeval(x->a, p) ? xeval(x->b, p) : xeval(x->c, p);
	case XN_UN:
		r = xeval(x->a, p);
		return x->o0 == '!' ? !r : x->o0 == '~' ? ~r : x->o0 == '-' ? -r : r;
	default:
		l = xeval(x->a, p);
		r = xeval(x->b, p);
		return binop(x->o0, x->o1, l, r);
	}
}

/*
 * What render() does with a piece, chosen once at compile time: the tail literal alone, a
 * learnt pointer's string, a %s, a %ps symbol, a plain %d / %i (signed), a plain %u (unsigned),
 * a plain %x, or any other number (num_str()).
 */
enum { PK_END, PK_PTR, PK_STR, PK_FUNC, PK_SDEC, PK_UDEC, PK_HEX, PK_NUM };

/* One conversion of the print fmt and the literal text before it. */
struct piece {
	const char *lit; /* into the program's copy of the format */
	uint16_t litlen;
	uint8_t kind; /* PK_* */
	char conv; /* d i u x X o s p, 0: the tail literal only */
	char pfn; /* %p followed by s S f F: a function symbol */
	uint8_t plain; /* no flags, width or precision */
	uint8_t wide; /* l, ll or z */
	char spec[24]; /* the conversion for snprintf, length normalised to ll for wide ones */
	uint8_t ptr; /* %s of a pointer: a kernel string, learnt from libtraceevent's lines */
	uint8_t zpad; /* %0Nd, %0Nu, %0Ni: N, written here; 0 for snprintf */
	struct tep_print_arg *arg;
	const struct xn *x; /* a number's (or pointer's) value */
	const struct sn *s; /* a string's */
};

/* A pointer's string as libtraceevent printed it (rcu_utilization's "Start context switch"). */
struct learnt {
	uint64_t addr;
	uint8_t len;
	char s[55];
};

#define MAX_LEARNT 16
#define NR_FUNCS 16

/* A %ps address's symbol, as libtraceevent found it (name NULL: none), by address. */
struct func {
	uint64_t addr, base;
	const char *name;
};

/* The compiled nodes come from blocks of this arena, freed with the program. */
struct pool {
	struct pool *next;
	size_t used;
	unsigned char mem[4096 - 2 * sizeof(void *)] __attribute__((aligned(8)));
};

struct ts_print_prog {
	struct tep_event *ev;
	struct ts_memo memo; /* the texts of recent payloads, when they depend on a span alone */
	uint32_t min_size; /* every static field lies inside a payload this long */
	int nr_dyn;
	const struct tep_format_field *dyn[8]; /* the __data_loc fields, checked on every print */
	int nr;
	struct piece *p;
	struct pool *pool;
	int nr_ptr, nr_learnt;
	struct learnt learnt[MAX_LEARNT];
	struct func funcs[NR_FUNCS];
	char fmt[];
};

#endif
