/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Private to the decoder (decode.c and its per-subsystem decode_<section>.c): the cached
 * fields of a tracepoint, payload readers, and what a kind's decoder is.
 */
#ifndef TS_DECODE_PRIV_H
#define TS_DECODE_PRIV_H

#include <stdint.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "tickscope/decode.h"
#include "tickscope/error.h"

#define NF 8 /* fields a kind's decoder may name */
#define MAX_TP_ID 65536
#define NSTR 64
#define PRINT_PAD 256 /* zeros after a payload printed by libtraceevent */
#define TS_DEC_SCRATCH ((1u << 16) + PRINT_PAD) /* the largest payload printed, and the zeros */

/*
 * A field as the hot path needs it, copied out of libtraceevent's scattered tep_format_field
 * so that decoding an event touches one cache line of descriptors. size 0: not in the format.
 */
struct fld {
	uint16_t off, size;
	uint32_t flags; /* TEP_FIELD_IS_* */
};

/* A field a decoder reads, at its named slot (the decoder's enum); NULL @name: slot unused. */
struct ts_field_def {
	const char *name;
	uint8_t optional; /* an older kernel's format may lack it: it then reads as 0 or "" */
};

#define REQ(name)         \
	{                 \
		(name), 0 \
	} /* a field the decoder cannot do without */
#define OPT(name)         \
	{                 \
		(name), 1 \
	} /* a field older kernels lack */

struct evcache;
struct payload;

/*
 * A decoder's fast fill (struct ts_kind_decoder's @fast): the event's fields from a payload
 * of an id whose slots all have the forms its setup checked (struct evcache's @fixed), called
 * once a full decode of the id succeeded, with no frame between it and ts_decoder_decode()'s
 * caller. A payload shorter than @c->need goes the long way, ts_dec_full() (below), which
 * gives its error. Return: 0, or ts_dec_full()'s.
 */
typedef int (*ts_dec_fast_fn)(struct ts_decoder *d, const struct evcache *c,
			      const unsigned char *p, uint32_t size, struct ts_event *ev);

/*
 * A kind's decoder (source/decode_<section>.c), named in the event table (TS_EVENTS): the
 * fields it reads, looked up once per tracepoint into named slots, and how it fills the event.
 */
struct ts_kind_decoder {
	const struct ts_field_def *fields; /* indexed by the decoder's slot enum */
	int nr_fields;
	void (*setup)(struct evcache *c); /* once the fields are found; may be NULL */
	void (*fill)(struct ts_decoder *d, const struct evcache *c, struct payload *pl,
		     struct ts_event *ev);
	ts_dec_fast_fn fast; /* NULL: every payload through @fill */
};

/* Define ts_dec_<ident> over the field table @fields (designated by slot). */
#define TS_KIND_DECODER(ident, fields_, setup_, fill_) \
	TS_KIND_DECODER_FAST(ident, fields_, setup_, fill_, NULL)

/* The same, with a fast fill for the ids its setup found @fixed. */
#define TS_KIND_DECODER_FAST(ident, fields_, setup_, fill_, fast_)                              \
	_Static_assert(sizeof(fields_) / sizeof(fields_[0]) <= NF, #ident ": too many fields"); \
	const struct ts_kind_decoder ts_dec_##ident = {                                         \
		.fields = fields_,                                                              \
		.nr_fields = (int)(sizeof(fields_) / sizeof(fields_[0])),                       \
		.setup = setup_,                                                                \
		.fill = fill_,                                                                  \
		.fast = fast_,                                                                  \
	}

#define TS_DEC_DECL(kind, name, sec, req, dec) extern const struct ts_kind_decoder ts_dec_##dec;
#define TS_DEC_ALIAS_DECL(kind, name, dec) extern const struct ts_kind_decoder ts_dec_##dec;
TS_EVENTS(TS_DEC_DECL)
TS_EVENT_ALIASES(TS_DEC_ALIAS_DECL)
#undef TS_DEC_DECL
#undef TS_DEC_ALIAS_DECL
/* kprobe events (probe:F, probe:F__return), OTHER events of no table line: decode_probe.c */
extern const struct ts_kind_decoder ts_dec_probe;

struct ts_print_prog;

/* The compiled printer of a table event (decode_print.c); NULL: libtraceevent prints it. */
struct ts_print_prog *ts_print_compile(struct tep_handle *tep, struct tep_event *ev);
void ts_print_free(struct ts_print_prog *pr);
/* Return: the length of the text in @buf, or -1 (libtraceevent prints it) */
long ts_print_run(struct tep_handle *tep, struct ts_print_prog *pr, const void *raw, uint32_t size,
		  char *buf, size_t cap);
/* After libtraceevent printed @raw as @text: learn what the compiled printer cannot know */
void ts_print_learn(struct tep_handle *tep, struct ts_print_prog *pr, const void *raw,
		    uint32_t size, const char *text);

struct evcache {
	struct tep_event *ev;
	struct ts_print_prog *prog; /* dump's compiled printer, once prog_state is 1 */
	int8_t prog_state; /* 0 not tried, 1 compiled, -1 libtraceevent's */
	int8_t syms; /* whether its print may name a function: 0 not known yet, 1 yes, -1 no */
	const struct ts_kind_decoder *dec; /* NULL: a tracepoint the models do not interpret */
	uint16_t kind;
	struct fld f[NF]; /* by the decoder's slots */
	uint64_t report_max; /* sched_switch: the "+" (preempted) bit of prev_state */
	/*
	 * The decoder's fast fill (its setup decides): every slot has the size and form the
	 * current kernels give it, so a payload of at least @need bytes is read without a check
	 * or a size switch per field
	 */
	uint8_t fixed;
	/*
	 * ts_decoder_name()'s check: the payload size every slot needs, its __data_loc slots,
	 * and whether a full decode of this id succeeded (so that the decoder reads its slots
	 * as their flags say: numbers with num(), arrays and __data_loc with ts_dec_str())
	 */
	uint32_t need;
	uint8_t nr_dyn, slots_ok, decoded;
	uint8_t dyn[NF];
	/*
	 * ts_decoder_decode()'s path once a full decode of this id succeeded: the decoder's
	 * fast fill where @fixed, nothing to fill for a tracepoint no decoder reads; NULL: the
	 * full decode (ts_dec_full())
	 */
	ts_dec_fast_fn fast;
	struct ts_field_desc *fields; /* ts_decoder_fields(), made on first use */
	int nr_fields; /* -1: made, and failed */
	char name[96];
	int state; /* 0 unseen, 1 ready, <0 error code */
};

struct ts_decoder;
struct evcache *ts_dec_lookup_slow(struct ts_decoder *d, int id);

/*
 * Every sample comes here: an id below TS_DEC_FAST (a kernel's tracepoints) finds its entry
 * in one load once seen; the rest, and the first sight of an id, are ts_dec_lookup_slow()'s.
 */
#define TS_DEC_FAST 4096
#define ts_dec_lookup(d, id) ts_dec_lookup_inline((d)->fast, (d), (id))
static inline struct evcache *ts_dec_lookup_inline(struct evcache *const *fast,
						   struct ts_decoder *d, int id)
{
	struct evcache *c;

	if ((unsigned int)id < TS_DEC_FAST && (c = fast[id]))
		return c;
	return ts_dec_lookup_slow(d, id);
}

#define NSTR_MEMO 64

/* Strings behind pointer fields (rcu), resolved once per address through the print fmt. */
struct strcache {
	uint64_t addr;
	int id;
	char str[48];
	uint8_t start, ctx;
};

/* timer:tick_stop's dependency names by value, as libtraceevent printed them. */
struct depcache {
	int id;
	uint32_t size; /* of the payload it was printed from */
	uint64_t value;
	char name[sizeof(((struct ts_event *)0)->tick_stop.dependency)];
};

#define NDEPS 16

/* An event format refused before libtraceevent saw it (see format_check.c). */
struct refused {
	int id;
	char name[64];
	char why[160];
};

#define MAX_REFUSED 16

struct ts_decoder {
	struct tep_handle *tep;
	struct refused refused[MAX_REFUSED];
	int nr_refused;
	struct tep_plugin_list *plugins;
	/*
	 * By id, two-level: a page of 256 pointers, and each entry, made on first sight (a
	 * trace names a few ids, far apart: pages of entries zeroed whole touched 64 KiB each)
	 */
	struct evcache **cache[MAX_TP_ID / 256];
	struct evcache *fast[TS_DEC_FAST]; /* by id: the entries made, for ts_dec_lookup() */
	struct strcache strs[NSTR];
	int nr_strs;
	struct strcache *str_memo[NSTR_MEMO]; /* by a hash of address and id: one of strs */
	struct depcache deps[NDEPS];
	int nr_deps;
	struct trace_seq seq;
	/* ts_dec_full() */
	int (*full)(struct ts_decoder *d, int tp_id, const void *raw, uint32_t size,
		    struct ts_event *ev);
	int printer; /* TS_PRINTER: 0 compiled where possible, 1 libtraceevent, 2 verbose */
	int (*load_ksyms)(void *ctx, struct ts_decoder *d); /* deferred, until a %ps is printed */
	void *load_ctx;
	int td_kallsyms; /* the tracing data gave libtraceevent functions of its own */
	const void *td; /* the tracing data parsed, and whether a probe child found it clean */
	size_t td_len;
	int td_vetted;
	/* the printer's symbols, found by libtraceevent through resolve_func() */
	struct ts_ksyms *ksyms;
	char **copies; /* names and modules that are not the table's strings */
	size_t nr_copies;
	/* ts_dec_print_info()'s copy of a payload: malloc'd, not zeroed (its pages untouched) */
	unsigned char *scratch;
	char err[256];
};

struct payload {
	const unsigned char *p;
	uint32_t size;
	int bad; /* a field lay past the end */
};

/* A numeric field, sign-extended when the format says signed (libtraceevent does not). */
static inline uint64_t num(struct payload *pl, const struct fld *f)
{
	uint64_t v = 0;

	if (!f->size)
		return 0;
	if ((uint32_t)f->off + f->size > pl->size || f->size > 8) {
		pl->bad = 1;
		return 0;
	}
	switch (f->size) {
	case 1:
		v = pl->p[f->off];
		return f->flags & TEP_FIELD_IS_SIGNED ? (uint64_t)(int8_t)v : v;
	case 2: {
		uint16_t x;

		memcpy(&x, pl->p + f->off, 2);
		return f->flags & TEP_FIELD_IS_SIGNED ? (uint64_t)(int16_t)x : x;
	}
	case 4: {
		uint32_t x;

		memcpy(&x, pl->p + f->off, 4);
		return f->flags & TEP_FIELD_IS_SIGNED ? (uint64_t)(int32_t)x : x;
	}
	case 8:
		memcpy(&v, pl->p + f->off, 8);
		return v;
	default:
		pl->bad = 1;
		return 0;
	}
}

/*
 * The fast fills' slots (struct evcache's @fixed): a comm that is a char array of at least
 * TS_COMM_LEN bytes, a number of exactly @size bytes.
 */
static inline int fld_is_comm(const struct fld *f)
{
	return f->size >= TS_COMM_LEN &&
	       (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)) == TEP_FIELD_IS_ARRAY;
}

static inline int fld_is_num(const struct fld *f, unsigned int size)
{
	return f->size == size && !(f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC));
}

/* A comm slot as ts_dec_str() copies it, from a payload checked to hold every slot. */
static inline void comm_at(const unsigned char *p, const struct fld *f, char *out)
{
	memcpy(out, p + f->off, TS_COMM_LEN);
	out[TS_COMM_LEN - 1] = 0;
}

/* A number slot of @size bytes (a constant) as num() reads it, from a checked payload. */
static inline uint64_t num_at(const unsigned char *p, const struct fld *f, unsigned int size)
{
	int sgn = !!(f->flags & TEP_FIELD_IS_SIGNED);

	if (size == 1)
		return sgn ? (uint64_t)(int8_t)p[f->off] : p[f->off];
	if (size == 4) {
		uint32_t x;

		memcpy(&x, p + f->off, 4);
		return sgn ? (uint64_t)(int32_t)x : x;
	} else {
		uint64_t v;

		memcpy(&v, p + f->off, 8);
		return v;
	}
}

/*
 * ts_decoder_decode() the long way (decode.c's, through the decoder: the kinds' decoders
 * take no name from decode.c, which takes theirs): the id's lookup, its checks, the
 * decoder's fill and the error of a short payload. Return: as ts_decoder_decode().
 */
#define ts_dec_full(d, tp_id, raw, size, ev) ((d)->full((d), (tp_id), (raw), (size), (ev)))

/* A char array or a __data_loc string, copied NUL-terminated into @out. */
void ts_dec_str(struct payload *pl, const struct fld *f, char *out, size_t len);

/*
 * Print a payload with the event's own print fmt into d->seq (bounds-checked, from a padded
 * copy). Return: 0, or -TS_ECORRUPT (d->seq then says so).
 */
int ts_dec_print_info(struct ts_decoder *d, const void *raw, uint32_t size, int cpu);

#endif
