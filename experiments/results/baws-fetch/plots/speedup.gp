set terminal svg size 1736,480 dynamic noenhanced font 'Sans,12' background '#ffffff'
set output 'speedup.svg'
set title 'IPC speedup over lrr on gtx480 (size medium)'
set ylabel 'speedup over lrr (IPC / IPC of lrr)'
set datafile missing 'NaN'
set boxwidth 0.057143 absolute
set xrange [-0.6:8.6]
set xtics rotate by -30 nomirror
set grid ytics
set key outside right top
unset arrow
set yrange [0:*]
set ytics autofreq
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lw 1.5 lc rgb '#000000' front
set arrow 2 from 7.5, graph 0 to 7.5, graph 1 nohead dt 3 lc rgb '#808080'
CLIP = 0
cut(y) = y
plot 'speedup.dat' using ($0-0.371429):(cut(column(2))):xtic(1) with boxes lc rgb '#6e6e6e' fs solid 0.9 border rgb '#303030' title 'lrr', \
  'speedup.dat' using ($0-0.314286):(cut(column(3))) with boxes lc rgb '#0072b2' fs solid 0.9 border rgb '#303030' title 'gto', \
  'speedup.dat' using ($0-0.257143):(cut(column(4))) with boxes lc rgb '#e69f00' fs solid 0.9 border rgb '#303030' title 'mwf-rr', \
  'speedup.dat' using ($0-0.200000):(cut(column(5))) with boxes lc rgb '#009e73' fs solid 0.9 border rgb '#303030' title 'mwf-fef', \
  'speedup.dat' using ($0-0.142857):(cut(column(6))) with boxes lc rgb '#d55e00' fs solid 0.9 border rgb '#303030' title 'mwf-cff', \
  'speedup.dat' using ($0-0.085714):(cut(column(7))) with boxes lc rgb '#cc79a7' fs solid 0.9 border rgb '#303030' title 'ib8-rr', \
  'speedup.dat' using ($0-0.028571):(cut(column(8))) with boxes lc rgb '#56b4e9' fs solid 0.9 border rgb '#303030' title 'ib8-fef', \
  'speedup.dat' using ($0+0.028571):(cut(column(9))) with boxes lc rgb '#f0e442' fs solid 0.9 border rgb '#303030' title 'ib8-cff', \
  'speedup.dat' using ($0+0.085714):(cut(column(10))) with boxes lc rgb '#332288' fs solid 0.9 border rgb '#303030' title 'ic64k-rr', \
  'speedup.dat' using ($0+0.142857):(cut(column(11))) with boxes lc rgb '#117733' fs solid 0.9 border rgb '#303030' title 'ic64k-fef', \
  'speedup.dat' using ($0+0.200000):(cut(column(12))) with boxes lc rgb '#882255' fs solid 0.9 border rgb '#303030' title 'ic64k-cff', \
  'speedup.dat' using ($0+0.257143):(cut(column(13))) with boxes lc rgb '#44aa99' fs solid 0.9 border rgb '#303030' title 'icfree-rr', \
  'speedup.dat' using ($0+0.314286):(cut(column(14))) with boxes lc rgb '#999933' fs solid 0.9 border rgb '#303030' title 'icfree-fef', \
  'speedup.dat' using ($0+0.371429):(cut(column(15))) with boxes lc rgb '#aa4499' fs solid 0.9 border rgb '#303030' title 'icfree-cff'
set terminal pngcairo size 1736,480 noenhanced font 'Sans,10' background '#ffffff'
set output 'speedup.png'
set title 'IPC speedup over lrr on gtx480 (size medium)'
set ylabel 'speedup over lrr (IPC / IPC of lrr)'
set datafile missing 'NaN'
set boxwidth 0.057143 absolute
set xrange [-0.6:8.6]
set xtics rotate by -30 nomirror
set grid ytics
set key outside right top
unset arrow
set yrange [0:*]
set ytics autofreq
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lw 1.5 lc rgb '#000000' front
set arrow 2 from 7.5, graph 0 to 7.5, graph 1 nohead dt 3 lc rgb '#808080'
CLIP = 0
cut(y) = y
plot 'speedup.dat' using ($0-0.371429):(cut(column(2))):xtic(1) with boxes lc rgb '#6e6e6e' fs solid 0.9 border rgb '#303030' title 'lrr', \
  'speedup.dat' using ($0-0.314286):(cut(column(3))) with boxes lc rgb '#0072b2' fs solid 0.9 border rgb '#303030' title 'gto', \
  'speedup.dat' using ($0-0.257143):(cut(column(4))) with boxes lc rgb '#e69f00' fs solid 0.9 border rgb '#303030' title 'mwf-rr', \
  'speedup.dat' using ($0-0.200000):(cut(column(5))) with boxes lc rgb '#009e73' fs solid 0.9 border rgb '#303030' title 'mwf-fef', \
  'speedup.dat' using ($0-0.142857):(cut(column(6))) with boxes lc rgb '#d55e00' fs solid 0.9 border rgb '#303030' title 'mwf-cff', \
  'speedup.dat' using ($0-0.085714):(cut(column(7))) with boxes lc rgb '#cc79a7' fs solid 0.9 border rgb '#303030' title 'ib8-rr', \
  'speedup.dat' using ($0-0.028571):(cut(column(8))) with boxes lc rgb '#56b4e9' fs solid 0.9 border rgb '#303030' title 'ib8-fef', \
  'speedup.dat' using ($0+0.028571):(cut(column(9))) with boxes lc rgb '#f0e442' fs solid 0.9 border rgb '#303030' title 'ib8-cff', \
  'speedup.dat' using ($0+0.085714):(cut(column(10))) with boxes lc rgb '#332288' fs solid 0.9 border rgb '#303030' title 'ic64k-rr', \
  'speedup.dat' using ($0+0.142857):(cut(column(11))) with boxes lc rgb '#117733' fs solid 0.9 border rgb '#303030' title 'ic64k-fef', \
  'speedup.dat' using ($0+0.200000):(cut(column(12))) with boxes lc rgb '#882255' fs solid 0.9 border rgb '#303030' title 'ic64k-cff', \
  'speedup.dat' using ($0+0.257143):(cut(column(13))) with boxes lc rgb '#44aa99' fs solid 0.9 border rgb '#303030' title 'icfree-rr', \
  'speedup.dat' using ($0+0.314286):(cut(column(14))) with boxes lc rgb '#999933' fs solid 0.9 border rgb '#303030' title 'icfree-fef', \
  'speedup.dat' using ($0+0.371429):(cut(column(15))) with boxes lc rgb '#aa4499' fs solid 0.9 border rgb '#303030' title 'icfree-cff'
