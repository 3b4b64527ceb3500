set terminal svg size 1100,832 dynamic noenhanced font 'Sans,12' background '#ffffff'
set output 'cta_timeline.svg'
set title 'CTA timeline: lps / lrr on gtx480 (one row per CTA slot; colour: kernel)'
set xlabel 'time (core cycles)'
set ylabel 'SM (one row per CTA slot)'
set yrange [112:-1] 
set xrange [0:*]
unset key
set grid xtics
unset arrow
set ytics ('SM 0' 3.5, 'SM 1' 11.5, 'SM 2' 19.5, 'SM 3' 27.5, 'SM 4' 35.5, 'SM 5' 43.5, 'SM 6' 51.5, 'SM 7' 59.5, 'SM 8' 67.5, 'SM 9' 75.5, 'SM 10' 83.5, 'SM 11' 91.5, 'SM 12' 99.5, 'SM 13' 107.5) nomirror
set arrow from graph 0, first 7.5 to graph 1, first 7.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 15.5 to graph 1, first 15.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 23.5 to graph 1, first 23.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 31.5 to graph 1, first 31.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 39.5 to graph 1, first 39.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 47.5 to graph 1, first 47.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 55.5 to graph 1, first 55.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 63.5 to graph 1, first 63.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 71.5 to graph 1, first 71.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 79.5 to graph 1, first 79.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 87.5 to graph 1, first 87.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 95.5 to graph 1, first 95.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 103.5 to graph 1, first 103.5 nohead lc rgb '#c0c0c0'
set linetype 101 lc rgb '#0072b2'
set linetype 102 lc rgb '#e69f00'
set linetype 103 lc rgb '#009e73'
set linetype 104 lc rgb '#d55e00'
set linetype 105 lc rgb '#cc79a7'
set linetype 106 lc rgb '#56b4e9'
set linetype 107 lc rgb '#f0e442'
set linetype 108 lc rgb '#332288'
plot 'cta_timeline.dat' using (($4+$5)/2):3:(($5-$4)/2):(0.42):(101 + int($6) % 1) with boxxyerror fs solid 0.9 noborder lc variable
set terminal pngcairo size 1100,832 noenhanced font 'Sans,10' background '#ffffff'
set output 'cta_timeline.png'
set title 'CTA timeline: lps / lrr on gtx480 (one row per CTA slot; colour: kernel)'
set xlabel 'time (core cycles)'
set ylabel 'SM (one row per CTA slot)'
set yrange [112:-1] 
set xrange [0:*]
unset key
set grid xtics
unset arrow
set ytics ('SM 0' 3.5, 'SM 1' 11.5, 'SM 2' 19.5, 'SM 3' 27.5, 'SM 4' 35.5, 'SM 5' 43.5, 'SM 6' 51.5, 'SM 7' 59.5, 'SM 8' 67.5, 'SM 9' 75.5, 'SM 10' 83.5, 'SM 11' 91.5, 'SM 12' 99.5, 'SM 13' 107.5) nomirror
set arrow from graph 0, first 7.5 to graph 1, first 7.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 15.5 to graph 1, first 15.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 23.5 to graph 1, first 23.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 31.5 to graph 1, first 31.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 39.5 to graph 1, first 39.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 47.5 to graph 1, first 47.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 55.5 to graph 1, first 55.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 63.5 to graph 1, first 63.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 71.5 to graph 1, first 71.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 79.5 to graph 1, first 79.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 87.5 to graph 1, first 87.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 95.5 to graph 1, first 95.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 103.5 to graph 1, first 103.5 nohead lc rgb '#c0c0c0'
set linetype 101 lc rgb '#0072b2'
set linetype 102 lc rgb '#e69f00'
set linetype 103 lc rgb '#009e73'
set linetype 104 lc rgb '#d55e00'
set linetype 105 lc rgb '#cc79a7'
set linetype 106 lc rgb '#56b4e9'
set linetype 107 lc rgb '#f0e442'
set linetype 108 lc rgb '#332288'
plot 'cta_timeline.dat' using (($4+$5)/2):3:(($5-$4)/2):(0.42):(101 + int($6) % 1) with boxxyerror fs solid 0.9 noborder lc variable
