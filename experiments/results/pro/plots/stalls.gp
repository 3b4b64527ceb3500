set terminal svg size 900,420 dynamic
set output 'stalls.svg'
set title 'Scheduler cycle breakdown'
set ylabel 'share'
set style data histograms
set style histogram rowstacked
set style fill solid 0.8 border -1
set key outside right
set xtics rotate by -30
set grid ytics
set yrange [0:*]
plot 'stalls.dat' using 2:xtic(1) title columnheader(2), '' using 3 title columnheader(3), '' using 4 title columnheader(4), '' using 5 title columnheader(5), '' using 6 title columnheader(6), '' using 7 title columnheader(7), '' using 8 title columnheader(8), '' using 9 title columnheader(9)
set terminal png size 900,420
set output 'stalls.png'
set title 'Scheduler cycle breakdown'
set ylabel 'share'
set style data histograms
set style histogram rowstacked
set style fill solid 0.8 border -1
set key outside right
set xtics rotate by -30
set grid ytics
set yrange [0:*]
plot 'stalls.dat' using 2:xtic(1) title columnheader(2), '' using 3 title columnheader(3), '' using 4 title columnheader(4), '' using 5 title columnheader(5), '' using 6 title columnheader(6), '' using 7 title columnheader(7), '' using 8 title columnheader(8), '' using 9 title columnheader(9)
