#!/bin/bash
# OSU 5.3 osu_allreduce and osu_reduce, np 2 bound to the two cores: rsag with
# its defaults, rsag with the node tuner's file (tune-node/, `rsag-tune.sh
# --node -n 2 -c allreduce,reduce`, the same afternoon) and coll/tuned's
# default, 5 interleaved rounds.
#   tuned-file.sh OSU_COLLECTIVE_DIR [OUT]
set -u
osu=${1:?usage: tuned-file.sh OSU_COLLECTIVE_DIR [OUT]}
here=$(cd "$(dirname "$0")" && pwd)
out=${2:-$here}/raw
mkdir -p "$out"
mr="mpirun --allow-run-as-root -np 2 --bind-to core"
for r in 1 2 3 4 5; do
    for b in allreduce reduce; do
        $mr "$osu/osu_$b" -m 8:16777216 -i 200 -x 20 2>/dev/null | grep -E '^[0-9]' > "$out/tf_$b.rsag.$r"
        $mr --tune "$here/tune-node/rsag-tune-node-np2.conf" "$osu/osu_$b" -m 8:16777216 -i 200 -x 20 \
            2>/dev/null | grep -E '^[0-9]' > "$out/tf_$b.file.$r"
        $mr --mca coll_rsag_priority -1 "$osu/osu_$b" -m 8:16777216 -i 200 -x 20 2>/dev/null \
            | grep -E '^[0-9]' > "$out/tf_$b.tuned.$r"
    done
done
med() { sort -g | awk '{a[NR]=$1} END{print NR ? a[int((NR+1)/2)] : "-"}'; }
for b in allreduce reduce; do
    echo "== OSU 5.3 osu_$b, np 2: bytes, rsag default, rsag + tuner's file, tuned default (µs, median of 5), tuned / rsag default, tuned / rsag + file"
    for s in $(awk '{print $1}' "$out/tf_$b.rsag.1"); do
        a=$(cat "$out"/tf_$b.rsag.* | awk -v s="$s" '$1==s{print $2}' | med)
        f=$(cat "$out"/tf_$b.file.* | awk -v s="$s" '$1==s{print $2}' | med)
        t=$(cat "$out"/tf_$b.tuned.* | awk -v s="$s" '$1==s{print $2}' | med)
        awk -v s="$s" -v a="$a" -v f="$f" -v t="$t" 'BEGIN{printf "%9s %10.2f %10.2f %10.2f %6.2f %6.2f\n", s, a, f, t, t / a, t / f}'
    done
done
