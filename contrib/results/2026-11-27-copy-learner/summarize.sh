#!/bin/bash
# medians over the rounds of raw/: per benchmark and size, learn, never,
# tuned (us) and tuned / learn, tuned / never (> 1: rsag faster)
here=$(cd "$(dirname "$0")" && pwd)
d=$here/raw
med='function med(s,  n,x,i,j,t){n=split(s,x," ");for(i=1;i<=n;i++)for(j=i+1;j<=n;j++)if(x[j]+0<x[i]+0){t=x[i];x[i]=x[j];x[j]=t}; return (n%2)?x[(n+1)/2]:(x[n/2]+x[n/2+1])/2}'
table() {   # lines "variant bytes us" on stdin
    awk "$med"'{k=$1" "$2; a[k]=a[k]" "$3; sz[$2]=1}
        END{for(s in sz){l=med(a["learn "s]);n=med(a["never "s]);t=med(a["tuned "s]);
            printf "%10d %9.2f %9.2f %9.2f %7.2f %7.2f\n", s,l,n,t,t/l,t/n}}' | sort -n
}
hdr() { printf "%s\n%10s %9s %9s %9s %7s %7s\n" "$1" bytes learn never tuned t/learn t/never; }
for b in reduce allreduce reduce_scatter; do
    hdr "== OSU osu_$b (avg us)"
    for f in "$d"/osu.$b.*; do
        v=$(basename "$f" | cut -d. -f3)
        awk -v v="$v" '/^[0-9]/{print v, $1, $2}' "$f"
    done | table
done
for b in Reduce Allreduce Reduce_scatter_block; do
    hdr "== IMB $b (t_avg us)"
    for f in "$d"/imb.*; do
        v=$(basename "$f" | cut -d. -f2)
        awk -v v="$v" -v b="$b" '/# Benchmarking/{on = ($3 == b)} on && /^ +[0-9]/ && NF >= 5 && $1 > 0 {print v, $1, $(NF)}' "$f"
    done | table
done
