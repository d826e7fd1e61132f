# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# shellcheck shell=bash
# Benchmark and tuner (contrib/rsag-bench.sh, rsag_bench, rsag-tune.sh,
# rsag-thresholds.awk), sourced by run_tests.sh.  Smoke runs only: tiny
# sizes, one repetition (timings are meaningless here; correctness, outputs
# and the tuner's effect on rsag's choice are what is checked).

bench_data="$here/suites/bench-data"
bench_out="$results/bench"
contribdir="$top/contrib"
# where make install put the tools (configure --with-rsag-bindir; the default
# without --with-ompi-component-dir is ${bindir}, expanded here)
toolsdir=$(makevar contrib rsagbindir)
for v in bindir exec_prefix prefix; do
    toolsdir=${toolsdir//\$\{$v\}/$(makevar contrib "$v")}
done

# Thresholds from synthetic measurements: noise margin (a 2 % win of
# rabenseifner at 32 B does not move its threshold), a restriction
# (rabenseifner did not run at 8 B), a win of the base algorithm at 2 KiB
# inside rabenseifner's range (kept: moving it would cost more), an isolated
# win (reduce's rabenseifner at 4 KiB) given up because taking it would cost
# 2.35x from 16 KiB up, so that algorithm is off (LONG_MAX); the base keeps 0.
bench_thresholds() {
    local c
    for c in allreduce reduce; do
        awk -v coll="$c" -f "$contribdir/rsag-thresholds.awk" "$bench_data/$c-np4.csv" || return 1
    done >"$results/bench-thresholds.out"
    diff -u "$bench_data/thresholds.expected" "$results/bench-thresholds.out"
}
run_test bench-thresholds-synthetic bench_thresholds

run_test bench-thresholds-rejects-bad-csv exits_nonzero \
    awk -v coll=allreduce -f "$contribdir/rsag-thresholds.awk" "$bench_data/thresholds.expected"
expect_in_log 'no bytes / rsag_<alg>_us columns'

# The installed tuner, on the synthetic CSVs, writes a parameter file; passed
# to mpirun with --tune it changes rsag's choices: allreduce at 80000 bytes
# ring (default: rabenseifner), at 800 bytes rabenseifner (default:
# recursive_doubling), reduce at 8000000 bytes binomial (default:
# rabenseifner).
bench_tune_file() {
    rm -rf "$bench_out/tune" && mkdir -p "$bench_out/tune" || return 1
    cp "$bench_data/allreduce-np4.csv" "$bench_data/reduce-np4.csv" "$bench_out/tune/" || return 1
    "$toolsdir/rsag-tune.sh" -n 4 -c allreduce,reduce --from-csv -o "$bench_out/tune" || return 1
    grep -qx 'coll_rsag_allreduce_ring_min_bytes = 32768' "$bench_out/tune/rsag-tune-np4.conf" || return 1
    "${mpirun_cmd[@]}" --tune "$bench_out/tune/rsag-tune-np4.conf" --mca coll_rsag_verbose 1 \
        -np 4 "$demo"
}
run_test bench-tune-file-changes-choice-np4 bench_tune_file
expect_in_log 'coll_rsag_reduce_rabenseifner_min_bytes = 9223372036854775807'
expect_in_log 'allreduce on MPI_COMM_WORLD .*: 80000 bytes .* -> ring \(auto\)'
expect_in_log 'allreduce on MPI_COMM_WORLD .*: 800 bytes .* -> rabenseifner \(auto\)'
expect_in_log 'rsag: reduce on MPI_COMM_WORLD .*: 8000000 bytes .* -> binomial \(auto\)'
expect_not_in_log 'rsag: reduce on MPI_COMM_WORLD .* -> rabenseifner'
expect_in_log 'results correct'

# bench_tune_file_used FILE LINE OUT NP: the tuner's parameter file FILE
# holds nothing but comments and lines matching LINE; ompi_info run with it
# (its output in OUT) shows every coll_rsag_* value of FILE, with FILE as
# its source; and the demo runs with it on NP ranks (the caller checks its
# trace).
bench_tune_file_used() {
    local f="$1" line="$2" out="$3" np="$4" c eq v
    grep -v '^#' "$f" | grep -v "$line" && return 1
    env OMPI_MCA_mca_param_files="$f" ompi_info --param coll rsag --level 9 --parsable \
        >"$out" || return 1
    while read -r c eq v; do
        grep -qx "mca:coll:rsag:param:$c:value:$v" "$out" \
            || { echo "ompi_info does not show $c $eq $v"; return 1; }
        grep -q "mca:coll:rsag:param:$c:source:file ($f" "$out" \
            || { echo "$c does not come from $f"; return 1; }
    done < <(grep '^coll_rsag_' "$f")
    echo "ompi_info shows the file's values"
    "${mpirun_cmd[@]}" --tune "$f" --mca coll_rsag_verbose 1 -np "$np" "$demo"
}

# The tuner's model mode (nothing measured): a parameter file for 64 ranks,
# 8 per node, 1 Gbit/s links, from the installed profile.  Open MPI reads it:
# ompi_info shows every value with the file as its source; and a job run
# with it (np 4, one node: the file is for another communicator, but the
# values are scalar) traces its thresholds "set for every size".
bench_tune_model() {
    rm -rf "$bench_out/model" && mkdir -p "$bench_out/model" || return 1
    "$toolsdir/rsag-tune.sh" --model -n 64 --ppn 8 --net-rate 1gbit -o "$bench_out/model" \
        || return 1
    local f="$bench_out/model/rsag-tune-model-np64-ppn8.conf" n
    [ -s "$f" ] || { echo "no $f"; return 1; }
    cat "$f"
    # one line per algorithm of every collective (every threshold parameter
    # but the node path's coll_rsag_direct_cma_min_bytes and the deprecated
    # former names), each a number
    n=$(grep -c '^coll_rsag_[a-z_]*_min_bytes = [0-9][0-9]*$' "$f")
    [ "$n" -eq "$(ompi_info --param coll rsag --level 9 --parsable | grep -v ':coll_rsag_direct_' \
        | grep -c ':param:coll_rsag_[a-z_]*_min_bytes:deprecated:no$')" ] \
        || { echo "$n lines"; return 1; }
    echo "the file holds all $n values"
    bench_tune_file_used "$f" '^coll_rsag_[a-z_]*_min_bytes = [0-9][0-9]*$' \
        "$bench_out/model/ompi_info.txt" 4
}
run_test bench-tune-model-file bench_tune_model
expect_in_log 'written by rsag-tune.sh --model'
expect_in_log 'coll_rsag_allreduce_rabenseifner_min_bytes = [0-9]+$'
expect_in_log 'the file holds all [0-9]+ values'
expect_in_log 'ompi_info shows the file.s values'
expect_in_log 'allreduce on MPI_COMM_WORLD .*: 80000 bytes .* \(set for every size'
expect_in_log 'results correct'
run_test bench-tune-model-rejects-bad-ppn exits_nonzero \
    "$toolsdir/rsag-tune.sh" --model -n 4 --ppn 8 -o "$bench_out/model-bad"
expect_in_log '--ppn 8 is more than -n 4'

# Real smoke runs of the installed benchmark: every collective, np 3 (not a
# power of two; reduce-scatter sizes rounded to multiples of 3 elements).
# reduce_scatter_block against every coll/tuned algorithm and with an
# --rsag-variant job; the others rsag-only.  Outputs must appear and every
# verification pass (rsag-bench.sh exits 1 on a wrong result).
bench_smoke() { # $1 = collective, more args for rsag-bench.sh
    local c=$1; shift
    rm -rf "${bench_out:?}/$c" || return 1
    timeout -k 10 300 "$toolsdir/rsag-bench.sh" -n 3 -c "$c" --reps 1 --sizes 8,4096 --iters 5 \
        -o "$bench_out/$c" "$@" || return 1
    local f
    for f in "$c-np3.csv" "$c-np3-raw.csv" "$c-np3-table.txt" "$c-np3.log"; do
        [ -s "$bench_out/$c/$f" ] || { echo "missing output $f"; return 1; }
    done
    if command -v gnuplot >/dev/null 2>&1; then
        [ -s "$bench_out/$c/$c-np3.png" ] || { echo "missing plot $c-np3.png"; return 1; }
    fi
    ! grep -q ',FAIL,' "$bench_out/$c/$c-np3-raw.csv"
}
run_test bench-smoke-reduce_scatter_block-np3 bench_smoke reduce_scatter_block \
    --rsag-variant "runs2=--mca coll_rsag_priority_aware_run_blocks 2"
expect_in_log 'bytes = whole input vector of one rank = recvcount \* np \* type size'
expect_in_log 'tuned_4_butterfly'
expect_in_log 'runs2_priority_aware'
expect_in_log 'variant ratios'
expect_in_log 'tdef/auto_same_job'
for c in allreduce reduce reduce_scatter; do
    run_test "bench-smoke-$c-np3" bench_smoke "$c" --rsag-only
    expect_in_log 'ratios time\(rsag algorithm\)/time\(rsag auto\)'
    expect_not_in_log 'VERIFICATION FAILURES'
done

# rsag_bench --previous: coll/tuned in rsag's job, on a communicator whose
# info (coll_rsag_reductions false) keeps rsag's reductions off.  rsag's
# rows must say which rsag algorithm ran, the other rows "none" (no rsag
# counter moved: the key works), every result right; and the same under the
# card's `--mca coll rsag,basic`, where basic takes them (and rsag still
# fills basic's empty slots on that communicator).
bench_previous() { # $1 label, more mpirun args
    local label=$1; shift
    "${mpirun_cmd[@]}" -np 2 "$@" "$contribdir/rsag_bench" --coll allreduce --sizes 8,4K \
        --iters 20 --rsag-algorithms current --label rsag --previous "$label" >"$bench_out/previous.csv" || return 1
    cat "$bench_out/previous.csv"
    awk -F, -v l="$label" 'NR > 1 { n[$1]++; if ($10 != "ok") bad = 1
                                     if ($1 == "rsag" && ($9 == "none" || $9 == "-")) bad = 1
                                     if ($1 == l && $9 != "none") bad = 1 }
        END { if (bad || n["rsag"] != 2 || n[l] != 2) { print "wrong rows"; exit 1 } }' "$bench_out/previous.csv"
}
run_test bench-previous-same-job-np2 bench_previous tuned
expect_in_log '^rsag,allreduce,2,8,.*,direct,ok,'
expect_in_log '^tuned,allreduce,2,4096,.*,none,ok,'
run_test bench-previous-same-job-coll-rsag-basic-np2 bench_previous basic --mca coll rsag,basic \
    --mca coll_rsag_verbose 3
expect_in_log 'its info says coll_rsag_reductions false: the reductions stay with the module below rsag'
expect_in_log 'filled [0-9]+ empty slots on MPI COMMUNICATOR .* iallreduce'
expect_in_log '^basic,allreduce,2,8,.*,none,ok,'
# With --forms: one variant per form on each communicator.  rsag's rows name
# its nonblocking engine (nonblocking_requests, persistent_starts), the
# others none of rsag's counters (libnbc ran them), every result right, the
# overlap forms too (each computes for its own communicator's time).
bench_previous_forms() {
    "${mpirun_cmd[@]}" -np 2 "$contribdir/rsag_bench" --coll reduce_scatter_block \
        --sizes 16,64K --iters 20 --forms all --label rsag --previous libnbc \
        >"$bench_out/previous-forms.csv" || return 1
    cat "$bench_out/previous-forms.csv"
    awk -F, 'NR > 1 { n[$1]++; if ($10 != "ok") bad = 1
                      if ($1 ~ /^libnbc_/ && $9 != "none") bad = 1
                      if ($1 ~ /^rsag_(nonblocking|overlap)/ && $9 !~ /nonblocking_requests/) bad = 1
                      if ($1 == "rsag_persistent" && $9 !~ /persistent_starts/) bad = 1 }
        END { for (f in n) rows++
              if (bad || rows != 10) { print "wrong rows"; exit 1 }
              for (f in n) if (n[f] != 2) { print "wrong rows: " f; exit 1 } }' \
        "$bench_out/previous-forms.csv"
}
run_test bench-previous-forms-same-job-np2 bench_previous_forms
expect_in_log '^libnbc_persistent,reduce_scatter_block,2,65536,.*,none,ok,'
expect_in_log '^rsag_overlap_test,reduce_scatter_block,2,16,'

# --osu / --imb: the benchmarks users run, run by rsag-bench.sh for rsag and
# tuned and merged (stand-ins that print OSU's and IMB's report formats, rank
# 0 only, 0.5 us with rsag and 1.0 us without it: the merge must find
# tuned / rsag = 2 for every size, the reduce-scatter sizes of IMB (per rank)
# multiplied by np).  OSU and IMB themselves: contrib/rsag-external.sh.
bench_external() {
    local d=$bench_out/external stub
    rm -rf "${d:?}" && mkdir -p "$d/osu" || return 1
    stub='[ "${OMPI_COMM_WORLD_RANK:-0}" = 0 ] || exit 0
t=0.50; case "${OMPI_MCA_coll:-}" in *^rsag*) t=1.00 ;; esac'
    printf '#!/bin/sh\n%s\necho "# OSU MPI Reduce_scatter Latency Test v5.3"\necho "# Size       Avg Latency(us)"\nfor b in 8 16 32; do echo "$b $t"; done\n' "$stub" >"$d/osu/osu_reduce_scatter"
    printf '#!/bin/sh\n%s\necho "#bytes #repetitions t_min[usec] t_max[usec] t_avg[usec]"\nfor b in 0 4 8 16; do echo "  $b 1000 $t $t $t"; done\n' "$stub" >"$d/IMB-MPI1"
    chmod +x "$d/osu/osu_reduce_scatter" "$d/IMB-MPI1"
    timeout -k 10 300 "$toolsdir/rsag-bench.sh" -n 2 -c reduce_scatter --reps 2 --sizes 8,32 --iters 5 \
        --rsag-only --osu "$d/osu" --imb "$d/IMB-MPI1" -o "$d/out" || return 1
    if command -v gnuplot >/dev/null 2>&1; then
        [ -s "$d/out/reduce_scatter-np2-ext.png" ] || { echo "missing plot reduce_scatter-np2-ext.png"; return 1; }
    fi
    cat "$d/out/reduce_scatter-np2-ext.csv"
}
run_test bench-external-stubs-np2 bench_external
expect_in_log '^bytes,osu_rsag_us,osu_tuned_us,osu_ratio,imb_rsag_us,imb_tuned_us,imb_ratio,imb_b2b_rsag_us,imb_b2b_tuned_us,imb_b2b_ratio$'
expect_in_log '^8,0.5,1,2.00,0.5,1,2.00,0.5,1,2.00$'
expect_in_log '^16,0.5,1,2.00,0.5,1,2.00,0.5,1,2.00$'
expect_in_log '^32,0.5,1,2.00,0.5,1,2.00,0.5,1,2.00$'
# An IMB without the collective (IMB 2019's legacy src_c driver has no
# Reduce_scatter_block) says "Invalid benchmark name" and runs others: that
# is a failure, not data.
bench_external_wrong_imb() {
    local d=$bench_out/external-wrong
    rm -rf "${d:?}" && mkdir -p "$d" || return 1
    printf '#!/bin/sh\n[ "${OMPI_COMM_WORLD_RANK:-0}" = 0 ] || exit 0\necho "Invalid benchmark name Reduce_scatter_block"\necho "#bytes #repetitions t_min[usec] t_max[usec] t_avg[usec]"\necho "  8 1000 0.5 0.5 0.5"\n' >"$d/IMB-MPI1"
    chmod +x "$d/IMB-MPI1"
    timeout -k 10 300 "$toolsdir/rsag-bench.sh" -n 2 -c reduce_scatter_block --reps 1 --sizes 16 --iters 5 \
        --rsag-only --imb "$d/IMB-MPI1" -o "$d/out"
}
run_test bench-external-detects-wrong-imb-np2 exits_nonzero bench_external_wrong_imb
expect_in_log 'imb \(rsag\) rep 1: exit 0, no results'
run_test bench-external-rejects-osu-rsb exits_nonzero \
    "$toolsdir/rsag-bench.sh" -c reduce_scatter_block --osu /nonexistent
expect_in_log 'OSU has no MPI_Reduce_scatter_block benchmark'

# Bad options are refused with a message, before anything runs.
run_test bench-rejects-bad-variant-name exits_nonzero \
    "$toolsdir/rsag-bench.sh" -c reduce_scatter --rsag-variant "no_underscores=--mca x 1"
expect_in_log "NAME must be letters, digits, '-'"
run_test bench-rejects-bad-collective exits_nonzero "$toolsdir/rsag-bench.sh" -c scan
expect_in_log '-c must be allreduce, reduce, reduce_scatter_block or reduce_scatter'

# The nonblocking mode (rsag-bench.sh --nonblocking, rsag_bench --forms):
# blocking, MPI_Iallreduce + Wait, persistent Start + Wait and the overlap
# forms, rsag's job against libnbc's (and coll/tuned's blocking call), two
# sizes, np 2.  The table, the wide CSV (one row per size, 19 columns: the
# last three the same-job ratios, libnbc's calls timed inside rsag's job by
# rsag_bench --previous) and the target lines must appear, every
# verification pass, and rsag's MPI_T counters show that rsag ran the
# nonblocking and persistent calls of its job (rsag-bench.sh exits 1
# otherwise; the same-job rows, which rsag must not run, do not count).
bench_nb_smoke() {
    local d="$bench_out/nb" f
    rm -rf "$d" || return 1
    timeout -k 10 120 "$toolsdir/rsag-bench.sh" --nonblocking -n 2 -c allreduce --reps 1 \
        --sizes 8,64K --iters 5 -o "$d" || return 1
    for f in allreduce-np2-nb.csv allreduce-np2-nb-raw.csv allreduce-np2-nb-table.txt \
        allreduce-np2-nb.log; do
        [ -s "$d/$f" ] || { echo "missing output $f"; return 1; }
    done
    ! grep -q ',FAIL,' "$d/allreduce-np2-nb-raw.csv" || return 1
    # wide CSV: header + 2 sizes, 19 fields, the 7 times and the 3 same-job
    # ratios positive numbers
    awk -F, 'NR == 1 { ok = ($1 == "bytes" && $3 == "rsag_nonblocking_us" && NF == 19 &&
                            $18 == "samejob_libnbc_over_rsag_nb"); next }
             { rows++; if (NF != 19) ok = 0; for (i = 2; i <= 8; ++i) if (!($i + 0 > 0)) ok = 0
               for (i = 17; i <= 19; ++i) if (!($i + 0 > 0)) ok = 0 }
             END { if (!ok || rows != 2) { print "bad wide CSV"; exit 1 } }' "$d/allreduce-np2-nb.csv"
}
run_test bench-nonblocking-smoke-np2 bench_nb_smoke
expect_in_log 'rsag blk +rsag I\*\+W +rsag S\+W +tuned blk +libnbc I\*\+W +libnbc S\+W'
expect_in_log '^8 .*[0-9]'
expect_in_log '^64K .*[0-9]'
expect_in_log 'overlap % = 100 \* \(1 - \(total - compute\) / pure\)'
expect_in_log 'I\*\+Wait <= 1.1x rsag blocking at every size +(MET|MISSED)'
expect_in_log 'rsag ran every nonblocking and persistent call of its job'
expect_in_log 'rsag job: coll_rsag_nonblocking_requests = [1-9]'
expect_in_log 'rsag job: coll_rsag_persistent_starts = [1-9]'
expect_in_log 'tuned/blk +libnbc/nb +libnbc/pers'
expect_not_in_log 'VERIFICATION FAILURES'

# ... and it fails when rsag's job did not run them itself: rsag's
# priority -1 leaves every call to the other components, its counters
# stay where they are.
run_test bench-nonblocking-detects-fallback-np2 exits_nonzero \
    timeout -k 10 120 "$toolsdir/rsag-bench.sh" --nonblocking -n 2 -c allreduce --reps 1 \
    --rsag-only --sizes 8 --iters 3 -o "$bench_out/nb-fallback" --mpirun-args "--mca coll_rsag_priority -1"
expect_in_log 'rsag did NOT run these calls of its job'
expect_in_log "rsag's job did not run the nonblocking/persistent calls"

# The node tuner (rsag-tune.sh --node), in its smoke mode at np 2 (this
# machine's cores: not oversubscribed): it calibrates (the node path's
# terms in the profile), asks the model for the crossovers, measures around
# them (and `direct` once more with its CMA path) and writes a parameter
# file.  The file must hold one number per algorithm of the collective and a
# verdict on direct's CMA path (a size, or the default kept); Open MPI must
# read it (ompi_info shows each
# value with the file as its source) and a job run with it must trace its
# thresholds as "set for every size".
tune_node_quick() {
    local d="$bench_out/node" f c
    rm -rf "$d" || return 1
    timeout -k 10 300 "$toolsdir/rsag-tune.sh" --node --quick -n 2 -c allreduce -o "$d" || return 1
    f="$d/rsag-tune-node-np2.conf"
    [ -s "$f" ] || { echo "no $f"; return 1; }
    cat "$f"
    for c in handoff handoff_line sync call_alpha xreduce_nt xcopy_nt xreduce.2048 stream_beta node_mem_bw; do
        grep -q "^$c = [0-9]" "$d/calibrate/shm.profile" || { echo "profile without $c"; return 1; }
    done
    [ "$(grep -c '^coll_rsag_allreduce_[a-z_]*_min_bytes = [0-9][0-9]*$' "$f")" -ge 5 ] \
        || { echo "too few threshold lines"; return 1; }
    # direct's CMA path measured beside the segment: a size, or the default (learned) kept
    grep -Eq '^coll_rsag_direct_cma_min_bytes = [0-9]+$|not set \(the default: learned per size' "$f" \
        || { echo "no verdict on direct's CMA path"; return 1; }
    grep -q '^cma_direct_us\|,cma_direct_us,' "$d/allreduce-np2.csv" || { echo "no CMA variant measured"; return 1; }
    grep -q '^seg_direct_us\|,seg_direct_us,' "$d/allreduce-np2.csv" || { echo "no segment variant measured"; return 1; }
    bench_tune_file_used "$f" '^coll_rsag_\(allreduce_[a-z_]*\|direct_cma\)_min_bytes = [0-9][0-9]*$' \
        "$d/ompi_info.txt" 2
}
run_test tune-node-quick-np2 tune_node_quick
expect_in_log 'written by rsag-tune.sh --node in [0-9]+ s'
expect_in_log '^#   allreduce: (CMA from [0-9]+ bytes|the segment, at the largest size measured)$'
expect_in_log "sizes from the cost model's crossovers for 2 ranks on one node"
expect_in_log 'rsag-tune.sh: use it on every node of this type'
expect_in_log 'ompi_info shows the file.s values'
expect_in_log 'allreduce on MPI_COMM_WORLD .*: 80000 bytes .* \(set for every size'
expect_in_log 'results correct'

# More ranks than cores are refused (the timings would decide nothing), and
# so are a bad rank count and a collective it does not know.
run_test tune-node-refuses-oversubscribed exits_nonzero \
    "$toolsdir/rsag-tune.sh" --node -n "$(( $(nproc) + 1 ))" -o "$bench_out/node-bad"
expect_in_log 'is more than this node.s [0-9]+ cores: oversubscribed timings mean nothing'
run_test tune-node-rejects-bad-np exits_nonzero "$toolsdir/rsag-tune.sh" --node -n x2 -o "$bench_out/node-bad"
expect_in_log '-n must be a number'
run_test tune-node-rejects-bad-collective exits_nonzero \
    "$toolsdir/rsag-tune.sh" --node -c allreduce,scan -o "$bench_out/node-bad"
expect_in_log 'unknown collective scan'
run_test tune-calibrate-rejects-oversubscribed-ranks exits_nonzero \
    "$toolsdir/rsag-calibrate.sh" --ranks "$(( $(nproc) + 1 ))" -o "$bench_out/node-bad"
expect_in_log 'is more than this node.s [0-9]+ cores'

# The model against a measurement of direct at np 2, in its smoke form (two
# sizes, one job): the table has the model's and the measured time and a
# verdict per size, and direct ran every measured call (its MPI_T counter).
# The verdict itself is not checked here (a loaded machine).
model_direct_compare() {
    local d="$bench_out/compare"
    rm -rf "$d" || return 1
    timeout -k 10 300 "$toolsdir/rsag-model-compare.sh" --direct -P "$toolsdir/rsag-model.profile" \
        --reps 1 --sizes 8,65536 --colls allreduce,reduce_scatter_block -o "$d"
    [ $? -le 1 ] || return 1
    [ "$(cat "$d"/direct-*-np2.table | wc -l)" -eq 4 ] || { echo "expected 4 rows"; return 1; }
}
run_test model-direct-compare-np2 model_direct_compare
expect_in_log '== direct, allreduce, np 2 \(one node\)'
expect_in_log '^ +65536 +[0-9.]+ +[0-9.]+ +[0-9.]+  (ok|OFF)$'
expect_in_log 'direct np 2 reduce_scatter_block: [0-2] of 2 sizes within \+-20 %'
expect_not_in_log 'not direct'

# rsag-cluster-bench.sh's bookkeeping, on a synthetic raw.csv (2x2 Allreduce,
# 3 repetitions; no cluster, no MPI): medians with min-max, the best tuned job
# and the ratios (tuned_1 wins at 1024 B: 55/100), the plot's columns; then
# the same file with rsag not run in a rsag_auto call and loaded in a tuned
# job: exit status 1, both named.
cluster_bench_merge() {
    local d="$bench_out/cluster-merge"
    rm -rf "$d" && mkdir -p "$d" && cp "$bench_data/cluster-raw.csv" "$d/raw.csv" || return 1
    "$contribdir/rsag-cluster-bench.sh" --merge-only -o "$d" || return 1
    [ "$(sed -n 2p "$d/plot-2x2-allreduce.csv")" = 8,11,22,41,31 ] || { echo "plot columns"; return 1; }
    grep -qx '2x2,allreduce,1024,tuned_1_basic_linear,3,55.000,50.000,60.000' "$d/results.csv" || { echo "results.csv"; return 1; }
    sed -i 's/^\(2x2,2,rsag_auto,rsag_auto,allreduce,4,8,12\),recursive_doubling,/\1,-,/; s/^\(2x2,3,tuned_default,tuned_default,allreduce,4,1024,80\),-,/\1,ring,/' "$d/raw.csv"
    ! "$contribdir/rsag-cluster-bench.sh" --merge-only -o "$d"
}
run_test bench-cluster-merge cluster_bench_merge
expect_in_log '^ +8  11.0 \[10.0-12.0\] +22.0 \[20.0-24.0\] +tuned_default 22.0 \[20.0-24.0\] +41.0 \[40.0-44.0\] +2.00 +2.00 +3.73  recursive_doubling$'
expect_in_log '^ +1024  100.0 \[100.0-100.0\] .* tuned_1_basic_linear 55.0 \[50.0-60.0\] .* 0.55 +0.90 +2.00  ring$'
expect_in_log 'rsag did not run in rsag_auto \(ran -\)'
expect_in_log 'tuned_default 1024 B rep 3: rsag was loaded \(ran ring\)'

# rsag's forced algorithms (--rsag-algs): their own table against the best
# other job; a forced call that fell back (its restrictions unmet) is listed
# and left out, one that rsag did not run fails the merge.
cluster_bench_forced() {
    local d="$bench_out/cluster-forced" rep
    rm -rf "$d" && mkdir -p "$d" || return 1
    {
        echo "placement,rep,job,label,coll,np,bytes,time_us,ran,verified"
        for rep in 1 2 3; do
            echo "5x1,$rep,rsag_auto,rsag_auto,allreduce,5,65536,10$rep,rabenseifner,ok"
            echo "5x1,$rep,rsag_circulant,rsag_circulant,allreduce,5,65536,8$rep,circulant,ok"
            echo "5x1,$rep,tuned_default,tuned_default,allreduce,5,65536,11$rep,-,ok"
        done
    } >"$d/raw.csv"
    "$contribdir/rsag-cluster-bench.sh" --merge-only -o "$d" || return 1
    sed -i 's/^\(5x1,2,rsag_circulant,rsag_circulant,allreduce,5,65536,82\),circulant,/\1,ring,/' "$d/raw.csv"
    "$contribdir/rsag-cluster-bench.sh" --merge-only -o "$d" || return 1
    sed -i 's/^\(5x1,3,rsag_circulant,rsag_circulant,allreduce,5,65536,83\),circulant,/\1,-,/' "$d/raw.csv"
    ! "$contribdir/rsag-cluster-bench.sh" --merge-only -o "$d"
}
run_test bench-cluster-forced cluster_bench_forced
expect_in_log "^ +65536  rsag_circulant +82.0 \\[81.0-83.0\\] +rsag_auto 102.0 \\[101.0-103.0\\] +1.24$"
expect_in_log '5x1 allreduce 65536 B: rsag_circulant fell back to ring'
expect_in_log '5x1 allreduce 65536 B rep 3: rsag_circulant ran -'
