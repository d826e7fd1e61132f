#!/bin/bash
# rsag-tune.sh: measure rsag's algorithms on this machine and write an MCA
# parameter file with the coll_rsag_<coll>_<alg>_min_bytes thresholds that
# make rsag's `auto` pick the fastest one per message size.
#
#   contrib/rsag-tune.sh -n 4 -o tune-np4            # writes tune-np4/rsag-tune-np4.conf
#   mpirun -np 4 --tune tune-np4/rsag-tune-np4.conf ./app          # one job
#   OMPI_MCA_mca_param_files=$PWD/tune-np4/rsag-tune-np4.conf mpirun ...
#   cat tune-np4/rsag-tune-np4.conf >> ~/.openmpi/mca-params.conf  # all jobs
#
# For every collective it runs rsag-bench.sh --rsag-only (one job per
# repetition: every rsag algorithm forced, interleaved, through MPI_T) with
# the given process count and mpirun arguments (transport), then
# rsag-thresholds.awk picks the thresholds whose worst slowdown against the
# fastest algorithm of each measured size is smallest (see that file for the
# rules: 3 % noise margin, base algorithm 0, algorithms left off LONG_MAX).  The file's comments say where, when and how it was
# measured, and show every measured time and ratio.
#
# The thresholds are scalar MCA settings: they apply to every communicator
# size, whatever np they were measured at (tune at the np your jobs use).
set -u

here=$(cd "$(dirname "$0")" && pwd)
usage() {
    cat <<EOF
usage: $0 [options]
  -n, --np NP            process count (default 2)
  -c, --colls LIST       comma-separated collectives (default
                         allreduce,reduce,reduce_scatter_block,reduce_scatter)
      --mpirun-args "A"  mpirun arguments of the transport (e.g. "--mca btl tcp,self")
      --reps N           repetitions of the benchmark job (default 3)
      --min-bytes N / --max-bytes N / --sizes LIST / --iters N / --dtype T
                         passed to rsag-bench.sh (default 8 .. 64M, x4 steps)
      --margin PCT       a faster algorithm must win by more than PCT % to move
                         a threshold (default 3)
  -o, --outdir DIR       benchmark output and the parameter file (default ./rsag-tune-out)
      --output FILE      the parameter file (default OUTDIR/rsag-tune-np<NP>.conf)
      --from-csv         run nothing: use OUTDIR's <coll>-np<NP>.csv of an earlier run
      --component-dir D / --bench PATH / --wait-quiet SECS
                         passed to rsag-bench.sh
  -h, --help
EOF
}
die() { echo "rsag-tune.sh: $*" >&2; exit 2; }
need() { [ $# -ge 2 ] && [ -n "$2" ] || die "option $1 needs a value"; }

NP=2
COLLS=allreduce,reduce,reduce_scatter_block,reduce_scatter
MPIRUN_ARGS=
MARGIN=3
OUTDIR=./rsag-tune-out
OUTPUT=
FROM_CSV=0
BENCH_ARGS=(--reps 3)
while [ $# -gt 0 ]; do
    case "$1" in
    -n|--np) need "$@"; NP=$2; shift 2 ;;
    -c|--colls) need "$@"; COLLS=$2; shift 2 ;;
    --mpirun-args) need "$@"; MPIRUN_ARGS=$2; shift 2 ;;
    --margin) need "$@"; MARGIN=$2; shift 2 ;;
    -o|--outdir) need "$@"; OUTDIR=$2; shift 2 ;;
    --output) need "$@"; OUTPUT=$2; shift 2 ;;
    --from-csv) FROM_CSV=1; shift ;;
    --reps|--min-bytes|--max-bytes|--sizes|--iters|--dtype|--component-dir|--bench|--wait-quiet)
        need "$@"; BENCH_ARGS+=("$1" "$2"); shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown option $1" ;;
    esac
done
case "$NP" in ''|*[!0-9]*) die "-n must be a number" ;; esac
case "$MARGIN" in ''|*[!0-9.]*) die "--margin must be a percentage" ;; esac
[ -f "$here/rsag-thresholds.awk" ] || die "$here/rsag-thresholds.awk not found"
[ -x "$here/rsag-bench.sh" ] || [ "$FROM_CSV" = 1 ] || die "$here/rsag-bench.sh not found"
IFS=, read -r -a colls <<<"$COLLS"
for c in "${colls[@]}"; do
    case "$c" in allreduce|reduce|reduce_scatter_block|reduce_scatter) ;;
    *) die "unknown collective $c" ;; esac
done
mkdir -p "$OUTDIR" || die "cannot create $OUTDIR"
OUTPUT=${OUTPUT:-$OUTDIR/rsag-tune-np$NP.conf}

for c in "${colls[@]}"; do
    if [ "$FROM_CSV" = 0 ]; then
        echo "rsag-tune.sh: measuring $c at np $NP" >&2
        "$here/rsag-bench.sh" -n "$NP" -c "$c" --rsag-only -o "$OUTDIR" \
            ${MPIRUN_ARGS:+--mpirun-args "$MPIRUN_ARGS"} "${BENCH_ARGS[@]}" >&2 \
            || die "the benchmark of $c failed (see $OUTDIR/$c-np$NP.log)"
    fi
    [ -s "$OUTDIR/$c-np$NP.csv" ] || die "$OUTDIR/$c-np$NP.csv not found"
done

tmp="$OUTPUT.tmp.$$"
trap 'rm -f "$tmp"' EXIT
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo 2>/dev/null)
oversub=no
[ "$NP" -gt "$(nproc 2>/dev/null || echo 1)" ] && oversub="yes (timings are noisy)"
{
    echo "# mca_coll_rsag thresholds written by rsag-tune.sh"
    echo "# machine: $(hostname), ${cpu:-unknown CPU}, $(nproc 2>/dev/null) cores"
    echo "# np $NP (oversubscribed: $oversub), mpirun args: ${MPIRUN_ARGS:-none}"
    echo "# measured: $(date -u -r "$OUTDIR/${colls[0]}-np$NP.csv" '+%Y-%m-%d %H:%M UTC'), $(ompi_info --version 2>/dev/null | head -1)"
    echo "# benchmark data: $(cd "$OUTDIR" && pwd)/<coll>-np$NP.csv; margin $MARGIN %"
    echo "# Use for one job: mpirun --tune THIS_FILE ... or OMPI_MCA_mca_param_files=THIS_FILE;"
    echo "# for all jobs: append to ~/.openmpi/mca-params.conf.  Scalar values apply to"
    echo "# every communicator size."
    for c in "${colls[@]}"; do
        echo "#"
        awk -v coll="$c" -v margin="$(awk -v m="$MARGIN" 'BEGIN { print m / 100 }')" \
            -f "$here/rsag-thresholds.awk" "$OUTDIR/$c-np$NP.csv" || exit 1
    done
} >"$tmp" || die "could not compute the thresholds"
mv "$tmp" "$OUTPUT" || die "cannot write $OUTPUT"
echo "rsag-tune.sh: wrote $OUTPUT" >&2
grep -v '^#' "$OUTPUT"
