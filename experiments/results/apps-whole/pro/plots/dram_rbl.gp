set terminal svg size 900,480 dynamic noenhanced font 'Sans,12' background '#ffffff'
set output 'dram_rbl.svg'
set title 'DRAM row-buffer locality on gtx480'
set ylabel 'row-buffer hit rate (fraction of DRAM accesses)'
set datafile missing 'NaN'
set boxwidth 0.266667 absolute
set xrange [-0.6:1.6]
set xtics rotate by -30 nomirror
set grid ytics
set key outside right top
unset arrow
set yrange [0:1]
set ytics 0,0.2,1
set arrow 2 from 0.5, graph 0 to 0.5, graph 1 nohead dt 3 lc rgb '#808080'
CLIP = 0
cut(y) = y
plot 'dram_rbl.dat' using ($0-0.266667):(cut(column(2))):xtic(1) with boxes lc rgb '#6e6e6e' fs solid 0.9 border rgb '#303030' title 'lrr', \
  'dram_rbl.dat' using ($0+0.000000):(cut(column(3))) with boxes lc rgb '#0072b2' fs solid 0.9 border rgb '#303030' title 'gto', \
  'dram_rbl.dat' using ($0+0.266667):(cut(column(4))) with boxes lc rgb '#e69f00' fs solid 0.9 border rgb '#303030' title 'pro'
set terminal pngcairo size 900,480 noenhanced font 'Sans,10' background '#ffffff'
set output 'dram_rbl.png'
set title 'DRAM row-buffer locality on gtx480'
set ylabel 'row-buffer hit rate (fraction of DRAM accesses)'
set datafile missing 'NaN'
set boxwidth 0.266667 absolute
set xrange [-0.6:1.6]
set xtics rotate by -30 nomirror
set grid ytics
set key outside right top
unset arrow
set yrange [0:1]
set ytics 0,0.2,1
set arrow 2 from 0.5, graph 0 to 0.5, graph 1 nohead dt 3 lc rgb '#808080'
CLIP = 0
cut(y) = y
plot 'dram_rbl.dat' using ($0-0.266667):(cut(column(2))):xtic(1) with boxes lc rgb '#6e6e6e' fs solid 0.9 border rgb '#303030' title 'lrr', \
  'dram_rbl.dat' using ($0+0.000000):(cut(column(3))) with boxes lc rgb '#0072b2' fs solid 0.9 border rgb '#303030' title 'gto', \
  'dram_rbl.dat' using ($0+0.266667):(cut(column(4))) with boxes lc rgb '#e69f00' fs solid 0.9 border rgb '#303030' title 'pro'
