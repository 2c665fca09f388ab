# SPDX-License-Identifier: GPL-2.0-only
# top-bars.gp: horizontal bars for ranked rows (timer and hrtimer callbacks, work items,
# off-CPU stacks, shrinkers), one bar per series side by side: variant A against B, or one run.
#
# Run by hand:  gnuplot -e "data='timers.tsv'; out='timers'" plots/top-bars.gp
# writes out.png (pngcairo) and out.svg. Variables (all optional but data):
#   data    the table                      out     output name without extension
#   title   chart title                    xlabel  what the bars measure (default "per second")
#   fmt     "png svg" (default), "png" or "svg"
#
# Columns of data (tab-separated, one header row; the names are the contract with tickscope):
#   label     the row's name (a function, "hrtimer: tick_nohz_handler", a stack's top frames)
#   <series>  one column per series, headed by its legend text ("A: same-cpu (N=10)"): the
#             row's value; "-" where unmeasured
# Rows are drawn top to bottom in file order (the writer ranks them). Series k gets line type
# k: variant colours are the same in every chart.

if (!exists("data")) { exit error "top-bars.gp: set data='FILE.tsv' (see its header)" }
if (!exists("out")) { out = data[1:strlen(data) - 4] }
if (!exists("title")) { title = "" }
if (!exists("xlabel")) { xlabel = "per second" }
if (!exists("fmt")) { fmt = "png svg" }

set encoding utf8
set datafile separator "\t"
set datafile missing "-"
set datafile columnheaders
set linetype 1 lc rgb "#0072B2"
set linetype 2 lc rgb "#D55E00"
set linetype 3 lc rgb "#009E73"
set linetype 4 lc rgb "#CC79A7"
set linetype 5 lc rgb "#E69F00"
set linetype 6 lc rgb "#56B4E9"
set linetype 7 lc rgb "#8C564B"
set linetype 8 lc rgb "#000000"
set linetype cycle 8

stats data using 0 nooutput
ncol = STATS_columns
nrow = STATS_records
nser = ncol - 1
# Room on the left for the longest label (in character widths).
stats data using (strlen(strcol(1))) nooutput
lwidth = STATS_max < 60 ? STATS_max : 60
# Bar i of a row sits at row + off(i), all bars of a row within 0.8 of it.
h = 0.8 / nser
off(i) = -0.4 + h * (i - 1.5)

set title title
set xlabel xlabel
set xrange [0:*]
set offsets 0, graph 0.04, 0, 0
set yrange [nrow - 0.5:-0.5]
set ytics scale 0
set grid xtics lc rgb "#dddddd"
set key outside top center horizontal
set style fill solid 0.85 noborder
set lmargin lwidth + 2

do for [t in fmt] {
	if (t eq "png") {
		set terminal pngcairo size 960, 600 font "sans,10" noenhanced
	} else {
		set terminal svg size 960, 600 dynamic font "sans,10" noenhanced
	}
	set output out . "." . t
	plot data using (NaN):0:ytic(1) with points notitle, \
	     for [i=2:ncol] data using (column(i) / 2):($0 + off(i)):(column(i) / 2):(h / 2) \
		with boxxyerror lt (i - 1) title columnheader(i)
	unset output
}
