set terminal svg size 900,420 dynamic
set output 'speedup.svg'
set title 'IPC speedup over baseline'
set ylabel 'speedup'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set key outside right
set xtics rotate by -30
set grid ytics
set yrange [0:*]
plot 'speedup.dat' using 2:xtic(1) title columnheader(2), '' using 3 title columnheader(3), '' using 4 title columnheader(4), '' using 5 title columnheader(5), '' using 6 title columnheader(6), '' using 7 title columnheader(7), '' using 8 title columnheader(8)
set terminal png size 900,420
set output 'speedup.png'
set title 'IPC speedup over baseline'
set ylabel 'speedup'
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set key outside right
set xtics rotate by -30
set grid ytics
set yrange [0:*]
plot 'speedup.dat' using 2:xtic(1) title columnheader(2), '' using 3 title columnheader(3), '' using 4 title columnheader(4), '' using 5 title columnheader(5), '' using 6 title columnheader(6), '' using 7 title columnheader(7), '' using 8 title columnheader(8)
