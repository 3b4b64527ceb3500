set terminal svg size 1970,480 dynamic noenhanced font 'Sans,12' background '#ffffff'
set output 'dram_blp.svg'
set title 'DRAM bank-level parallelism on owl-28'
set ylabel 'BLP (banks with a request, per busy channel)'
set datafile missing 'NaN'
set boxwidth 0.088889 absolute
set xrange [-0.6:14.6]
set xtics rotate by -30 nomirror
set grid ytics
set key outside right top
unset arrow
set yrange [0:*]
set ytics autofreq
set arrow 2 from 13.5, graph 0 to 13.5, graph 1 nohead dt 3 lc rgb '#808080'
CLIP = 0
cut(y) = y
plot 'dram_blp.dat' using ($0-0.355556):(cut(column(2))):xtic(1) with boxes lc rgb '#6e6e6e' fs solid 0.9 border rgb '#303030' title 'lrr', \
  'dram_blp.dat' using ($0-0.266667):(cut(column(3))) with boxes lc rgb '#0072b2' fs solid 0.9 border rgb '#303030' title 'owl-cta', \
  'dram_blp.dat' using ($0-0.177778):(cut(column(4))) with boxes lc rgb '#e69f00' fs solid 0.9 border rgb '#303030' title 'owl-locality', \
  'dram_blp.dat' using ($0-0.088889):(cut(column(5))) with boxes lc rgb '#009e73' fs solid 0.9 border rgb '#303030' title 'owl-blp', \
  'dram_blp.dat' using ($0+0.000000):(cut(column(6))) with boxes lc rgb '#d55e00' fs solid 0.9 border rgb '#303030' title 'owl', \
  'dram_blp.dat' using ($0+0.088889):(cut(column(7))) with boxes lc rgb '#cc79a7' fs solid 0.9 border rgb '#303030' title 'owl-pf-on-demand', \
  'dram_blp.dat' using ($0+0.177778):(cut(column(8))) with boxes lc rgb '#56b4e9' fs solid 0.9 border rgb '#303030' title 'pmem', \
  'dram_blp.dat' using ($0+0.266667):(cut(column(9))) with boxes lc rgb '#f0e442' fs solid 0.9 border rgb '#303030' title 'owl-blp-g4', \
  'dram_blp.dat' using ($0+0.355556):(cut(column(10))) with boxes lc rgb '#332288' fs solid 0.9 border rgb '#303030' title 'owl-blp-g16'
set terminal pngcairo size 1970,480 noenhanced font 'Sans,10' background '#ffffff'
set output 'dram_blp.png'
set title 'DRAM bank-level parallelism on owl-28'
set ylabel 'BLP (banks with a request, per busy channel)'
set datafile missing 'NaN'
set boxwidth 0.088889 absolute
set xrange [-0.6:14.6]
set xtics rotate by -30 nomirror
set grid ytics
set key outside right top
unset arrow
set yrange [0:*]
set ytics autofreq
set arrow 2 from 13.5, graph 0 to 13.5, graph 1 nohead dt 3 lc rgb '#808080'
CLIP = 0
cut(y) = y
plot 'dram_blp.dat' using ($0-0.355556):(cut(column(2))):xtic(1) with boxes lc rgb '#6e6e6e' fs solid 0.9 border rgb '#303030' title 'lrr', \
  'dram_blp.dat' using ($0-0.266667):(cut(column(3))) with boxes lc rgb '#0072b2' fs solid 0.9 border rgb '#303030' title 'owl-cta', \
  'dram_blp.dat' using ($0-0.177778):(cut(column(4))) with boxes lc rgb '#e69f00' fs solid 0.9 border rgb '#303030' title 'owl-locality', \
  'dram_blp.dat' using ($0-0.088889):(cut(column(5))) with boxes lc rgb '#009e73' fs solid 0.9 border rgb '#303030' title 'owl-blp', \
  'dram_blp.dat' using ($0+0.000000):(cut(column(6))) with boxes lc rgb '#d55e00' fs solid 0.9 border rgb '#303030' title 'owl', \
  'dram_blp.dat' using ($0+0.088889):(cut(column(7))) with boxes lc rgb '#cc79a7' fs solid 0.9 border rgb '#303030' title 'owl-pf-on-demand', \
  'dram_blp.dat' using ($0+0.177778):(cut(column(8))) with boxes lc rgb '#56b4e9' fs solid 0.9 border rgb '#303030' title 'pmem', \
  'dram_blp.dat' using ($0+0.266667):(cut(column(9))) with boxes lc rgb '#f0e442' fs solid 0.9 border rgb '#303030' title 'owl-blp-g4', \
  'dram_blp.dat' using ($0+0.355556):(cut(column(10))) with boxes lc rgb '#332288' fs solid 0.9 border rgb '#303030' title 'owl-blp-g16'
