// SPDX-License-Identifier: GPL-2.0-only
/*
 * dump's fast printer: an event of the table gets its print fmt compiled once into literal
 * pieces and conversions over libtraceevent's parsed arguments; anything it does not know
 * (a helper function, a '*' width, an unknown cast) leaves the event to libtraceevent.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decode_priv.h"

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

static uint64_t cast(uint64_t v, int bits)
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

static uint64_t rd(const unsigned char *p, int size)
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

/* A binary operator of the print fmt, as C computes it on unsigned 64-bit values. */
static uint64_t binop(const char *op, uint64_t l, uint64_t r)
{
	switch (op[0]) {
	case '|':
		return op[1] == '|' ? l || r : l | r;
	case '&':
		return op[1] == '&' ? l && r : l & r;
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
		if (op[1] == '<')
			return r < 64 ? l << r : 0;
		return op[1] == '=' ? l <= r : l < r;
	case '>':
		if (op[1] == '>')
			return r < 64 ? l >> r : 0;
		return op[1] == '=' ? l >= r : l > r;
	default:
		return 0;
	}
}

/*
 * The constants of a print fmt (atoms, flag and symbol values), parsed once at compile time:
 * an open-addressed table keyed by the string (or symbol entry) they come from.
 */
#define NR_CONSTS 256

struct ts_print_consts {
	struct {
		const void *key;
		uint64_t v;
	} e[NR_CONSTS];
};

static unsigned int const_slot(const void *key)
{
	return (unsigned int)(((uintptr_t)key >> 3) * 0x9e3779b1u) % NR_CONSTS;
}

static void const_add(struct ts_print_consts *k, const void *key, uint64_t v)
{
	unsigned int i = const_slot(key), n;

	for (n = 0; n < NR_CONSTS / 2; n++, i = (i + 1) % NR_CONSTS)
		if (!k->e[i].key || k->e[i].key == key) {
			k->e[i].key = key;
			k->e[i].v = v;
			return;
		}
}

/* @key's parsed value; @s parsed now when it is not in the table. */
static uint64_t konst(const struct ts_print_consts *k, const void *key, const char *s, int sym)
{
	unsigned int i = const_slot(key), n;

	for (n = 0; k && n < NR_CONSTS / 2 && k->e[i].key; n++, i = (i + 1) % NR_CONSTS)
		if (k->e[i].key == key)
			return k->e[i].v;
	return sym ? sym_value(s) : strtoull(s, NULL, 0);
}

/* Parse every constant under @a into @k (arg_ok() accepted the tree). */
static void consts_of(struct ts_print_consts *k, const struct tep_print_arg *a, int depth)
{
	const struct tep_print_flag_sym *fl;

	if (!a || depth > 32)
		return;
	switch (a->type) {
	case TEP_PRINT_ATOM:
		const_add(k, a->atom.atom, strtoull(a->atom.atom, NULL, 0));
		return;
	case TEP_PRINT_TYPE:
		consts_of(k, a->typecast.item, depth + 1);
		return;
	case TEP_PRINT_OP:
		consts_of(k, a->op.left, depth + 1);
		consts_of(k, a->op.right, depth + 1);
		return;
	case TEP_PRINT_FLAGS:
		for (fl = a->flags.flags; fl; fl = fl->next)
			const_add(k, fl->value, strtoull(fl->value, NULL, 0));
		consts_of(k, a->flags.field, depth + 1);
		return;
	case TEP_PRINT_SYMBOL:
		for (fl = a->symbol.symbols; fl; fl = fl->next)
			const_add(k, fl, sym_value(fl->value));
		consts_of(k, a->symbol.field, depth + 1);
		return;
	default:
		return;
	}
}

/* The numeric value of @a, as libtraceevent evaluates it (fields read unsigned). */
static uint64_t eval(const struct tep_print_arg *a, const struct payload *pl)
{
	uint64_t l, r;
	const char *op;

	switch (a->type) {
	case TEP_PRINT_ATOM:
		return konst(pl->k, a->atom.atom, a->atom.atom, 0);
	case TEP_PRINT_FIELD:
		return rd(pl->p + a->field.field->offset, a->field.field->size);
	case TEP_PRINT_OP:
		break;
	case TEP_PRINT_TYPE:
		return cast(eval(a->typecast.item, pl), cast_bits(a->typecast.type));
	default:
		return 0;
	}
	op = a->op.op;
	if (op[0] == '?') {
		const struct tep_print_arg *b = a->op.right;

		return eval(a->op.left, pl) ? eval(b->op.left, pl) : eval(b->op.right, pl);
	}
	r = eval(a->op.right, pl);
	if (!a->op.left) {
		if (op[0] == '!')
			return !r;
		if (op[0] == '~')
			return ~r;
		if (op[0] == '-')
			return -r;
		return r;
	}
	l = eval(a->op.left, pl);
	return binop(op, l, r);
}

/* One conversion of the print fmt and the literal text before it. */
struct piece {
	const char *lit; /* into the program's copy of the format */
	uint16_t litlen;
	char conv; /* d i u x X o s p, 0: the tail literal only */
	char pfn; /* %p followed by s S f F: a function symbol */
	uint8_t plain; /* no flags, width or precision */
	uint8_t wide; /* l, ll or z */
	char spec[24]; /* the conversion for snprintf, length normalised to ll for wide ones */
	uint8_t ptr; /* %s of a pointer: a kernel string, learnt from libtraceevent's lines */
	struct tep_print_arg *arg;
};

/* A pointer's string as libtraceevent printed it (rcu_utilization's "Start context switch"). */
struct learnt {
	uint64_t addr;
	uint8_t len;
	char s[55];
};

#define MAX_LEARNT 16

struct ts_print_prog {
	struct tep_event *ev;
	uint32_t min_size; /* every static field lies inside a payload this long */
	int nr_dyn;
	const struct tep_format_field *dyn[8]; /* the __data_loc fields, checked on every print */
	int nr;
	struct piece *p;
	struct ts_print_consts k;
	int nr_ptr, nr_learnt;
	struct learnt learnt[MAX_LEARNT];
	char fmt[];
};

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
	pr = calloc(1, sizeof(*pr) + len + 1);
	if (!pr)
		return NULL;
	pr->p = calloc(maxp, sizeof(*pr->p));
	memcpy(pr->fmt, fmt, len + 1);
	pr->ev = ev;
	pr->min_size = static_end(pr, ev);
	if (!pr->p || pr->nr_dyn > 8 || compile_pieces(pr, ev->print_fmt.args)) {
		ts_print_free(pr);
		return NULL;
	}
	for (int i = 0; i < pr->nr; i++)
		consts_of(&pr->k, pr->p[i].arg, 0);
	return pr;
}

void ts_print_free(struct ts_print_prog *pr)
{
	if (!pr)
		return;
	free(pr->p);
	free(pr);
}

struct obuf {
	char *b;
	size_t n, cap;
	int bad; /* overflow or a string outside the payload */
};

static void put(struct obuf *o, const char *s, size_t n)
{
	if (o->n + n >= o->cap) {
		o->bad = 1;
		return;
	}
	memcpy(o->b + o->n, s, n);
	o->n += n;
}

static void putu(struct obuf *o, uint64_t v, int hex)
{
	char t[24], *e = t + sizeof(t), *q = e;

	do {
		*--q = "0123456789abcdef"[hex ? v & 15 : v % 10];
		v = hex ? v >> 4 : v / 10;
	} while (v);
	put(o, q, e - q);
}

/* A __data_loc string or a char array of @f, bounded by its length and the payload. */
static void field_str(struct obuf *o, const struct tep_format_field *f, const struct payload *pl,
		      const char **sp, size_t *lp)
{
	uint32_t off = f->offset, len = f->size;

	if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		uint32_t loc = (uint32_t)rd(pl->p + f->offset, 4);

		off = (loc & 0xffff) + (f->flags & TEP_FIELD_IS_RELATIVE ? off + 4 : 0);
		len = loc >> 16;
	}
	if (off + len > pl->size) {
		o->bad = 1;
		len = 0;
	}
	*sp = (const char *)pl->p + off;
	*lp = strnlen(*sp, len);
}

static void flags_str(struct obuf *o, const struct tep_print_arg *a, const struct payload *pl)
{
	const struct tep_print_flag_sym *fl;
	uint64_t v = eval(a->flags.field, pl), fv;
	const char *delim = a->flags.delim ? a->flags.delim : "";
	int any = 0;

	for (fl = a->flags.flags; fl; fl = fl->next) {
		fv = konst(pl->k, fl->value, fl->value, 0);
		if (!v && !fv) {
			put(o, fl->str, strlen(fl->str));
			break;
		}
		if (fv && (v & fv) == fv) {
			if (any)
				put(o, delim, strlen(delim));
			put(o, fl->str, strlen(fl->str));
			any = 1;
			v &= ~fv;
		}
	}
	if (v) {
		if (any)
			put(o, delim, strlen(delim));
		put(o, "0x", 2);
		putu(o, v, 1);
	}
}

static void arg_str(struct obuf *o, const struct tep_print_arg *a, const struct payload *pl)
{
	const struct tep_print_flag_sym *fl;
	const char *s;
	size_t n;
	uint64_t v;

	switch (a->type) {
	case TEP_PRINT_ATOM:
		put(o, a->atom.atom, strlen(a->atom.atom));
		return;
	case TEP_PRINT_FIELD:
		field_str(o, a->field.field, pl, &s, &n);
		put(o, s, n);
		return;
	case TEP_PRINT_STRING:
		field_str(o, a->string.field, pl, &s, &n);
		put(o, s, n);
		return;
	case TEP_PRINT_OP: /* ?: */
		v = eval(a->op.left, pl);
		arg_str(o, v ? a->op.right->op.left : a->op.right->op.right, pl);
		return;
	case TEP_PRINT_FLAGS:
		flags_str(o, a, pl);
		return;
	default: /* TEP_PRINT_SYMBOL */
		v = eval(a->symbol.field, pl);
		for (fl = a->symbol.symbols; fl; fl = fl->next)
			if (v == konst(pl->k, fl, fl->value, 1)) {
				put(o, fl->str, strlen(fl->str));
				return;
			}
		put(o, "0x", 2);
		putu(o, v, 1);
	}
}

/* %ps and friends: the symbol (+offset for S and F), or the address in hex. */
static void func_str(struct obuf *o, struct tep_handle *tep, char pfn, uint64_t v)
{
	const char *name = tep_find_function(tep, v);

	if (!name) {
		put(o, "0x", 2);
		putu(o, v, 1);
		return;
	}
	put(o, name, strlen(name));
	if (pfn == 'S' || pfn == 'F') {
		put(o, "+0x", 3);
		putu(o, v - tep_find_function_address(tep, v), 1);
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
			put(o, pr->learnt[i].s, pr->learnt[i].len);
			return 0;
		}
	return -1;
}

/*
 * Render @raw with @pr into @buf; with @at, the pointer's piece is left out and @at and @addr
 * say where it goes and what it is.
 */
static long render(struct tep_handle *tep, const struct ts_print_prog *pr, const void *raw,
		   uint32_t size, char *buf, size_t cap, size_t *at, uint64_t *addr)
{
	struct payload pl = { raw, size, 0, &pr->k };
	struct obuf o = { buf, 0, cap, 0 };
	const struct piece *pc;
	int i;

	if (size < pr->min_size)
		return -1;
	for (i = 0; i < pr->nr_dyn; i++) { /* as decode.c's fields_inside() */
		uint32_t loc = (uint32_t)rd(pl.p + pr->dyn[i]->offset, 4), off = loc & 0xffff;

		if (pr->dyn[i]->flags & TEP_FIELD_IS_RELATIVE)
			off += pr->dyn[i]->offset + pr->dyn[i]->size;
		if (off + (loc >> 16) > size)
			return -1;
	}
	for (i = 0; i < pr->nr; i++) {
		pc = &pr->p[i];
		put(&o, pc->lit, pc->litlen);
		if (!pc->conv)
			break;
		if (pc->ptr && at) {
			*at = o.n;
			*addr = eval(pc->arg, &pl);
		} else if (pc->ptr) {
			if (ptr_str(&o, pr, eval(pc->arg, &pl)))
				return -1;
		} else if (pc->conv == 's') {
			arg_str(&o, pc->arg, &pl);
		} else if (pc->pfn) {
			func_str(&o, tep, pc->pfn, eval(pc->arg, &pl));
		} else {
			num_str(&o, pc, eval(pc->arg, &pl));
		}
	}
	if (o.bad || o.n >= cap)
		return -1;
	return (long)o.n;
}

/*
 * Render @raw with program @pr into @buf, not NUL-terminated; its length, or -1 when the
 * payload is not one this printer can vouch for (then libtraceevent prints it, and says what
 * is wrong with it), the text does not fit, or a pointer's string is not learnt yet.
 */
long ts_print_run(struct tep_handle *tep, const struct ts_print_prog *pr, const void *raw,
		  uint32_t size, char *buf, size_t cap)
{
	return render(tep, pr, raw, size, buf, cap, NULL, NULL);
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
