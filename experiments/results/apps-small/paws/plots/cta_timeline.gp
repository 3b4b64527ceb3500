set terminal svg size 1100,480 dynamic noenhanced font 'Sans,12' background '#ffffff'
set output 'cta_timeline.svg'
set title 'CTA timeline: km / lrr on m2090 (one row per CTA slot; colour: kernel)'
set xlabel 'time (core cycles)'
set ylabel 'SM (one row per CTA slot)'
set yrange [9:-1] 
set xrange [0:*]
unset key
set grid xtics
unset arrow
set ytics ('SM 0' 0, 'SM 1' 1, 'SM 2' 2, 'SM 3' 3, 'SM 4' 4, 'SM 5' 5, 'SM 6' 6, 'SM 7' 7, 'SM 8' 8) nomirror
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
set title 'CTA timeline: km / lrr on m2090 (one row per CTA slot; colour: kernel)'
set xlabel 'time (core cycles)'
set ylabel 'SM (one row per CTA slot)'
set yrange [9:-1] 
set xrange [0:*]
unset key
set grid xtics
unset arrow
set ytics ('SM 0' 0, 'SM 1' 1, 'SM 2' 2, 'SM 3' 3, 'SM 4' 4, 'SM 5' 5, 'SM 6' 6, 'SM 7' 7, 'SM 8' 8) nomirror
set linetype 101 lc rgb '#0072b2'
set linetype 102 lc rgb '#e69f00'
set linetype 103 lc rgb '#009e73'
set linetype 104 lc rgb '#d55e00'
set linetype 105 lc rgb '#cc79a7'
set linetype 106 lc rgb '#56b4e9'
set linetype 107 lc rgb '#f0e442'
set linetype 108 lc rgb '#332288'
plot 'cta_timeline.dat' using (($4+$5)/2):3:(($5-$4)/2):(0.42):(101 + int($6) % 8) with boxxyerror fs solid 0.9 noborder lc variable
