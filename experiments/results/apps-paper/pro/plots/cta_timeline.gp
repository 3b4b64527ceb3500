set terminal svg size 1100,580 dynamic noenhanced font 'Sans,12' background '#ffffff'
set output 'cta_timeline.svg'
set title 'CTA timeline: aes / lrr on gtx480 (one row per CTA slot; colour: kernel)'
set xlabel 'time (core cycles)'
set ylabel 'SM (one row per CTA slot)'
set yrange [70:-1] 
set xrange [0:*]
unset key
set grid xtics
unset arrow
set ytics ('SM 0' 2, 'SM 1' 7, 'SM 2' 12, 'SM 3' 17, 'SM 4' 22, 'SM 5' 27, 'SM 6' 32, 'SM 7' 37, 'SM 8' 42, 'SM 9' 47, 'SM 10' 52, 'SM 11' 57, 'SM 12' 62, 'SM 13' 67) nomirror
set arrow from graph 0, first 4.5 to graph 1, first 4.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 9.5 to graph 1, first 9.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 14.5 to graph 1, first 14.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 19.5 to graph 1, first 19.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 24.5 to graph 1, first 24.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 29.5 to graph 1, first 29.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 34.5 to graph 1, first 34.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 39.5 to graph 1, first 39.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 44.5 to graph 1, first 44.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 49.5 to graph 1, first 49.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 54.5 to graph 1, first 54.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 59.5 to graph 1, first 59.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 64.5 to graph 1, first 64.5 nohead lc rgb '#c0c0c0'
set linetype 101 lc rgb '#0072b2'
set linetype 102 lc rgb '#e69f00'
set linetype 103 lc rgb '#009e73'
set linetype 104 lc rgb '#d55e00'
set linetype 105 lc rgb '#cc79a7'
set linetype 106 lc rgb '#56b4e9'
set linetype 107 lc rgb '#f0e442'
set linetype 108 lc rgb '#332288'
plot 'cta_timeline.dat' using (($4+$5)/2):3:(($5-$4)/2):(0.42):(101 + int($6) % 1) with boxxyerror fs solid 0.9 noborder lc variable
set terminal pngcairo size 1100,580 noenhanced font 'Sans,10' background '#ffffff'
set output 'cta_timeline.png'
set title 'CTA timeline: aes / lrr on gtx480 (one row per CTA slot; colour: kernel)'
set xlabel 'time (core cycles)'
set ylabel 'SM (one row per CTA slot)'
set yrange [70:-1] 
set xrange [0:*]
unset key
set grid xtics
unset arrow
set ytics ('SM 0' 2, 'SM 1' 7, 'SM 2' 12, 'SM 3' 17, 'SM 4' 22, 'SM 5' 27, 'SM 6' 32, 'SM 7' 37, 'SM 8' 42, 'SM 9' 47, 'SM 10' 52, 'SM 11' 57, 'SM 12' 62, 'SM 13' 67) nomirror
set arrow from graph 0, first 4.5 to graph 1, first 4.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 9.5 to graph 1, first 9.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 14.5 to graph 1, first 14.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 19.5 to graph 1, first 19.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 24.5 to graph 1, first 24.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 29.5 to graph 1, first 29.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 34.5 to graph 1, first 34.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 39.5 to graph 1, first 39.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 44.5 to graph 1, first 44.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 49.5 to graph 1, first 49.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 54.5 to graph 1, first 54.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 59.5 to graph 1, first 59.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 64.5 to graph 1, first 64.5 nohead lc rgb '#c0c0c0'
set linetype 101 lc rgb '#0072b2'
set linetype 102 lc rgb '#e69f00'
set linetype 103 lc rgb '#009e73'
set linetype 104 lc rgb '#d55e00'
set linetype 105 lc rgb '#cc79a7'
set linetype 106 lc rgb '#56b4e9'
set linetype 107 lc rgb '#f0e442'
set linetype 108 lc rgb '#332288'
plot 'cta_timeline.dat' using (($4+$5)/2):3:(($5-$4)/2):(0.42):(101 + int($6) % 1) with boxxyerror fs solid 0.9 noborder lc variable
