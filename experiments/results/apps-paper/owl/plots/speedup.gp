set terminal svg size 1970,480 dynamic noenhanced font 'Sans,12' background '#ffffff'
set output 'speedup.svg'
set title 'IPC speedup over lrr on owl-28'
set ylabel 'speedup over lrr (IPC / IPC of lrr)'
set datafile missing 'NaN'
set boxwidth 0.088889 absolute
set xrange [-0.6:14.6]
set xtics rotate by -30 nomirror
set grid ytics
set key outside right top
unset arrow
set yrange [0:6]
set ytics 0,1,5
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lw 1.5 lc rgb '#000000' front
set arrow 2 from 13.5, graph 0 to 13.5, graph 1 nohead dt 3 lc rgb '#808080'
CLIP = 5
cut(y) = y > CLIP ? CLIP : y
plot 'speedup.dat' using ($0-0.355556):(cut(column(2))):xtic(1) with boxes lc rgb '#6e6e6e' fs solid 0.9 border rgb '#303030' title 'lrr', \
  'speedup.dat' using ($0-0.266667):(cut(column(3))) with boxes lc rgb '#0072b2' fs solid 0.9 border rgb '#303030' title 'owl-cta', \
  'speedup.dat' using ($0-0.177778):(cut(column(4))) with boxes lc rgb '#e69f00' fs solid 0.9 border rgb '#303030' title 'owl-locality', \
  'speedup.dat' using ($0-0.088889):(cut(column(5))) with boxes lc rgb '#009e73' fs solid 0.9 border rgb '#303030' title 'owl-blp', \
  'speedup.dat' using ($0+0.000000):(cut(column(6))) with boxes lc rgb '#d55e00' fs solid 0.9 border rgb '#303030' title 'owl', \
  'speedup.dat' using ($0+0.088889):(cut(column(7))) with boxes lc rgb '#cc79a7' fs solid 0.9 border rgb '#303030' title 'owl-pf-on-demand', \
  'speedup.dat' using ($0+0.177778):(cut(column(8))) with boxes lc rgb '#56b4e9' fs solid 0.9 border rgb '#303030' title 'pmem', \
  'speedup.dat' using ($0+0.266667):(cut(column(9))) with boxes lc rgb '#f0e442' fs solid 0.9 border rgb '#303030' title 'owl-blp-g4', \
  'speedup.dat' using ($0+0.355556):(cut(column(10))) with boxes lc rgb '#332288' fs solid 0.9 border rgb '#303030' title 'owl-blp-g16', \
  'speedup.dat' using ($0-0.355556):(CLIP):(column(2) > CLIP ? sprintf('%.3g', column(2)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'speedup.dat' using ($0-0.266667):(CLIP):(column(3) > CLIP ? sprintf('%.3g', column(3)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'speedup.dat' using ($0-0.177778):(CLIP):(column(4) > CLIP ? sprintf('%.3g', column(4)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'speedup.dat' using ($0-0.088889):(CLIP):(column(5) > CLIP ? sprintf('%.3g', column(5)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'speedup.dat' using ($0+0.000000):(CLIP):(column(6) > CLIP ? sprintf('%.3g', column(6)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'speedup.dat' using ($0+0.088889):(CLIP):(column(7) > CLIP ? sprintf('%.3g', column(7)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'speedup.dat' using ($0+0.177778):(CLIP):(column(8) > CLIP ? sprintf('%.3g', column(8)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'speedup.dat' using ($0+0.266667):(CLIP):(column(9) > CLIP ? sprintf('%.3g', column(9)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'speedup.dat' using ($0+0.355556):(CLIP):(column(10) > CLIP ? sprintf('%.3g', column(10)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle
set terminal pngcairo size 1970,480 noenhanced font 'Sans,10' background '#ffffff'
set output 'speedup.png'
set title 'IPC speedup over lrr on owl-28'
set ylabel 'speedup over lrr (IPC / IPC of lrr)'
set datafile missing 'NaN'
set boxwidth 0.088889 absolute
set xrange [-0.6:14.6]
set xtics rotate by -30 nomirror
set grid ytics
set key outside right top
unset arrow
set yrange [0:6]
set ytics 0,1,5
set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead dt 2 lw 1.5 lc rgb '#000000' front
set arrow 2 from 13.5, graph 0 to 13.5, graph 1 nohead dt 3 lc rgb '#808080'
CLIP = 5
cut(y) = y > CLIP ? CLIP : y
plot 'speedup.dat' using ($0-0.355556):(cut(column(2))):xtic(1) with boxes lc rgb '#6e6e6e' fs solid 0.9 border rgb '#303030' title 'lrr', \
  'speedup.dat' using ($0-0.266667):(cut(column(3))) with boxes lc rgb '#0072b2' fs solid 0.9 border rgb '#303030' title 'owl-cta', \
  'speedup.dat' using ($0-0.177778):(cut(column(4))) with boxes lc rgb '#e69f00' fs solid 0.9 border rgb '#303030' title 'owl-locality', \
  'speedup.dat' using ($0-0.088889):(cut(column(5))) with boxes lc rgb '#009e73' fs solid 0.9 border rgb '#303030' title 'owl-blp', \
  'speedup.dat' using ($0+0.000000):(cut(column(6))) with boxes lc rgb '#d55e00' fs solid 0.9 border rgb '#303030' title 'owl', \
  'speedup.dat' using ($0+0.088889):(cut(column(7))) with boxes lc rgb '#cc79a7' fs solid 0.9 border rgb '#303030' title 'owl-pf-on-demand', \
  'speedup.dat' using ($0+0.177778):(cut(column(8))) with boxes lc rgb '#56b4e9' fs solid 0.9 border rgb '#303030' title 'pmem', \
  'speedup.dat' using ($0+0.266667):(cut(column(9))) with boxes lc rgb '#f0e442' fs solid 0.9 border rgb '#303030' title 'owl-blp-g4', \
  'speedup.dat' using ($0+0.355556):(cut(column(10))) with boxes lc rgb '#332288' fs solid 0.9 border rgb '#303030' title 'owl-blp-g16', \
  'speedup.dat' using ($0-0.355556):(CLIP):(column(2) > CLIP ? sprintf('%.3g', column(2)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'speedup.dat' using ($0-0.266667):(CLIP):(column(3) > CLIP ? sprintf('%.3g', column(3)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'speedup.dat' using ($0-0.177778):(CLIP):(column(4) > CLIP ? sprintf('%.3g', column(4)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'speedup.dat' using ($0-0.088889):(CLIP):(column(5) > CLIP ? sprintf('%.3g', column(5)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'speedup.dat' using ($0+0.000000):(CLIP):(column(6) > CLIP ? sprintf('%.3g', column(6)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'speedup.dat' using ($0+0.088889):(CLIP):(column(7) > CLIP ? sprintf('%.3g', column(7)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'speedup.dat' using ($0+0.177778):(CLIP):(column(8) > CLIP ? sprintf('%.3g', column(8)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'speedup.dat' using ($0+0.266667):(CLIP):(column(9) > CLIP ? sprintf('%.3g', column(9)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle, \
  'speedup.dat' using ($0+0.355556):(CLIP):(column(10) > CLIP ? sprintf('%.3g', column(10)) : '') with labels rotate by 90 left offset 0,0.4 font ',9' notitle
