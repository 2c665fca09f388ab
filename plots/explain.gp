# SPDX-License-Identifier: GPL-2.0-only
# explain.gp: the benchmark's change as a waterfall from A to B: A's total, one bar per
# component of the change (wake delivery, sched delay, run time, ...), the residual that the
# components do not explain, and B's total.
#
# Run by hand:  gnuplot -e "data='explain.tsv'; out='explain'" plots/explain.gp
# writes out.png (pngcairo) and out.svg. Variables (all optional but data):
#   data    the table                      out     output name without extension
#   title   chart title                    ylabel  the metric and its unit
#   (default "µs per operation")
#   fmt     "png svg" (default), "png" or "svg"
#
# Columns of data (tab-separated, one header row; the names are the contract with tickscope):
#   step       the bar's label ("A: same-cpu (N=10)", "wake delivery", "residual", ...)
#   from_val   where the bar starts, in the metric's unit
#   to_val     where it ends (a total's bar goes from 0; a component's from the running sum)
#   kind       total_a, total_b, component or residual
#   share_pct  the component's share of the change in %, "-" for the totals
# A total gets its variant's colour (blue A, orange B, as in every chart); a component that
# adds is red, one that takes away green, the residual grey.

if (!exists("data")) { exit error "explain.gp: set data='FILE.tsv' (see its header)" }
if (!exists("out")) { out = data[1:strlen(data) - 4] }
if (!exists("title")) { title = "What the change is made of" }
if (!exists("ylabel")) { ylabel = "µs per operation" }
if (!exists("fmt")) { fmt = "png svg" }

set encoding utf8
set datafile separator "\t"
set datafile missing "-"
set datafile columnheaders

color(kind, from, to) = kind eq "total_a" ? 0x0072B2 : kind eq "total_b" ? 0xD55E00 : \
	kind eq "residual" ? 0xBAB0AC : to >= from ? 0xE15759 : 0x59A14F
lo(a, b) = a < b ? a : b
label(kind, share) = kind[1:5] eq "total" ? "" : sprintf("%+.0f%%", share)

stats data using 0 nooutput
nrow = STATS_records

set title title
set ylabel ylabel
set xrange [-0.6:nrow - 0.4]
set yrange [0:*]
set offsets 0, 0, graph 0.08, 0
set xtics scale 0 rotate by -20 left
set grid ytics lc rgb "#dddddd"
set key off
set style fill solid 0.85 noborder

do for [t in fmt] {
	if (t eq "png") {
		set terminal pngcairo size 960, 600 font "sans,10" noenhanced
	} else {
		set terminal svg size 960, 600 dynamic font "sans,10" noenhanced
	}
	set output out . "." . t
	plot data using 0:(($2 + $3) / 2):(0.35):(abs($3 - $2) / 2):(color(strcol(4), $2, $3)):xtic(1) \
		with boxxyerror lc rgb variable, \
	     data using 0:($2 > $3 ? $2 : $3):(label(strcol(4), $5)) with labels offset 0, 0.8, \
	     data using 0:($2 > $3 ? $2 : $3):(strcol(4)[1:5] eq "total" ? sprintf("%.4g", $3) : "") \
		with labels offset 0, 0.8
	unset output
}
