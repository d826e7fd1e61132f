/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * The slots a coll list leaves empty (coll_rsag_fill.c).
 *
 * Open MPI refuses a communicator on which a collective has no component
 * (MPI_Init fails), and `basic`, the one component every list has, gives
 * the blocking collectives only.  So `--mca coll rsag,basic` would need
 * libnbc for the nonblocking ones, self and inter besides.  Instead, when
 * rsag's module is enabled on a communicator, every nonblocking,
 * persistent and neighborhood slot still empty there (the components of
 * lower priority have been installed already; one of higher priority may
 * still take a slot) gets a simple, correct schedule on rsag's engine:
 *
 *   intracommunicators    the nonblocking and persistent forms of the
 *                         other thirteen collectives, the nonblocking and
 *                         persistent neighborhood collectives, and, for
 *                         rsag's own four reductions, the fallback of the
 *                         calls rsag delegates when no module held the
 *                         slot before it;
 *   intercommunicators    every nonblocking and persistent collective
 *                         MPI defines on them (rsag's own algorithms are
 *                         for intracommunicators: its module there holds
 *                         only these).
 *
 * Where the component that would take them is not listed, the blocking
 * collectives too (the same schedules, run to the end): coll/self's on a
 * communicator of one process, coll/inter's on an intercommunicator
 * (basic's own fail there: MPI_Exscan of one process, MPI_Scatter on an
 * intercommunicator in 4.1.4).
 *
 * The schedules are linear or binomial (coll_rsag_fill_intra.c,
 * coll_rsag_fill_inter.c, coll_rsag_fill_neighbor.c, written in the blocks
 * and messages of coll_rsag_fill_block.c): a complete list, not a fast one;
 * a program that needs speed in them adds libnbc to its list.  Their tags:
 * coll_rsag.h (MCA_COLL_RSAG_TAG_FILL_ORDERED) and coll_rsag_fill.c.
 * coll_rsag_fill_empty_slots=false turns the filling off;
 * coll_rsag_verbose >= 2 names the slots filled on each communicator;
 * coll_rsag_fill_calls counts the calls they took.
 */
#ifndef MCA_COLL_RSAG_FILL_H
#define MCA_COLL_RSAG_FILL_H

#include "ompi_config.h"

#include <stdbool.h>
#include <stddef.h>

#include "mpi.h"
#include "ompi/communicator/communicator.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/op/op.h"

#include "coll_rsag.h"

BEGIN_C_DECLS

/* One side of a collective's data, as blocks addressed by a peer's index
 * (a rank, a remote rank, a neighbor's position). */
typedef enum mca_coll_rsag_fill_layout_t {
    MCA_COLL_RSAG_FILL_NONE,    /* no data on this side (this rank's part is empty) */
    MCA_COLL_RSAG_FILL_SAME,    /* every block is the whole buffer (count of type) */
    MCA_COLL_RSAG_FILL_EVEN,    /* block i: count of type at i * count * extent */
    MCA_COLL_RSAG_FILL_V,       /* block i: counts[i] of type at displs[i] * extent */
    MCA_COLL_RSAG_FILL_W,       /* block i: counts[i] of types[i] at displs[i] bytes */
    MCA_COLL_RSAG_FILL_WA       /* the same, MPI_Aint byte displacements (neighbor) */
} mca_coll_rsag_fill_layout_t;

typedef struct mca_coll_rsag_fill_side_t {
    mca_coll_rsag_fill_layout_t layout;
    char *buf;
    size_t count;
    struct ompi_datatype_t *type;
    const int *counts, *displs;
    const MPI_Aint *adispls;
    struct ompi_datatype_t *const *types;
} mca_coll_rsag_fill_side_t;

/* A call of a collective rsag fills: what the slot was given. */
typedef struct mca_coll_rsag_fill_args_t {
    mca_coll_rsag_fill_side_t send, recv;
    bool in_place;                  /* MPI_IN_PLACE where the collective allows it */
    struct ompi_datatype_t *dtype;  /* the reductions' datatype and op */
    struct ompi_op_t *op;
    size_t count;                   /* the reductions: elements of the whole vector */
    const int *rcounts;             /* MPI_Reduce_scatter's */
    int root;
    int rank, size, remote_size;    /* remote_size: 0 on an intracommunicator */
    mca_coll_rsag_args_t a;         /* the communicator, as the schedule's appends take it */
} mca_coll_rsag_fill_args_t;

/* A builder: the steps of one collective for `f` into `s`. */
typedef int (*mca_coll_rsag_fill_build_fn_t)(mca_coll_rsag_sched_t *s,
                                             const mca_coll_rsag_fill_args_t *f);

/* The builders: on an intracommunicator (_intra), an intercommunicator
 * (_inter; MPI defines no scan or exscan there), a communicator with a
 * topology (_neighbor). */
#define MCA_COLL_RSAG_FILL_BUILDERS_INTER(X)                                               \
    X(barrier) X(bcast) X(gather) X(scatter) X(allgather) X(alltoall) X(reduce)             \
    X(allreduce) X(reduce_scatter)
#define MCA_COLL_RSAG_FILL_DECLARE(name, form)                                             \
    int mca_coll_rsag_fill_##name##_##form(mca_coll_rsag_sched_t *s,                        \
                                           const mca_coll_rsag_fill_args_t *f);
#define MCA_COLL_RSAG_FILL_DECLARE_BOTH(name)                                              \
    MCA_COLL_RSAG_FILL_DECLARE(name, intra) MCA_COLL_RSAG_FILL_DECLARE(name, inter)
MCA_COLL_RSAG_FILL_BUILDERS_INTER(MCA_COLL_RSAG_FILL_DECLARE_BOTH)
MCA_COLL_RSAG_FILL_DECLARE(scan, intra)
MCA_COLL_RSAG_FILL_DECLARE(exscan, intra)
#undef MCA_COLL_RSAG_FILL_DECLARE_BOTH
#undef MCA_COLL_RSAG_FILL_DECLARE
/* every neighborhood collective: f->send SAME (allgather) or by block */
int mca_coll_rsag_fill_neighbor(mca_coll_rsag_sched_t *s, const mca_coll_rsag_fill_args_t *f);

/* The builders' blocks and messages (coll_rsag_fill_block.c). */
/* Block i of a side: address, count, datatype. */
void mca_coll_rsag_fill_block(const mca_coll_rsag_fill_side_t *side, int i, char **buf,
                              size_t *count, struct ompi_datatype_t **type);
/* Send block `i` of `side` to `peer` / receive block `i` into `side` from
 * `peer` (nothing for MPI_PROC_NULL). */
void mca_coll_rsag_fill_send(mca_coll_rsag_sched_t *s, const mca_coll_rsag_fill_args_t *f,
                             const mca_coll_rsag_fill_side_t *side, int i, int peer);
void mca_coll_rsag_fill_recv(mca_coll_rsag_sched_t *s, const mca_coll_rsag_fill_args_t *f,
                             const mca_coll_rsag_fill_side_t *side, int i, int peer);
/* Where rank i's block of a reduce-scatter's vector starts (*displ) and
 * its length: MPI_Reduce_scatter's counts (f->rcounts), or f->count / f->size
 * each (MPI_Reduce_scatter_block); f->size is this rank's group. */
size_t mca_coll_rsag_fill_rs_block(const mca_coll_rsag_fill_args_t *f, int i, size_t *displ);
/* Copy block `i` of f->send into block `j` of f->recv. */
void mca_coll_rsag_fill_local(mca_coll_rsag_sched_t *s, const mca_coll_rsag_fill_args_t *f,
                              int i, int j);

/* ---- the component and the module ---------------------------------------- */

extern bool mca_coll_rsag_fill_empty_slots;

/* The parameter and the counter (component register). */
void mca_coll_rsag_fill_register(const mca_base_component_t *c);
/* Module enable: fill the slots still empty on `comm`, and the fallback of
 * rsag's own nonblocking and persistent reductions. */
void mca_coll_rsag_fill_enable(mca_coll_rsag_module_t *m, struct ompi_communicator_t *comm);

END_C_DECLS

#endif /* MCA_COLL_RSAG_FILL_H */
