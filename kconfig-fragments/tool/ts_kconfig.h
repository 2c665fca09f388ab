/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ts-kconfig: types shared by the fragment parser, the verdict engine and the reports.
 * Built against a kernel tree's own scripts/kconfig objects, so it speaks that tree's Kconfig.
 */
#ifndef TS_KCONFIG_H
#define TS_KCONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct symbol;
struct expr;

/* Exit codes of the tool, also used by the driver script. */
#define TS_EXIT_OK 0
#define TS_EXIT_DROPPED 1 /* a fragment's purpose did not survive */
#define TS_EXIT_FRAGMENT 2 /* a fragment is missing or malformed, or bad usage */
#define TS_EXIT_ENV 3 /* the kernel tree or the base config is unusable */

/* An error message built below main and printed by main. */
struct ts_err {
	char msg[1024];
};

/* A growable string. */
struct ts_buf {
	char *s;
	size_t len, cap;
};

void ts_buf_add(struct ts_buf *b, const char *s);
void ts_buf_printf(struct ts_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
char *ts_buf_take(struct ts_buf *b);
void ts_buf_free(struct ts_buf *b);

enum ts_req_kind {
	TS_REQ_SET, /* CONFIG_X=v or "# CONFIG_X is not set": merged and checked */
	TS_REQ_CHECK, /* "# ts: check CONFIG_X=v": checked only */
};

enum ts_verdict {
	TS_V_KEPT,
	TS_V_DROPPED,
	TS_V_OVERRIDDEN,
	TS_V_SAME, /* a later request asks for the same value: shown with -v only */
	TS_V_UNKNOWN,
	TS_V_INEFFECTIVE,
	TS_V_CHECK_OK,
	TS_V_CHECK_FAILED,
	TS_V_NOT_IN_ERA, /* the symbol does not exist yet in this kernel's era (README's table) */
};
#define TS_V_COUNT (TS_V_NOT_IN_ERA + 1)

/* What the era table did to a request whose symbol this tree does not define. */
enum ts_era_state {
	TS_ERA_NONE,
	TS_ERA_STANDIN, /* asked for another era's symbol: this era's stand-in is used */
	TS_ERA_MISSING, /* nothing stands in for it in this era: its purpose cannot be met */
	TS_ERA_NOT_NEEDED, /* before it existed, nothing was needed for the same effect */
};

/*
 * One row of the era table of README.md: sym appeared in from on the architectures arch ("all",
 * or a list such as "x86" or "arm64"); before, standin did its job.
 */
struct ts_era {
	char *sym, *arch, *from, *standin; /* standin NULL: none */
	bool not_needed;
	char *note;
};

struct ts_eras {
	struct ts_era *v;
	int n;
};

struct ts_req {
	const char *file; /* the fragment's path */
	const char *frag; /* its short name, for messages */
	int line;
	enum ts_req_kind kind;
	char *name; /* symbol name without CONFIG_ */
	char *value; /* y, m, n, or the unquoted string, int or hex text */
	char *raw; /* the line as merged into .config */
	bool quoted;
	bool warn_only; /* "check-warn": a failed check is reported but does not fail the run */
	char *xfail_before; /* "6.12": expected to be dropped on kernels older than this */
	char *xfail_why;
	bool purpose; /* "# ts: purpose CONFIG_X": what the fragment is for */
	enum ts_era_state era;
	char *asked; /* the symbol as the fragment names it, when the era table replaced it */
	char *era_note;
	char *eff_name; /* kept is only effective if eff_name has eff_value */
	char *eff_value;
	int overridden_by; /* index of the later request that replaces this one, or -1 */

	enum ts_verdict verdict;
	bool expected; /* dropped, as the fragment says it will be on this kernel */
	bool failed; /* a purpose that did not survive: fails the run unless drops are allowed */
	bool warned; /* did not survive, but it is not the fragment's purpose */
	const char *purpose_of; /* the earlier fragment whose purpose this asks again, or NULL */
	char *final; /* the value in the final .config */
	char *base; /* the value in the base .config, NULL when it has no line */
	char *reason;
};

/* One line of the diff against the base, and why kconfig made it. */
enum ts_group {
	TS_G_REQUESTED, /* a fragment asks for this symbol */
	TS_G_PULLED, /* selected by (or depending on) a requested or changed symbol */
	TS_G_CHOICE, /* a choice resolved differently, or a default moved */
	TS_G_SHOWN, /* off before and after: only a "# X is not set" line came or went */
};

struct ts_change {
	char *name;
	char *old, *new; /* NULL: no line in that .config */
	enum ts_group group;
	char *why;
	const char *confounder; /* the known confounder this change hits, or NULL */
};

/* A .config as text: CONFIG_X=v lines and "# CONFIG_X is not set" (value "n"), sorted. */
struct ts_cfg {
	char **name, **value;
	int n;
	bool sorted; /* by name, one line per symbol */
};

struct ts_set {
	const char *label; /* the fragment names joined with '+' */
	const char *arch; /* ARCH, for messages */
	const char *srctree; /* the kernel tree, to say where an unknown symbol is defined */
	const char *kver; /* the tree's KERNELVERSION */
	const struct ts_eras *eras; /* NULL until the tree's Kconfig is parsed */
	bool allow_drops;
	char **paths;
	int npaths;
	struct ts_req *reqs;
	int nreqs, cap;
	char **effects; /* side effects: choices reset, ineffective symbols */
	int neffects;
	int failures;
	int warnings; /* requests that did not survive, not the fragment's purpose */
	int allowed; /* purposes that did not survive, with --allow-drops */
	int counts[TS_V_COUNT];
	struct ts_change *diff; /* the whole change against the base, as scripts/diffconfig */
	int ndiff;
	int expected;
};

/* compat.c: kconfig internals that differ between kernel eras */
#define TS_CHOICE_MAX 64 /* members of one choice; the largest in 6.12 has 13 */
struct symbol *ts_choice_of(struct symbol *sym);
struct symbol *ts_chosen(struct symbol *cs);
int ts_choice_members(struct symbol *cs, struct symbol **out, int max);
int ts_for_each_choice(int (*fn)(struct symbol *cs, void *data), void *data);
struct property;
struct expr;
struct property *ts_range_prop(struct symbol *sym);
struct expr *ts_dir_dep(struct symbol *sym);

/* era.c */
int ts_eras_read(struct ts_eras *eras, const char *path, struct ts_err *err);
void ts_eras_free(struct ts_eras *eras);
bool ts_older_than(const char *kver, const char *before);
int ts_era_apply(const struct ts_set *set, struct ts_req *r);

/* frag.c */
int ts_frag_resolve(const char *name, char *const *dirs, int ndirs, char **path,
		    struct ts_err *err);
int ts_frag_parse(struct ts_set *set, const char *path, struct ts_err *err);
void ts_frag_link(struct ts_set *set);
int ts_frag_merge(const struct ts_set *set, const char *base, const char *out, struct ts_err *err);
void ts_set_free(struct ts_set *set);

/* verdict.c */
void ts_add_expr(struct ts_buf *b, struct expr *e);
const struct ts_req *ts_find_req(const struct ts_set *set, const char *name);
const char *ts_active_default(struct symbol *sym, struct ts_buf *b);
void ts_add_selects(struct ts_buf *b, struct expr *e, int above, bool *first);
struct ts_choices;
struct ts_choices *ts_choices_save(void);
void ts_choices_free(struct ts_choices *c);
void ts_verdict_judge(struct ts_set *set, const struct ts_choices *before, const char *kver,
		      const char *arch);

/* diff.c */
int ts_cfg_read(struct ts_cfg *cfg, const char *path, struct ts_err *err);
const char *ts_cfg_get(const struct ts_cfg *cfg, const char *name);
void ts_cfg_free(struct ts_cfg *cfg);
struct ts_notes;
struct ts_notes *ts_notes_read(const char *path, struct ts_err *err);
void ts_notes_free(struct ts_notes *n);
void ts_diff_build(struct ts_set *set, const struct ts_cfg *base, const struct ts_cfg *final,
		   const struct ts_notes *notes);
void ts_diff_free(struct ts_set *set);

/* report.c */
struct ts_report_opts {
	const char *arch, *kver, *base_name;
	bool verbose; /* show "same" requests */
	bool diff_only; /* only the diff against the base */
};

void ts_report_text(FILE *out, const struct ts_set *set, const struct ts_report_opts *o);
void ts_report_json(FILE *out, const struct ts_set *sets, int nsets,
		    const struct ts_report_opts *o);
const char *ts_verdict_name(enum ts_verdict v);

#endif
