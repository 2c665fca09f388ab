# SPDX-License-Identifier: GPL-2.0-only
# bench-box.gp: the benchmark's result by variant: a box per variant (quartiles, whiskers to
# 1.5 IQR), every run as a point over it (jittered sideways), the median drawn and written.
#
# Run by hand:  gnuplot -e "data='bench.tsv'; out='bench'" plots/bench-box.gp
# writes out.png (pngcairo) and out.svg. Variables (all optional but data):
#   data    the runs table                 out     output name without extension
#   title   chart title (tickscope puts the change and its p-value there)
#   ylabel  the metric and its unit        fmt     "png svg" (default), "png" or "svg"
#
# Columns of data (tab-separated, one header row; the names are the contract with tickscope):
#   run        the run's number within its variant (1, 2, ...)
#   <variant>  one column per variant, headed by its legend text ("A: same-cpu (N=10)"):
#              that run's result; "-" where the variant has fewer runs
# Variant k gets line type k: the same colour as in every other chart.

if (!exists("data")) { exit error "bench-box.gp: set data='FILE.tsv' (see its header)" }
if (!exists("out")) { out = data[1:strlen(data) - 4] }
if (!exists("title")) { title = "Benchmark result by variant" }
if (!exists("ylabel")) { ylabel = "result" }
if (!exists("fmt")) { fmt = "png svg" }

set encoding utf8
set datafile separator "\t"
set datafile missing "-"
set datafile columnheaders
set linetype 1 lc rgb "#0072B2" lw 2 pt 7
set linetype 2 lc rgb "#D55E00" lw 2 pt 7
set linetype 3 lc rgb "#009E73" lw 2 pt 7
set linetype 4 lc rgb "#CC79A7" lw 2 pt 7
set linetype 5 lc rgb "#E69F00" lw 2 pt 7
set linetype 6 lc rgb "#56B4E9" lw 2 pt 7
set linetype 7 lc rgb "#8C564B" lw 2 pt 7
set linetype 8 lc rgb "#000000" lw 2 pt 7
set linetype cycle 8

stats data using 1 nooutput
ncol = STATS_columns
# The median of each variant, for its label.
array med[ncol]
do for [i=2:ncol] {
	stats data using i nooutput
	med[i] = STATS_median
}

# A run's sideways offset: golden-ratio spacing, the same on every drawing.
jitter(n) = ((n * 0.618034) - floor(n * 0.618034) - 0.5) * 0.36

set title title
set ylabel ylabel
set xrange [0.4:ncol - 0.4]
set xtics scale 0
set xtics () 
do for [i=2:ncol] { set xtics add ("" i - 1) }
set grid ytics lc rgb "#dddddd"
set key outside bottom center horizontal
set style boxplot nooutliers range 1.5
set style data boxplot
set boxwidth 0.5
set style fill transparent solid 0.15 border

do for [t in fmt] {
	if (t eq "png") {
		set terminal pngcairo size 960, 600 font "sans,10" noenhanced
	} else {
		set terminal svg size 960, 600 dynamic font "sans,10" noenhanced
	}
	set output out . "." . t
	plot for [i=2:ncol] data using (i - 1):i with boxplot lt (i - 1) notitle, \
	     for [i=2:ncol] data using (i - 1 + jitter($0)):i with points lt (i - 1) ps 1.2 \
		title columnheader(i), \
	     for [i=2:ncol] data using (i - 1.3):(med[i]):(sprintf("median %.4g", med[i])) \
		every ::0::0 with labels right tc lt (i - 1) notitle
	unset output
}
