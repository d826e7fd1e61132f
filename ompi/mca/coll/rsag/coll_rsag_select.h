/*
 * Algorithm selection: a pure function from (collective, call, tuning) to
 * an algorithm id, reading the restriction columns of the algorithm tables
 * in coll_rsag_algorithms.h.  No MPI here: test/unit/test_select.c covers it.
 */
#ifndef MCA_COLL_RSAG_SELECT_H
#define MCA_COLL_RSAG_SELECT_H

#include <stdbool.h>
#include <stddef.h>

#include "coll_rsag_algorithms.h"

/* The collectives rsag holds: MCA_COLL_RSAG_ALLREDUCE, ... */
typedef enum mca_coll_rsag_coll_t {
#define MCA_COLL_RSAG_COLL_ENUM(ID, name, mpi_name, LIST) MCA_COLL_RSAG_##ID,
    MCA_COLL_RSAG_COLLECTIVES(MCA_COLL_RSAG_COLL_ENUM)
#undef MCA_COLL_RSAG_COLL_ENUM
    MCA_COLL_RSAG_NUM_COLLS
} mca_coll_rsag_coll_t;

/* Algorithm ids: MCA_COLL_RSAG_ALLREDUCE_RABENSEIFNER, ...; 0 is "auto" in
 * the MCA enum and "delegate to the previous module" in a decision. */
#define MCA_COLL_RSAG_AUTO 0
#define MCA_COLL_RSAG_DELEGATE 0
#define MCA_COLL_RSAG_ALG_ENUM(coll, ALG, id, ...) MCA_COLL_RSAG_##coll##_##ALG = id,
#define MCA_COLL_RSAG_COLL_ALG_ENUM(ID, name, mpi_name, LIST) LIST(MCA_COLL_RSAG_ALG_ENUM)
enum { MCA_COLL_RSAG_COLLECTIVES(MCA_COLL_RSAG_COLL_ALG_ENUM) };
#undef MCA_COLL_RSAG_COLL_ALG_ENUM
#undef MCA_COLL_RSAG_ALG_ENUM

/* Upper bound on algorithms per collective (ids 1..MAX_ALGS). */
#define MCA_COLL_RSAG_MAX_ALGS 8

/* One row of an algorithm table, without its function. */
typedef struct mca_coll_rsag_alg_desc_t {
    int id;
    const char *name;
    const char *description;
    unsigned restrictions;      /* MCA_COLL_RSAG_NEEDS_* */
    size_t default_min_bytes;
} mca_coll_rsag_alg_desc_t;

typedef struct mca_coll_rsag_coll_desc_t {
    const char *name;                       /* "allreduce" */
    const char *mpi_name;                   /* "MPI_Allreduce" */
    const mca_coll_rsag_alg_desc_t *algs;   /* algs[i].id == i + 1 */
    int nalgs;
} mca_coll_rsag_coll_desc_t;

extern const mca_coll_rsag_coll_desc_t mca_coll_rsag_colls[MCA_COLL_RSAG_NUM_COLLS];

/* What the selector needs to know about one call. */
typedef struct mca_coll_rsag_call_t {
    int comm_size;
    size_t count;       /* elements */
    size_t bytes;       /* count * type size: the message size */
    bool commutative;
    bool dtype_supported;   /* every algorithm needs a positive extent */
} mca_coll_rsag_call_t;

/* Per-collective tuning, from the MCA parameters. */
typedef struct mca_coll_rsag_tuning_t {
    int forced;                                       /* 0 = auto */
    size_t min_bytes[MCA_COLL_RSAG_MAX_ALGS + 1];     /* by id */
} mca_coll_rsag_tuning_t;

typedef enum mca_coll_rsag_reason_t {
    MCA_COLL_RSAG_REASON_AUTO,          /* auto, by message size */
    MCA_COLL_RSAG_REASON_FORCED,        /* forced and applicable */
    MCA_COLL_RSAG_REASON_FALLBACK,      /* forced, not applicable: auto among the rest */
    MCA_COLL_RSAG_REASON_DATATYPE,      /* extent <= 0: delegate */
    MCA_COLL_RSAG_REASON_NONE,          /* restrictions rule out every algorithm: delegate */
    MCA_COLL_RSAG_REASON_UNCOVERED,     /* thresholds leave this size uncovered: delegate */
    MCA_COLL_RSAG_NUM_REASONS
} mca_coll_rsag_reason_t;

typedef struct mca_coll_rsag_decision_t {
    int alg;                            /* id, or MCA_COLL_RSAG_DELEGATE */
    mca_coll_rsag_reason_t reason;
    unsigned unmet;                     /* FALLBACK: what the forced one lacked;
                                           NONE: what the algorithms lacked */
} mca_coll_rsag_decision_t;

/* Restriction bits of `alg` that `call` does not meet (0: applicable). */
unsigned mca_coll_rsag_unmet(const mca_coll_rsag_alg_desc_t *alg,
                             const mca_coll_rsag_call_t *call);

mca_coll_rsag_decision_t mca_coll_rsag_select(mca_coll_rsag_coll_t coll,
                                              const mca_coll_rsag_call_t *call,
                                              const mca_coll_rsag_tuning_t *tuning);

/* Table look-ups. NULL / "?" when out of range. */
const mca_coll_rsag_alg_desc_t *mca_coll_rsag_alg(mca_coll_rsag_coll_t coll, int id);
const char *mca_coll_rsag_alg_name(mca_coll_rsag_coll_t coll, int id);

/* Human-readable text of restriction bits, e.g. "commutative op, count >= p'". */
const char *mca_coll_rsag_restriction_text(unsigned bits);

/* Defaults of a tuning block from the table (forced = auto). */
void mca_coll_rsag_tuning_defaults(mca_coll_rsag_coll_t coll, mca_coll_rsag_tuning_t *tuning);

#endif /* MCA_COLL_RSAG_SELECT_H */
