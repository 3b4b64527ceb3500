set terminal svg size 1300,480 dynamic noenhanced font 'Sans,12' background '#ffffff'
set output 'dram_rbl.svg'
set title 'DRAM row-buffer locality on gtx480'
set ylabel 'row-buffer hit rate (fraction of DRAM accesses)'
set datafile missing 'NaN'
set boxwidth 0.100000 absolute
set xrange [-0.6:9.6]
set xtics rotate by -30 nomirror
set grid ytics
set key outside right top
unset arrow
set yrange [0:1]
set ytics 0,0.2,1
set arrow 2 from 8.5, graph 0 to 8.5, graph 1 nohead dt 3 lc rgb '#808080'
CLIP = 0
cut(y) = y
plot 'dram_rbl.dat' using ($0-0.350000):(cut(column(2))):xtic(1) with boxes lc rgb '#6e6e6e' fs solid 0.9 border rgb '#303030' title 'lrr', \
  'dram_rbl.dat' using ($0-0.250000):(cut(column(3))) with boxes lc rgb '#0072b2' fs solid 0.9 border rgb '#303030' title 'gto', \
  'dram_rbl.dat' using ($0-0.150000):(cut(column(4))) with boxes lc rgb '#e69f00' fs solid 0.9 border rgb '#303030' title 'mwf-lrr', \
  'dram_rbl.dat' using ($0-0.050000):(cut(column(5))) with boxes lc rgb '#009e73' fs solid 0.9 border rgb '#303030' title 'mwf-gto', \
  'dram_rbl.dat' using ($0+0.050000):(cut(column(6))) with boxes lc rgb '#d55e00' fs solid 0.9 border rgb '#303030' title 'mwf-lrr-cff', \
  'dram_rbl.dat' using ($0+0.150000):(cut(column(7))) with boxes lc rgb '#cc79a7' fs solid 0.9 border rgb '#303030' title 'baws', \
  'dram_rbl.dat' using ($0+0.250000):(cut(column(8))) with boxes lc rgb '#56b4e9' fs solid 0.9 border rgb '#303030' title 'mwf-lrr-fef', \
  'dram_rbl.dat' using ($0+0.350000):(cut(column(9))) with boxes lc rgb '#f0e442' fs solid 0.9 border rgb '#303030' title 'saws'
set terminal pngcairo size 1300,480 noenhanced font 'Sans,10' background '#ffffff'
set output 'dram_rbl.png'
set title 'DRAM row-buffer locality on gtx480'
set ylabel 'row-buffer hit rate (fraction of DRAM accesses)'
set datafile missing 'NaN'
set boxwidth 0.100000 absolute
set xrange [-0.6:9.6]
set xtics rotate by -30 nomirror
set grid ytics
set key outside right top
unset arrow
set yrange [0:1]
set ytics 0,0.2,1
set arrow 2 from 8.5, graph 0 to 8.5, graph 1 nohead dt 3 lc rgb '#808080'
CLIP = 0
cut(y) = y
plot 'dram_rbl.dat' using ($0-0.350000):(cut(column(2))):xtic(1) with boxes lc rgb '#6e6e6e' fs solid 0.9 border rgb '#303030' title 'lrr', \
  'dram_rbl.dat' using ($0-0.250000):(cut(column(3))) with boxes lc rgb '#0072b2' fs solid 0.9 border rgb '#303030' title 'gto', \
  'dram_rbl.dat' using ($0-0.150000):(cut(column(4))) with boxes lc rgb '#e69f00' fs solid 0.9 border rgb '#303030' title 'mwf-lrr', \
  'dram_rbl.dat' using ($0-0.050000):(cut(column(5))) with boxes lc rgb '#009e73' fs solid 0.9 border rgb '#303030' title 'mwf-gto', \
  'dram_rbl.dat' using ($0+0.050000):(cut(column(6))) with boxes lc rgb '#d55e00' fs solid 0.9 border rgb '#303030' title 'mwf-lrr-cff', \
  'dram_rbl.dat' using ($0+0.150000):(cut(column(7))) with boxes lc rgb '#cc79a7' fs solid 0.9 border rgb '#303030' title 'baws', \
  'dram_rbl.dat' using ($0+0.250000):(cut(column(8))) with boxes lc rgb '#56b4e9' fs solid 0.9 border rgb '#303030' title 'mwf-lrr-fef', \
  'dram_rbl.dat' using ($0+0.350000):(cut(column(9))) with boxes lc rgb '#f0e442' fs solid 0.9 border rgb '#303030' title 'saws'
