set terminal svg size 900,500 dynamic
set output 'cta_timeline.svg'
set title 'CTA timeline per core: bfs / gto'
set xlabel 'core cycle'
set ylabel 'core'
set datafile separator ','
unset key
plot '/work/main/results/exp/pro/gtx480/bfs/gto/cta_timeline.csv' skip 1 using 5:3:($6-$5):(0) with vectors nohead lw 6
set terminal png size 900,500
set output 'cta_timeline.png'
set title 'CTA timeline per core: bfs / gto'
set xlabel 'core cycle'
set ylabel 'core'
set datafile separator ','
unset key
plot '/work/main/results/exp/pro/gtx480/bfs/gto/cta_timeline.csv' skip 1 using 5:3:($6-$5):(0) with vectors nohead lw 6
