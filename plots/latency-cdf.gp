# SPDX-License-Identifier: GPL-2.0-only
# latency-cdf.gp: cumulative distributions of latencies on a log time axis, one curve per series
# (a variant, a wake class or a kind of latency), with each series' p50 and p99 marked.
#
# Run by hand:  gnuplot -e "data='latency-cdf.tsv'; out='latency-cdf'" plots/latency-cdf.gp
# writes out.png (pngcairo) and out.svg. Variables (all optional but data):
#   data    the CDF table                  marks   the p50/p99 table (no marks without it)
#   out     output name without extension (default: data without .tsv)
#   title   chart title                    xlabel  x axis label (default "latency (µs)")
#   fmt     terminals to draw: "png svg" (default), "png" or "svg"
#
# Columns of data (tab-separated, one header row; the names are the contract with tickscope):
#   upper_ns   an upper bucket bound in ns (> 0), increasing
#   <series>   one column per series, headed by its legend text ("A (N=10 runs, 5120 wakes)"):
#              the fraction of the series' values below upper_ns (0..1); "-" where unmeasured
# Columns of marks, one row per series in the order of data's series columns:
#   series  p50_ns  p99_ns      ("-" for a series without values)
# Series k gets line type k: variant colours are the same in every chart.

if (!exists("data")) { exit error "latency-cdf.gp: set data='FILE.tsv' (see its header)" }
if (!exists("out")) { out = data[1:strlen(data) - 4] }
if (!exists("title")) { title = "Latency distribution" }
if (!exists("xlabel")) { xlabel = "latency (µs)" }
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

set title title
set xlabel xlabel
set ylabel "fraction of values ≤ x"
set logscale x 10
set format x "%g"
set yrange [0:1.02]
set ytics 0.1
set grid xtics mxtics ytics lc rgb "#dddddd"
set key bottom right box opaque
set arrow 1 from graph 0, first 0.5 to graph 1, first 0.5 nohead dt 2 lc rgb "#888888"
set arrow 2 from graph 0, first 0.99 to graph 1, first 0.99 nohead dt 2 lc rgb "#888888"
set label 1 "p50" at graph 0.005, first 0.5 offset 0, 0.6 tc rgb "#666666"
set label 2 "p99" at graph 0.005, first 0.99 offset 0, -0.6 tc rgb "#666666"

do for [t in fmt] {
	if (t eq "png") {
		set terminal pngcairo size 960, 600 font "sans,10" noenhanced
	} else {
		set terminal svg size 960, 600 dynamic font "sans,10" noenhanced
	}
	set output out . "." . t
	if (exists("marks")) {
		plot for [i=2:ncol] data using ($1 / 1000):i with lines lt (i - 1) title columnheader(i), \
		     marks using ($2 / 1000):(0.5):($0 + 1) with points lc variable ps 1.3 notitle, \
		     marks using ($3 / 1000):(0.99):($0 + 1) with points lc variable ps 1.3 pt 5 notitle
	} else {
		plot for [i=2:ncol] data using ($1 / 1000):i with lines lt (i - 1) title columnheader(i)
	}
	unset output
}
