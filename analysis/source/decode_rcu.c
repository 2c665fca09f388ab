// SPDX-License-Identifier: GPL-2.0-only
/*
 * Decoders of the RCU tracepoints. rcu_utilization's and rcu_grace_period's strings are
 * pointers into the kernel's rodata, resolved through the printk formats: each distinct
 * pointer is printed once and its words cached.
 */
#include <stdio.h>

#include "decode_priv.h"

static const char *const rcu_ctx_names[] = {
	[TS_RCU_CTXSW] = "context switch",
	[TS_RCU_TICK] = "scheduler-tick",
	[TS_RCU_CORE] = "RCU core",
};

/* The word @word (-1: the whole string) of the printed event, for pointer @addr: found or made. */
static __attribute__((noinline)) struct strcache *
ptr_string_slow(struct ts_decoder *d, const struct ts_event *ev, uint64_t addr, int word,
		const struct payload *pl, unsigned int h)
{
	struct strcache *s;
	const char *p;
	int i;

	for (i = 0; i < d->nr_strs; i++) {
		if (d->strs[i].addr == addr && d->strs[i].id == ev->tp_id) {
			d->str_memo[h] = &d->strs[i];
			return &d->strs[i];
		}
	}
	i = d->nr_strs < NSTR ? d->nr_strs++ : NSTR - 1;
	s = &d->strs[i];
	d->str_memo[h] = s;
	memset(s, 0, sizeof(*s));
	s->addr = addr;
	s->id = ev->tp_id;
	ts_dec_print_info(d, pl->p, pl->size, ev->cpu);
	p = d->seq.buffer;
	for (i = 0; i < word && p; i++) {
		p = strchr(p, ' ');
		p = p ? p + 1 : NULL;
	}
	if (p)
		snprintf(s->str, sizeof(s->str), "%.*s", word < 0 ? 47 : (int)strcspn(p, " "), p);
	if (!strncmp(s->str, "Start ", 6) || !strncmp(s->str, "End ", 4)) {
		const char *what = s->str + (s->str[0] == 'S' ? 6 : 4);

		s->start = s->str[0] == 'S';
		s->ctx = TS_RCU_OTHER;
		for (i = 1; i < (int)(sizeof(rcu_ctx_names) / sizeof(rcu_ctx_names[0])); i++)
			if (rcu_ctx_names[i] && !strcmp(what, rcu_ctx_names[i]))
				s->ctx = i;
	}
	return s;
}

/*
 * ptr_string_slow()'s answer, from the memo's slot of @addr and the event's id when it holds
 * them (rcu_utilization: six strings taking turns), with no call.
 */
static inline struct strcache *ptr_string(struct ts_decoder *d, const struct ts_event *ev,
					  uint64_t addr, int word, const struct payload *pl)
{
	unsigned int h =
		(unsigned int)((addr >> 3) ^ (addr >> 11) ^ (uint64_t)ev->tp_id) % NSTR_MEMO;
	struct strcache *s = d->str_memo[h];

	if (s && s->addr == addr && s->id == ev->tp_id)
		return s;
	return ptr_string_slow(d, ev, addr, word, pl, h);
}

enum { U_S };

static const struct ts_field_def util_fields[] = { [U_S] = REQ("s") };

static void util_setup(struct evcache *c)
{
	c->fixed = fld_is_num(&c->f[U_S], 8);
}

static void util_fill(struct ts_decoder *d, const struct evcache *c, struct payload *pl,
		      struct ts_event *ev)
{
	/* a 64-bit kernel's char * (every rcu_utilization there): one size check */
	uint64_t addr = c->fixed && pl->size >= c->need ? num_at(pl->p, &c->f[U_S], 8) :
							  num(pl, &c->f[U_S]);
	struct strcache *s = ptr_string(d, ev, addr, -1, pl);

	ev->rcu_util.start = s->start;
	ev->rcu_util.ctx = s->ctx;
	ev->rcu_util.str = s->str;
}

static int util_fast(struct ts_decoder *d, const struct evcache *c, const unsigned char *p,
		     uint32_t size, struct ts_event *ev)
{
	struct payload pl = { p, size, 0 };
	struct strcache *s;
	uint64_t addr;

	if (size < c->need)
		return ts_dec_full(d, ev->tp_id, p, size, ev);
	addr = num_at(p, &c->f[U_S], 8);
	s = ptr_string(d, ev, addr, -1, &pl);
	ev->rcu_util.start = s->start;
	ev->rcu_util.ctx = s->ctx;
	ev->rcu_util.str = s->str;
	return 0;
}

TS_KIND_DECODER_FAST(rcu_util, util_fields, util_setup, util_fill, util_fast);

enum { G_RCUNAME, G_GP_SEQ, G_GPEVENT };

static const struct ts_field_def gp_fields[] = {
	[G_RCUNAME] = REQ("rcuname"),
	[G_GP_SEQ] = REQ("gp_seq"),
	[G_GPEVENT] = REQ("gpevent"),
};

static void gp_fill(struct ts_decoder *d, const struct evcache *c, struct payload *pl,
		    struct ts_event *ev)
{
	ev->rcu_gp.gp_seq = num(pl, &c->f[G_GP_SEQ]);
	ev->rcu_gp.rcuname = ptr_string(d, ev, num(pl, &c->f[G_RCUNAME]), 0, pl)->str;
	ev->rcu_gp.gpevent = ptr_string(d, ev, num(pl, &c->f[G_GPEVENT]), 2, pl)->str;
}

TS_KIND_DECODER(rcu_gp, gp_fields, NULL, gp_fill);

enum { CB_RHP, CB_FUNC };

static const struct ts_field_def cb_fields[] = {
	[CB_RHP] = REQ("rhp"),
	[CB_FUNC] = OPT("func"),
};

static void cb_fill(struct ts_decoder *d, const struct evcache *c, struct payload *pl,
		    struct ts_event *ev)
{
	ev->rcu_cb.rhp = num(pl, &c->f[CB_RHP]);
	ev->rcu_cb.func = num(pl, &c->f[CB_FUNC]);
}

TS_KIND_DECODER(rcu_cb, cb_fields, NULL, cb_fill);
