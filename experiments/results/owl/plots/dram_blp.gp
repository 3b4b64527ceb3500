set terminal svg size 2400,480 dynamic noenhanced font 'Sans,12' background '#ffffff'
set output 'dram_blp.svg'
set title 'DRAM bank-level parallelism on owl-28 (size medium)'
set ylabel 'BLP (banks with a request, per busy channel)'
set datafile missing 'NaN'
set boxwidth 0.066667 absolute
set xrange [-0.6:15.6]
set xtics rotate by -30 nomirror
set grid ytics
set key outside right top
unset arrow
set yrange [0:12]
set ytics 0,2,10
set arrow 2 from 14.5, graph 0 to 14.5, graph 1 nohead dt 3 lc rgb '#808080'
CLIP = 10
cut(y) = y > CLIP ? CLIP : y
plot 'dram_blp.dat' using ($0-0.366667):(cut(column(2))):xtic(1) with boxes lc rgb '#6e6e6e' fs solid 0.9 border rgb '#303030' title 'lrr', \
  'dram_blp.dat' using ($0-0.300000):(cut(column(3))) with boxes lc rgb '#0072b2' fs solid 0.9 border rgb '#303030' title 'owl-cta', \
  'dram_blp.dat' using ($0-0.233333):(cut(column(4))) with boxes lc rgb '#e69f00' fs solid 0.9 border rgb '#303030' title 'owl-locality', \
  'dram_blp.dat' using ($0-0.166667):(cut(column(5))) with boxes lc rgb '#009e73' fs solid 0.9 border rgb '#303030' title 'owl-blp', \
  'dram_blp.dat' using ($0-0.100000):(cut(column(6))) with boxes lc rgb '#d55e00' fs solid 0.9 border rgb '#303030' title 'owl', \
  'dram_blp.dat' using ($0-0.033333):(cut(column(7))) with boxes lc rgb '#cc79a7' fs solid 0.9 border rgb '#303030' title 'owl-pf-on-demand', \
  'dram_blp.dat' using ($0+0.033333):(cut(column(8))) with boxes lc rgb '#56b4e9' fs solid 0.9 border rgb '#303030' title 'perfect-l2', \
  'dram_blp.dat' using ($0+0.100000):(cut(column(9))) with boxes lc rgb '#f0e442' fs solid 0.9 border rgb '#303030' title 'pmem', \
  'dram_blp.dat' using ($0+0.166667):(cut(column(10))) with boxes lc rgb '#332288' fs solid 0.9 border rgb '#303030' title 'owl-blp-g4', \
  'dram_blp.dat' using ($0+0.233333):(cut(column(11))) with boxes lc rgb '#117733' fs solid 0.9 border rgb '#303030' title 'owl-blp-g16', \
  'dram_blp.dat' using ($0+0.300000):(cut(column(12))) with boxes lc rgb '#882255' fs solid 0.9 border rgb '#303030' title 'lrr-8banks', \
  'dram_blp.dat' using ($0+0.366667):(cut(column(13))) with boxes lc rgb '#44aa99' fs solid 0.9 border rgb '#303030' title 'owl-8banks', \
  'dram_blp.dat' using ($0-0.366667):(CLIP):(column(2) > CLIP ? sprintf('%.3g', column(2)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'dram_blp.dat' using ($0-0.300000):(CLIP):(column(3) > CLIP ? sprintf('%.3g', column(3)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'dram_blp.dat' using ($0-0.233333):(CLIP):(column(4) > CLIP ? sprintf('%.3g', column(4)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'dram_blp.dat' using ($0-0.166667):(CLIP):(column(5) > CLIP ? sprintf('%.3g', column(5)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'dram_blp.dat' using ($0-0.100000):(CLIP):(column(6) > CLIP ? sprintf('%.3g', column(6)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'dram_blp.dat' using ($0-0.033333):(CLIP):(column(7) > CLIP ? sprintf('%.3g', column(7)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'dram_blp.dat' using ($0+0.033333):(CLIP):(column(8) > CLIP ? sprintf('%.3g', column(8)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'dram_blp.dat' using ($0+0.100000):(CLIP):(column(9) > CLIP ? sprintf('%.3g', column(9)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'dram_blp.dat' using ($0+0.166667):(CLIP):(column(10) > CLIP ? sprintf('%.3g', column(10)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'dram_blp.dat' using ($0+0.233333):(CLIP):(column(11) > CLIP ? sprintf('%.3g', column(11)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'dram_blp.dat' using ($0+0.300000):(CLIP):(column(12) > CLIP ? sprintf('%.3g', column(12)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'dram_blp.dat' using ($0+0.366667):(CLIP):(column(13) > CLIP ? sprintf('%.3g', column(13)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle
set terminal pngcairo size 2400,480 noenhanced font 'Sans,10' background '#ffffff'
set output 'dram_blp.png'
set title 'DRAM bank-level parallelism on owl-28 (size medium)'
set ylabel 'BLP (banks with a request, per busy channel)'
set datafile missing 'NaN'
set boxwidth 0.066667 absolute
set xrange [-0.6:15.6]
set xtics rotate by -30 nomirror
set grid ytics
set key outside right top
unset arrow
set yrange [0:12]
set ytics 0,2,10
set arrow 2 from 14.5, graph 0 to 14.5, graph 1 nohead dt 3 lc rgb '#808080'
CLIP = 10
cut(y) = y > CLIP ? CLIP : y
plot 'dram_blp.dat' using ($0-0.366667):(cut(column(2))):xtic(1) with boxes lc rgb '#6e6e6e' fs solid 0.9 border rgb '#303030' title 'lrr', \
  'dram_blp.dat' using ($0-0.300000):(cut(column(3))) with boxes lc rgb '#0072b2' fs solid 0.9 border rgb '#303030' title 'owl-cta', \
  'dram_blp.dat' using ($0-0.233333):(cut(column(4))) with boxes lc rgb '#e69f00' fs solid 0.9 border rgb '#303030' title 'owl-locality', \
  'dram_blp.dat' using ($0-0.166667):(cut(column(5))) with boxes lc rgb '#009e73' fs solid 0.9 border rgb '#303030' title 'owl-blp', \
  'dram_blp.dat' using ($0-0.100000):(cut(column(6))) with boxes lc rgb '#d55e00' fs solid 0.9 border rgb '#303030' title 'owl', \
  'dram_blp.dat' using ($0-0.033333):(cut(column(7))) with boxes lc rgb '#cc79a7' fs solid 0.9 border rgb '#303030' title 'owl-pf-on-demand', \
  'dram_blp.dat' using ($0+0.033333):(cut(column(8))) with boxes lc rgb '#56b4e9' fs solid 0.9 border rgb '#303030' title 'perfect-l2', \
  'dram_blp.dat' using ($0+0.100000):(cut(column(9))) with boxes lc rgb '#f0e442' fs solid 0.9 border rgb '#303030' title 'pmem', \
  'dram_blp.dat' using ($0+0.166667):(cut(column(10))) with boxes lc rgb '#332288' fs solid 0.9 border rgb '#303030' title 'owl-blp-g4', \
  'dram_blp.dat' using ($0+0.233333):(cut(column(11))) with boxes lc rgb '#117733' fs solid 0.9 border rgb '#303030' title 'owl-blp-g16', \
  'dram_blp.dat' using ($0+0.300000):(cut(column(12))) with boxes lc rgb '#882255' fs solid 0.9 border rgb '#303030' title 'lrr-8banks', \
  'dram_blp.dat' using ($0+0.366667):(cut(column(13))) with boxes lc rgb '#44aa99' fs solid 0.9 border rgb '#303030' title 'owl-8banks', \
  'dram_blp.dat' using ($0-0.366667):(CLIP):(column(2) > CLIP ? sprintf('%.3g', column(2)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'dram_blp.dat' using ($0-0.300000):(CLIP):(column(3) > CLIP ? sprintf('%.3g', column(3)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'dram_blp.dat' using ($0-0.233333):(CLIP):(column(4) > CLIP ? sprintf('%.3g', column(4)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'dram_blp.dat' using ($0-0.166667):(CLIP):(column(5) > CLIP ? sprintf('%.3g', column(5)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'dram_blp.dat' using ($0-0.100000):(CLIP):(column(6) > CLIP ? sprintf('%.3g', column(6)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'dram_blp.dat' using ($0-0.033333):(CLIP):(column(7) > CLIP ? sprintf('%.3g', column(7)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'dram_blp.dat' using ($0+0.033333):(CLIP):(column(8) > CLIP ? sprintf('%.3g', column(8)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'dram_blp.dat' using ($0+0.100000):(CLIP):(column(9) > CLIP ? sprintf('%.3g', column(9)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'dram_blp.dat' using ($0+0.166667):(CLIP):(column(10) > CLIP ? sprintf('%.3g', column(10)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'dram_blp.dat' using ($0+0.233333):(CLIP):(column(11) > CLIP ? sprintf('%.3g', column(11)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'dram_blp.dat' using ($0+0.300000):(CLIP):(column(12) > CLIP ? sprintf('%.3g', column(12)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'dram_blp.dat' using ($0+0.366667):(CLIP):(column(13) > CLIP ? sprintf('%.3g', column(13)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle
