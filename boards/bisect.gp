# SPDX-License-Identifier: GPL-2.0-only
# bisect.gp: make bisect's chart: the explaining metric of each step's candidate (median, with
# its runs' range), coloured by verdict, between the GOOD and BAD endpoints' medians.
#
# Run by hand:  gnuplot -e "data='steps.tsv'; out='chart'; good='68.7'; bad='40.4'" boards/bisect.gp
# writes out.svg. Variables: data (required), out, title, ylabel, good and bad (the endpoints'
# medians, drawn as lines).
#
# Columns of data (tab-separated, one header row; boards/bisect.sh writes them):
#   step       the step's number (verification steps come last)
#   candidate  k<NN> (the first NN changes), revert or alone
#   index      NN
#   verdict    good, bad (skipped steps have no row)
#   median, min, max   the explaining metric over the candidate's runs

if (!exists("data")) { exit error "bisect.gp: set data='steps.tsv' (see its header)" }
if (!exists("out")) { out = "chart" }
if (!exists("title")) { title = "make bisect: the explaining metric per step" }
if (!exists("ylabel")) { ylabel = "explaining metric" }

set encoding utf8
set datafile separator "\t"
set datafile missing "-"
set terminal svg size 900,500 dynamic background rgb "white" font "sans,12"
set output out . ".svg"
set title title noenhanced
set ylabel ylabel noenhanced
set xlabel "step"
set key outside right top noenhanced
set grid ytics
set offsets 0.5, 0.5, 0, 0
set xtics 1
set linetype 1 lc rgb "#009E73" lw 2 pt 7 ps 1.2
set linetype 2 lc rgb "#D55E00" lw 2 pt 7 ps 1.2
set linetype 3 lc rgb "#0072B2" lw 1 dt 2
set linetype 4 lc rgb "#CC79A7" lw 1 dt 2
plot \
	data skip 1 using 1:(strcol(4) eq "good" ? $5 : NaN):6:7 with yerrorbars lt 1 title "good", \
	data skip 1 using 1:(strcol(4) eq "bad" ? $5 : NaN):6:7 with yerrorbars lt 2 title "bad", \
	data skip 1 using 1:5:2 with labels offset 0,1.2 font ",9" notitle, \
	(exists("good") ? real(good) : NaN) lt 3 title "GOOD median", \
	(exists("bad") ? real(bad) : NaN) lt 4 title "BAD median"
