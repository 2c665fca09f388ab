// SPDX-License-Identifier: GPL-2.0-only
/*
 * Tracepoint payloads to struct ts_event. Each tracepoint id gets a cache entry the first time
 * it is seen: its kind and the format fields that kind reads, looked up once by name.
 */
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "decode_priv.h"
#include "ksyms_priv.h"
#include "tickscope/ksyms.h"
#include "tracedata.h"

/* Every kind's decoder by tracepoint name: the event table and its aliases. */
#define DEC_DEF(kind, name, sec, req, dec) { name, TS_EV_##kind, &ts_dec_##dec },
#define DEC_ALIAS(kind, name, dec) { name, TS_EV_##kind, &ts_dec_##dec },
static const struct {
	const char *event;
	uint16_t kind;
	const struct ts_kind_decoder *dec;
} decoders[] = { TS_EVENTS(DEC_DEF) TS_EVENT_ALIASES(DEC_ALIAS) };
#undef DEC_DEF
#undef DEC_ALIAS

/*
 * libtraceevent keeps the plugins' options in lists of its own, shared by every handle:
 * decoders made and freed by parallel workers (compare) load and unload plugins one at a time.
 */
static pthread_mutex_t plugins_lock = PTHREAD_MUTEX_INITIALIZER;

static int decode_full(struct ts_decoder *d, int tp_id, const void *raw, uint32_t size,
		       struct ts_event *ev);

static void on_refused(void *ctx, int id, const char *sys, const char *name, const char *why)
{
	struct ts_decoder *d = ctx;
	struct refused *r;

	if (d->nr_refused == MAX_REFUSED)
		return;
	r = &d->refused[d->nr_refused++];
	r->id = id;
	snprintf(r->name, sizeof(r->name), "%s:%s", sys, name);
	snprintf(r->why, sizeof(r->why), "%s", why);
}

static int decoder_new(struct ts_decoder **dp, const struct ts_decoder *like, const void *data,
		       size_t len, const char *cache, char *err, size_t errlen)
{
	struct ts_decoder *d;
	int ret;

	*dp = NULL;
	if (!data || !len) {
		if (err)
			snprintf(err, errlen, "%s", ts_strerror(-TS_ENOTRACEDATA));
		return -TS_ENOTRACEDATA;
	}
	d = calloc(1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	d->scratch = malloc(TS_DEC_SCRATCH);
	d->tep = d->scratch ? tep_alloc() : NULL;
	if (!d->tep) {
		free(d->scratch);
		free(d);
		return -ENOMEM;
	}
	/* perf 6.1 looks for plugins only in $TRACEEVENT_PLUGIN_DIR and ~/.local: match it */
	tep_set_flag(d->tep, TEP_DISABLE_SYS_PLUGINS);
	pthread_mutex_lock(&plugins_lock);
	d->plugins = tep_load_plugins(d->tep);
	pthread_mutex_unlock(&plugins_lock);
	trace_seq_init(&d->seq);
	d->full = decode_full;
	if (getenv("TS_PRINTER")) /* the tests' switch: "libtraceevent", or "verbose" */
		d->printer = !strcmp(getenv("TS_PRINTER"), "libtraceevent") ? 1 :
			     !strcmp(getenv("TS_PRINTER"), "verbose")	    ? 2 :
									      0;
	d->td = data;
	d->td_len = len;
	d->td_vetted = like && like->td_vetted && like->td == data && like->td_len == len;
	ret = ts_tracedata_parse(d->tep, data, len, err, errlen, on_refused, d, &d->td_kallsyms,
				 &d->td_vetted, cache);
	if (ret) {
		ts_decoder_free(d);
		return ret;
	}
	*dp = d;
	return 0;
}

int ts_decoder_new_like(struct ts_decoder **dp, const struct ts_decoder *like, const void *data,
			size_t len, char *err, size_t errlen)
{
	return decoder_new(dp, like, data, len, NULL, err, errlen);
}

int ts_decoder_new(struct ts_decoder **dp, const void *data, size_t len, char *err, size_t errlen)
{
	return decoder_new(dp, NULL, data, len, NULL, err, errlen);
}

int ts_decoder_new_cached(struct ts_decoder **dp, const void *data, size_t len, const char *cache,
			  char *err, size_t errlen)
{
	return decoder_new(dp, NULL, data, len, cache, err, errlen);
}

void ts_decoder_free(struct ts_decoder *d)
{
	size_t i, j;

	if (!d)
		return;
	for (i = 0; i < sizeof(d->cache) / sizeof(d->cache[0]); i++) {
		for (j = 0; d->cache[i] && j < 256; j++) {
			if (!d->cache[i][j])
				continue;
			ts_print_free(d->cache[i][j]->prog);
			free(d->cache[i][j]->fields);
			free(d->cache[i][j]);
		}
		free(d->cache[i]);
	}
	free(d->scratch);
	trace_seq_destroy(&d->seq);
	for (i = 0; i < d->nr_copies; i++)
		free(d->copies[i]);
	free(d->copies);
	ts_ksyms_free(d->ksyms);
	if (d->plugins) {
		pthread_mutex_lock(&plugins_lock);
		tep_unload_plugins(d->plugins, d->tep);
		pthread_mutex_unlock(&plugins_lock);
	}
	tep_free(d->tep);
	free(d);
}

const char *ts_decoder_error(const struct ts_decoder *d)
{
	return d->err;
}

/*
 * The decoder of tracepoint @name, and its kind; NULL for one the models do not read. perf
 * probe's kprobe events (probe:F) stay OTHER, with the address probed decoded.
 */
static const struct ts_kind_decoder *find_decoder(const char *name, uint16_t *kind)
{
	size_t i;

	for (i = 0; i < sizeof(decoders) / sizeof(decoders[0]); i++) {
		if (!strcmp(decoders[i].event, name)) {
			*kind = decoders[i].kind;
			return decoders[i].dec;
		}
	}
	*kind = TS_EV_OTHER;
	return strncmp(name, "probe:", 6) ? NULL : &ts_dec_probe;
}

/*
 * What ts_decoder_name() checks a payload against: every slot inside it as its accessor reads
 * it (num(): 1, 2, 4 or 8 bytes; ts_dec_str(): an array, or a __data_loc whose string is
 * checked on each payload). A slot neither reads cleanly leaves the id to full decodes.
 */
static void name_check_setup(struct evcache *c)
{
	int i;

	c->slots_ok = 1;
	for (i = 0; i < c->dec->nr_fields && i < NF; i++) {
		const struct fld *f = &c->f[i];

		if (!f->size)
			continue;
		if (f->off + f->size > c->need)
			c->need = f->off + f->size;
		if (f->flags & TEP_FIELD_IS_DYNAMIC)
			c->dyn[c->nr_dyn++] = (uint8_t)i;
		else if (!(f->flags & TEP_FIELD_IS_ARRAY) && f->size != 1 && f->size != 2 &&
			 f->size != 4 && f->size != 8)
			c->slots_ok = 0;
	}
}

/* Look the decoder's fields up into their slots; a missing required one fails with its name. */
static void find_fields(struct ts_decoder *d, struct evcache *c)
{
	const struct ts_field_def *def;
	struct tep_format_field *tf;
	int i;

	for (i = 0; i < c->dec->nr_fields; i++) {
		def = &c->dec->fields[i];
		if (!def->name)
			continue;
		/* common_* fields (common_flags) live in the format's common list */
		tf = strncmp(def->name, "common_", 7) ? tep_find_field(c->ev, def->name) :
							tep_find_common_field(c->ev, def->name);
		if (tf && tf->offset >= 0 && tf->size > 0 && tf->offset <= 0xffff &&
		    tf->size <= 0xffff)
			c->f[i] = (struct fld){ tf->offset, tf->size, (uint32_t)tf->flags };
		else
			tf = NULL;
		if (!tf && !def->optional && c->state > 0) {
			snprintf(d->err, sizeof(d->err), "event %s: format has no field '%s'",
				 c->name, def->name);
			c->state = -TS_ENOFIELD;
		}
	}
	if (c->state > 0 && c->dec->setup)
		c->dec->setup(c);
	name_check_setup(c);
}

struct evcache *ts_dec_lookup_slow(struct ts_decoder *d, int id)
{
	struct evcache ***page, **slot, *c;

	if (id < 0 || id >= MAX_TP_ID)
		return NULL;
	page = &d->cache[id / 256];
	if (!*page) {
		*page = calloc(256, sizeof(**page));
		if (!*page)
			return NULL;
	}
	slot = &(*page)[id % 256];
	if (!*slot) {
		*slot = calloc(1, sizeof(**slot));
		if (!*slot)
			return NULL;
	}
	c = *slot;
	if (c->state)
		return c;
	if (id < TS_DEC_FAST) /* made below, once: state is never 0 again */
		d->fast[id] = c;
	c->ev = tep_find_event(d->tep, id);
	if (!c->ev) {
		c->state = -TS_ENOFORMAT;
		return c;
	}
	snprintf(c->name, sizeof(c->name), "%s:%s", c->ev->system, c->ev->name);
	c->dec = find_decoder(c->name, &c->kind);
	c->state = 1;
	if (c->dec)
		find_fields(d, c);
	return c;
}

#define lookup ts_dec_lookup

const char *ts_decoder_event_name(struct ts_decoder *d, int tp_id)
{
	struct evcache *c = lookup(d, tp_id);

	return c && c->state > 0 ? c->name : NULL;
}

static void no_format(struct ts_decoder *d, int tp_id)
{
	int i;

	for (i = 0; i < d->nr_refused; i++)
		if (d->refused[i].id == tp_id) {
			snprintf(d->err, sizeof(d->err),
				 "event %s (tracepoint id %d): its format was refused: %s",
				 d->refused[i].name, tp_id, d->refused[i].why);
			return;
		}
	snprintf(d->err, sizeof(d->err), "tracepoint id %d has no format in the tracing data",
		 tp_id);
}

/* The fast path of a tracepoint that no decoder reads: nothing to fill. */
static int no_fill(struct ts_decoder *d, const struct evcache *c, const unsigned char *p,
		   uint32_t size, struct ts_event *ev)
{
	return 0;
}

/* ts_dec_full(): the long way of ts_decoder_decode() */
static int decode_full(struct ts_decoder *d, int tp_id, const void *raw, uint32_t size,
		       struct ts_event *ev)
{
	struct evcache *c = lookup(d, tp_id);
	struct payload pl = { raw, size, 0 };

	if (!c)
		return tp_id < 0 || tp_id >= MAX_TP_ID ? -TS_ENOFORMAT : -ENOMEM;
	if (c->state < 0) {
		if (c->state == -TS_ENOFORMAT)
			no_format(d, tp_id);
		return c->state;
	}
	ev->tp_id = tp_id;
	ev->name = c->name;
	ev->kind = c->kind;
	if (c->dec)
		c->dec->fill(d, c, &pl, ev);
	if (pl.bad) {
		snprintf(d->err, sizeof(d->err),
			 "event %s: payload of %u bytes is shorter than "
			 "its format",
			 c->name, size);
		return -TS_ECORRUPT;
	}
	if (!c->decoded && tp_id < TS_DEC_FAST) /* ts_decoder_decode()'s way from now on */
		c->fast = !c->dec ? no_fill : c->fixed ? c->dec->fast : NULL;
	c->decoded = 1;
	return 0;
}

/*
 * Every sample of report comes here: an id decoded before goes to its fast fill (a tail
 * call, no frame here), the rest the long way.
 */
int ts_decoder_decode(struct ts_decoder *d, int tp_id, const void *raw, uint32_t size,
		      struct ts_event *ev)
{
	struct evcache *c;

	if ((unsigned int)tp_id < TS_DEC_FAST && (c = d->fast[tp_id]) && c->fast) {
		ev->tp_id = tp_id;
		ev->name = c->name;
		ev->kind = c->kind;
		return c->fast(d, c, raw, size, ev);
	}
	return decode_full(d, tp_id, raw, size, ev);
}

/* Does every __data_loc slot's string lie inside the payload, as ts_dec_str() checks it? */
static int dyn_inside(const struct evcache *c, const unsigned char *p, uint32_t size)
{
	int i;

	for (i = 0; i < c->nr_dyn; i++) {
		const struct fld *f = &c->f[c->dyn[i]];
		uint32_t loc, off;

		if ((uint32_t)f->off + 4 > size)
			return 0;
		memcpy(&loc, p + f->off, 4);
		off = (loc & 0xffff) + (f->flags & TEP_FIELD_IS_RELATIVE ? f->off + 4 : 0);
		if (off + (loc >> 16) > size)
			return 0;
	}
	return 1;
}

int ts_decoder_name(struct ts_decoder *d, int tp_id, const void *raw, uint32_t size,
		    struct ts_event *ev)
{
	struct evcache *c = lookup(d, tp_id);

	if (c && c->state > 0 &&
	    (!c->dec ||
	     (c->decoded && c->slots_ok && size >= c->need && dyn_inside(c, raw, size)))) {
		ev->tp_id = tp_id;
		ev->name = c->name;
		ev->kind = c->kind;
		return 0;
	}
	return ts_decoder_decode(d, tp_id, raw, size, ev);
}

int ts_decoder_kind(struct ts_decoder *d, int tp_id)
{
	struct evcache *c = lookup(d, tp_id);

	if (!c)
		return -TS_ENOFORMAT;
	if (c->state < 0)
		return c->state;
	return c->kind;
}

/*
 * Whether @ev's printed line may hold a function's name: a %p conversion that libtraceevent
 * turns into a symbol (s, S, f, F, B), or a plugin's handler, which may look one up.
 */
static int prints_syms(const struct tep_event *ev)
{
	const char *f = ev->print_fmt.format;

	if (ev->handler || !f)
		return 1;
	for (; (f = strchr(f, '%')); f++) {
		if (f[1] == '%') {
			f++;
			continue;
		}
		f += strspn(f + 1, "-+ #0123456789.*lhz");
		if (f[1] == 'p' && f[2] && strchr("sSfFB", f[2]))
			return 1;
	}
	return 0;
}

int ts_decoder_may_print_syms(struct ts_decoder *d)
{
	struct tep_event **ev = tep_list_events(d->tep, TEP_EVENT_SORT_ID);

	for (; ev && *ev; ev++)
		if (prints_syms(*ev))
			return 1;
	return 0;
}

void ts_decoder_defer_ksyms(struct ts_decoder *d, int (*load)(void *ctx, struct ts_decoder *d),
			    void *ctx)
{
	d->load_ksyms = load;
	d->load_ctx = ctx;
}

int ts_decoder_print(struct ts_decoder *d, int tp_id, const void *raw, uint32_t size, int cpu,
		     char *buf, size_t cap, const char **text, size_t *len)
{
	struct evcache *c = lookup(d, tp_id);
	int (*load)(void *ctx, struct ts_decoder *d);
	long n;
	int ret;

	*text = "";
	*len = 0;
	if (!c || c->state == -TS_ENOFORMAT)
		return -TS_ENOFORMAT;
	if (d->load_ksyms && c->ev) {
		if (!c->syms)
			c->syms = prints_syms(c->ev) ? 1 : -1;
		if (c->syms > 0) {
			load = d->load_ksyms;
			d->load_ksyms = NULL;
			ret = load(d->load_ctx, d);
			if (ret)
				return ret;
		}
	}
	if (c->state > 0 && !c->prog_state) {
		c->prog = d->printer == 1 ? NULL : ts_print_compile(d->tep, c->ev);
		c->prog_state = c->prog ? 1 : -1;
		if (d->printer == 2)
			fprintf(stderr, "tickscope: printer: %s: %s\n", c->name,
				c->prog ? "compiled" : "libtraceevent");
	}
	if (c->prog_state > 0 && (n = ts_print_run(d->tep, c->prog, raw, size, buf, cap)) >= 0) {
		*text = buf;
		*len = n;
		return 0;
	}
	ret = ts_dec_print_info(d, raw, size, cpu);
	if (!ret && c->prog_state > 0)
		ts_print_learn(d->tep, c->prog, raw, size, d->seq.buffer);
	*text = d->seq.buffer;
	*len = strlen(d->seq.buffer);
	return ret;
}

/* The end of the whitespace-free word at @s, as scanf's %s takes it. */
static const char *word_end(const char *s)
{
	while (*s && !isspace((unsigned char)*s))
		s++;
	return s;
}

static const char *keep_copy(struct ts_decoder *d, const char *s, size_t len);

/*
 * libtraceevent's function resolver: the printer's symbols are the table's own
 * (ts_ksyms_print_find() runs libtraceevent's search over its choice of them), so that every
 * %ps prints what libtraceevent would have printed, without its copy of every name (16 MB for
 * a kernel's 120,000 symbols), nor one of ours: a table mapped from the cache is only read
 * where a lookup goes. A name of more than one word is printed by its first, a copy kept.
 */
static char *resolve_func(void *priv, unsigned long long *addrp, char **modp)
{
	struct ts_decoder *d = priv;
	const char *name, *mod;
	uint64_t start;
	size_t len, i;

	name = ts_ksyms_print_find(d->ksyms, *addrp, &start, &len, &mod);
	if (!name)
		return NULL;
	if (name[len]) {
		for (i = 0; i < d->nr_copies; i++)
			if (!strncmp(d->copies[i], name, len) && !d->copies[i][len])
				break;
		name = i < d->nr_copies ? d->copies[i] : keep_copy(d, name, len);
		if (!name)
			return NULL;
		mod = NULL; /* the tab before "[mod]" no longer follows the word */
	}
	*addrp = start;
	*modp = (char *)mod;
	return (char *)name;
}

/* Keep @len bytes of @s as a string of the decoder's own; NULL without memory. */
static const char *keep_copy(struct ts_decoder *d, const char *s, size_t len)
{
	char **v = realloc(d->copies, (d->nr_copies + 1) * sizeof(*v)), *c;

	if (!v)
		return NULL;
	d->copies = v;
	c = strndup(s, len);
	if (c)
		v[d->nr_copies++] = c;
	return c;
}

/*
 * The old way, where the tracing data gave libtraceevent functions to merge with: one symbol
 * registered as tep_parse_kallsyms() would take it from the line "%016llx %c %s\t[%s]": the
 * name is its first word and the module's word loses its last character (the ']'); names
 * starting with '$' and absolute symbols are left out. A line without a name fails the whole
 * table there.
 */
static int register_func(void *ctx, uint64_t addr, char type, const char *name, const char *module)
{
	struct ts_decoder *d = ctx;
	const char *me;
	size_t len;
	int ret;

	ret = ts_ksym_printable(name, type, module, &name, &len);
	if (ret <= 0)
		return ret;
	if (name[len]) { /* a word shorter than the name */
		name = keep_copy(d, name, len);
		if (!name)
			return -ENOMEM;
		module = NULL; /* the tab before "[mod]" no longer follows the word */
	}
	if (module && *word_end(module)) { /* else "mod]" is its word: "mod" */
		/* "[%n%*s%n": from the '[' to the end of the next word (of "mod]"), less one */
		for (me = module; isspace((unsigned char)*me); me++)
			;
		me = *word_end(me) ? word_end(me) : me + strlen(me) + 1; /* the ']' ends it */
		module = keep_copy(d, module, me - module - 1);
		if (!module)
			return -ENOMEM;
	}
	return tep_register_function(d->tep, (char *)name, addr, (char *)module) ? -ENOMEM : 0;
}

const char *ts_decoder_function(struct ts_decoder *d, uint64_t addr, uint64_t *start)
{
	const char *name = tep_find_function(d->tep, addr);

	if (start)
		*start = name ? tep_find_function_address(d->tep, addr) : 0;
	return name;
}

int ts_decoder_take_ksyms(struct ts_decoder *d, struct ts_ksyms *k)
{
	int ret;

	if (d->ksyms) {
		ts_ksyms_free(k);
		return -EALREADY;
	}
	d->ksyms = k; /* the names the entries point at */
	if (d->td_kallsyms) {
		ret = ts_ksyms_each(k, register_func, d);
		if (!ret) /* libtraceevent sorts at its first lookup: here, not at a line's print */
			tep_find_function(d->tep, 0);
		return ret;
	}
	ret = ts_ksyms_print_error(k);
	if (ret)
		return ret;
	return tep_set_function_resolver(d->tep, resolve_func, d) ? -ENOMEM : 0;
}
