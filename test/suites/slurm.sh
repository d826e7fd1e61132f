# Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
# SPDX-License-Identifier: BSD-3-Clause
# See LICENSE at the top of the tree.
# slurm.sh: rsag across nodes with the job launched by Slurm's srun (Open
# MPI's direct launch through Slurm's PMIx server) instead of mpirun, on the
# Slurm cluster that contrib/rsag-slurm.sh runs on the emulated hosts of
# contrib/rsag-cluster.sh (doc/cluster.md, "Slurm").  Sourced by
# test/run_tests.sh; uses multinode.sh's transport check (mn_assert_pairs).
#
# The suite brings up 3 hosts with munge, slurmctld and a slurmd on each,
# runs its tests and tears everything down, holding the emulated cluster's
# lock meanwhile (flock on /run, as multinode.sh and "with" do).
#   slurm-hostname-np3    srun -N 3 hostname runs one task on each host
#   slurm-nodes-npN       under srun, 2 hosts x 2 ranks (np 4) and 2+1+2
#                         ranks (np 5, SLURM_HOSTFILE, arbitrary
#                         distribution): rsag_nodes sees the expected nodes,
#                         and the same line as under mpirun with the same
#                         placement (run in the test too); every same-host
#                         pair uses vader, every cross-host pair tcp
#   slurm-matrix-npN      the same placements: rsag_check --quick (every
#                         algorithm forced in turn through MPI_T, and auto;
#                         one case in 3 of each block) reports 0 failed,
#                         rsag's MPI_T counters prove it ran each forced
#                         algorithm, and the btl of every pair is as above
#   slurm-down-leaves-nothing  no Slurm or munge daemon, no file of them, no
#                         namespace, link or mount of the hosts is left
# Where namespaces cannot be made (not root, no netns) or Slurm and munge
# are not installed (contrib/install-deps.sh installs them), each selected
# test is a SKIP with the reason, counted in the summary (.ci/run fails on
# it).  Where they can, a Slurm cluster that does not come up fails each
# selected test, with the daemons' logs in test/results/slurm-daemons/.
# RSAG_SLURM_TIMEOUT (seconds, default 300) bounds each srun and mpirun.

sl_slurm="$top/contrib/rsag-slurm.sh"
sl_cluster="$top/contrib/rsag-cluster.sh"
sl_timeout=${RSAG_SLURM_TIMEOUT:-300}
sl_names=(slurm-hostname-np3 slurm-nodes-np4 slurm-nodes-np5 slurm-matrix-np4
          slurm-matrix-np5 slurm-down-leaves-nothing)

sl_wanted=0
for sl_name in "${sl_names[@]}"; do
    name_selected "$sl_name" && sl_wanted=1
done

sl_skip() {
    for sl_name in "${sl_names[@]}"; do skip_test "$sl_name" "slurm: $1"; done
}
sl_fail_all() {
    for sl_name in "${sl_names[@]}"; do
        run_test "$sl_name" sh -c '[ -z "$2" ] || cat "$2"; echo "$1"; exit 1' sh "$1" "${2:-}"
    done
}

# What Slurm, munge and the hosts could leave behind.
sl_leftovers() {
    local left=0
    [ -e /run/rsag-slurm ] && { echo "left: /run/rsag-slurm"; left=1; }
    pgrep -a -f '/run/rsag-slurm' && left=1      # munged, slurmctld, slurmd
    ls -d /tmp/spmix_appdir_* 2>/dev/null && left=1
    if declare -F mn_leftovers >/dev/null; then
        mn_leftovers >/dev/null || { mn_leftovers; left=1; }
    else
        echo "mn_leftovers (test/suites/multinode.sh) is not defined"; left=1
    fi
    [ "$left" = 0 ] && echo "nothing left"
    return "$left"
}
sl_down_and_check() { RSAG_SLURM_LOGS="$results/slurm-daemons" "$sl_slurm" down && sl_leftovers; }

# sl_srun ARGS...: srun with the cluster's environment (rsag-slurm.sh srun),
# btl_base_verbose for the transport check.
sl_srun() {
    OMPI_MCA_btl_base_verbose=30 timeout -k 10 "$sl_timeout" "$sl_slurm" srun "$@"
}

# sl_nodes NP NODES SIZES HOSTS SRUN-PLACEMENT...: rsag_nodes under srun,
# then under mpirun with --host HOSTS; both lines must be the expected one.
sl_nodes() {
    local np="$1" n="$2" sizes="$3" hosts="$4" out rc=0; shift 4
    local want="rsag_nodes: np=$np nodes=$n sizes=$sizes hosts=${hosts//:[0-9]/}"
    echo "== srun $*"
    sl_srun "$@" "$here/mpi/rsag_nodes" --expect-nodes "$n" --expect-sizes "$sizes" || rc=1
    echo "== mpirun --host $hosts (for comparison)"
    # shellcheck disable=SC2046
    out=$(timeout -k 10 "$sl_timeout" mpirun --allow-run-as-root $("$sl_cluster" mpirun-args) \
              --host "$hosts" -np "$np" "$here/mpi/rsag_nodes" 2>&1) || rc=1
    printf '%s\n' "$out" | sed 's/^rsag_nodes:/mpirun: rsag_nodes:/'
    grep -qxF "$want" <<<"$out" || { echo "mpirun did not print: $want"; rc=1; }
    return "$rc"
}

if [ "${list_only:-0}" = 1 ]; then
    for sl_name in "${sl_names[@]}"; do run_test "$sl_name" true; done
elif [ "$sl_wanted" = 1 ]; then
    sl_ok=1
    if [ "$(id -u)" != 0 ]; then
        sl_skip "needs root to make network namespaces"; sl_ok=0
    elif ! unshare --net --uts true 2>/dev/null; then
        sl_skip "this kernel or container does not allow network/UTS namespaces"; sl_ok=0
    elif ! command -v srun >/dev/null || ! command -v slurmd >/dev/null ||
         ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
        sl_skip "Slurm is not installed (slurmctld, slurmd, slurm-client, munge: contrib/install-deps.sh)"; sl_ok=0
    else
        exec {sl_lock}</run
        rm -rf "$results/slurm-daemons"
        if ! flock -w "${RSAG_CLUSTER_LOCK_WAIT:-900}" "$sl_lock"; then
            sl_skip "another user of rsag-cluster.sh holds /run locked"; sl_ok=0
        elif ! "$sl_slurm" up 3 >"$results/slurm-up.out" 2>&1; then
            sl_fail_all "the Slurm cluster did not come up (rsag-slurm.sh up 3 failed)" "$results/slurm-up.out"
            sl_ok=0
        fi
    fi

    if [ "$sl_ok" = 1 ]; then
        sl_saved_traps=$(trap -p EXIT INT TERM)
        trap '"$sl_slurm" down >/dev/null 2>&1' EXIT
        trap '"$sl_slurm" down >/dev/null 2>&1; exit 130' INT TERM
        declare -F mn_assert_pairs >/dev/null ||
            harness_error "slurm.sh: mn_assert_pairs of test/suites/multinode.sh is not defined"

        run_test slurm-hostname-np3 timeout -k 10 "$sl_timeout" "$sl_slurm" srun -N 3 -l hostname
        expect_in_log '^0: rsag-h1$'
        expect_in_log '^1: rsag-h2$'
        expect_in_log '^2: rsag-h3$'

        # Ranks 0-1 on rsag-h1, 2-3 on rsag-h2 (srun's block distribution).
        sl_place4=(-N 2 --ntasks-per-node=2 -w rsag-h1,rsag-h2)
        # Ranks 0-1 on rsag-h1, 2 on rsag-h2, 3-4 on rsag-h3: one line per
        # rank in SLURM_HOSTFILE with the arbitrary distribution.
        sl_hostfile="$results/slurm-hostfile-np5"
        printf '%s\n' rsag-h1 rsag-h1 rsag-h2 rsag-h3 rsag-h3 >"$sl_hostfile"
        sl_place5=(-n 5 --distribution=arbitrary)

        run_test slurm-nodes-np4 sl_nodes 4 2 2,2 rsag-h1:2,rsag-h2:2 "${sl_place4[@]}"
        expect_count 2 '^(mpirun: )?rsag_nodes: np=4 nodes=2 sizes=2,2 hosts=rsag-h1,rsag-h2$'
        test_ran && { mn_note mn_assert_pairs "$last_log" 4 || reopen_failed; }
        SLURM_HOSTFILE="$sl_hostfile" run_test slurm-nodes-np5 \
            sl_nodes 5 3 2,1,2 rsag-h1:2,rsag-h2:1,rsag-h3:2 "${sl_place5[@]}"
        expect_count 2 '^(mpirun: )?rsag_nodes: np=5 nodes=3 sizes=2,1,2 hosts=rsag-h1,rsag-h2,rsag-h3$'
        test_ran && { mn_note mn_assert_pairs "$last_log" 5 || reopen_failed; }

        # sl_matrix NAME NP SRUN-PLACEMENT...: rsag_check's quick matrix.
        sl_matrix() {
            local name="$1" np="$2"; shift 2
            run_test "$name" sl_srun "$@" "$check" --quick --every 3
            expect_in_log "rsag_check: np=$np cases=[1-9][0-9]* passed=[0-9]+ failed=0"
            local coll alg
            for coll in allreduce reduce reduce_scatter_block reduce_scatter; do
                for alg in $(enum_values "$coll"); do
                    expect_in_log "forced $coll=$alg: [1-9][0-9]* cases, 0 failed"
                done
                # 2 x 2 ranks: hierarchical applies, and ran
                [ "$np" = 4 ] &&
                    expect_in_log "ran under coll_rsag_${coll}_hierarchical_calls: [1-9][0-9]* cases"
            done
            test_ran && { mn_note mn_assert_pairs "$last_log" "$np" || reopen_failed; }
        }
        sl_matrix slurm-matrix-np4 4 "${sl_place4[@]}"
        SLURM_HOSTFILE="$sl_hostfile" sl_matrix slurm-matrix-np5 5 "${sl_place5[@]}"

        run_test slurm-down-leaves-nothing sl_down_and_check
        "$sl_slurm" down >/dev/null 2>&1     # also when -k left that test out
        trap - EXIT INT TERM
        eval "$sl_saved_traps"
    fi
    [ -n "${sl_lock:-}" ] && exec {sl_lock}<&-
fi
