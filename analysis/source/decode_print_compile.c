// SPDX-License-Identifier: GPL-2.0-only
/*
 * dump's fast printer, compiled: an event of the table gets its print fmt compiled once into
 * literal pieces and conversions over expressions flattened out of libtraceevent's parsed
 * arguments (fields at their offsets, casts and constants resolved, constant parts folded);
 * anything it does not know (a helper function, a '*' width, an unknown cast) leaves the
 * event to libtraceevent.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode_print.h"

static int numeric(const char *s)
{
	char *end;

	strtoull(s, &end, 0);
	return *s && !*end;
}

#define SYM_KNOWN 0x5a5a5a5a5a5a5a5aull /* a name libtraceevent knows: left to it */

/*
 * A __print_symbolic value: a number, or a name. libtraceevent knows the softirqs' and
 * HRTIMER_(NO)RESTART and takes any other name as -1 (a kernel without TRACE_DEFINE_ENUM).
 */
static uint64_t sym_value(const char *s)
{
	size_t n = strlen(s);

	if (numeric(s))
		return strtoull(s, NULL, 0);
	if ((n > 8 && !strcmp(s + n - 8, "_SOFTIRQ")) || strstr(s, "RESTART") || !n ||
	    (s[0] >= '0' && s[0] <= '9'))
		return SYM_KNOWN;
	return (uint64_t)-1;
}

static int op_known(const char *op)
{
	static const char *const ops[] = {
		"?",  "|",  "||", "&",	"&&", "+",  "-",  "*",	"/", "^",
		"==", "!=", "<",  "<=", ">",  ">=", "<<", ">>", "!", "~"
	};
	size_t i;

	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strcmp(op, ops[i]))
			return 1;
	return 0;
}

/* A cast of the print fmt: 64 for a 64-bit type, 32/16/8 (negative: signed), 0 unknown. */
static int cast_bits(const char *t)
{
	static const struct {
		const char *type;
		int bits;
	} casts[] = {
		{ "unsigned long long", 64 },
		{ "long long", 64 },
		{ "unsigned long", 64 },
		{ "long", 64 },
		{ "u64", 64 },
		{ "s64", 64 },
		{ "unsigned int", 32 },
		{ "int", -32 },
		{ "u32", 32 },
		{ "s32", -32 },
		{ "unsigned short", 16 },
		{ "short", -16 },
		{ "u16", 16 },
		{ "s16", -16 },
		{ "unsigned char", 8 },
		{ "u8", 8 },
		{ "s8", -8 },
	};
	size_t i;

	for (i = 0; i < sizeof(casts) / sizeof(casts[0]); i++)
		if (!strcmp(t, casts[i].type))
			return casts[i].bits;
	return 0;
}

/* Is @a an argument tree this printer evaluates (resolving its fields)? */
static int arg_ok(struct tep_event *ev, struct tep_print_arg *a, int depth)
{
	struct tep_print_flag_sym *fl;

	if (!a || depth > 32)
		return 0;
	switch (a->type) {
	case TEP_PRINT_ATOM:
		return 1;
	case TEP_PRINT_TYPE:
		return cast_bits(a->typecast.type) && arg_ok(ev, a->typecast.item, depth + 1);
	case TEP_PRINT_FIELD:
		if (!a->field.field)
			a->field.field = tep_find_any_field(ev, a->field.name);
		return a->field.field && a->field.field->size > 0;
	case TEP_PRINT_STRING:
		if (!a->string.field)
			a->string.field = tep_find_any_field(ev, a->string.string);
		return a->string.field != NULL;
	case TEP_PRINT_OP:
		if (!op_known(a->op.op))
			return 0;
		if (!strcmp(a->op.op, "?"))
			return arg_ok(ev, a->op.left, depth + 1) && a->op.right &&
			       a->op.right->type == TEP_PRINT_OP &&
			       arg_ok(ev, a->op.right->op.left, depth + 1) &&
			       arg_ok(ev, a->op.right->op.right, depth + 1);
		return (!a->op.left || arg_ok(ev, a->op.left, depth + 1)) &&
		       arg_ok(ev, a->op.right, depth + 1);
	case TEP_PRINT_FLAGS:
		for (fl = a->flags.flags; fl;
		     fl = fl->next) /* no 0 flag: no doubt on its meaning */
			if (!fl->value || !fl->str || !numeric(fl->value) ||
			    !strtoull(fl->value, 0, 0))
				return 0;
		return arg_ok(ev, a->flags.field, depth + 1);
	case TEP_PRINT_SYMBOL:
		for (fl = a->symbol.symbols; fl; fl = fl->next)
			if (!fl->value || !fl->str || sym_value(fl->value) == SYM_KNOWN)
				return 0;
		return arg_ok(ev, a->symbol.field, depth + 1);
	default:
		return 0;
	}
}

/* Is a %s argument one this printer renders exactly? */
static int str_ok(struct tep_event *ev, struct tep_print_arg *a, int depth)
{
	struct tep_format_field *f;

	if (!a || depth > 32 || !arg_ok(ev, a, depth))
		return 0;
	switch (a->type) {
	case TEP_PRINT_ATOM:
	case TEP_PRINT_STRING:
	case TEP_PRINT_FLAGS:
	case TEP_PRINT_SYMBOL:
		return 1;
	case TEP_PRINT_FIELD:
		f = a->field.field;
		return (f->flags &
			(TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_STRING)) &&
		       f->elementsize <= 1;
	case TEP_PRINT_OP:
		return !strcmp(a->op.op, "?") && str_ok(ev, a->op.right->op.left, depth + 1) &&
		       str_ok(ev, a->op.right->op.right, depth + 1);
	default:
		return 0;
	}
}

static int num_ok(struct tep_event *ev, struct tep_print_arg *a)
{
	struct tep_format_field *f;

	if (!arg_ok(ev, a, 0) || a->type == TEP_PRINT_STRING || a->type == TEP_PRINT_FLAGS ||
	    a->type == TEP_PRINT_SYMBOL)
		return 0;
	if (a->type == TEP_PRINT_ATOM) {
		char *end;

		strtoull(a->atom.atom, &end, 0);
		return !*end;
	}
	f = a->type == TEP_PRINT_FIELD ? a->field.field : NULL;
	return !f ||
	       !(f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_STRING));
}

/* Parse one conversion at @s (after '%') into @pc; return its length, or -1. */
static int parse_conv(const char *s, struct piece *pc)
{
	const char *q = s, *len_at;
	int n;

	while (*q && strchr("-+ #0", *q))
		q++;
	while (*q >= '0' && *q <= '9')
		q++;
	if (*q == '.')
		for (q++; *q >= '0' && *q <= '9'; q++)
			;
	pc->plain = q == s;
	len_at = q;
	while (*q == 'l' || *q == 'h' || *q == 'z' || *q == 'L') /* L: long long, as ll */
		q++;
	pc->wide = q > len_at;
	if (!*q || !strchr("diuxXosp", *q) || (q > len_at && *len_at == 'h'))
		return -1;
	pc->conv = *q;
	/* "%03d": zeros to a width, written here (a negative number still goes to snprintf) */
	if (s[0] == '0' && s[1] != '0' && len_at - s >= 2 && len_at - s <= 3 && strchr("diu", *q)) {
		const char *w = s + 1;

		while (w < len_at && *w >= '0' && *w <= '9')
			w++;
		if (w == len_at)
			pc->zpad = (uint8_t)strtoul(s + 1, NULL, 10);
	}
	n = snprintf(pc->spec, sizeof(pc->spec), "%%%.*s%s%c", (int)(len_at - s), s,
		     pc->wide ? "ll" : "", *q);
	if (q - len_at > 2 || n >= (int)sizeof(pc->spec) || (pc->conv == 'p' && !pc->plain))
		return -1;
	if (*q == 'p' && q[1] && strchr("sSfF", q[1])) {
		pc->pfn = q[1];
		q++;
	} else if (*q == 'p' && ((q[1] >= 'a' && q[1] <= 'z') || (q[1] >= 'A' && q[1] <= 'Z'))) {
		return -1; /* %pM, %pI4, ... */
	}
	return (int)(q - s) + 1;
}

/* The smallest payload holding every static field of @ev; its dynamic ones into @pr. */
static uint32_t static_end(struct ts_print_prog *pr, const struct tep_event *ev)
{
	const struct tep_format_field *f;
	uint32_t end = 0;
	int pass;

	for (pass = 0; pass < 2; pass++) {
		for (f = pass ? ev->format.fields : ev->format.common_fields; f; f = f->next) {
			if (f->offset < 0 || f->size < 0 ||
			    (f->flags & TEP_FIELD_IS_DYNAMIC && (f->size < 4 || pr->nr_dyn >= 8))) {
				pr->nr_dyn = 99; /* left to libtraceevent's checks */
				continue;
			}
			if ((uint32_t)(f->offset + f->size) > end)
				end = f->offset + f->size;
			if (f->flags & TEP_FIELD_IS_DYNAMIC)
				pr->dyn[pr->nr_dyn++] = f;
		}
	}
	return end;
}

static int compile_pieces(struct ts_print_prog *pr, struct tep_print_arg *a)
{
	char *s = pr->fmt, *lit = s;
	struct piece *pc;
	int n;

	for (;;) {
		if (*s && (*s != '%' || s[1] == '%')) {
			if (*s == '%') /* "%%": keep one '%' by moving the rest down */
				memmove(s + 1, s + 2, strlen(s + 2) + 1);
			s++;
			continue;
		}
		pc = &pr->p[pr->nr++];
		memset(pc, 0, sizeof(*pc));
		pc->lit = lit;
		pc->litlen = (uint16_t)(s - lit);
		if (!*s)
			return a ? -1 : 0; /* every argument used */
		n = parse_conv(s + 1, pc);
		if (n < 0 || !a)
			return -1;
		if (pc->conv == 's' && num_ok(pr->ev, a) && a->type == TEP_PRINT_FIELD &&
		    a->field.field->size == 8 && pc->plain && !pr->nr_ptr++)
			pc->ptr = 1; /* one a format: its text is what libtraceevent's line adds */
		else if (pc->conv == 's' ? !str_ok(pr->ev, a, 0) : !num_ok(pr->ev, a))
			return -1;
		if (pc->conv == 's' && !pc->plain)
			return -1;
		pc->arg = a;
		a = a->next;
		s += 1 + n;
		lit = s;
	}
}

/* @size bytes of @pr's arena, zeroed; NULL without memory. */
static void *pool_alloc(struct ts_print_prog *pr, size_t size)
{
	struct pool *b = pr->pool;
	void *p;

	size = (size + 7) & ~(size_t)7;
	if (size > sizeof(b->mem))
		return NULL;
	if (!b || b->used + size > sizeof(b->mem)) {
		b = calloc(1, sizeof(*b));
		if (!b)
			return NULL;
		b->next = pr->pool;
		pr->pool = b;
	}
	p = b->mem + b->used;
	b->used += size;
	return p;
}

/*
 * @s (@len bytes) where put_lit() may read TS_PRINT_LIT_PAD bytes: a short one copied into
 * the arena with that room after it, a long one as it is (put_lit() copies it by its length).
 */
static const char *lit_copy(struct ts_print_prog *pr, const char *s, size_t len)
{
	char *t;

	if (len > TS_PRINT_LIT_PAD)
		return s;
	t = pool_alloc(pr, len + 1 + TS_PRINT_LIT_PAD);
	if (t)
		memcpy(t, s, len);
	return t;
}

static const struct xn *xcompile(struct ts_print_prog *pr, const struct tep_print_arg *a,
				 int depth);

/* An operator @op (c ? a : b, a unary or a binary one) into @x; 0, or -1 without memory. */
static int xcompile_op(struct ts_print_prog *pr, struct xn *x, const struct tep_print_arg_op *op,
		       int depth)
{
	const struct tep_print_arg *b;

	x->o0 = op->op[0];
	x->o1 = x->o0 ? op->op[1] : 0;
	if (x->o0 == '?') {
		b = op->right;
		x->op = XN_COND;
		x->a = xcompile(pr, op->left, depth + 1);
		x->b = xcompile(pr, b->op.left, depth + 1);
		x->c = xcompile(pr, b->op.right, depth + 1);
		return !x->a || !x->b || !x->c ? -1 : 0;
	}
	if (!op->left) {
		x->op = XN_UN;
		x->a = xcompile(pr, op->right, depth + 1);
		return x->a ? 0 : -1;
	}
	x->op = XN_BIN;
	x->a = xcompile(pr, op->left, depth + 1);
	x->b = xcompile(pr, op->right, depth + 1);
	return !x->a || !x->b ? -1 : 0;
}

/* @a (arg_ok() accepted it) as a numeric expression; NULL without memory. */
static const struct xn *xcompile(struct ts_print_prog *pr, const struct tep_print_arg *a, int depth)
{
	struct xn *x = pool_alloc(pr, sizeof(*x));

	if (!x || !a || depth > 32)
		return NULL;
	switch (a->type) {
	case TEP_PRINT_ATOM:
		x->op = XN_CONST;
		x->k = strtoull(a->atom.atom, NULL, 0);
		return x;
	case TEP_PRINT_FIELD:
		x->op = XN_FIELD;
		x->off = a->field.field->offset;
		x->size = a->field.field->size;
		return x;
	case TEP_PRINT_TYPE:
		x->op = XN_CAST;
		x->bits = cast_bits(a->typecast.type);
		x->a = xcompile(pr, a->typecast.item, depth + 1);
		if (!x->a)
			return NULL;
		/*
		 * A cast that keeps every value: to 64 bits, or of a field (read zero-extended)
		 * no wider than the type's value bits; render() then reads the field inline
		 */
		if (x->bits == 64 ||
		    (x->a->op == XN_FIELD && (x->bits > 0 ? x->a->size * 8 <= (uint32_t)x->bits :
							    x->a->size * 8 < (uint32_t)-x->bits)))
			return x->a;
		break;
	case TEP_PRINT_OP:
		if (xcompile_op(pr, x, &a->op, depth))
			return NULL;
		break;
	default: /* a string, flags or symbols as a number: libtraceevent's eval gives 0 */
		x->op = XN_CONST;
		return x;
	}
	/* no field below: the value is known now */
	if (x->a->op == XN_CONST && (!x->b || x->b->op == XN_CONST) &&
	    (!x->c || x->c->op == XN_CONST)) {
		x->k = xeval(x, NULL);
		x->op = XN_CONST;
	}
	return x;
}

/* The flags or symbols of @fl as a table; NULL without memory. */
static const struct fsym *fsym_table(struct ts_print_prog *pr, const struct tep_print_flag_sym *fl,
				     int sym, int *nt)
{
	const struct tep_print_flag_sym *f;
	struct fsym *t;
	int n = 0;

	for (f = fl; f; f = f->next)
		n++;
	*nt = n;
	t = pool_alloc(pr, (n ? n : 1) * sizeof(*t));
	for (n = 0, f = fl; t && f; f = f->next, n++) {
		t[n].v = sym ? sym_value(f->value) : strtoull(f->value, NULL, 0);
		t[n].len = strlen(f->str);
		t[n].s = lit_copy(pr, f->str, t[n].len);
		if (!t[n].s)
			return NULL;
	}
	return t;
}

/* @a (str_ok() accepted it) as a %s argument; NULL without memory. */
static const struct sn *scompile(struct ts_print_prog *pr, const struct tep_print_arg *a, int depth)
{
	struct sn *n = pool_alloc(pr, sizeof(*n));
	const struct tep_format_field *f = NULL;

	if (!n || !a || depth > 32)
		return NULL;
	switch (a->type) {
	case TEP_PRINT_ATOM:
		n->op = SN_LIT;
		n->len = strlen(a->atom.atom);
		n->s = lit_copy(pr, a->atom.atom, n->len);
		return n->s ? n : NULL;
	case TEP_PRINT_FIELD:
	case TEP_PRINT_STRING:
		f = a->type == TEP_PRINT_FIELD ? a->field.field : a->string.field;
		n->op = SN_FIELD;
		n->off = f->offset;
		n->size = f->size;
		n->dynamic = !!(f->flags & TEP_FIELD_IS_DYNAMIC);
		n->relative = !!(f->flags & TEP_FIELD_IS_RELATIVE);
		return n;
	case TEP_PRINT_OP: /* ?: */
		n->op = SN_COND;
		n->x = xcompile(pr, a->op.left, depth + 1);
		n->a = scompile(pr, a->op.right->op.left, depth + 1);
		n->b = scompile(pr, a->op.right->op.right, depth + 1);
		return n->x && n->a && n->b ? n : NULL;
	case TEP_PRINT_FLAGS:
		n->op = SN_FLAGS;
		n->len = a->flags.delim ? strlen(a->flags.delim) : 0;
		n->s = lit_copy(pr, a->flags.delim ? a->flags.delim : "", n->len);
		n->x = xcompile(pr, a->flags.field, depth + 1);
		n->t = fsym_table(pr, a->flags.flags, 0, &n->nt);
		return n->s && n->x && n->t ? n : NULL;
	default: /* TEP_PRINT_SYMBOL */
		n->op = SN_SYMBOL;
		n->x = xcompile(pr, a->symbol.field, depth + 1);
		n->t = fsym_table(pr, a->symbol.symbols, 1, &n->nt);
		return n->x && n->t ? n : NULL;
	}
}

/* What render() does with @pc (PK_*). */
static uint8_t piece_kind(const struct piece *pc)
{
	if (!pc->conv)
		return PK_END;
	if (pc->ptr)
		return PK_PTR;
	if (pc->conv == 's')
		return PK_STR;
	if (pc->pfn)
		return PK_FUNC;
	if (!pc->plain)
		return PK_NUM;
	switch (pc->conv) {
	case 'd':
	case 'i':
		return PK_SDEC;
	case 'u':
		return PK_UDEC;
	case 'x':
		return PK_HEX;
	default:
		return PK_NUM;
	}
}

/* Every piece's argument flattened; Return: 0, or -1 without memory. */
static int flatten(struct ts_print_prog *pr)
{
	for (int i = 0; i < pr->nr; i++) {
		struct piece *pc = &pr->p[i];

		pc->kind = piece_kind(pc);
		if (!pc->conv)
			continue;
		if (pc->conv == 's' && !pc->ptr)
			pc->s = scompile(pr, pc->arg, 0);
		else
			pc->x = xcompile(pr, pc->arg, 0);
		if (!pc->s && !pc->x)
			return -1;
	}
	return 0;
}

/* The bytes [*@lo, *@hi) widened to hold the fields @x reads. */
static void xspan(const struct xn *x, uint32_t *lo, uint32_t *hi)
{
	if (!x)
		return;
	if (x->op == XN_FIELD) {
		*lo = x->off < *lo ? x->off : *lo;
		*hi = x->off + x->size > *hi ? x->off + x->size : *hi;
	}
	xspan(x->a, lo, hi);
	xspan(x->b, lo, hi);
	xspan(x->c, lo, hi);
}

/* As xspan(), for a string's tree; -1 when it reads a __data_loc string. */
static int sspan(const struct sn *n, uint32_t *lo, uint32_t *hi)
{
	if (!n)
		return 0;
	if (n->op == SN_FIELD) {
		if (n->dynamic)
			return -1;
		*lo = n->off < *lo ? n->off : *lo;
		*hi = n->off + n->size > *hi ? n->off + n->size : *hi;
	}
	xspan(n->x, lo, hi);
	return sspan(n->a, lo, hi) || sspan(n->b, lo, hi) ? -1 : 0;
}

/*
 * The memo's key (decode_print.c): the span of the payload every piece reads, when the text
 * depends on those bytes alone (no __data_loc string, no symbol whose table is loaded later).
 * A learnt pointer's string is the pointer's for good (learnt once, never changed), and a text
 * is kept only once render() found it learnt: its pointer is part of the key like a number
 * (rcu_utilization, a third of a scheduler trace's lines, is one copy of six texts).
 */
static void memo_span(struct ts_print_prog *pr)
{
	uint32_t lo = UINT32_MAX, hi = 0;

	if (pr->nr_dyn)
		return;
	for (int i = 0; i < pr->nr; i++) {
		const struct piece *pc = &pr->p[i];

		if (pc->pfn || sspan(pc->s, &lo, &hi))
			return;
		xspan(pc->x, &lo, &hi);
	}
	if (hi > lo)
		ts_memo_span(&pr->memo, lo, hi, pr->min_size);
}

/* Compile @ev's print fmt; NULL when libtraceevent must print it. */
struct ts_print_prog *ts_print_compile(struct tep_handle *tep, struct tep_event *ev)
{
	struct ts_print_prog *pr;
	const char *fmt = ev->print_fmt.format;
	size_t len, maxp;

	if (!fmt || ev->handler || ev->flags || tep_get_long_size(tep) != 8 ||
	    tep_is_file_bigendian(tep) != tep_is_local_bigendian(tep))
		return NULL;
	len = strlen(fmt);
	maxp = len / 2 + 2;
	pr = calloc(1, sizeof(*pr) + len + 1 + TS_PRINT_LIT_PAD); /* see put_lit() */
	if (!pr)
		return NULL;
	pr->p = calloc(maxp, sizeof(*pr->p));
	memcpy(pr->fmt, fmt, len + 1);
	pr->ev = ev;
	pr->min_size = static_end(pr, ev);
	if (!pr->p || pr->nr_dyn > 8 || compile_pieces(pr, ev->print_fmt.args) || flatten(pr)) {
		ts_print_free(pr);
		return NULL;
	}
	memo_span(pr);
	return pr;
}

void ts_print_free(struct ts_print_prog *pr)
{
	struct pool *b, *n;

	if (!pr)
		return;
	for (b = pr->pool; b; b = n) {
		n = b->next;
		free(b);
	}
	ts_memo_free(&pr->memo);
	free(pr->p);
	free(pr);
}
