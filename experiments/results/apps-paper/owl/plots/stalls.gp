set terminal svg size 1512,1420 dynamic noenhanced font 'Sans,12' background '#ffffff'
set output 'stalls.svg'
set datafile missing 'NaN'
set style fill solid 0.9 border rgb '#303030'
set boxwidth 0.7 relative
set yrange [0:1]
set ytics 0,0.2,1
set grid ytics
set xtics rotate by 90 right nomirror
unset key
C = '#0072b2 #e69f00 #009e73 #d55e00 #cc79a7 #56b4e9 #f0e442 #332288'
N = 'issued structural data control fetch barrier exit no_warp'
set multiplot layout 4,4 title 'Scheduler cycles by class on owl-28'
set title 'pvc'
set ylabel 'share of scheduler cycles'
set xrange [-0.6:8.6]
plot for [c=8:1:-1] 'stalls.dat' index 0 using 0:(column(c+1)):xtic(1) with boxes lc rgb word(C, c)
set title 'ssc'
set ylabel ''
set xrange [-0.6:8.6]
plot for [c=8:1:-1] 'stalls.dat' index 1 using 0:(column(c+1)):xtic(1) with boxes lc rgb word(C, c)
set title 'bfs'
set ylabel ''
set xrange [-0.6:8.6]
plot for [c=8:1:-1] 'stalls.dat' index 2 using 0:(column(c+1)):xtic(1) with boxes lc rgb word(C, c)
set title 'cfd'
set ylabel ''
set xrange [-0.6:8.6]
plot for [c=8:1:-1] 'stalls.dat' index 3 using 0:(column(c+1)):xtic(1) with boxes lc rgb word(C, c)
set title 'kmn'
set ylabel 'share of scheduler cycles'
set xrange [-0.6:8.6]
plot for [c=8:1:-1] 'stalls.dat' index 4 using 0:(column(c+1)):xtic(1) with boxes lc rgb word(C, c)
set title 'scp'
set ylabel ''
set xrange [-0.6:8.6]
plot for [c=8:1:-1] 'stalls.dat' index 5 using 0:(column(c+1)):xtic(1) with boxes lc rgb word(C, c)
set title 'fwt'
set ylabel ''
set xrange [-0.6:8.6]
plot for [c=8:1:-1] 'stalls.dat' index 6 using 0:(column(c+1)):xtic(1) with boxes lc rgb word(C, c)
set title 'iix'
set ylabel ''
set xrange [-0.6:8.6]
plot for [c=8:1:-1] 'stalls.dat' index 7 using 0:(column(c+1)):xtic(1) with boxes lc rgb word(C, c)
set title 'spmv'
set ylabel 'share of scheduler cycles'
set xrange [-0.6:8.6]
plot for [c=8:1:-1] 'stalls.dat' index 8 using 0:(column(c+1)):xtic(1) with boxes lc rgb word(C, c)
set title 'bfsr'
set ylabel ''
set xrange [-0.6:8.6]
plot for [c=8:1:-1] 'stalls.dat' index 9 using 0:(column(c+1)):xtic(1) with boxes lc rgb word(C, c)
set title 'sc'
set ylabel ''
set xrange [-0.6:8.6]
plot for [c=8:1:-1] 'stalls.dat' index 10 using 0:(column(c+1)):xtic(1) with boxes lc rgb word(C, c)
set title 'sd2'
set ylabel ''
set xrange [-0.6:8.6]
plot for [c=8:1:-1] 'stalls.dat' index 11 using 0:(column(c+1)):xtic(1) with boxes lc rgb word(C, c)
set title 'pvr'
set ylabel 'share of scheduler cycles'
set xrange [-0.6:8.6]
plot for [c=8:1:-1] 'stalls.dat' index 12 using 0:(column(c+1)):xtic(1) with boxes lc rgb word(C, c)
set title 'bp'
set ylabel ''
set xrange [-0.6:8.6]
plot for [c=8:1:-1] 'stalls.dat' index 13 using 0:(column(c+1)):xtic(1) with boxes lc rgb word(C, c)
set title 'mean over workloads'
set ylabel ''
set xrange [-0.6:8.6]
plot for [c=8:1:-1] 'stalls.dat' index 14 using 0:(column(c+1)):xtic(1) with boxes lc rgb word(C, c)
unset title
unset ylabel
unset border
unset tics
unset grid
set xrange [0:1]
set yrange [0:1]
set key center center vertical Left reverse box title 'cycle class'
plot for [c=1:8] NaN with boxes lc rgb word(C, c) title word(N, c)
unset multiplot
set border
set tics
set grid ytics
set terminal pngcairo size 1512,1420 noenhanced font 'Sans,10' background '#ffffff'
set output 'stalls.png'
set datafile missing 'NaN'
set style fill solid 0.9 border rgb '#303030'
set boxwidth 0.7 relative
set yrange [0:1]
set ytics 0,0.2,1
set grid ytics
set xtics rotate by 90 right nomirror
unset key
C = '#0072b2 #e69f00 #009e73 #d55e00 #cc79a7 #56b4e9 #f0e442 #332288'
N = 'issued structural data control fetch barrier exit no_warp'
set multiplot layout 4,4 title 'Scheduler cycles by class on owl-28'
set title 'pvc'
set ylabel 'share of scheduler cycles'
set xrange [-0.6:8.6]
plot for [c=8:1:-1] 'stalls.dat' index 0 using 0:(column(c+1)):xtic(1) with boxes lc rgb word(C, c)
set title 'ssc'
set ylabel ''
set xrange [-0.6:8.6]
plot for [c=8:1:-1] 'stalls.dat' index 1 using 0:(column(c+1)):xtic(1) with boxes lc rgb word(C, c)
set title 'bfs'
set ylabel ''
set xrange [-0.6:8.6]
plot for [c=8:1:-1] 'stalls.dat' index 2 using 0:(column(c+1)):xtic(1) with boxes lc rgb word(C, c)
set title 'cfd'
set ylabel ''
set xrange [-0.6:8.6]
plot for [c=8:1:-1] 'stalls.dat' index 3 using 0:(column(c+1)):xtic(1) with boxes lc rgb word(C, c)
set title 'kmn'
set ylabel 'share of scheduler cycles'
set xrange [-0.6:8.6]
plot for [c=8:1:-1] 'stalls.dat' index 4 using 0:(column(c+1)):xtic(1) with boxes lc rgb word(C, c)
set title 'scp'
set ylabel ''
set xrange [-0.6:8.6]
plot for [c=8:1:-1] 'stalls.dat' index 5 using 0:(column(c+1)):xtic(1) with boxes lc rgb word(C, c)
set title 'fwt'
set ylabel ''
set xrange [-0.6:8.6]
plot for [c=8:1:-1] 'stalls.dat' index 6 using 0:(column(c+1)):xtic(1) with boxes lc rgb word(C, c)
set title 'iix'
set ylabel ''
set xrange [-0.6:8.6]
plot for [c=8:1:-1] 'stalls.dat' index 7 using 0:(column(c+1)):xtic(1) with boxes lc rgb word(C, c)
set title 'spmv'
set ylabel 'share of scheduler cycles'
set xrange [-0.6:8.6]
plot for [c=8:1:-1] 'stalls.dat' index 8 using 0:(column(c+1)):xtic(1) with boxes lc rgb word(C, c)
set title 'bfsr'
set ylabel ''
set xrange [-0.6:8.6]
plot for [c=8:1:-1] 'stalls.dat' index 9 using 0:(column(c+1)):xtic(1) with boxes lc rgb word(C, c)
set title 'sc'
set ylabel ''
set xrange [-0.6:8.6]
plot for [c=8:1:-1] 'stalls.dat' index 10 using 0:(column(c+1)):xtic(1) with boxes lc rgb word(C, c)
set title 'sd2'
set ylabel ''
set xrange [-0.6:8.6]
plot for [c=8:1:-1] 'stalls.dat' index 11 using 0:(column(c+1)):xtic(1) with boxes lc rgb word(C, c)
set title 'pvr'
set ylabel 'share of scheduler cycles'
set xrange [-0.6:8.6]
plot for [c=8:1:-1] 'stalls.dat' index 12 using 0:(column(c+1)):xtic(1) with boxes lc rgb word(C, c)
set title 'bp'
set ylabel ''
set xrange [-0.6:8.6]
plot for [c=8:1:-1] 'stalls.dat' index 13 using 0:(column(c+1)):xtic(1) with boxes lc rgb word(C, c)
set title 'mean over workloads'
set ylabel ''
set xrange [-0.6:8.6]
plot for [c=8:1:-1] 'stalls.dat' index 14 using 0:(column(c+1)):xtic(1) with boxes lc rgb word(C, c)
unset title
unset ylabel
unset border
unset tics
unset grid
set xrange [0:1]
set yrange [0:1]
set key center center vertical Left reverse box title 'cycle class'
plot for [c=1:8] NaN with boxes lc rgb word(C, c) title word(N, c)
unset multiplot
set border
set tics
set grid ytics
