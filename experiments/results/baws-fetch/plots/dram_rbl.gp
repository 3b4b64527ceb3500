set terminal svg size 1736,480 dynamic noenhanced font 'Sans,12' background '#ffffff'
set output 'dram_rbl.svg'
set title 'DRAM row-buffer locality on gtx480 (size medium)'
set ylabel 'row-buffer hit rate (fraction of DRAM accesses)'
set datafile missing 'NaN'
set boxwidth 0.057143 absolute
set xrange [-0.6:8.6]
set xtics rotate by -30 nomirror
set grid ytics
set key outside right top
unset arrow
set yrange [0:1]
set ytics 0,0.2,1
set arrow 2 from 7.5, graph 0 to 7.5, graph 1 nohead dt 3 lc rgb '#808080'
CLIP = 0
cut(y) = y
plot 'dram_rbl.dat' using ($0-0.371429):(cut(column(2))):xtic(1) with boxes lc rgb '#6e6e6e' fs solid 0.9 border rgb '#303030' title 'lrr', \
  'dram_rbl.dat' using ($0-0.314286):(cut(column(3))) with boxes lc rgb '#0072b2' fs solid 0.9 border rgb '#303030' title 'gto', \
  'dram_rbl.dat' using ($0-0.257143):(cut(column(4))) with boxes lc rgb '#e69f00' fs solid 0.9 border rgb '#303030' title 'mwf-rr', \
  'dram_rbl.dat' using ($0-0.200000):(cut(column(5))) with boxes lc rgb '#009e73' fs solid 0.9 border rgb '#303030' title 'mwf-fef', \
  'dram_rbl.dat' using ($0-0.142857):(cut(column(6))) with boxes lc rgb '#d55e00' fs solid 0.9 border rgb '#303030' title 'mwf-cff', \
  'dram_rbl.dat' using ($0-0.085714):(cut(column(7))) with boxes lc rgb '#cc79a7' fs solid 0.9 border rgb '#303030' title 'ib8-rr', \
  'dram_rbl.dat' using ($0-0.028571):(cut(column(8))) with boxes lc rgb '#56b4e9' fs solid 0.9 border rgb '#303030' title 'ib8-fef', \
  'dram_rbl.dat' using ($0+0.028571):(cut(column(9))) with boxes lc rgb '#f0e442' fs solid 0.9 border rgb '#303030' title 'ib8-cff', \
  'dram_rbl.dat' using ($0+0.085714):(cut(column(10))) with boxes lc rgb '#332288' fs solid 0.9 border rgb '#303030' title 'ic64k-rr', \
  'dram_rbl.dat' using ($0+0.142857):(cut(column(11))) with boxes lc rgb '#117733' fs solid 0.9 border rgb '#303030' title 'ic64k-fef', \
  'dram_rbl.dat' using ($0+0.200000):(cut(column(12))) with boxes lc rgb '#882255' fs solid 0.9 border rgb '#303030' title 'ic64k-cff', \
  'dram_rbl.dat' using ($0+0.257143):(cut(column(13))) with boxes lc rgb '#44aa99' fs solid 0.9 border rgb '#303030' title 'icfree-rr', \
  'dram_rbl.dat' using ($0+0.314286):(cut(column(14))) with boxes lc rgb '#999933' fs solid 0.9 border rgb '#303030' title 'icfree-fef', \
  'dram_rbl.dat' using ($0+0.371429):(cut(column(15))) with boxes lc rgb '#aa4499' fs solid 0.9 border rgb '#303030' title 'icfree-cff'
set terminal pngcairo size 1736,480 noenhanced font 'Sans,10' background '#ffffff'
set output 'dram_rbl.png'
set title 'DRAM row-buffer locality on gtx480 (size medium)'
set ylabel 'row-buffer hit rate (fraction of DRAM accesses)'
set datafile missing 'NaN'
set boxwidth 0.057143 absolute
set xrange [-0.6:8.6]
set xtics rotate by -30 nomirror
set grid ytics
set key outside right top
unset arrow
set yrange [0:1]
set ytics 0,0.2,1
set arrow 2 from 7.5, graph 0 to 7.5, graph 1 nohead dt 3 lc rgb '#808080'
CLIP = 0
cut(y) = y
plot 'dram_rbl.dat' using ($0-0.371429):(cut(column(2))):xtic(1) with boxes lc rgb '#6e6e6e' fs solid 0.9 border rgb '#303030' title 'lrr', \
  'dram_rbl.dat' using ($0-0.314286):(cut(column(3))) with boxes lc rgb '#0072b2' fs solid 0.9 border rgb '#303030' title 'gto', \
  'dram_rbl.dat' using ($0-0.257143):(cut(column(4))) with boxes lc rgb '#e69f00' fs solid 0.9 border rgb '#303030' title 'mwf-rr', \
  'dram_rbl.dat' using ($0-0.200000):(cut(column(5))) with boxes lc rgb '#009e73' fs solid 0.9 border rgb '#303030' title 'mwf-fef', \
  'dram_rbl.dat' using ($0-0.142857):(cut(column(6))) with boxes lc rgb '#d55e00' fs solid 0.9 border rgb '#303030' title 'mwf-cff', \
  'dram_rbl.dat' using ($0-0.085714):(cut(column(7))) with boxes lc rgb '#cc79a7' fs solid 0.9 border rgb '#303030' title 'ib8-rr', \
  'dram_rbl.dat' using ($0-0.028571):(cut(column(8))) with boxes lc rgb '#56b4e9' fs solid 0.9 border rgb '#303030' title 'ib8-fef', \
  'dram_rbl.dat' using ($0+0.028571):(cut(column(9))) with boxes lc rgb '#f0e442' fs solid 0.9 border rgb '#303030' title 'ib8-cff', \
  'dram_rbl.dat' using ($0+0.085714):(cut(column(10))) with boxes lc rgb '#332288' fs solid 0.9 border rgb '#303030' title 'ic64k-rr', \
  'dram_rbl.dat' using ($0+0.142857):(cut(column(11))) with boxes lc rgb '#117733' fs solid 0.9 border rgb '#303030' title 'ic64k-fef', \
  'dram_rbl.dat' using ($0+0.200000):(cut(column(12))) with boxes lc rgb '#882255' fs solid 0.9 border rgb '#303030' title 'ic64k-cff', \
  'dram_rbl.dat' using ($0+0.257143):(cut(column(13))) with boxes lc rgb '#44aa99' fs solid 0.9 border rgb '#303030' title 'icfree-rr', \
  'dram_rbl.dat' using ($0+0.314286):(cut(column(14))) with boxes lc rgb '#999933' fs solid 0.9 border rgb '#303030' title 'icfree-fef', \
  'dram_rbl.dat' using ($0+0.371429):(cut(column(15))) with boxes lc rgb '#aa4499' fs solid 0.9 border rgb '#303030' title 'icfree-cff'
