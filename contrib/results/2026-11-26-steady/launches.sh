#!/bin/bash
# Launch-to-launch steadiness, as a user measures: OSU 5.3 (built outside
# the tree; OSU=DIR), np 2 bound to the two cores (not oversubscribed),
# address-space randomization on.  ROUNDS launches of each variant,
# interleaved (rsag with its defaults, then coll/tuned, per collective);
# before each round the hand-off probe (xfer2: 512 KiB written by one core,
# read by the other, us) records the machine's state.
# Usage: OSU=/path/to/osu/mpi/collective launches.sh [ROUNDS] > launches.log
set -u
here=$(cd "$(dirname "$0")" && pwd)
rounds=${1:-20}
osu=${OSU:?set OSU to OSU 5.3s mpi/collective directory}
mpirun=(mpirun --allow-run-as-root -np 2 --bind-to core)
[ -x "$here/xfer2" ] || gcc -O2 -mavx2 -o "$here/xfer2" "$here/xfer2.c"
echo "# randomize_va_space=$(cat /proc/sys/kernel/randomize_va_space) $(date -u +%FT%TZ)"
for r in $(seq 1 "$rounds"); do
    echo "round $r probe_us $("$here/xfer2" 524288 500 0)"
    for b in osu_allreduce osu_reduce osu_reduce_scatter; do
        for v in rsag tuned; do
            if [ "$v" = rsag ]; then extra=(); else extra=(--mca coll ^rsag); fi
            "${mpirun[@]}" "${extra[@]}" "$osu/$b" -m 65536:67108864 -i 20 -x 4 2>/dev/null \
                | awk -v r="$r" -v b="$b" -v v="$v" '/^[0-9]/ {print "round", r, b, v, $1, $2}'
        done
    done
done
