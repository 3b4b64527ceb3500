set terminal svg size 900,420 dynamic
set output 'blp_rbl.svg'
set title 'DRAM BLP, row-buffer locality, L1 hit rate'
set ylabel ''
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set key outside right
set xtics rotate by -30
set grid ytics
set yrange [0:*]
plot 'blp_rbl.dat' using 2:xtic(1) title columnheader(2), '' using 3 title columnheader(3), '' using 4 title columnheader(4)
set terminal png size 900,420
set output 'blp_rbl.png'
set title 'DRAM BLP, row-buffer locality, L1 hit rate'
set ylabel ''
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set key outside right
set xtics rotate by -30
set grid ytics
set yrange [0:*]
plot 'blp_rbl.dat' using 2:xtic(1) title columnheader(2), '' using 3 title columnheader(3), '' using 4 title columnheader(4)
