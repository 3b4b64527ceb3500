set terminal svg size 1100,480 dynamic noenhanced font 'Sans,12' background '#ffffff'
set output 'cta_timeline.svg'
set title 'CTA timeline: hotspot / lrr on gtx480 (one row per CTA slot; colour: kernel)'
set xlabel 'time (core cycles)'
set ylabel 'SM (one row per CTA slot)'
set yrange [42:-1] 
set xrange [0:*]
unset key
set grid xtics
unset arrow
set ytics ('SM 0' 1, 'SM 1' 4, 'SM 2' 7, 'SM 3' 10, 'SM 4' 13, 'SM 5' 16, 'SM 6' 19, 'SM 7' 22, 'SM 8' 25, 'SM 9' 28, 'SM 10' 31, 'SM 11' 34, 'SM 12' 37, 'SM 13' 40) nomirror
set arrow from graph 0, first 2.5 to graph 1, first 2.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 5.5 to graph 1, first 5.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 8.5 to graph 1, first 8.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 11.5 to graph 1, first 11.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 14.5 to graph 1, first 14.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 17.5 to graph 1, first 17.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 20.5 to graph 1, first 20.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 23.5 to graph 1, first 23.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 26.5 to graph 1, first 26.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 29.5 to graph 1, first 29.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 32.5 to graph 1, first 32.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 35.5 to graph 1, first 35.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 38.5 to graph 1, first 38.5 nohead lc rgb '#c0c0c0'
set linetype 101 lc rgb '#0072b2'
set linetype 102 lc rgb '#e69f00'
set linetype 103 lc rgb '#009e73'
set linetype 104 lc rgb '#d55e00'
set linetype 105 lc rgb '#cc79a7'
set linetype 106 lc rgb '#56b4e9'
set linetype 107 lc rgb '#f0e442'
set linetype 108 lc rgb '#332288'
plot 'cta_timeline.dat' using (($4+$5)/2):3:(($5-$4)/2):(0.42):(101 + int($6) % 1) with boxxyerror fs solid 0.9 noborder lc variable
set terminal pngcairo size 1100,480 noenhanced font 'Sans,10' background '#ffffff'
set output 'cta_timeline.png'
set title 'CTA timeline: hotspot / lrr on gtx480 (one row per CTA slot; colour: kernel)'
set xlabel 'time (core cycles)'
set ylabel 'SM (one row per CTA slot)'
set yrange [42:-1] 
set xrange [0:*]
unset key
set grid xtics
unset arrow
set ytics ('SM 0' 1, 'SM 1' 4, 'SM 2' 7, 'SM 3' 10, 'SM 4' 13, 'SM 5' 16, 'SM 6' 19, 'SM 7' 22, 'SM 8' 25, 'SM 9' 28, 'SM 10' 31, 'SM 11' 34, 'SM 12' 37, 'SM 13' 40) nomirror
set arrow from graph 0, first 2.5 to graph 1, first 2.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 5.5 to graph 1, first 5.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 8.5 to graph 1, first 8.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 11.5 to graph 1, first 11.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 14.5 to graph 1, first 14.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 17.5 to graph 1, first 17.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 20.5 to graph 1, first 20.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 23.5 to graph 1, first 23.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 26.5 to graph 1, first 26.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 29.5 to graph 1, first 29.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 32.5 to graph 1, first 32.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 35.5 to graph 1, first 35.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 38.5 to graph 1, first 38.5 nohead lc rgb '#c0c0c0'
set linetype 101 lc rgb '#0072b2'
set linetype 102 lc rgb '#e69f00'
set linetype 103 lc rgb '#009e73'
set linetype 104 lc rgb '#d55e00'
set linetype 105 lc rgb '#cc79a7'
set linetype 106 lc rgb '#56b4e9'
set linetype 107 lc rgb '#f0e442'
set linetype 108 lc rgb '#332288'
plot 'cta_timeline.dat' using (($4+$5)/2):3:(($5-$4)/2):(0.42):(101 + int($6) % 1) with boxxyerror fs solid 0.9 noborder lc variable
