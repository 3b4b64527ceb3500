set terminal svg size 1100,700 dynamic noenhanced font 'Sans,12' background '#ffffff'
set output 'cta_timeline_gtx480.svg'
set title 'CTA timeline: vecadd / lrr on gtx480 (one row per CTA slot; colour: kernel)'
set xlabel 'time (core cycles)'
set ylabel 'SM (one row per CTA slot)'
set yrange [90:-1] 
set xrange [0:*]
unset key
set grid xtics
unset arrow
set ytics ('SM 0' 2.5, 'SM 1' 8.5, 'SM 2' 14.5, 'SM 3' 20.5, 'SM 4' 26.5, 'SM 5' 32.5, 'SM 6' 38.5, 'SM 7' 44.5, 'SM 8' 50.5, 'SM 9' 56.5, 'SM 10' 62.5, 'SM 11' 68.5, 'SM 12' 74.5, 'SM 13' 80.5, 'SM 14' 86.5) nomirror
set arrow from graph 0, first 5.5 to graph 1, first 5.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 11.5 to graph 1, first 11.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 17.5 to graph 1, first 17.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 23.5 to graph 1, first 23.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 29.5 to graph 1, first 29.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 35.5 to graph 1, first 35.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 41.5 to graph 1, first 41.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 47.5 to graph 1, first 47.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 53.5 to graph 1, first 53.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 59.5 to graph 1, first 59.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 65.5 to graph 1, first 65.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 71.5 to graph 1, first 71.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 77.5 to graph 1, first 77.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 83.5 to graph 1, first 83.5 nohead lc rgb '#c0c0c0'
set linetype 101 lc rgb '#0072b2'
set linetype 102 lc rgb '#e69f00'
set linetype 103 lc rgb '#009e73'
set linetype 104 lc rgb '#d55e00'
set linetype 105 lc rgb '#cc79a7'
set linetype 106 lc rgb '#56b4e9'
set linetype 107 lc rgb '#f0e442'
set linetype 108 lc rgb '#332288'
plot 'cta_timeline_gtx480.dat' using (($4+$5)/2):3:(($5-$4)/2):(0.42):(101 + int($6) % 1) with boxxyerror fs solid 0.9 noborder lc variable
set terminal pngcairo size 1100,700 noenhanced font 'Sans,10' background '#ffffff'
set output 'cta_timeline_gtx480.png'
set title 'CTA timeline: vecadd / lrr on gtx480 (one row per CTA slot; colour: kernel)'
set xlabel 'time (core cycles)'
set ylabel 'SM (one row per CTA slot)'
set yrange [90:-1] 
set xrange [0:*]
unset key
set grid xtics
unset arrow
set ytics ('SM 0' 2.5, 'SM 1' 8.5, 'SM 2' 14.5, 'SM 3' 20.5, 'SM 4' 26.5, 'SM 5' 32.5, 'SM 6' 38.5, 'SM 7' 44.5, 'SM 8' 50.5, 'SM 9' 56.5, 'SM 10' 62.5, 'SM 11' 68.5, 'SM 12' 74.5, 'SM 13' 80.5, 'SM 14' 86.5) nomirror
set arrow from graph 0, first 5.5 to graph 1, first 5.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 11.5 to graph 1, first 11.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 17.5 to graph 1, first 17.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 23.5 to graph 1, first 23.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 29.5 to graph 1, first 29.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 35.5 to graph 1, first 35.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 41.5 to graph 1, first 41.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 47.5 to graph 1, first 47.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 53.5 to graph 1, first 53.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 59.5 to graph 1, first 59.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 65.5 to graph 1, first 65.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 71.5 to graph 1, first 71.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 77.5 to graph 1, first 77.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 83.5 to graph 1, first 83.5 nohead lc rgb '#c0c0c0'
set linetype 101 lc rgb '#0072b2'
set linetype 102 lc rgb '#e69f00'
set linetype 103 lc rgb '#009e73'
set linetype 104 lc rgb '#d55e00'
set linetype 105 lc rgb '#cc79a7'
set linetype 106 lc rgb '#56b4e9'
set linetype 107 lc rgb '#f0e442'
set linetype 108 lc rgb '#332288'
plot 'cta_timeline_gtx480.dat' using (($4+$5)/2):3:(($5-$4)/2):(0.42):(101 + int($6) % 1) with boxxyerror fs solid 0.9 noborder lc variable
