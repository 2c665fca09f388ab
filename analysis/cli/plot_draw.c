// SPDX-License-Identifier: GPL-2.0-only
/*
 * Drawing charts: the embedded gnuplot scripts and plots.sh (the commands, to redraw by hand)
 * go into the charts' folder, then gnuplot runs there, one process per chart, two at a time.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "common/io.h"
#include "tickscope/chart.h"
#include "tickscope/error.h"

#define DRAW_JOBS 2

/* The -e argument of gnuplot for chart @c: every value is already free of quotes. */
static void gp_expr(const struct ts_chart *c, char *buf, size_t len)
{
	char title[sizeof(c->title)], axis[sizeof(c->axis)];
	size_t n;

	snprintf(title, sizeof(title), "%s", c->title);
	snprintf(axis, sizeof(axis), "%s", c->axis);
	n = (size_t)snprintf(buf, len, "data='%s.tsv'; out='%s'; title='%s'", c->name, c->name,
			     ts_chart_clean(title));
	if (c->marks && n < len)
		n += (size_t)snprintf(buf + n, len - n, "; marks='%s-marks.tsv'", c->name);
	if (c->axis_var && n < len)
		snprintf(buf + n, len - n, "; %s='%s'", c->axis_var, ts_chart_clean(axis));
}

static int write_file(const struct ts_charts *cs, const char *name, const char *text, int mode)
{
	char path[4096];
	FILE *f;
	int err;

	snprintf(path, sizeof(path), "%s/%s", cs->dir, name);
	f = ts_fopen_w(path, cs->keep, &err);
	if (!f)
		return cli_error("cannot write %s: %s", path, ts_strerror(err));
	fputs(text, f);
	err = ts_fclose_err(f);
	if (err)
		return cli_error("cannot write %s: %s", path, ts_strerror(err));
	if (mode && chmod(path, (mode_t)mode))
		return cli_error("cannot chmod %s: %s", path, strerror(errno));
	return 0;
}

/* plots.sh and charts.tsv: what was drawn how, and what was not and why. */
static int write_index(const struct ts_charts *cs)
{
	char *sh = NULL, *idx = NULL, expr[1024];
	size_t shlen = 0, idxlen = 0, i;
	FILE *s = open_memstream(&sh, &shlen), *x = open_memstream(&idx, &idxlen);
	int ret = 1;

	if (!s || !x)
		goto close;
	fputs("#!/bin/sh\n# Redraws the charts of this folder, as tickscope drew them (gnuplot:\n"
	      "# Debian package gnuplot-nox). Each script's header documents the columns it reads.\n"
	      "set -e\ncd \"$(dirname \"$0\")\"\n",
	      s);
	fputs(CLI_CHARTS_HEADER, x);
	for (i = 0; i < cs->nr; i++) {
		const struct ts_chart *c = &cs->c[i];

		fprintf(x, "%s\t%s\t%s\t%s\t%s\n", c->name, c->script,
			c->missing[0] ? "missing" : "drawn", c->title,
			c->missing[0] ? c->missing : "-");
		if (c->missing[0])
			continue;
		gp_expr(c, expr, sizeof(expr));
		fprintf(s, "gnuplot -e \"%s\" %s\n", expr, c->script);
	}
close:
	if (s)
		fclose(s);
	if (x)
		fclose(x);
	if (sh && idx)
		ret = write_file(cs, "plots.sh", sh, 0755) || write_file(cs, "charts.tsv", idx, 0);
	else
		cli_error("out of memory");
	free(sh);
	free(idx);
	return ret;
}

static pid_t spawn(const struct ts_charts *cs, const struct ts_chart *c, const char *gp)
{
	char expr[1024];
	pid_t pid;

	gp_expr(c, expr, sizeof(expr));
	pid = fork();
	if (pid == 0) {
		if (chdir(cs->dir))
			_exit(126);
		execlp(gp, gp, "-e", expr, c->script, (char *)NULL);
		_exit(127);
	}
	return pid;
}

/*
 * Wait for one child; 0 if it drew its chart, 2 if gnuplot could not be run (said once, by
 * run_all()), else 1 after saying why.
 */
static int reap(const struct ts_charts *cs, pid_t *pids, size_t n, const char *gp)
{
	int status;
	pid_t pid = wait(&status);
	size_t i;

	for (i = 0; i < n && pids[i] != pid; i++)
		;
	if (pid < 0 || i == n)
		return cli_error("waiting for gnuplot: %s", strerror(errno));
	pids[i] = 0;
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return 2;
	return cli_error("gnuplot failed on %s/%s.tsv (%s %d)", cs->dir, cs->c[i].name,
			 WIFEXITED(status) ? "exit" : "signal",
			 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
}

static int run_all(const struct ts_charts *cs, const char *gp)
{
	pid_t *pids = calloc(cs->nr ? cs->nr : 1, sizeof(*pids));
	size_t i, running = 0;
	int ret = 0, r;

	if (!pids)
		return cli_error("out of memory");
	fflush(NULL);
	for (i = 0; i < cs->nr; i++) {
		if (cs->c[i].missing[0])
			continue;
		if (running == DRAW_JOBS) {
			r = reap(cs, pids, cs->nr, gp);
			ret = r == 2 || ret == 2 ? 2 : ret | r;
			running--;
			if (ret == 2)
				break;
		}
		pids[i] = spawn(cs, &cs->c[i], gp);
		if (pids[i] < 0) {
			pids[i] = 0;
			ret |= cli_error("cannot start gnuplot: %s", strerror(errno));
			break;
		}
		running++;
	}
	for (; running; running--) {
		r = reap(cs, pids, cs->nr, gp);
		ret = r == 2 || ret == 2 ? 2 : ret | r;
	}
	free(pids);
	if (ret == 2)
		return cli_error("cannot run %s: install gnuplot (Debian: gnuplot-nox)", gp);
	return ret;
}

/* A chart not drawn this time leaves no file of an earlier drawing in the folder. */
static void remove_stale(const struct ts_charts *cs)
{
	static const char *const ext[] = { ".png", ".svg", ".tsv", "-marks.tsv" };
	char path[4096];
	size_t i, e;

	for (i = 0; i < cs->nr; i++)
		for (e = 0; cs->c[i].missing[0] && e < sizeof(ext) / sizeof(ext[0]); e++) {
			snprintf(path, sizeof(path), "%s/%s%s", cs->dir, cs->c[i].name, ext[e]);
			unlink(path);
		}
}

/*
 * Every file the drawing writes or removes, asked before the first table is written (a refusal
 * halfway left the tables written before it, and with no charts.tsv the folder was then
 * refused as one of other files). gnuplot writes each chart's PNG and SVG through whatever is
 * at their paths: a symbolic link there (out/x.png -> ~/photo.png) would be written through,
 * outside the folder. Nor may a table or a chart replace, or remove_stale() remove, an input
 * of this command found there (@cs->keep, out/offcpu-stacks.tsv of a chart not drawn).
 */
static int check_outputs(const struct ts_charts *cs)
{
	static const char *const ext[] = { ".tsv", "-marks.tsv", ".png", ".svg" };
	char path[4096];
	size_t i, e;
	int err;

	for (i = 0; i < cs->nr; i++)
		for (e = 0; e < sizeof(ext) / sizeof(ext[0]); e++) {
			snprintf(path, sizeof(path), "%s/%s%s", cs->dir, cs->c[i].name, ext[e]);
			/* a chart not drawn: its PNG and SVG are removed, a link there too */
			if (cs->c[i].missing[0] && e >= 2)
				err = ts_out_kept(cs->keep, path) ? -TS_EOUTINPUT : 0;
			else
				err = ts_out_check(path, cs->keep, NULL);
			if (err)
				return cli_error("cannot write %s: %s", path, ts_strerror(err));
		}
	for (i = 0; i <= cli_gp_nr + 1; i++) {
		const char *name = i < cli_gp_nr ? cli_gp_scripts[i].name : "plots.sh";

		snprintf(path, sizeof(path), "%s/%s", cs->dir, i > cli_gp_nr ? "charts.tsv" : name);
		err = ts_out_check(path, cs->keep, NULL);
		if (err)
			return cli_error("cannot write %s: %s", path, ts_strerror(err));
	}
	return 0;
}

int cli_charts_fill(struct ts_charts *cs, int (*fill)(struct ts_charts *cs, void *ctx), void *ctx)
{
	int err;

	cs->dry = 1;
	err = fill(cs, ctx);
	cs->dry = 0;
	if (!err && check_outputs(cs))
		err = 1;
	ts_charts_release(cs);
	return err ?: fill(cs, ctx);
}

int cli_draw(const struct ts_charts *cs)
{
	const char *gp = getenv("TS_GNUPLOT") ? getenv("TS_GNUPLOT") : "gnuplot";
	size_t i;

	if (check_outputs(cs)) /* checked before the tables too: this is what gnuplot meets */
		return 1;
	remove_stale(cs);
	for (i = 0; i < cli_gp_nr; i++)
		if (write_file(cs, cli_gp_scripts[i].name, cli_gp_scripts[i].text, 0))
			return 1;
	if (write_index(cs))
		return 1;
	return run_all(cs, gp);
}
