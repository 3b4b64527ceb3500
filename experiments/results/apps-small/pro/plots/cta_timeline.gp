set terminal svg size 1100,480 dynamic noenhanced font 'Sans,12' background '#ffffff'
set output 'cta_timeline.svg'
set title 'CTA timeline: bfs / lrr on gtx480 (one row per CTA slot; colour: kernel)'
set xlabel 'time (core cycles)'
set ylabel 'SM (one row per CTA slot)'
set yrange [28:-1] 
set xrange [0:*]
unset key
set grid xtics
unset arrow
set ytics ('SM 0' 0.5, 'SM 1' 2.5, 'SM 2' 4.5, 'SM 3' 6.5, 'SM 4' 8.5, 'SM 5' 10.5, 'SM 6' 12.5, 'SM 7' 14.5, 'SM 8' 16.5, 'SM 9' 18.5, 'SM 10' 20.5, 'SM 11' 22.5, 'SM 12' 24.5, 'SM 13' 26.5) nomirror
set arrow from graph 0, first 1.5 to graph 1, first 1.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 3.5 to graph 1, first 3.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 5.5 to graph 1, first 5.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 7.5 to graph 1, first 7.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 9.5 to graph 1, first 9.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 11.5 to graph 1, first 11.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 13.5 to graph 1, first 13.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 15.5 to graph 1, first 15.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 17.5 to graph 1, first 17.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 19.5 to graph 1, first 19.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 21.5 to graph 1, first 21.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 23.5 to graph 1, first 23.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 25.5 to graph 1, first 25.5 nohead lc rgb '#c0c0c0'
set linetype 101 lc rgb '#0072b2'
set linetype 102 lc rgb '#e69f00'
set linetype 103 lc rgb '#009e73'
set linetype 104 lc rgb '#d55e00'
set linetype 105 lc rgb '#cc79a7'
set linetype 106 lc rgb '#56b4e9'
set linetype 107 lc rgb '#f0e442'
set linetype 108 lc rgb '#332288'
plot 'cta_timeline.dat' using (($4+$5)/2):3:(($5-$4)/2):(0.42):(101 + int($6) % 8) with boxxyerror fs solid 0.9 noborder lc variable
set terminal pngcairo size 1100,480 noenhanced font 'Sans,10' background '#ffffff'
set output 'cta_timeline.png'
set title 'CTA timeline: bfs / lrr on gtx480 (one row per CTA slot; colour: kernel)'
set xlabel 'time (core cycles)'
set ylabel 'SM (one row per CTA slot)'
set yrange [28:-1] 
set xrange [0:*]
unset key
set grid xtics
unset arrow
set ytics ('SM 0' 0.5, 'SM 1' 2.5, 'SM 2' 4.5, 'SM 3' 6.5, 'SM 4' 8.5, 'SM 5' 10.5, 'SM 6' 12.5, 'SM 7' 14.5, 'SM 8' 16.5, 'SM 9' 18.5, 'SM 10' 20.5, 'SM 11' 22.5, 'SM 12' 24.5, 'SM 13' 26.5) nomirror
set arrow from graph 0, first 1.5 to graph 1, first 1.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 3.5 to graph 1, first 3.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 5.5 to graph 1, first 5.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 7.5 to graph 1, first 7.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 9.5 to graph 1, first 9.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 11.5 to graph 1, first 11.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 13.5 to graph 1, first 13.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 15.5 to graph 1, first 15.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 17.5 to graph 1, first 17.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 19.5 to graph 1, first 19.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 21.5 to graph 1, first 21.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 23.5 to graph 1, first 23.5 nohead lc rgb '#c0c0c0'
set arrow from graph 0, first 25.5 to graph 1, first 25.5 nohead lc rgb '#c0c0c0'
set linetype 101 lc rgb '#0072b2'
set linetype 102 lc rgb '#e69f00'
set linetype 103 lc rgb '#009e73'
set linetype 104 lc rgb '#d55e00'
set linetype 105 lc rgb '#cc79a7'
set linetype 106 lc rgb '#56b4e9'
set linetype 107 lc rgb '#f0e442'
set linetype 108 lc rgb '#332288'
plot 'cta_timeline.dat' using (($4+$5)/2):3:(($5-$4)/2):(0.42):(101 + int($6) % 8) with boxxyerror fs solid 0.9 noborder lc variable
