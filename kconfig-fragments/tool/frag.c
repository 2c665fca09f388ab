// SPDX-License-Identifier: GPL-2.0-only
/*
 * Fragments: find them, parse and validate them against the parsed Kconfig, link later requests
 * to the ones they override, and merge them into a base .config the way merge_config.sh does.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "lkc.h"
#include "ts_kconfig.h"

static void set_err(struct ts_err *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_err(struct ts_err *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	va_end(ap);
}

static bool is_file(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

int ts_frag_resolve(const char *name, char *const *dirs, int ndirs, char **path, struct ts_err *err)
{
	struct ts_buf tried = { 0 };
	struct stat st;
	char buf[4096];
	int i;

	if (strchr(name, '/')) {
		if (is_file(name)) {
			*path = strdup(name);
			return 0;
		}
		if (!stat(name, &st) && S_ISDIR(st.st_mode)) {
			set_err(err, "fragment '%s': a directory, not a fragment file", name);
			return -EISDIR;
		}
		set_err(err, "fragment '%s': no such file", name);
		return -ENOENT;
	}
	for (i = 0; i < ndirs; i++) {
		snprintf(buf, sizeof(buf), "%s/%s.config", dirs[i], name);
		if (is_file(buf))
			goto found;
		snprintf(buf, sizeof(buf), "%s/%s", dirs[i], name);
		if (is_file(buf))
			goto found;
		ts_buf_printf(&tried, "%s%s/%s.config", i ? ", " : "", dirs[i], name);
	}
	set_err(err, "fragment '%s': not found (looked for %s)", name,
		tried.s ? tried.s : "nothing");
	ts_buf_free(&tried);
	return -ENOENT;
found:
	ts_buf_free(&tried);
	*path = strdup(buf);
	return 0;
}

static const char *short_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static struct ts_req *add_req(struct ts_set *set)
{
	struct ts_req *r;

	if (set->nreqs == set->cap) {
		int cap = set->cap ? set->cap * 2 : 32;

		r = realloc(set->reqs, cap * sizeof(*set->reqs));
		if (!r)
			return NULL;
		set->reqs = r;
		set->cap = cap;
	}
	r = &set->reqs[set->nreqs++];
	memset(r, 0, sizeof(*r));
	r->overridden_by = -1;
	return r;
}

static bool valid_name(const char *s, size_t n)
{
	size_t i;

	if (!n)
		return false;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)s[i]) && s[i] != '_')
			return false;
	return true;
}

/* Split "value" into its text; returns false when it is not a .config value at all. */
static bool parse_value(const char *v, char **out, bool *quoted)
{
	size_t n = strlen(v), i;
	struct ts_buf b = { 0 };

	*quoted = false;
	if (!n)
		return false;
	if (v[0] == '"') {
		if (n < 2 || v[n - 1] != '"')
			return false;
		for (i = 1; i < n - 1; i++) {
			char c[2] = { v[i], 0 };

			if (v[i] == '\\' && i + 1 < n - 1)
				c[0] = v[++i];
			else if (v[i] == '"')
				return false;
			ts_buf_add(&b, c);
		}
		*out = b.s ? ts_buf_take(&b) : strdup("");
		*quoted = true;
		return true;
	}
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)v[i]) && v[i] != '-')
			return false;
	*out = strdup(v);
	return true;
}

/* Check a value against the symbol's type; unknown symbols are judged later, not here. */
static const char *type_error(struct symbol *sym, const char *val, bool quoted)
{
	char *end;

	if (!sym || sym->type == S_UNKNOWN)
		return NULL;
	switch (sym->type) {
	case S_BOOLEAN:
		if (quoted || (strcmp(val, "y") && strcmp(val, "n")))
			return "is bool: the value must be y or n";
		return NULL;
	case S_TRISTATE:
		if (quoted || (strcmp(val, "y") && strcmp(val, "m") && strcmp(val, "n")))
			return "is tristate: the value must be y, m or n";
		return NULL;
	case S_INT:
		if (quoted || !*val)
			return "is int: the value must be a decimal number";
		strtoll(val, &end, 10);
		return *end ? "is int: the value must be a decimal number" : NULL;
	case S_HEX:
		if (quoted || !*val)
			return "is hex: the value must be a hexadecimal number";
		strtoull(val, &end, 16);
		return *end ? "is hex: the value must be a hexadecimal number" : NULL;
	case S_STRING:
		return quoted ? NULL : "is string: the value must be in double quotes";
	default:
		return NULL;
	}
}

static const char *choice_prompt(struct symbol *cs)
{
	struct property *prop;

	for_all_prompts(cs, prop)
		return prop->text;
	return "<choice>";
}

#define ANN_BAD 1 /* an annotation helper's "not the expected syntax" */

/* "# ts: check CONFIG_X=v" and "# ts: check-warn CONFIG_X=v" */
static int ann_check(struct ts_set *set, bool warn, const char *path, int line, const char *text,
		     struct ts_err *err)
{
	char a[256], *eq;
	struct ts_req *r;

	if (sscanf(text, " CONFIG_%255s", a) != 1 || !(eq = strchr(a, '=')))
		return ANN_BAD;
	*eq = 0;
	r = add_req(set);
	if (!r) {
		set_err(err, "%s:%d: out of memory", path, line);
		return -ENOMEM;
	}
	r->file = path;
	r->frag = short_name(path);
	r->line = line;
	r->kind = TS_REQ_CHECK;
	r->warn_only = warn;
	r->name = strdup(a);
	if (!parse_value(eq + 1, &r->value, &r->quoted))
		return ANN_BAD;
	if (ts_era_apply(set, r)) {
		set_err(err, "%s:%d: out of memory", path, line);
		return -ENOMEM;
	}
	return 0;
}

/* "# ts: purpose CONFIG_X": the request or check of CONFIG_X above is what the fragment is
 * for. Once a fragment names a purpose, its other requests that do not survive are warnings. */
static int ann_purpose(struct ts_set *set, int first, const char *path, int line,
		       const char *text, struct ts_err *err)
{
	char a[256];
	int i;

	if (sscanf(text, " CONFIG_%255[A-Za-z0-9_]", a) != 1)
		return ANN_BAD;
	for (i = first; i < set->nreqs; i++) {
		struct ts_req *r = &set->reqs[i];

		if (!strcmp(r->name, a) || (r->asked && !strcmp(r->asked, a))) {
			r->purpose = true;
			return 0;
		}
	}
	set_err(err, "%s:%d: 'purpose' names CONFIG_%s, which this fragment does not set or check "
		"above", path, line, a);
	return -EINVAL;
}

/* "# ts: effective CONFIG_X if CONFIG_Y=v", for a CONFIG_X set above in the same fragment */
static int ann_effective(struct ts_set *set, int first, const char *path, int line,
			 const char *text, struct ts_err *err)
{
	char a[256], b[256], *eq;
	int i;

	if (sscanf(text, " CONFIG_%255s if CONFIG_%255s", a, b) != 2 || !(eq = strchr(b, '=')))
		return ANN_BAD;
	*eq = 0;
	for (i = first; i < set->nreqs; i++) {
		if (set->reqs[i].kind == TS_REQ_SET && (!strcmp(set->reqs[i].name, a) ||
		    (set->reqs[i].asked && !strcmp(set->reqs[i].asked, a)))) {
			set->reqs[i].eff_name = strdup(b);
			set->reqs[i].eff_value = strdup(eq + 1);
			return 0;
		}
	}
	set_err(err, "%s:%d: 'effective' names CONFIG_%s, which this fragment does not set above",
		path, line, a);
	return -EINVAL;
}

/* "# ts: xfail CONFIG_X before 6.12: why", for a CONFIG_X set above in the same fragment */
static int ann_xfail(struct ts_set *set, int first, const char *path, int line, const char *text,
		     struct ts_err *err)
{
	char a[256], c[32];
	const char *why;
	int i, n = 0;

	if (sscanf(text, " CONFIG_%255s before %31[0-9.]%n", a, c, &n) != 2)
		return ANN_BAD;
	why = text + n;
	while (*why == ':' || *why == ' ')
		why++;
	for (i = first; i < set->nreqs; i++) {
		if (!strcmp(set->reqs[i].name, a) ||
		    (set->reqs[i].asked && !strcmp(set->reqs[i].asked, a))) {
			set->reqs[i].xfail_before = strdup(c);
			set->reqs[i].xfail_why = strdup(why);
			return 0;
		}
	}
	set_err(err, "%s:%d: 'xfail' names CONFIG_%s, which this fragment does not set above",
		path, line, a);
	return -EINVAL;
}

/* One "# ts: WORD ..." annotation: 0, or a negative error with err set. */
static int parse_annotation(struct ts_set *set, int first, const char *path, int line,
			    const char *text, struct ts_err *err)
{
	char word[32];
	int n = 0, ret = ANN_BAD;

	if (sscanf(text, "%31s%n", word, &n) == 1) {
		text += n;
		if (!strcmp(word, "check") || !strcmp(word, "check-warn"))
			ret = ann_check(set, !strcmp(word, "check-warn"), path, line, text, err);
		else if (!strcmp(word, "effective"))
			ret = ann_effective(set, first, path, line, text, err);
		else if (!strcmp(word, "xfail"))
			ret = ann_xfail(set, first, path, line, text, err);
		else if (!strcmp(word, "purpose"))
			ret = ann_purpose(set, first, path, line, text, err);
	}
	if (ret != ANN_BAD)
		return ret;
	set_err(err,
		"%s:%d: bad annotation: expected '# ts: check CONFIG_X=v', '# ts: check-warn "
		"CONFIG_X=v', '# ts: effective CONFIG_X if CONFIG_Y=v', '# ts: xfail CONFIG_X "
		"before VERSION: why' or '# ts: purpose CONFIG_X'",
		path, line);
	return -EINVAL;
}

/* Within one fragment: one line per symbol and one member per choice. */
static int check_file_rules(struct ts_set *set, int first, struct ts_err *err)
{
	int i, j;

	for (i = first; i < set->nreqs; i++) {
		struct ts_req *r = &set->reqs[i];
		struct symbol *cs = ts_choice_of(sym_find(r->name));

		if (r->kind != TS_REQ_SET)
			continue;
		for (j = first; j < i; j++) {
			struct ts_req *o = &set->reqs[j];

			if (o->kind != TS_REQ_SET)
				continue;
			if (!strcmp(o->name, r->name)) {
				set_err(err,
					"%s:%d: CONFIG_%s is already set at line %d of this fragment",
					r->file, r->line, r->name, o->line);
				return -EINVAL;
			}
			if (cs && !strcmp(r->value, "y") && !strcmp(o->value, "y") &&
			    ts_choice_of(sym_find(o->name)) == cs) {
				set_err(err,
					"%s:%d: CONFIG_%s=y and CONFIG_%s=y (line %d) are both members of "
					"the choice \"%s\": set only one",
					r->file, r->line, r->name, o->name, o->line,
					choice_prompt(cs));
				return -EINVAL;
			}
		}
	}
	return 0;
}

/*
 * A comment that reads as "CONFIG_X is not set" without being spelled so ("#CONFIG_X is not set",
 * "#  CONFIG_X is not set", "# CONFIG_X is  not set", "# CONFIG_X is not SET", "# CONFIG_X is not
 * set (why)"). The kernel's conf_read() takes "# CONFIG_X" then "is not set" with one blank
 * each, and ignores what follows: the first four are comments to it, the last an unset. We
 * read only the exact form, so each would mean one thing to us and maybe another to the kernel.
 */
static bool odd_unset(const char *s)
{
	const char *p = s + 1 + strspn(s + 1, " \t");
	char w[3][4], more;
	size_t n;

	if (strncmp(p, "CONFIG_", 7))
		return false;
	n = strspn(p + 7, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_");
	return n && sscanf(p + 7 + n, "%3s %3s %3s %c", w[0], w[1], w[2], &more) >= 3 &&
	       !strcasecmp(w[0], "is") && !strcasecmp(w[1], "not") && !strcasecmp(w[2], "set");
}

/* "# CONFIG_NAME is not set", @n bytes, into a new request *@rp: 0, -EINVAL (syntax), -ENOMEM */
static int unset_req(struct ts_set *set, const char *s, size_t n, struct ts_req **rp)
{
	struct ts_req *r;

	if (!valid_name(s + 9, n - 20))
		return -EINVAL;
	r = add_req(set);
	if (!r)
		return -ENOMEM;
	r->name = strndup(s + 9, n - 20);
	r->value = strdup("n");
	r->raw = strdup(s);
	*rp = r;
	return ts_era_apply(set, r) ? -ENOMEM : 0;
}

/* "CONFIG_NAME=value" into a new request *@rp: 0, -EINVAL (syntax), -ENOMEM */
static int set_req(struct ts_set *set, const char *s, struct ts_req **rp)
{
	struct ts_req *r;
	const char *eq;
	char *val;
	bool quoted;

	if (strncmp(s, "CONFIG_", 7) || !(eq = strchr(s, '=')) || !valid_name(s + 7, eq - s - 7) ||
	    !parse_value(eq + 1, &val, &quoted))
		return -EINVAL;
	r = add_req(set);
	if (!r) {
		free(val);
		return -ENOMEM;
	}
	r->name = strndup(s + 7, eq - s - 7);
	r->value = val;
	r->quoted = quoted;
	r->raw = strdup(s);
	*rp = r;
	return ts_era_apply(set, r) ? -ENOMEM : 0;
}

static int parse_line(struct ts_set *set, const char *path, int line, char *s, struct ts_err *err)
{
	struct ts_req *r = NULL;
	const char *why;
	size_t n;
	int ret;

	n = strlen(s);
	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' || s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = 0;
	if (!n)
		return 0;
	if (!strncmp(s, "# CONFIG_", 9) && n > 20 && !strcmp(s + n - 11, " is not set")) {
		ret = unset_req(set, s, n, &r);
	} else if (s[0] == '#' && odd_unset(s)) {
		set_err(err,
			"%s:%d: '%s': not '# CONFIG_NAME is not set' as the kernel reads it (one blank "
			"after '#' and between the words, nothing after): write it so, or reword the "
			"comment",
			path, line, s);
		return -EINVAL;
	} else if (s[0] == '#') {
		return 0;
	} else {
		ret = set_req(set, s, &r);
		why = ret ? NULL : type_error(sym_find(r->name), r->value, r->quoted);
		if (why) {
			set_err(err, "%s:%d: '%s': CONFIG_%s %s", path, line, s, r->name, why);
			return -EINVAL;
		}
	}
	if (ret == -EINVAL) {
		set_err(err,
			"%s:%d: syntax error: '%s': expected 'CONFIG_NAME=value', "
			"'# CONFIG_NAME is not set' or a '#' comment",
			path, line, s);
		return -EINVAL;
	}
	if (ret) {
		set_err(err, "%s:%d: out of memory", path, line);
		return -ENOMEM;
	}
	r->file = path;
	r->frag = short_name(path);
	r->line = line;
	r->kind = TS_REQ_SET;
	return 0;
}

int ts_frag_parse(struct ts_set *set, const char *path, struct ts_err *err)
{
	char line[4096];
	int lineno = 0, first = set->nreqs, ret = 0, bad = 0;
	struct ts_err one;
	FILE *f = fopen(path, "r");

	err->msg[0] = 0;
	if (!f) {
		set_err(err, "%s: %s", path, strerror(errno));
		return -errno;
	}
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (!strchr(line, '\n') && !feof(f)) {
			set_err(err, "%s:%d: line too long", path, lineno);
			ret = -EINVAL;
			break;
		}
		if (!strncmp(line, "# ts:", 5)) {
			line[strcspn(line, "\r\n")] = 0;
			ret = parse_annotation(set, first, path, lineno, line + 5, err);
		} else {
			ret = parse_line(set, path, lineno, line, &one);
			/* every bad line of the file, one per line, not just the first */
			if (ret == -EINVAL && bad++ < 20) {
				size_t n = strlen(err->msg);

				snprintf(err->msg + n, sizeof(err->msg) - n, "%s%s", n ? "\n" : "",
					 one.msg);
				continue;
			}
			if (ret && ret != -EINVAL)
				memcpy(err->msg, one.msg, sizeof(err->msg));
		}
		if (ret)
			break;
	}
	fclose(f);
	if (!ret && bad)
		ret = -EINVAL;
	if (!ret)
		ret = check_file_rules(set, first, err);
	/*
	 * A fragment that asks for nothing (an empty file, a copy cut short to its comments) gave
	 * the base config and "every purpose met: OK", as if it had been applied.
	 */
	if (!ret && set->nreqs == first) {
		set_err(err, "%s: no CONFIG_ line (%s): a fragment asks for at least one symbol",
			path, lineno ? "only comments" : "an empty file");
		ret = -EINVAL;
	}
	return ret;
}

/* A later request for the same symbol, or for another member of the same choice, wins. */
void ts_frag_link(struct ts_set *set)
{
	int i, j;

	for (i = 0; i < set->nreqs; i++) {
		struct ts_req *r = &set->reqs[i];
		struct symbol *cs = ts_choice_of(sym_find(r->name));

		if (r->kind != TS_REQ_SET)
			continue;
		for (j = i + 1; j < set->nreqs; j++) {
			struct ts_req *l = &set->reqs[j];

			if (l->kind != TS_REQ_SET)
				continue;
			if (!strcmp(l->name, r->name) ||
			    (cs && !strcmp(r->value, "y") && !strcmp(l->value, "y") &&
			     ts_choice_of(sym_find(l->name)) == cs))
				r->overridden_by = j;
		}
	}
}

/* The symbol a .config line sets, or NULL: "CONFIG_X=..." and "# CONFIG_X is not set". */
static bool line_symbol(const char *s, char *name, size_t size)
{
	const char *p = NULL, *e;

	if (!strncmp(s, "CONFIG_", 7)) {
		p = s + 7;
		e = strchr(p, '=');
	} else if (!strncmp(s, "# CONFIG_", 9)) {
		p = s + 9;
		e = strchr(p, ' ');
	} else {
		return false;
	}
	if (!e || (size_t)(e - p) >= size)
		return false;
	memcpy(name, p, e - p);
	name[e - p] = 0;
	return true;
}

/* A request replaces the base line of its symbol and, when it sets a choice member to y, the
 * base lines of the other members: otherwise conf_read warns "changes choice state". */
static bool merge_replaces(const struct ts_set *set, const char *name)
{
	struct symbol *cs = ts_choice_of(sym_find(name));
	int i;

	for (i = 0; i < set->nreqs; i++) {
		const struct ts_req *r = &set->reqs[i];

		if (r->kind != TS_REQ_SET)
			continue;
		if (!strcmp(r->name, name))
			return true;
		if (cs && r->overridden_by < 0 && !strcmp(r->value, "y") &&
		    ts_choice_of(sym_find(r->name)) == cs)
			return true;
	}
	return false;
}

int ts_frag_merge(const struct ts_set *set, const char *base, const char *out, struct ts_err *err)
{
	char line[8192], name[256], tmp[4096];
	FILE *in, *o;
	int i;

	in = fopen(base, "r");
	if (!in) {
		set_err(err, "%s: %s", base, strerror(errno));
		return -errno;
	}
	snprintf(tmp, sizeof(tmp), "%s.ts-merge.tmp", out);
	o = fopen(tmp, "w");
	if (!o) {
		set_err(err, "%s: %s", tmp, strerror(errno));
		fclose(in);
		return -errno;
	}
	while (fgets(line, sizeof(line), in)) {
		bool replaced = false;

		if (line_symbol(line, name, sizeof(name)))
			replaced = merge_replaces(set, name);
		if (!replaced)
			fputs(line, o);
	}
	fclose(in);
	fprintf(o, "\n# tickscope kernel-config: merged fragments %s\n", set->label);
	for (i = 0; i < set->nreqs; i++) {
		const struct ts_req *r = &set->reqs[i];

		if (r->kind == TS_REQ_SET && r->overridden_by < 0)
			fprintf(o, "%s\n", r->raw);
	}
	if (fclose(o) || rename(tmp, out)) {
		set_err(err, "%s: %s", out, strerror(errno));
		return -errno;
	}
	return 0;
}

void ts_set_free(struct ts_set *set)
{
	int i;

	for (i = 0; i < set->nreqs; i++) {
		struct ts_req *r = &set->reqs[i];

		free(r->name);
		free(r->value);
		free(r->raw);
		free(r->xfail_before);
		free(r->asked);
		free(r->era_note);
		free(r->xfail_why);
		free(r->eff_name);
		free(r->eff_value);
		free(r->final);
		free(r->base);
		free(r->reason);
	}
	free(set->reqs);
	ts_diff_free(set);
	for (i = 0; i < set->neffects; i++)
		free(set->effects[i]);
	free(set->effects);
	for (i = 0; i < set->npaths; i++)
		free(set->paths[i]);
	free(set->paths);
	memset(set, 0, sizeof(*set));
}
