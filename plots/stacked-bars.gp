# SPDX-License-Identifier: GPL-2.0-only
# stacked-bars.gp: one stacked bar per group (a variant, or a CPU of one run), one segment per
# part: idle exits per second by cause, idle residency by state.
#
# Run by hand:  gnuplot -e "data='idle-exits.tsv'; out='idle-exits'" plots/stacked-bars.gp
# writes out.png (pngcairo) and out.svg. Variables (all optional but data):
#   data    the table                      out     output name without extension
#   title   chart title                    ylabel  what the bars count (default "per second")
#   fmt     "png svg" (default), "png" or "svg"
#
# Columns of data (tab-separated, one header row; the names are the contract with tickscope):
#   group   the bar's label ("A: same-cpu (N=10)", "cpu3")
#   <part>  one column per part, headed by its name ("hrtimer", "wakeup", "C1", ...): the
#           group's value; "-" where the events behind that part were not recorded
# Part k gets colour k, so a cause has the same colour in every bar.

if (!exists("data")) { exit error "stacked-bars.gp: set data='FILE.tsv' (see its header)" }
if (!exists("out")) { out = data[1:strlen(data) - 4] }
if (!exists("title")) { title = "" }
if (!exists("ylabel")) { ylabel = "per second" }
if (!exists("fmt")) { fmt = "png svg" }

set encoding utf8
set datafile separator "\t"
set datafile missing "-"
set datafile columnheaders
set linetype 1 lc rgb "#4E79A7"
set linetype 2 lc rgb "#F28E2B"
set linetype 3 lc rgb "#E15759"
set linetype 4 lc rgb "#76B7B2"
set linetype 5 lc rgb "#59A14F"
set linetype 6 lc rgb "#EDC948"
set linetype 7 lc rgb "#B07AA1"
set linetype 8 lc rgb "#9C755F"
set linetype 9 lc rgb "#BAB0AC"
set linetype cycle 9

stats data using 0 nooutput
ncol = STATS_columns

set title title
set ylabel ylabel
set yrange [0:*]
set grid ytics lc rgb "#dddddd"
set key outside right top vertical reverse Left
set style data histograms
set style histogram rowstacked
set style fill solid 0.85 border rgb "#ffffff"
set boxwidth 0.6
set xtics scale 0 rotate by -25 left

do for [t in fmt] {
	if (t eq "png") {
		set terminal pngcairo size 960, 600 font "sans,10" noenhanced
	} else {
		set terminal svg size 960, 600 dynamic font "sans,10" noenhanced
	}
	set output out . "." . t
	plot for [i=2:ncol] data using i:xtic(1) lt (i - 1) title columnheader(i)
	unset output
}
