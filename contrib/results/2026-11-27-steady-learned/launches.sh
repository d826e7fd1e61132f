#!/bin/bash
# Launch-to-launch steadiness with the copy mode learned, as a user measures:
# OSU 5.3 (OSU=DIR: its mpi/collective), np 2 bound to the two cores (not
# oversubscribed), address-space randomization on.  ROUNDS rounds; in each,
# one launch per collective (osu_allreduce, osu_reduce, osu_reduce_scatter)
# and size (64 KB, 1 MB, 64 MB; -i 100 -x 10, OSU's own counts for large
# messages) with rsag's defaults, and every TUNED_EVERY-th round (default
# 4: its 64 MB calls take seconds) the same with coll/tuned's default;
# before each round the hand-off probe of 2026-11-26-steady (xfer2: 512 KiB
# written by one core, read by the other, us) and a 64 MB memcpy (memprobe
# of 2026-11-27-np2-memory) record the machine's state.
# Usage: OSU=/path/to/osu/mpi/collective launches.sh [ROUNDS] > launches.log
set -u
here=$(cd "$(dirname "$0")" && pwd)
rounds=${1:-20}
osu=${OSU:?set OSU to OSU 5.3s mpi/collective directory}
steady=$here/../2026-11-26-steady
mem=$here/../2026-11-27-np2-memory
mpirun=(mpirun --allow-run-as-root -np 2 --bind-to core)
[ -x "$here/xfer2" ] || gcc -O2 -mavx2 -o "$here/xfer2" "$steady/xfer2.c"
[ -x "$here/memprobe" ] || gcc -O2 -o "$here/memprobe" "$mem/memprobe.c"
echo "# randomize_va_space=$(cat /proc/sys/kernel/randomize_va_space) $(date -u +%FT%TZ)"
for r in $(seq 1 "$rounds"); do
    echo "round $r probe_us $("$here/xfer2" 524288 500 0)"
    "$here/memprobe" | awk -v r="$r" '$1 == 64 && $2 == "MB:" {gsub(/\(/, "", $6); print "round", r, "memcpy_64M_ms", $6}'
    for v in rsag tuned; do
        [ "$v" = tuned ] && [ $((r % ${TUNED_EVERY:-4})) -ne 0 ] && continue
        if [ "$v" = rsag ]; then extra=(); else extra=(--mca coll_rsag_priority -1); fi
        for b in osu_allreduce osu_reduce osu_reduce_scatter; do
            for m in 65536 1048576 67108864; do
                "${mpirun[@]}" "${extra[@]}" "$osu/$b" -m "$m:$m" -i 100 -x 10 2>/dev/null \
                    | awk -v r="$r" -v b="$b" -v v="$v" '/^[0-9]/ {print "round", r, b, v, $1, $2}'
            done
        done
    done
done
