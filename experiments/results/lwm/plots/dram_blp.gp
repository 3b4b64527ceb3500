set terminal svg size 1156,480 dynamic noenhanced font 'Sans,12' background '#ffffff'
set output 'dram_blp.svg'
set title 'DRAM bank-level parallelism on lwm-1 (size medium)'
set ylabel 'BLP (banks with a request, per busy channel)'
set datafile missing 'NaN'
set boxwidth 0.200000 absolute
set xrange [-0.6:13.6]
set xtics rotate by -30 nomirror
set grid ytics
set key outside right top
unset arrow
set yrange [0:12]
set ytics 0,2,10
set arrow 2 from 12.5, graph 0 to 12.5, graph 1 nohead dt 3 lc rgb '#808080'
CLIP = 10
cut(y) = y > CLIP ? CLIP : y
plot 'dram_blp.dat' using ($0-0.300000):(cut(column(2))):xtic(1) with boxes lc rgb '#6e6e6e' fs solid 0.9 border rgb '#303030' title 'baseline', \
  'dram_blp.dat' using ($0-0.100000):(cut(column(3))) with boxes lc rgb '#0072b2' fs solid 0.9 border rgb '#303030' title 'lwm', \
  'dram_blp.dat' using ($0+0.100000):(cut(column(4))) with boxes lc rgb '#e69f00' fs solid 0.9 border rgb '#303030' title '2lev', \
  'dram_blp.dat' using ($0+0.300000):(cut(column(5))) with boxes lc rgb '#009e73' fs solid 0.9 border rgb '#303030' title 'lwm-2lev', \
  'dram_blp.dat' using ($0-0.300000):(CLIP):(column(2) > CLIP ? sprintf('%.3g', column(2)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'dram_blp.dat' using ($0-0.100000):(CLIP):(column(3) > CLIP ? sprintf('%.3g', column(3)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'dram_blp.dat' using ($0+0.100000):(CLIP):(column(4) > CLIP ? sprintf('%.3g', column(4)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'dram_blp.dat' using ($0+0.300000):(CLIP):(column(5) > CLIP ? sprintf('%.3g', column(5)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle
set terminal pngcairo size 1156,480 noenhanced font 'Sans,10' background '#ffffff'
set output 'dram_blp.png'
set title 'DRAM bank-level parallelism on lwm-1 (size medium)'
set ylabel 'BLP (banks with a request, per busy channel)'
set datafile missing 'NaN'
set boxwidth 0.200000 absolute
set xrange [-0.6:13.6]
set xtics rotate by -30 nomirror
set grid ytics
set key outside right top
unset arrow
set yrange [0:12]
set ytics 0,2,10
set arrow 2 from 12.5, graph 0 to 12.5, graph 1 nohead dt 3 lc rgb '#808080'
CLIP = 10
cut(y) = y > CLIP ? CLIP : y
plot 'dram_blp.dat' using ($0-0.300000):(cut(column(2))):xtic(1) with boxes lc rgb '#6e6e6e' fs solid 0.9 border rgb '#303030' title 'baseline', \
  'dram_blp.dat' using ($0-0.100000):(cut(column(3))) with boxes lc rgb '#0072b2' fs solid 0.9 border rgb '#303030' title 'lwm', \
  'dram_blp.dat' using ($0+0.100000):(cut(column(4))) with boxes lc rgb '#e69f00' fs solid 0.9 border rgb '#303030' title '2lev', \
  'dram_blp.dat' using ($0+0.300000):(cut(column(5))) with boxes lc rgb '#009e73' fs solid 0.9 border rgb '#303030' title 'lwm-2lev', \
  'dram_blp.dat' using ($0-0.300000):(CLIP):(column(2) > CLIP ? sprintf('%.3g', column(2)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'dram_blp.dat' using ($0-0.100000):(CLIP):(column(3) > CLIP ? sprintf('%.3g', column(3)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'dram_blp.dat' using ($0+0.100000):(CLIP):(column(4) > CLIP ? sprintf('%.3g', column(4)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'dram_blp.dat' using ($0+0.300000):(CLIP):(column(5) > CLIP ? sprintf('%.3g', column(5)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle
