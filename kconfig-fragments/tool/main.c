// SPDX-License-Identifier: GPL-2.0-only
/*
 * ts-kconfig: merge kernel config fragments onto a base .config, run olddefconfig, and give a
 * verdict with a reason for every requested symbol. Linked against the tree's kconfig objects.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lkc.h"
#include "ts_kconfig.h"

extern char **environ;

/*
 * The tree's own conf front end, linked from a copy of its conf.o in which kernel-config.sh
 * renamed main to ts_conf_main and the call to conf_parse() to ts_conf_parse(): conf runs in a
 * child forked after this process's one Kconfig parse, on that parse.
 */
int ts_conf_main(int argc, char **argv);
void ts_conf_parse(const char *name);

/* Whether conf_parse() ran: conf.o calls back with only a file name, so this is file state. */
static bool kconfig_parsed;

void ts_conf_parse(const char *name)
{
	if (kconfig_parsed)
		return;
	conf_parse(name);
	kconfig_parsed = true;
}

struct opts {
	const char *base, *output, *outdir, *olddefconfig, *env_file, *kconfig, *base_name;
	const char *defconfig;
	const char *check, *confounders, *eras;
	char **dirs;
	int ndirs;
	bool each, json, verbose, diff_only, allow_drops;
	const struct ts_eras *era_table; /* read from eras */
	const char *kver;
};

static void usage(FILE *out, const char *prog)
{
	fprintf(out,
		"usage: %s --base FILE [--output FILE | --each --outdir DIR] [options] FRAGMENT...\n"
		"Merge kernel config fragments onto a base .config, run olddefconfig and report, for\n"
		"every requested symbol, whether it was kept, dropped (and why), or overridden.\n"
		"Run it from the kernel build folder (O=) with the environment of the kernel's make.\n\n"
		"  --base FILE          the base .config (the board's defconfig)\n"
		"  --output FILE        write the merged, then the final .config here\n"
		"  --each               each FRAGMENT argument is a set of its own ('a+b' joins two)\n"
		"  --outdir DIR         with --each: write DIR/<set>.config\n"
		"  --fragment-dir DIR   look fragment names up here (repeatable, in order)\n"
		"  --defconfig FILE     first write the base: the tree's conf --defconfig=FILE (a path\n"
		"                       relative to the tree) into ./.config, copied to --base\n"
		"  --olddefconfig CMD   shell command that turns $TS_KCONFIG_FILE (merged) into the\n"
		"                       final .config, e.g. the tree's 'make olddefconfig'; default:\n"
		"                       the tree's conf --olddefconfig in a child, on this parse\n"
		"  --check FILE         only judge FILE against the fragments (no merge, no write)\n"
		"  --env-file FILE      the kernel make's environment, NUL-separated (env -0)\n"
		"  --kconfig FILE       the top Kconfig file (default $KBUILD_KCONFIG or Kconfig)\n"
		"  --base-name NAME     how reports name the base config\n"
		"  --json               JSON instead of text\n"
		"  --diff               print only the whole diff against the base, grouped\n"
		"  --confounders FILE   SYMBOL<TAB>note lines: changes to flag in the diff\n"
		"  --eras FILE          the era table (kconfig-fragments/README.md): a symbol of\n"
		"                       another era is asked of its stand-in, or is not-in-era\n"
		"  --allow-drops        a purpose that does not survive does not fail the run\n"
		"  -v, --verbose        also show requests that a later fragment repeats (same)\n"
		"  -h, --help           this help\n\n"
		"A fragment's '# ts: purpose CONFIG_X' lines say what it is for: a purpose that does\n"
		"not survive fails the run; its other requests that do not are warnings. A fragment\n"
		"without such lines is all purpose.\n"
		"Exit: 0 every purpose survived, 1 some did not, 2 bad fragment or usage, 3 unusable\n"
		"tree or base config.\n",
		prog);
}

static const struct option longopts[] = {
	{ "base", required_argument, NULL, 'b' },
	{ "output", required_argument, NULL, 'o' },
	{ "outdir", required_argument, NULL, 'D' },
	{ "each", no_argument, NULL, 'E' },
	{ "fragment-dir", required_argument, NULL, 'd' },
	{ "olddefconfig", required_argument, NULL, 'O' },
	{ "defconfig", required_argument, NULL, 'F' },
	{ "check", required_argument, NULL, 'c' },
	{ "env-file", required_argument, NULL, 'e' },
	{ "kconfig", required_argument, NULL, 'k' },
	{ "base-name", required_argument, NULL, 'n' },
	{ "json", no_argument, NULL, 'j' },
	{ "diff", no_argument, NULL, 'f' },
	{ "confounders", required_argument, NULL, 'C' },
	{ "eras", required_argument, NULL, 'R' },
	{ "allow-drops", no_argument, NULL, 'A' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* A repeatable --fragment-dir: the directories are searched in the order given. */
static int add_dir(struct opts *o, char *dir)
{
	char **dirs = realloc(o->dirs, (o->ndirs + 1) * sizeof(*o->dirs));

	if (!dirs)
		return -ENOMEM;
	o->dirs = dirs;
	o->dirs[o->ndirs++] = dir;
	return 0;
}

/* One option of getopt_long into o: 0, or -EINVAL for one that is not ours. */
static int set_opt(struct opts *o, int c, char *arg)
{
	switch (c) {
	case 'b':
		o->base = arg;
		break;
	case 'o':
		o->output = arg;
		break;
	case 'D':
		o->outdir = arg;
		break;
	case 'E':
		o->each = true;
		break;
	case 'd':
		return add_dir(o, arg);
	case 'O':
		o->olddefconfig = arg;
		break;
	case 'F':
		o->defconfig = arg;
		break;
	case 'c':
		o->check = arg;
		break;
	case 'e':
		o->env_file = arg;
		break;
	case 'k':
		o->kconfig = arg;
		break;
	case 'n':
		o->base_name = arg;
		break;
	case 'j':
		o->json = true;
		break;
	case 'f':
		o->diff_only = true;
		break;
	case 'C':
		o->confounders = arg;
		break;
	case 'R':
		o->eras = arg;
		break;
	case 'A':
		o->allow_drops = true;
		break;
	case 'v':
		o->verbose = true;
		break;
	default:
		return -EINVAL;
	}
	return 0;
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	int c, ret;

	while ((c = getopt_long(argc, argv, "hv", longopts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout, argv[0]);
			exit(0);
		}
		ret = set_opt(o, c, optarg);
		if (ret)
			return ret;
	}
	/* Cross-option checks, all in one place. */
	if (!o->base || optind >= argc)
		return -EINVAL;
	if (o->each && (!o->outdir || o->output || o->check))
		return -EINVAL;
	if (!o->each && !o->output && !o->check)
		return -EINVAL;
	return 0;
}

/* Load the kernel make's environment for conf_parse only: Kconfig expands $(CC), $(srctree)...
 * while parsing. The caller restores the saved environment afterwards. */
static int load_env(const char *path, char ***saved, struct ts_err *err)
{
	char *buf = NULL, *p, **e;
	size_t n = 0, cap = 0, r;
	int count = 0;
	FILE *f = fopen(path, "r");

	if (!f) {
		snprintf(err->msg, sizeof(err->msg), "%s: %s", path, strerror(errno));
		return -errno;
	}
	do {
		if (n + 65536 > cap) {
			p = realloc(buf, cap * 2 + 65536);
			if (!p)
				goto oom;
			buf = p;
			cap = cap * 2 + 65536;
		}
		r = fread(buf + n, 1, cap - n - 1, f);
		n += r;
	} while (r);
	fclose(f);
	f = NULL;
	buf[n] = 0;
	for (e = environ; *e; e++)
		count++;
	*saved = calloc(count + 1, sizeof(char *));
	if (!*saved)
		goto oom;
	for (count = 0, e = environ; *e; e++)
		(*saved)[count++] = strdup(*e);
	for (p = buf; p < buf + n; p += strlen(p) + 1) {
		char *eq = strchr(p, '=');

		if (!eq)
			continue;
		*eq = 0;
		setenv(p, eq + 1, 1);
		*eq = '=';
	}
	free(buf);
	return 0;
oom:
	if (f)
		fclose(f);
	free(buf);
	snprintf(err->msg, sizeof(err->msg), "%s: out of memory", path);
	return -ENOMEM;
}

static void restore_env(char **saved)
{
	int i;

	if (!saved)
		return;
	clearenv();
	for (i = 0; saved[i]; i++)
		putenv(saved[i]); /* the strings now belong to the environment */
	free(saved);
}

static char *dup_env(const char *name)
{
	const char *v = getenv(name);

	return v ? strdup(v) : NULL;
}

static int build_set(struct ts_set *set, const struct opts *o, char **names, int n,
		     struct ts_err *err)
{
	struct ts_buf label = { 0 };
	int i, ret;

	set->paths = calloc(n, sizeof(char *));
	for (i = 0; i < n; i++) {
		ret = ts_frag_resolve(names[i], o->dirs, o->ndirs, &set->paths[i], err);
		if (ret)
			return ret;
		set->npaths++;
		ts_buf_printf(&label, "%s%s", i ? (o->each ? "+" : " ") : "", names[i]);
	}
	set->label = ts_buf_take(&label);
	for (i = 0; i < n; i++) {
		ret = ts_frag_parse(set, set->paths[i], err);
		if (ret)
			return ret;
	}
	ts_frag_link(set);
	return 0;
}

static void free_set(struct ts_set *set)
{
	free((char *)set->label);
	ts_set_free(set);
}

/* Set number i: one argument split at '+' with --each, else all the arguments. */
static int set_from_args(struct ts_set *set, const struct opts *o, char **argv, int argc, int i,
			 const char *arch, const char *srctree, bool parsed, struct ts_err *err)
{
	char *names[64], *arg = NULL, *tok, *sp = NULL;
	int n = 0, ret;

	if (o->each) {
		arg = strdup(argv[optind + i]);
		for (tok = strtok_r(arg, "+", &sp); tok && n < 64; tok = strtok_r(NULL, "+", &sp))
			names[n++] = tok;
	} else {
		for (n = 0; optind + n < argc && n < 64; n++)
			names[n] = argv[optind + n];
	}
	set->arch = arch;
	set->srctree = srctree;
	set->kver = o->kver;
	set->allow_drops = o->allow_drops;
	/* the era table needs the tree's symbols: none before the Kconfig parse */
	set->eras = parsed ? o->era_table : NULL;
	ret = build_set(set, o, names, n, err);
	free(arg);
	return ret;
}

/*
 * The tree's conf ("conf -s ARG KCONFIG", as make's *config targets run it) in a child forked
 * before anything was read, with the kernel make's environment and KCONFIG_CONFIG=config; its
 * stdout goes to stderr (ours is the report). conf reuses this process's parse. Only a fresh
 * state will do: from 6.11 on, a choice member keeps SYMBOL_WRITE from an earlier conf_read,
 * and one process reading several configs writes lines that the tree's own conf does not
 * (tests/kconfig-make.t compares the two).
 */
static int conf_fresh(const struct opts *o, const char *arg, const char *config)
{
#ifdef TS_KC_NO_SILENT_OPT
	/* an era without -s: its "configuration written" lines go to stderr with the rest */
	char *argv[] = { "conf", (char *)arg, (char *)o->kconfig, NULL };
#else
	char *argv[] = { "conf", "-s", (char *)arg, (char *)o->kconfig, NULL };
#endif
	int argc = (int)(sizeof(argv) / sizeof(argv[0])) - 1;
	char **saved = NULL;
	struct ts_err err;
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		if (o->env_file && load_env(o->env_file, &saved, &err))
			_exit(TS_EXIT_ENV);
		if (setenv("KCONFIG_CONFIG", config, 1) || dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
			_exit(TS_EXIT_ENV);
		optind = 0; /* conf's getopt_long starts afresh */
		_exit(ts_conf_main(argc, argv));
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* Copy file from to file to (created or truncated). */
static int copy_file(const char *from, const char *to, struct ts_err *err)
{
	char buf[65536];
	ssize_t n = 0;
	int in, out;

	in = open(from, O_RDONLY);
	if (in < 0) {
		snprintf(err->msg, sizeof(err->msg), "%s: %s", from, strerror(errno));
		return -TS_EXIT_ENV;
	}
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (out < 0) {
		snprintf(err->msg, sizeof(err->msg), "%s: %s", to, strerror(errno));
		close(in);
		return -TS_EXIT_ENV;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n) {
			n = -1;
			break;
		}
	if (close(out) || n < 0) {
		snprintf(err->msg, sizeof(err->msg), "%s: cannot copy %s: %s", to, from,
			 strerror(errno));
		close(in);
		return -TS_EXIT_ENV;
	}
	close(in);
	return 0;
}

/* The base: the tree's conf --defconfig=FILE writes ./.config, as make <defconfig> does in an
 * O= folder, then a copy goes to --base. */
static int make_base(const struct opts *o, struct ts_err *err)
{
	struct ts_buf arg = { 0 };
	int ret;

	ts_buf_printf(&arg, "--defconfig=%s", o->defconfig);
	ret = conf_fresh(o, arg.s, ".config");
	ts_buf_free(&arg);
	if (ret) {
		snprintf(err->msg, sizeof(err->msg), "conf --defconfig=%s failed", o->defconfig);
		return -TS_EXIT_ENV;
	}
	return copy_file(".config", o->base, err);
}

/* Merge the fragments onto the base and run olddefconfig: before any conf_read. */
static int make_set(struct ts_set *set, const struct opts *o, const char *out,
		    struct ts_err *err)
{
	int ret;

	if (o->check)
		return 0;
	ret = ts_frag_merge(set, o->base, out, err);
	if (ret)
		return ret;
	if (o->olddefconfig) {
		setenv("TS_KCONFIG_FILE", out, 1);
		ret = system(o->olddefconfig);
		if (ret) {
			snprintf(err->msg, sizeof(err->msg), "'%s' failed (status %d)",
				 o->olddefconfig, ret);
			return -TS_EXIT_ENV;
		}
	} else if (conf_fresh(o, "--olddefconfig", out)) {
		snprintf(err->msg, sizeof(err->msg), "%s: conf --olddefconfig failed", out);
		return -TS_EXIT_ENV;
	}
	return 0;
}

/* The base value of each request, and the whole diff, from the two .config files' text. */
static int diff_set(struct ts_set *set, const char *base, const char *final,
		    const struct ts_notes *notes, struct ts_err *err)
{
	struct ts_cfg b, f;
	int i, ret;

	ret = ts_cfg_read(&b, base, err);
	if (ret)
		return -TS_EXIT_ENV;
	ret = ts_cfg_read(&f, final, err);
	if (ret) {
		ts_cfg_free(&b);
		return -TS_EXIT_ENV;
	}
	for (i = 0; i < set->nreqs; i++) {
		const char *v = ts_cfg_get(&b, set->reqs[i].name);

		set->reqs[i].base = v ? strdup(v) : NULL;
	}
	ts_diff_build(set, &b, &f, notes);
	ts_cfg_free(&b);
	ts_cfg_free(&f);
	return 0;
}

static int judge_set(struct ts_set *set, const struct opts *o, const char *out, const char *kver,
		     const char *arch, const struct ts_notes *notes, struct ts_err *err)
{
	struct ts_choices *before;
	const char *final = o->check ? o->check : out;

	if (conf_read(o->base)) {
		snprintf(err->msg, sizeof(err->msg), "%s: cannot read the base config", o->base);
		return -TS_EXIT_ENV;
	}
	before = ts_choices_save();
	if (conf_read(final)) {
		snprintf(err->msg, sizeof(err->msg), "%s: cannot read the final config", final);
		ts_choices_free(before);
		return -TS_EXIT_ENV;
	}
	ts_verdict_judge(set, before, kver, arch);
	ts_choices_free(before);
	return diff_set(set, o->base, final, notes, err);
}

static char *set_output(const struct opts *o, const struct ts_set *set)
{
	struct ts_buf b = { 0 };
	const char *p;

	if (!o->each)
		return strdup(o->output ? o->output : "");
	ts_buf_printf(&b, "%s/", o->outdir);
	for (p = set->label; *p; p++) {
		char c[2] = { *p == '/' ? '_' : *p, 0 };

		ts_buf_add(&b, c);
	}
	ts_buf_add(&b, ".config");
	return ts_buf_take(&b);
}

/* Every set merged and through olddefconfig first (before any conf_read), then judged and
 * reported. Returns 0, or the exit code of the first error, which it prints. */
static int run_sets(struct ts_set *sets, int nsets, const struct opts *o,
		    const struct ts_report_opts *ropt, const struct ts_notes *notes,
		    int *failures)
{
	struct ts_err err = { { 0 } };
	int i, pass, ret;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < nsets; i++) {
			char *out = set_output(o, &sets[i]);

			if (!pass)
				ret = make_set(&sets[i], o, out, &err);
			else
				ret = judge_set(&sets[i], o, out, ropt->kver, ropt->arch, notes,
						&err);
			free(out);
			if (ret) {
				fprintf(stderr, "ts-kconfig: error: %s\n", err.msg);
				return ret == -TS_EXIT_ENV ? TS_EXIT_ENV : TS_EXIT_FRAGMENT;
			}
			if (pass && !o->json)
				ts_report_text(stdout, &sets[i], ropt);
			if (pass)
				*failures += sets[i].failures;
		}
	}
	return 0;
}

/* Missing files and syntax errors first: they need no Kconfig, whose parse runs dozens of
 * compiler probes. Types and choices are checked in the second pass, after it. */
static int read_sets(struct ts_set *sets, int nsets, const struct opts *o, char **argv, int argc,
		     const char *kconfig, char **saved, const char *arch, const char *srctree,
		     struct ts_err *err)
{
	int i, pass, ret;

	for (pass = 0; pass < 2; pass++) {
		if (pass) {
			conf_set_message_callback(NULL);
			ts_conf_parse(kconfig);
			restore_env(saved);
			if (o->defconfig && !o->check) {
				ret = make_base(o, err);
				if (ret)
					return ret;
			}
		}
		for (i = 0; i < nsets; i++) {
			ret = set_from_args(&sets[i], o, argv, argc, i, arch, srctree, pass, err);
			if (ret)
				return ret;
			if (!pass)
				free_set(&sets[i]);
		}
	}
	return 0;
}

/* --kconfig, else $KBUILD_KCONFIG, else Kconfig: a copy, as conf's children need it after the
 * make environment is gone. */
static char *kconfig_path(const struct opts *o)
{
	const char *k = o->kconfig ? o->kconfig : getenv("KBUILD_KCONFIG");

	return strdup(k && *k ? k : "Kconfig");
}

/* The files the options name: --env-file's saved environment, the confounders, the eras. 0, or
 * the exit code after the message. */
static int read_tables(const struct opts *o, char ***saved, struct ts_notes **notes,
		       struct ts_eras *eras)
{
	struct ts_err err = { { 0 } };

	if (o->env_file && load_env(o->env_file, saved, &err)) {
		fprintf(stderr, "ts-kconfig: %s\n", err.msg);
		return TS_EXIT_ENV;
	}
	if (o->confounders && !(*notes = ts_notes_read(o->confounders, &err))) {
		fprintf(stderr, "ts-kconfig: %s\n", err.msg);
		return TS_EXIT_FRAGMENT;
	}
	if (o->eras && ts_eras_read(eras, o->eras, &err)) {
		fprintf(stderr, "ts-kconfig: %s\n", err.msg);
		ts_notes_free(*notes);
		return TS_EXIT_FRAGMENT;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o = { 0 };
	struct ts_err err = { { 0 } };
	struct ts_set *sets;
	char **saved = NULL, *kver, *arch, *srctree;
	const char *kconfig;
	int nsets, i, failures = 0, ret;
	struct ts_notes *notes = NULL;
	struct ts_eras eras = { 0 };
	struct ts_report_opts ropt;

	if (parse_opts(argc, argv, &o)) {
		usage(stderr, argv[0]);
		return TS_EXIT_FRAGMENT;
	}
	ret = read_tables(&o, &saved, &notes, &eras);
	if (ret)
		return ret;
	o.era_table = &eras;
	kver = dup_env("KERNELVERSION");
	o.kver = kver;
	arch = dup_env("ARCH");
	srctree = dup_env("srctree");
	kconfig = o.kconfig = kconfig_path(&o);

	ropt = (struct ts_report_opts){ .arch = arch, .kver = kver,
		.base_name = o.base_name ? o.base_name : o.base, .verbose = o.verbose,
		.diff_only = o.diff_only };
	nsets = o.each ? argc - optind : 1;
	sets = calloc(nsets, sizeof(*sets));
	if (!sets) {
		fprintf(stderr, "ts-kconfig: out of memory\n");
		return TS_EXIT_ENV;
	}
	ret = read_sets(sets, nsets, &o, argv, argc, kconfig, saved, arch, srctree, &err);
	if (ret) {
		fprintf(stderr, "ts-kconfig: error: %s\n", err.msg);
		return ret == -TS_EXIT_ENV ? TS_EXIT_ENV : TS_EXIT_FRAGMENT;
	}
	ret = run_sets(sets, nsets, &o, &ropt, notes, &failures);
	if (ret)
		return ret;
	if (o.json)
		ts_report_json(stdout, sets, nsets, &ropt);
	for (i = 0; i < nsets; i++)
		free_set(&sets[i]);
	free(sets);
	free(kver);
	free(arch);
	free(srctree);
	free((char *)o.kconfig);
	free(o.dirs);
	ts_notes_free(notes);
	ts_eras_free(&eras);
	return failures ? TS_EXIT_DROPPED : TS_EXIT_OK;
}
