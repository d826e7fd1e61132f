#!/bin/bash
# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# rsag-cluster-bench.sh: rsag against coll/tuned (and coll/han on Open MPI
# 5.0) on the emulated cluster (contrib/rsag-cluster.sh, doc/cluster.md),
# per placement of the ranks on hosts, collective and message size.
#
#   contrib/rsag-cluster-bench.sh -o results/cluster            # 4.1 on this machine
#   contrib/rsag-cluster-bench.sh --root /var/tmp/rsag-debian13-root \
#       --component-dir /root/.openmpi/components --bench /root/rsag/contrib/rsag_bench -o results/cluster5
#
# For each placement (one cluster up per placement, at --rate), each
# repetition runs, interleaved (the order rotating with the repetition), one
# rsag_bench job per variant and collective:
#   rsag_auto      rsag with its defaults (its MPI_T counters must show that it
#                  ran every call: the "ran" column of rsag_bench);
#   rsag_<name>    (only with --rsag-algs) rsag with coll_rsag_<coll>_algorithm
#                  forced to <name>: the "ran" column must name it;
#   tuned_default  --mca coll ^rsag (5.0: ^rsag,han): coll/tuned's own decision;
#   tuned_<N>_<name>  the same with coll_tuned_<coll>_algorithm N forced, for
#                  every N ompi_info lists (or --tuned-algs N,N,...);
#   han            (only on Open MPI 5, where ompi_info lists coll han)
#                  --mca coll ^rsag --mca coll_han_priority 100, with
#                  coll_han_verbose: the job's log must show han's modules
#                  enabled (han has no MPI_Reduce_scatter_block: there its
#                  label shows the fallback under han, i.e. coll/tuned);
# rsag must not be loaded in any job but rsag's (its counters absent:
# ran = "-").  Outputs in OUTDIR:
#   raw.csv      every row: placement,rep,job,label,coll,np,bytes,time_us,ran,verified
#   results.csv  per placement, collective, size and label: median, min, max
#                over the repetitions (time = max over ranks of the per-rank
#                median call time, rsag_bench's time_us)
#   table.txt    per placement and collective: rsag_auto, tuned_default, the
#                best tuned job, han, as median [min-max] us, and the ratios
#                tuned_best/rsag, tuned_default/rsag, han/rsag (> 1: rsag faster)
#   <placement>-<coll>.png  log-log time vs size, one line per label (gnuplot)
#   log.txt      commands, cluster, machine load, every job's stderr
# Exit status 1 when a job failed, a result was wrong, rsag did not run in
# its job or was loaded in another.  --merge-only redoes the files from raw.csv.
#
# Timings are only worth something on a quiet machine: the hosts share its
# cores (2x2 = 4 processes, 3+2+3 = 8).  Needs root (the cluster), and
# mpirun, ompi_info, awk, sort (gnuplot for the plots).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
PROG=rsag-cluster-bench.sh
die() { echo "$PROG: $*" >&2; exit 2; }

usage() {
    cat <<EOF
usage: $PROG [options]
  -o, --outdir DIR        results directory (default ./rsag-cluster-bench-out)
  -p, --placements LIST   comma-separated, each NxM (N hosts x M ranks) or
                          A+B+... (ranks per host); default 2x2,4x1,3+2+3
  -r, --rate RATE         link cap, tc syntax or off (default 1gbit)
  -c, --colls LIST        default allreduce,reduce,reduce_scatter_block
      --min-bytes B --max-bytes B --step K
                          sizes B, B*K, ... (default 8, 64M, 4); K, M suffixes
      --sizes LIST        exactly these sizes instead
      --reps N            repetitions (default 5)
      --iters N           timed calls per size and job (rsag_bench's default if unset)
      --rsag-algs LIST    also rsag with each of these algorithms forced, by name
                          (comma-separated; default none); an algorithm a
                          collective does not have is skipped for it
      --tuned-algs LIST   tuned's forced algorithms by number (default: all
                          listed; none: only tuned's default)
      --root DIR          run the jobs in this root file system (Open MPI 5.0:
                          contrib/rsag-debian13.sh's); --bench and
                          --component-dir are then paths inside it
      --bench PATH        rsag_bench (default: next to this script / contrib/)
      --component-dir DIR where mca_coll_rsag.so is (prepended to the component path)
      --merge-only        only merge OUTDIR/raw.csv again
  -h, --help
EOF
}

OUTDIR=./rsag-cluster-bench-out PLACEMENTS=2x2,4x1,3+2+3 RATE=1gbit
COLLS=allreduce,reduce,reduce_scatter_block MIN=8 MAX=64M STEP=4 SIZES=""
REPS=5 ITERS="" RSAG_ALGS="" TUNED_ALGS="" ROOT="" BENCH="" COMPDIR="" MERGE_ONLY=0
need() { [ $# -ge 2 ] || die "$1 needs a value"; }
while [ $# -gt 0 ]; do
    case "$1" in
    -o|--outdir) need "$@"; OUTDIR=$2; shift 2 ;;
    -p|--placements) need "$@"; PLACEMENTS=$2; shift 2 ;;
    -r|--rate) need "$@"; RATE=$2; shift 2 ;;
    -c|--colls) need "$@"; COLLS=$2; shift 2 ;;
    --min-bytes) need "$@"; MIN=$2; shift 2 ;;
    --max-bytes) need "$@"; MAX=$2; shift 2 ;;
    --step) need "$@"; STEP=$2; shift 2 ;;
    --sizes) need "$@"; SIZES=$2; shift 2 ;;
    --reps) need "$@"; REPS=$2; shift 2 ;;
    --iters) need "$@"; ITERS=$2; shift 2 ;;
    --rsag-algs) need "$@"; RSAG_ALGS=$2; shift 2 ;;
    --tuned-algs) need "$@"; TUNED_ALGS=$2; shift 2 ;;
    --root) need "$@"; ROOT=$2; shift 2 ;;
    --bench) need "$@"; BENCH=$2; shift 2 ;;
    --component-dir) need "$@"; COMPDIR=$2; shift 2 ;;
    --merge-only) MERGE_ONLY=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; die "unknown option $1" ;;
    esac
done

bytes() { # 8, 64K, 4M -> bytes
    awk -v v="$1" 'BEGIN { m = 1; if (v ~ /[kK]$/) m = 1024; else if (v ~ /[mM]$/) m = 1048576
        sub(/[kKmM]$/, "", v); if (v !~ /^[0-9]+$/) exit 1; printf "%d", v * m }'
}
# "rsag-h1:2,rsag-h2:2 4 2" (hosts string, np, host count) of a placement
placement_hosts() {
    local p=$1 n m i hosts="" np=0 k=0
    case "$p" in
    *x*) n=${p%x*}; m=${p#*x}
         [[ "$n" =~ ^[1-9][0-9]*$ && "$m" =~ ^[1-9][0-9]*$ ]] || return 1
         for ((i = 1; i <= n; ++i)); do hosts="$hosts${hosts:+,}rsag-h$i:$m"; done
         np=$((n * m)); k=$n ;;
    *) local IFS=+
       for m in $p; do
           [[ "$m" =~ ^[1-9][0-9]*$ ]] || return 1
           k=$((k + 1)); hosts="$hosts${hosts:+,}rsag-h$k:$m"; np=$((np + m))
       done ;;
    esac
    [ "$np" -ge 2 ] && [ "$k" -ge 1 ] && [ "$k" -le 64 ] || return 1
    echo "$hosts $np $k"
}

MERGE_AWK=$HERE/rsag-cluster-bench.awk
[ -f "$MERGE_AWK" ] || die "$MERGE_AWK not found"
mkdir -p "$OUTDIR" || die "cannot create $OUTDIR"
OUTDIR=$(cd "$OUTDIR" && pwd)
RAW=$OUTDIR/raw.csv LOG=$OUTDIR/log.txt
FAILED=0

# ---------------------------------------------------------------- run
if [ "$MERGE_ONLY" = 1 ]; then
    [ -s "$RAW" ] || die "--merge-only: $RAW not found"
else
    for p in ${PLACEMENTS//,/ }; do placement_hosts "$p" >/dev/null || die "bad placement $p (NxM or A+B+..., at least 2 ranks)"; done
    for c in ${COLLS//,/ }; do
        case "$c" in allreduce|reduce|reduce_scatter_block|reduce_scatter) ;; *) die "bad collective $c" ;; esac
    done
    [[ "$REPS" =~ ^[1-9][0-9]*$ ]] || die "--reps: a positive number"
    [ -z "$ITERS" ] || [[ "$ITERS" =~ ^[1-9][0-9]*$ ]] || die "--iters: a positive number"
    [ -z "$TUNED_ALGS" ] || [ "$TUNED_ALGS" = none ] || [[ "$TUNED_ALGS" =~ ^[0-9]+(,[0-9]+)*$ ]] ||
        die "--tuned-algs: numbers separated by commas, or none"
    [ -z "$RSAG_ALGS" ] || [[ "$RSAG_ALGS" =~ ^[a-z_]+(,[a-z_]+)*$ ]] ||
        die "--rsag-algs: algorithm names separated by commas"
    if [ -z "$SIZES" ]; then
        lo=$(bytes "$MIN") && hi=$(bytes "$MAX") && [[ "$STEP" =~ ^[2-9][0-9]*$ ]] && [ "$lo" -ge 1 ] ||
            die "--min-bytes/--max-bytes/--step: sizes such as 8, 64K, 4M and a step >= 2"
        for ((s = lo; s <= hi; s *= STEP)); do SIZES="$SIZES${SIZES:+,}$s"; done
        [ "$((s / STEP))" -eq "$hi" ] || SIZES="$SIZES,$hi"     # the largest size too
    else
        for s in ${SIZES//,/ }; do bytes "$s" >/dev/null || die "--sizes: bad size $s"; done
    fi
    CLUSTER=$HERE/rsag-cluster.sh
    [ -x "$CLUSTER" ] || die "$CLUSTER not found"
    [ "$(id -u)" = 0 ] || die "needs root (the emulated cluster)"
    if [ -n "$ROOT" ]; then
        [ -x "$ROOT/bin/sh" ] || die "--root $ROOT: not a root file system"
        ROOT=$(cd "$ROOT" && pwd -P)
        [ -n "$BENCH" ] || BENCH=/root/rsag/contrib/rsag_bench
        [ -x "$ROOT$BENCH" ] || die "--bench $BENCH: not in $ROOT (build the tree there: contrib/rsag-debian13.sh --run true)"
        # every command of a job in the root, with a clean environment
        IN=(chroot "$ROOT" /usr/bin/env -i HOME=/root PATH=/usr/local/bin:/usr/bin:/bin LANG=C.UTF-8)
    else
        [ -n "$BENCH" ] || BENCH=$HERE/rsag_bench
        [ -x "$BENCH" ] || die "--bench $BENCH: not executable (make builds contrib/rsag_bench)"
        IN=(env)
    fi
    command -v gnuplot >/dev/null 2>&1 || echo "$PROG: gnuplot not found: no plots" >&2
    "${IN[@]}" sh -c 'command -v mpirun && command -v ompi_info' >/dev/null || die "mpirun/ompi_info not found${ROOT:+ in $ROOT}"
    if [ -n "$COMPDIR" ]; then
        dflt=$("${IN[@]}" ompi_info --parsable --param mca base --level 9 |
            awk -F'value:' '/:mca_base_component_path:value:/ { v = $2; gsub(/"/, "", v); print v }')
        IN+=(OMPI_MCA_mca_base_component_path="$COMPDIR:$dflt")
    fi
    # the valid values "N:name" of an enum parameter of coll/tuned
    tuned_values() {
        "${IN[@]}" ompi_info --param coll tuned --level 9 | awk -v p="parameter \"coll_tuned_$1_algorithm\"" '
            index($0, p) { f = 1; next } f && /parameter "/ { exit }
            f && /Valid values:/ { sub(/.*Valid values:[ \t]*/, ""); n = split($0, it, ",")
                for (i = 1; i <= n; ++i) { v = it[i]; gsub(/[ \t"]/, "", v); sub(/\|/, ":", v); if (v !~ /^0:/ && v != "") print v }
                exit }'
    }
    # rsag_has COLL NAME: NAME is one of rsag's algorithms for COLL
    rsag_has() {
        "${IN[@]}" ompi_info --param coll rsag --level 9 | awk -v p="parameter \"coll_rsag_$1_algorithm\"" -v a="\"$2\"" '
            index($0, p) { f = 1; next } f && /parameter "/ { exit }
            f && /Valid values:/ { exit !index($0, a) }
            END { if (!f) exit 1 }'
    }
    HAN=0
    # han on Open MPI 5 only (4.1's han, at priority 0, printed no trace here)
    "${IN[@]}" ompi_info --version | grep -q 'v[5-9]\.' && "${IN[@]}" ompi_info | grep -q 'MCA coll: han' && HAN=1
    "${IN[@]}" ompi_info | grep -q 'MCA coll: rsag' || die "ompi_info${ROOT:+ in $ROOT} does not list coll rsag (--component-dir?)"
    NOT_TUNED="^rsag"; [ "$HAN" = 1 ] && NOT_TUNED="^rsag,han"

    : >"$LOG"
    log() { echo "$*" >>"$LOG"; }
    log "# $PROG $(date -u '+%Y-%m-%d %H:%M UTC') $(hostname), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
    log "# $("${IN[@]}" ompi_info --version | head -1)${ROOT:+ (root $ROOT)}, rate $RATE, reps $REPS, sizes $SIZES"
    echo "placement,rep,job,label,coll,np,bytes,time_us,ran,verified" >"$RAW"
    # one job: $1 placement, $2 rep, $3 job label, $4 coll, $5 np, $6 hosts, then mpirun options
    run_job() {
        local pl=$1 rep=$2 job=$3 coll=$4 np=$5 hosts=$6 out rc; shift 6
        out=$OUTDIR/.job.$$
        # shellcheck disable=SC2046
        local cmd=("${IN[@]}" mpirun --allow-run-as-root $("$CLUSTER" mpirun-args)
                   --host "$hosts" -np "$np" "$@" "$BENCH" --coll "$coll" --sizes "$SIZES"
                   ${ITERS:+--iters $ITERS} --rsag-algorithms current --label "$job")
        log "## $pl rep $rep $job $coll: ${cmd[*]}"
        "${cmd[@]}" >"$out" 2>>"$LOG"; rc=$?
        if ! awk -F, 'NR > 1 && NF >= 10 { n++ } END { exit !n }' "$out"; then
            echo "$PROG: *** $pl rep $rep $job $coll: exit $rc, no results (see $LOG)" >&2
            FAILED=$((FAILED + 1))
        elif [ "$rc" -ne 0 ]; then
            echo "$PROG: *** $pl rep $rep $job $coll: exit $rc (see $LOG)" >&2
            FAILED=$((FAILED + 1))
        fi
        awk -F, -v pl="$pl" -v rep="$rep" -v job="$job" 'NR > 1 && NF >= 10 {
            print pl "," rep "," job "," $1 "," $2 "," $3 "," $4 "," $5 "," $9 "," $10 }' "$out" >>"$RAW"
        rm -f "$out"
        echo "$PROG: [$pl rep $rep] $job $coll: exit $rc" >&2
    }
    for p in ${PLACEMENTS//,/ }; do
        read -r hosts np nhosts <<<"$(placement_hosts "$p")"
        # One cluster, held for this placement's jobs (the lock of "with").
        (
            exec 9</run && flock -w "${RSAG_CLUSTER_LOCK_WAIT:-1800}" 9 || { echo "$PROG: the cluster's lock is busy" >&2; exit 1; }
            trap '"$CLUSTER" down >>"$LOG" 2>&1' EXIT
            trap 'exit 130' INT TERM
            "$CLUSTER" up "$nhosts" --rate "$RATE" ${ROOT:+--root "$ROOT"} >>"$LOG" 2>&1 || { echo "$PROG: rsag-cluster.sh up failed (see $LOG)" >&2; exit 1; }
            for ((rep = 1; rep <= REPS; ++rep)); do
                jobs=()
                for c in ${COLLS//,/ }; do
                    jobs+=("rsag_auto|$c|")
                    for a in ${RSAG_ALGS//,/ }; do
                        rsag_has "$c" "$a" && jobs+=("rsag_$a|$c|--mca coll_rsag_${c}_algorithm $a")
                    done
                    jobs+=("tuned_default|$c|--mca coll $NOT_TUNED")
                    [ "$HAN" = 1 ] && jobs+=("han|$c|--mca coll ^rsag --mca coll_han_priority 100 --mca coll_han_verbose 30")
                    for v in $(tuned_values "$c"); do
                        [ -z "$TUNED_ALGS" ] || case ",$TUNED_ALGS," in *",${v%%:*},"*) ;; *) continue ;; esac
                        jobs+=("tuned_${v%%:*}_${v#*:}|$c|--mca coll $NOT_TUNED --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_${c}_algorithm ${v%%:*}")
                    done
                done
                for ((k = 0; k < ${#jobs[@]}; ++k)); do
                    IFS='|' read -r job c extra <<<"${jobs[$(( (k + rep - 1) % ${#jobs[@]} ))]}"
                    # shellcheck disable=SC2086
                    run_job "$p" "$rep" "$job" "$c" "$np" "$hosts" $extra
                done
            done
            log "# $p done, load $(cut -d' ' -f1-3 /proc/loadavg)"
            exit "$FAILED"
        )
        r=$?
        [ "$r" -eq 0 ] || FAILED=$((FAILED + r))
    done
fi

# ---------------------------------------------------------------- merge
awk -F, -v csv="$OUTDIR/results.csv" -v outdir="$OUTDIR" -f "$MERGE_AWK" "$RAW" | tee "$OUTDIR/table.txt"
bad=${PIPESTATUS[0]}
[ "$bad" -eq 0 ] || FAILED=$((FAILED + 1))
if [ "$MERGE_ONLY" != 1 ] && [ -s "$LOG" ] && grep -q ',han,' "$RAW"; then
    # han's own verbose output: its modules were enabled on the jobs' communicators
    n=$(grep -c 'coll:han' "$LOG")
    echo "han: $n lines of coll_han_verbose in $LOG" | tee -a "$OUTDIR/table.txt"
    [ "$n" -gt 0 ] || { echo "$PROG: *** han jobs, but han printed nothing: did han run?" >&2; FAILED=$((FAILED + 1)); }
fi

# ---------------------------------------------------------------- plots
if command -v gnuplot >/dev/null 2>&1; then
    for f in "$OUTDIR"/plot-*.csv; do
        [ -s "$f" ] || continue
        name=${f##*/plot-}; name=${name%.csv}
        ncol=$(head -1 "$f" | awk -F, '{ print NF }')
        gnuplot <<EOF 2>>"$OUTDIR/log.txt" || echo "$PROG: gnuplot failed for $name" >&2
set terminal pngcairo size 1200,800 noenhanced
set output "$OUTDIR/$name.png"
set datafile separator ","
set datafile missing "NaN"
set key autotitle columnheader outside right
set logscale xy
set format x "%.0b%B"
set xlabel "message size, bytes (whole input vector)"
set ylabel "time, microseconds (median over repetitions)"
set grid
set title "$name, links $(awk -F'rate ' '/^# .*rate /{ split($2, a, ","); print a[1]; exit }' "$OUTDIR/log.txt" 2>/dev/null)"
plot for [i=2:$ncol] "$f" using 1:i with linespoints lw (i == 2 ? 3 : 1)
EOF
    done
fi
echo "$PROG: wrote $OUTDIR/{raw.csv,results.csv,table.txt,log.txt}$(ls "$OUTDIR"/*.png >/dev/null 2>&1 && echo ', *.png')" >&2
[ "$FAILED" -eq 0 ] || { echo "$PROG: *** $FAILED problem(s); see above and $LOG" >&2; exit 1; }
exit 0
