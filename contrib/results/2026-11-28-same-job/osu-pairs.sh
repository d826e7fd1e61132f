#!/bin/bash
# OSU 5.3 cross-check of the same-job numbers: OSU cannot switch between
# rsag and tuned inside one job, so each pair is two short launches back to
# back (rsag, tuned; the order alternating), about a second apart, usually
# in the same state of the host; the ratio per pair, the median over PAIRS.
#   bash osu-pairs.sh OSU_DIR [PAIRS]  -> osu-pairs.csv (pair,coll,bytes,rsag_us,tuned_us)
set -u
osu=$1; pairs=${2:-20}
here=$(cd "$(dirname "$0")" && pwd)
export OMPI_MCA_mca_base_component_path=${OMPI_MCA_mca_base_component_path:-/usr/lib/x86_64-linux-gnu/openmpi/lib/openmpi3:$HOME/.openmpi/components}
out=$here/osu-pairs.csv
echo "pair,coll,bytes,rsag_us,tuned_us" > "$out"
one() {  # $1 coll, $2 rsag|tuned -> "bytes us" lines
    local x=""
    [ "$2" = tuned ] && x="--mca coll basic,tuned,libnbc,self"
    # shellcheck disable=SC2086
    mpirun --allow-run-as-root -np 2 --bind-to core $x "$osu/osu_$1" -m 8:1024 -i 3000 -x 300 2>/dev/null \
        | awk '$1 ~ /^[0-9]+$/ { print $1, $2 }'
}
for p in $(seq 1 "$pairs"); do
    for c in allreduce reduce reduce_scatter; do
        if [ $((p % 2)) = 1 ]; then a=$(one $c rsag); b=$(one $c tuned); else b=$(one $c tuned); a=$(one $c rsag); fi
        join <(echo "$a") <(echo "$b") | awk -v p="$p" -v c="$c" '{ print p "," c "," $1 "," $2 "," $3 }' >> "$out"
    done
done
