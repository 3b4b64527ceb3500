set terminal svg size 1300,480 dynamic noenhanced font 'Sans,12' background '#ffffff'
set output 'speedup.svg'
set title 'IPC speedup over lrr on gtx480'
set ylabel 'speedup over lrr (IPC / IPC of lrr)'
set datafile missing 'NaN'
set boxwidth 0.100000 absolute
set xrange [-0.6:9.6]
set xtics rotate by -30 nomirror
set grid ytics
set key outside right top
unset arrow
set yrange [0:*]
set ytics autofreq
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lw 1.5 lc rgb '#000000' front
set arrow 2 from 8.5, graph 0 to 8.5, graph 1 nohead dt 3 lc rgb '#808080'
CLIP = 0
cut(y) = y
plot 'speedup.dat' using ($0-0.350000):(cut(column(2))):xtic(1) with boxes lc rgb '#6e6e6e' fs solid 0.9 border rgb '#303030' title 'lrr', \
  'speedup.dat' using ($0-0.250000):(cut(column(3))) with boxes lc rgb '#0072b2' fs solid 0.9 border rgb '#303030' title 'gto', \
  'speedup.dat' using ($0-0.150000):(cut(column(4))) with boxes lc rgb '#e69f00' fs solid 0.9 border rgb '#303030' title 'mwf-lrr', \
  'speedup.dat' using ($0-0.050000):(cut(column(5))) with boxes lc rgb '#009e73' fs solid 0.9 border rgb '#303030' title 'mwf-gto', \
  'speedup.dat' using ($0+0.050000):(cut(column(6))) with boxes lc rgb '#d55e00' fs solid 0.9 border rgb '#303030' title 'mwf-lrr-cff', \
  'speedup.dat' using ($0+0.150000):(cut(column(7))) with boxes lc rgb '#cc79a7' fs solid 0.9 border rgb '#303030' title 'baws', \
  'speedup.dat' using ($0+0.250000):(cut(column(8))) with boxes lc rgb '#56b4e9' fs solid 0.9 border rgb '#303030' title 'mwf-lrr-fef', \
  'speedup.dat' using ($0+0.350000):(cut(column(9))) with boxes lc rgb '#f0e442' fs solid 0.9 border rgb '#303030' title 'saws'
set terminal pngcairo size 1300,480 noenhanced font 'Sans,10' background '#ffffff'
set output 'speedup.png'
set title 'IPC speedup over lrr on gtx480'
set ylabel 'speedup over lrr (IPC / IPC of lrr)'
set datafile missing 'NaN'
set boxwidth 0.100000 absolute
set xrange [-0.6:9.6]
set xtics rotate by -30 nomirror
set grid ytics
set key outside right top
unset arrow
set yrange [0:*]
set ytics autofreq
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lw 1.5 lc rgb '#000000' front
set arrow 2 from 8.5, graph 0 to 8.5, graph 1 nohead dt 3 lc rgb '#808080'
CLIP = 0
cut(y) = y
plot 'speedup.dat' using ($0-0.350000):(cut(column(2))):xtic(1) with boxes lc rgb '#6e6e6e' fs solid 0.9 border rgb '#303030' title 'lrr', \
  'speedup.dat' using ($0-0.250000):(cut(column(3))) with boxes lc rgb '#0072b2' fs solid 0.9 border rgb '#303030' title 'gto', \
  'speedup.dat' using ($0-0.150000):(cut(column(4))) with boxes lc rgb '#e69f00' fs solid 0.9 border rgb '#303030' title 'mwf-lrr', \
  'speedup.dat' using ($0-0.050000):(cut(column(5))) with boxes lc rgb '#009e73' fs solid 0.9 border rgb '#303030' title 'mwf-gto', \
  'speedup.dat' using ($0+0.050000):(cut(column(6))) with boxes lc rgb '#d55e00' fs solid 0.9 border rgb '#303030' title 'mwf-lrr-cff', \
  'speedup.dat' using ($0+0.150000):(cut(column(7))) with boxes lc rgb '#cc79a7' fs solid 0.9 border rgb '#303030' title 'baws', \
  'speedup.dat' using ($0+0.250000):(cut(column(8))) with boxes lc rgb '#56b4e9' fs solid 0.9 border rgb '#303030' title 'mwf-lrr-fef', \
  'speedup.dat' using ($0+0.350000):(cut(column(9))) with boxes lc rgb '#f0e442' fs solid 0.9 border rgb '#303030' title 'saws'
