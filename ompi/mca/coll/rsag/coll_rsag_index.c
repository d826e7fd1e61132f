/*
 * Pure index arithmetic; see coll_rsag_index.h.
 */
#include "coll_rsag_index.h"

int mca_coll_rsag_pof2_floor(int p)
{
    int pof2 = 1;
    while (pof2 <= p / 2) {
        pof2 <<= 1;
    }
    return pof2;
}

int mca_coll_rsag_log2_floor(int p)
{
    int lg = 0;
    while ((1 << (lg + 1)) <= p && lg < 30) {
        ++lg;
    }
    return lg;
}

int mca_coll_rsag_fold_vrank(int rank, int p)
{
    int extra = p - mca_coll_rsag_pof2_floor(p);
    if (rank < 2 * extra) {
        return (rank % 2 == 0) ? rank / 2 : -1;
    }
    return rank - extra;
}

int mca_coll_rsag_fold_rank(int vrank, int p)
{
    int extra = p - mca_coll_rsag_pof2_floor(p);
    return (vrank < extra) ? 2 * vrank : vrank + extra;
}

void mca_coll_rsag_split_halves(mca_coll_rsag_range_t whole,
                                mca_coll_rsag_range_t *lower,
                                mca_coll_rsag_range_t *upper)
{
    size_t low = whole.cnt / 2;
    lower->off = whole.off;
    lower->cnt = low;
    upper->off = whole.off + low;
    upper->cnt = whole.cnt - low;
}

int mca_coll_rsag_halving_schedule(int vrank, int pof2, size_t count,
                                   mca_coll_rsag_halving_step_t *steps)
{
    mca_coll_rsag_range_t window = { 0, count };
    int nsteps = 0;

    for (int mask = 1; mask < pof2; mask <<= 1, ++nsteps) {
        mca_coll_rsag_range_t lower, upper;
        mca_coll_rsag_halving_step_t *s = &steps[nsteps];

        mca_coll_rsag_split_halves(window, &lower, &upper);
        s->peer = vrank ^ mask;
        if (0 == (vrank & mask)) {
            s->keep = lower;
            s->give = upper;
        } else {
            s->keep = upper;
            s->give = lower;
        }
        window = s->keep;
    }
    return nsteps;
}

mca_coll_rsag_range_t mca_coll_rsag_halving_block(int vrank, int pof2, size_t count)
{
    mca_coll_rsag_halving_step_t steps[MCA_COLL_RSAG_MAX_STEPS];
    int nsteps = mca_coll_rsag_halving_schedule(vrank, pof2, count, steps);
    mca_coll_rsag_range_t all = { 0, count };
    return (0 == nsteps) ? all : steps[nsteps - 1].keep;
}

bool mca_coll_rsag_gather_sends(int vrank, int vroot, int level)
{
    int peer = vrank ^ (1 << level);
    return (peer >> level) == (vroot >> level);
}

int mca_coll_rsag_rotate(int rank, int root, int p)
{
    return (rank - root + p) % p;
}

int mca_coll_rsag_unrotate(int vrank, int root, int p)
{
    return (vrank + root) % p;
}

int mca_coll_rsag_binomial_parent(int vrank)
{
    return (0 == vrank) ? -1 : (vrank & (vrank - 1));
}

int mca_coll_rsag_binomial_child_limit(int vrank, int p)
{
    if (0 == vrank) {
        int limit = 1;
        while (limit < p) {
            limit <<= 1;
        }
        return limit;
    }
    return vrank & -vrank;
}
