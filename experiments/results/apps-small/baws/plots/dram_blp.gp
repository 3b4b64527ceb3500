set terminal svg size 1300,480 dynamic noenhanced font 'Sans,12' background '#ffffff'
set output 'dram_blp.svg'
set title 'DRAM bank-level parallelism on gtx480'
set ylabel 'BLP (banks with a request, per busy channel)'
set datafile missing 'NaN'
set boxwidth 0.100000 absolute
set xrange [-0.6:9.6]
set xtics rotate by -30 nomirror
set grid ytics
set key outside right top
unset arrow
set yrange [0:12]
set ytics 0,2,10
set arrow 2 from 8.5, graph 0 to 8.5, graph 1 nohead dt 3 lc rgb '#808080'
CLIP = 10
cut(y) = y > CLIP ? CLIP : y
plot 'dram_blp.dat' using ($0-0.350000):(cut(column(2))):xtic(1) with boxes lc rgb '#6e6e6e' fs solid 0.9 border rgb '#303030' title 'lrr', \
  'dram_blp.dat' using ($0-0.250000):(cut(column(3))) with boxes lc rgb '#0072b2' fs solid 0.9 border rgb '#303030' title 'gto', \
  'dram_blp.dat' using ($0-0.150000):(cut(column(4))) with boxes lc rgb '#e69f00' fs solid 0.9 border rgb '#303030' title 'mwf-lrr', \
  'dram_blp.dat' using ($0-0.050000):(cut(column(5))) with boxes lc rgb '#009e73' fs solid 0.9 border rgb '#303030' title 'mwf-gto', \
  'dram_blp.dat' using ($0+0.050000):(cut(column(6))) with boxes lc rgb '#d55e00' fs solid 0.9 border rgb '#303030' title 'mwf-lrr-cff', \
  'dram_blp.dat' using ($0+0.150000):(cut(column(7))) with boxes lc rgb '#cc79a7' fs solid 0.9 border rgb '#303030' title 'baws', \
  'dram_blp.dat' using ($0+0.250000):(cut(column(8))) with boxes lc rgb '#56b4e9' fs solid 0.9 border rgb '#303030' title 'mwf-lrr-fef', \
  'dram_blp.dat' using ($0+0.350000):(cut(column(9))) with boxes lc rgb '#f0e442' fs solid 0.9 border rgb '#303030' title 'saws', \
  'dram_blp.dat' using ($0-0.350000):(CLIP):(column(2) > CLIP ? sprintf('%.3g', column(2)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'dram_blp.dat' using ($0-0.250000):(CLIP):(column(3) > CLIP ? sprintf('%.3g', column(3)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'dram_blp.dat' using ($0-0.150000):(CLIP):(column(4) > CLIP ? sprintf('%.3g', column(4)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'dram_blp.dat' using ($0-0.050000):(CLIP):(column(5) > CLIP ? sprintf('%.3g', column(5)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'dram_blp.dat' using ($0+0.050000):(CLIP):(column(6) > CLIP ? sprintf('%.3g', column(6)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'dram_blp.dat' using ($0+0.150000):(CLIP):(column(7) > CLIP ? sprintf('%.3g', column(7)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'dram_blp.dat' using ($0+0.250000):(CLIP):(column(8) > CLIP ? sprintf('%.3g', column(8)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'dram_blp.dat' using ($0+0.350000):(CLIP):(column(9) > CLIP ? sprintf('%.3g', column(9)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle
set terminal pngcairo size 1300,480 noenhanced font 'Sans,10' background '#ffffff'
set output 'dram_blp.png'
set title 'DRAM bank-level parallelism on gtx480'
set ylabel 'BLP (banks with a request, per busy channel)'
set datafile missing 'NaN'
set boxwidth 0.100000 absolute
set xrange [-0.6:9.6]
set xtics rotate by -30 nomirror
set grid ytics
set key outside right top
unset arrow
set yrange [0:12]
set ytics 0,2,10
set arrow 2 from 8.5, graph 0 to 8.5, graph 1 nohead dt 3 lc rgb '#808080'
CLIP = 10
cut(y) = y > CLIP ? CLIP : y
plot 'dram_blp.dat' using ($0-0.350000):(cut(column(2))):xtic(1) with boxes lc rgb '#6e6e6e' fs solid 0.9 border rgb '#303030' title 'lrr', \
  'dram_blp.dat' using ($0-0.250000):(cut(column(3))) with boxes lc rgb '#0072b2' fs solid 0.9 border rgb '#303030' title 'gto', \
  'dram_blp.dat' using ($0-0.150000):(cut(column(4))) with boxes lc rgb '#e69f00' fs solid 0.9 border rgb '#303030' title 'mwf-lrr', \
  'dram_blp.dat' using ($0-0.050000):(cut(column(5))) with boxes lc rgb '#009e73' fs solid 0.9 border rgb '#303030' title 'mwf-gto', \
  'dram_blp.dat' using ($0+0.050000):(cut(column(6))) with boxes lc rgb '#d55e00' fs solid 0.9 border rgb '#303030' title 'mwf-lrr-cff', \
  'dram_blp.dat' using ($0+0.150000):(cut(column(7))) with boxes lc rgb '#cc79a7' fs solid 0.9 border rgb '#303030' title 'baws', \
  'dram_blp.dat' using ($0+0.250000):(cut(column(8))) with boxes lc rgb '#56b4e9' fs solid 0.9 border rgb '#303030' title 'mwf-lrr-fef', \
  'dram_blp.dat' using ($0+0.350000):(cut(column(9))) with boxes lc rgb '#f0e442' fs solid 0.9 border rgb '#303030' title 'saws', \
  'dram_blp.dat' using ($0-0.350000):(CLIP):(column(2) > CLIP ? sprintf('%.3g', column(2)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'dram_blp.dat' using ($0-0.250000):(CLIP):(column(3) > CLIP ? sprintf('%.3g', column(3)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'dram_blp.dat' using ($0-0.150000):(CLIP):(column(4) > CLIP ? sprintf('%.3g', column(4)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'dram_blp.dat' using ($0-0.050000):(CLIP):(column(5) > CLIP ? sprintf('%.3g', column(5)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'dram_blp.dat' using ($0+0.050000):(CLIP):(column(6) > CLIP ? sprintf('%.3g', column(6)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'dram_blp.dat' using ($0+0.150000):(CLIP):(column(7) > CLIP ? sprintf('%.3g', column(7)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'dram_blp.dat' using ($0+0.250000):(CLIP):(column(8) > CLIP ? sprintf('%.3g', column(8)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'dram_blp.dat' using ($0+0.350000):(CLIP):(column(9) > CLIP ? sprintf('%.3g', column(9)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle
