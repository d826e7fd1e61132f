/*
 * mca_coll_rsag: reduction collectives built on reduce-scatter/allgather.
 *
 * The component (coll_rsag_component.c) registers the MCA parameters and
 * MPI_T counters; the module (coll_rsag_module.c) takes the reduction slots
 * of every intra-communicator, keeps the previous module of each slot for
 * delegation, and dispatches each call through the pure selector
 * (coll_rsag_select.c) to one algorithm file (coll_rsag_<coll>_<alg>.c).
 * Algorithms share the helpers of coll_rsag_util.c and the index
 * arithmetic of coll_rsag_index.c.
 */
#ifndef MCA_COLL_RSAG_H
#define MCA_COLL_RSAG_H

#include "ompi_config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mpi.h"
#include "ompi/communicator/communicator.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/mca/coll/coll.h"
#include "ompi/op/op.h"

#include "coll_rsag_compat.h"
#include "coll_rsag_index.h"
#include "coll_rsag_op_kernels.h"
#include "coll_rsag_select.h"

BEGIN_C_DECLS

/* coll_rsag_verbose levels */
#define MCA_COLL_RSAG_VERBOSE_DECISIONS 1   /* each decision, once per comm and size class */
#define MCA_COLL_RSAG_VERBOSE_MODULE    2   /* module query/enable/disable */

typedef struct mca_coll_rsag_component_t {
    mca_coll_base_component_t super;

    int priority;
    int verbose;
    int output;                                    /* opal_output stream */
    mca_coll_rsag_tuning_t tuning[MCA_COLL_RSAG_NUM_COLLS];
    /* coll_rsag_comm_class_<k>_max_size; every tuning[].class_bounds points here */
    int class_bounds[MCA_COLL_RSAG_NUM_COMM_CLASSES - 1];

    size_t ring_segment_size;                      /* bytes; 0: whole blocks */
    int priority_chunks;                           /* blocks per message, power of 2 */

    /* MPI_T counters coll_rsag_<coll>_<alg>_calls; [coll][0] counts calls
     * delegated to the previous module (coll_rsag_<coll>_delegated_calls). */
    unsigned long long calls[MCA_COLL_RSAG_NUM_COLLS][MCA_COLL_RSAG_MAX_ALGS + 1];
    /* Temporary memory of the current call, and its peak
     * (MPI_T coll_rsag_temporary_bytes: peak of the last call). */
    unsigned long long tmp_bytes_now;
    unsigned long long tmp_bytes_peak;

    /* Memory (coll_rsag_util.c).  scratch_max_bytes: cap of each
     * communicator's scratch area (0: none); test_alloc_fail: countdown
     * to an injected allocation failure (0: none; test-only).  Counters:
     * allocation requests, blocks held (temporaries and the module's
     * layout cache), bytes held by all scratch areas, and temporaries the
     * scratch areas served. */
    size_t scratch_max_bytes;
    int test_alloc_fail;
    unsigned long long allocs;
    unsigned long long allocs_live;
    unsigned long long scratch_bytes;
    unsigned long long scratch_hits;
} mca_coll_rsag_component_t;

MCA_COLL_RSAG_EXPORT extern mca_coll_rsag_component_t mca_coll_rsag_component;

/* The slots rsag takes (coll_<name> in Open MPI's module and c_coll). */
#define MCA_COLL_RSAG_SLOTS(S) S(allreduce) S(reduce) S(reduce_scatter_block) S(reduce_scatter)

/* The function and module that held each slot before rsag, kept for
 * delegation. */
typedef struct mca_coll_rsag_previous_t {
#define MCA_COLL_RSAG_PREVIOUS_FIELDS(name)                                        \
    mca_coll_base_module_##name##_fn_t name;                                       \
    mca_coll_base_module_t *name##_module;
    MCA_COLL_RSAG_SLOTS(MCA_COLL_RSAG_PREVIOUS_FIELDS)
#undef MCA_COLL_RSAG_PREVIOUS_FIELDS
} mca_coll_rsag_previous_t;

/* A communicator's scratch area: temporaries of a call are carved from it
 * one after the other (bump allocation) and it is rewound when the call's
 * last one is freed.  Kept across calls, so large temporaries are not
 * mapped and page-faulted afresh on every call; grown, up to
 * coll_rsag_scratch_max_bytes, to the largest need of a call seen so far
 * when no temporary is live; freed with the communicator. */
typedef struct mca_coll_rsag_scratch_t {
    char *base;
    size_t size;        /* bytes at base */
    size_t used;        /* bytes handed out in the current call */
    size_t call_need;   /* bytes the current call asked for so far */
    size_t want;        /* largest need of a call so far, capped */
    int live;           /* temporaries of the current call not yet freed */
} mca_coll_rsag_scratch_t;
/* The selector's last answer for one collective on one communicator and
 * one value of coll_rsag_<coll>_algorithm, with the inputs it was computed
 * from (compared whole, padding zeroed, so any change of the call or of
 * the tuning parameters, e.g. through MPI_T, selects again).  Repeated
 * calls of the same shape, the common case for small messages where the
 * selector's cost shows, skip it; one entry per forced value keeps that
 * true when a program (or the benchmark) switches algorithms through
 * MPI_T between calls. */
typedef struct mca_coll_rsag_last_decision_t {
    bool valid;
    mca_coll_rsag_call_t call;
    mca_coll_rsag_tuning_t tuning;
    mca_coll_rsag_decision_t d;
} mca_coll_rsag_last_decision_t;

typedef struct mca_coll_rsag_module_t {
    mca_coll_base_module_t super;
    mca_coll_rsag_scratch_t scratch;
    mca_coll_rsag_previous_t previous;
    bool previous_retained;
    /* Block layout of the current call (comm size + 1 offsets), allocated
     * on first use and kept with the communicator. */
    size_t *displ;
    /* Decisions already printed at MCA_COLL_RSAG_VERBOSE_DECISIONS: one bit
     * per message size class (log2 of bytes) for each (coll, alg, reason). */
    uint64_t reported[MCA_COLL_RSAG_NUM_COLLS][MCA_COLL_RSAG_MAX_ALGS + 1]
                     [MCA_COLL_RSAG_NUM_REASONS];
    mca_coll_rsag_last_decision_t last[MCA_COLL_RSAG_NUM_COLLS][MCA_COLL_RSAG_MAX_ALGS + 1];
} mca_coll_rsag_module_t;

OBJ_CLASS_DECLARATION(mca_coll_rsag_module_t);

/* Component / module entry points (coll_rsag_module.c) */
int mca_coll_rsag_init_query(bool enable_progress_threads, bool enable_mpi_threads);
mca_coll_base_module_t *mca_coll_rsag_comm_query(struct ompi_communicator_t *comm, int *priority);

/* The slots rsag installs: select, count, report, dispatch or delegate. */
int mca_coll_rsag_allreduce_intra(const void *sbuf, void *rbuf, int count,
                                  struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                                  struct ompi_communicator_t *comm,
                                  mca_coll_base_module_t *module);
int mca_coll_rsag_reduce_intra(const void *sbuf, void *rbuf, int count,
                               struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                               int root, struct ompi_communicator_t *comm,
                               mca_coll_base_module_t *module);
int mca_coll_rsag_reduce_scatter_block_intra(const void *sbuf, void *rbuf, int rcount,
                                             struct ompi_datatype_t *dtype,
                                             struct ompi_op_t *op,
                                             struct ompi_communicator_t *comm,
                                             mca_coll_base_module_t *module);
int mca_coll_rsag_reduce_scatter_intra(const void *sbuf, void *rbuf, const int *rcounts,
                                       struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                                       struct ompi_communicator_t *comm,
                                       mca_coll_base_module_t *module);

/* The module's layout cache, sized for the communicator (p + 1 offsets). */
size_t *mca_coll_rsag_module_displ(mca_coll_rsag_module_t *m, int p);

/* The algorithms: one file each, same signature as the slot they fill.
 * Callers guarantee the restrictions of the table row. */
#define MCA_COLL_RSAG_DECLARE_ALLREDUCE(coll, ALG, id, name, desc, restr, min, fn) \
    int fn(const void *sbuf, void *rbuf, int count, struct ompi_datatype_t *dtype, \
           struct ompi_op_t *op, struct ompi_communicator_t *comm,                 \
           mca_coll_base_module_t *module);
#define MCA_COLL_RSAG_DECLARE_REDUCE(coll, ALG, id, name, desc, restr, min, fn)    \
    int fn(const void *sbuf, void *rbuf, int count, struct ompi_datatype_t *dtype, \
           struct ompi_op_t *op, int root, struct ompi_communicator_t *comm,       \
           mca_coll_base_module_t *module);
MCA_COLL_RSAG_ALLREDUCE_ALGORITHMS(MCA_COLL_RSAG_DECLARE_ALLREDUCE)
MCA_COLL_RSAG_REDUCE_ALGORITHMS(MCA_COLL_RSAG_DECLARE_REDUCE)
#undef MCA_COLL_RSAG_DECLARE_ALLREDUCE
#undef MCA_COLL_RSAG_DECLARE_REDUCE

/* Reduce-scatter algorithms serve both MPI_Reduce_scatter_block and
 * MPI_Reduce_scatter over a block layout: block i = [displ[i], displ[i+1])
 * of the input goes, reduced, to rank i's rbuf.  With MPI_IN_PLACE the
 * input is rbuf (all blocks) and the result lands at its start. */
typedef int (*mca_coll_rsag_rs_fn_t)(const void *sbuf, void *rbuf, const size_t *displ,
                                     struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                                     struct ompi_communicator_t *comm,
                                     mca_coll_rsag_module_t *module);
#define MCA_COLL_RSAG_DECLARE_RS(coll, ALG, id, name, desc, restr, min, fn)        \
    int fn(const void *sbuf, void *rbuf, const size_t *displ,                      \
           struct ompi_datatype_t *dtype, struct ompi_op_t *op,                    \
           struct ompi_communicator_t *comm, mca_coll_rsag_module_t *module);
MCA_COLL_RSAG_REDUCE_SCATTER_ALGORITHMS(MCA_COLL_RSAG_DECLARE_RS)
#undef MCA_COLL_RSAG_DECLARE_RS

/*
 * Helpers shared by the algorithms (coll_rsag_util.c).
 */

/* A temporary vector of `count` elements of `dtype`.  `buf` is offset by
 * the type's true lower bound, so element i is at buf + i * extent exactly
 * as in a user buffer.  It comes from the scratch area of the calling
 * collective's communicator when that has room (`scratch` set), else from
 * malloc; mca_coll_rsag_tmp_free returns it either way.  Every request
 * counts for coll_rsag_test_alloc_fail, empty ones (count 0) included, so
 * algorithms that ask for the same temporaries on every rank, before their
 * first message, fail at the same point everywhere. */
typedef struct mca_coll_rsag_tmp_t {
    char *raw;
    char *buf;
    size_t bytes;
    mca_coll_rsag_scratch_t *scratch;
} mca_coll_rsag_tmp_t;
#define MCA_COLL_RSAG_TMP_INIT { NULL, NULL, 0, NULL }

int mca_coll_rsag_tmp_alloc(mca_coll_rsag_tmp_t *tmp, size_t count,
                            struct ompi_datatype_t *dtype);
void mca_coll_rsag_tmp_free(mca_coll_rsag_tmp_t *tmp);

/* Other memory of rsag (bookkeeping, the layout cache): malloc and free
 * with the same failure injection and live-block accounting. */
void *mca_coll_rsag_malloc(size_t bytes);
void mca_coll_rsag_free(void *ptr);

/* The dispatcher brackets each algorithm it runs: temporaries of the call
 * may then come from `m`'s scratch area (per thread: MPI allows
 * concurrent collectives on different communicators).  end returns err,
 * out of memory as MPI_ERR_NO_MEM. */
void mca_coll_rsag_call_begin(mca_coll_rsag_module_t *m);
int mca_coll_rsag_call_end(int err);
/* Module constructor / destructor. */
void mca_coll_rsag_scratch_init(mca_coll_rsag_scratch_t *s);
void mca_coll_rsag_scratch_fini(mca_coll_rsag_scratch_t *s);
/* Register the memory parameters and counters (component register). */
void mca_coll_rsag_memory_register(const mca_base_component_t *c);

/* Address of element `index` of a vector of `dtype` elements. */
static inline char *mca_coll_rsag_elem(const void *buf, size_t index, ptrdiff_t extent)
{
    return (char *) buf + (ptrdiff_t) index * extent;
}

/* Copy `count` elements (no-op when the buffers coincide). */
int mca_coll_rsag_copy(struct ompi_datatype_t *dtype, size_t count, void *dst,
                       const void *src);

/* Combine two partial results in rank order, lower (op) upper, where `in`
 * holds the lower ranks' part when in_is_lower.  The result lands in
 * `inout`, except for a non-commutative op with `in` from higher ranks:
 * then it is computed in place in `in` (saving a copy) and the caller
 * swaps the roles of its buffers.  Returns the buffer holding the result.
 * Each elementary predefined op is commutative bit for bit, so every rank
 * of a symmetric algorithm gets bit-identical results. */
void *mca_coll_rsag_reduce_ordered(struct ompi_op_t *op, struct ompi_datatype_t *dtype,
                                   size_t count, void *in, void *inout, bool in_is_lower);

/* target = lower (op) upper, with target distinct from both: the first
 * reduction of an algorithm reads the (read-only) send buffer and writes
 * the receive buffer, which saves copying the send buffer first. */
void mca_coll_rsag_reduce3(struct ompi_op_t *op, struct ompi_datatype_t *dtype, size_t count,
                           const void *lower, const void *upper, void *target);

/* dst = tmp (op) src over cnt elements, where src is either dst itself or
 * the (read-only) input at the same position: commutative ops. */
void mca_coll_rsag_reduce_into(struct ompi_op_t *op, struct ompi_datatype_t *dtype,
                               size_t cnt, const char *tmp, const char *src, char *dst);

/*
 * Reductions (coll_rsag_op.c): every reduction of rsag goes through these
 * two, which use rsag's own kernel for the predefined (op, type) pairs the
 * start-up self-test found wrong in Open MPI's op framework, and Open MPI's
 * op otherwise (one table lookup per call).
 */
enum { MCA_COLL_RSAG_OP_2BUFF, MCA_COLL_RSAG_OP_3BUFF, MCA_COLL_RSAG_OP_PATHS };
extern mca_coll_rsag_opk_fn_t mca_coll_rsag_op_fixes[MCA_COLL_RSAG_OP_PATHS]
                                                    [OMPI_OP_BASE_FORTRAN_OP_MAX]
                                                    [OMPI_DATATYPE_MAX_PREDEFINED];

/* Registers coll_rsag_op_selftest. */
void mca_coll_rsag_op_register(const mca_base_component_t *c);
/* The self-test, once per process (later calls return at once); needs the
 * predefined ops set up, as they are by init_query. */
int mca_coll_rsag_op_init(void);

static inline mca_coll_rsag_opk_fn_t mca_coll_rsag_op_fix(int path, struct ompi_op_t *op,
                                                          struct ompi_datatype_t *dtype)
{
    if (ompi_op_is_intrinsic(op) && ompi_datatype_is_predefined(dtype)
        && (unsigned) op->o_f_to_c_index < OMPI_OP_BASE_FORTRAN_OP_MAX
        && (unsigned) dtype->id < OMPI_DATATYPE_MAX_PREDEFINED) {
        return mca_coll_rsag_op_fixes[path][op->o_f_to_c_index][dtype->id];
    }
    return NULL;
}

/* target = source (op) target, as ompi_op_reduce. */
static inline void mca_coll_rsag_op_reduce(struct ompi_op_t *op, const void *source,
                                           void *target, size_t count,
                                           struct ompi_datatype_t *dtype)
{
    mca_coll_rsag_opk_fn_t fix = mca_coll_rsag_op_fix(MCA_COLL_RSAG_OP_2BUFF, op, dtype);

    if (OPAL_UNLIKELY(NULL != fix)) {
        fix(source, target, target, count);
    } else {
        ompi_op_reduce(op, (void *) source, target, count, dtype);
    }
}

/* target = source1 (op) source2 for an intrinsic op on a predefined type,
 * as ompi_3buff_op_reduce. */
static inline void mca_coll_rsag_op_reduce3(struct ompi_op_t *op, const void *source1,
                                            const void *source2, void *target, size_t count,
                                            struct ompi_datatype_t *dtype)
{
    mca_coll_rsag_opk_fn_t fix = mca_coll_rsag_op_fix(MCA_COLL_RSAG_OP_3BUFF, op, dtype);

    if (OPAL_UNLIKELY(NULL != fix)) {
        fix(source1, source2, target, count);
    } else {
        ompi_3buff_op_reduce(op, (void *) source1, (void *) source2, target, (int) count,
                             dtype);
    }
}

/* Blocking exchange with one peer through the PML. */
int mca_coll_rsag_sendrecv(const void *sbuf, size_t scount, int dst,
                           void *rbuf, size_t rcount, int src,
                           struct ompi_datatype_t *dtype, int tag,
                           struct ompi_communicator_t *comm);
int mca_coll_rsag_send(const void *buf, size_t count, struct ompi_datatype_t *dtype,
                       int dst, int tag, struct ompi_communicator_t *comm);
int mca_coll_rsag_recv(void *buf, size_t count, struct ompi_datatype_t *dtype,
                       int src, int tag, struct ompi_communicator_t *comm);

/* After an error, give up the requests of reqs[0..n) (NULL and
 * MPI_REQUEST_NULL entries are skipped; all become MPI_REQUEST_NULL).
 * Receives are cancelled and completed, so that no buffer is freed under
 * a pending receive; sends are released to complete in the background, as
 * Open MPI's own collectives do, since waiting for a peer that gave up
 * would hang. */
void mca_coll_rsag_requests_drop(struct ompi_request_t **reqs, size_t n, bool receives);

/*
 * Phases of Rabenseifner's algorithms (coll_rsag_phases.c).  `input` is
 * this rank's contribution (read only; may be `work` itself when in
 * place), `work` holds count elements in user layout and receives the
 * first reduction, `tmp` holds ceil(count/2).  Commutative ops only.
 */

/* Step 1, balanced folding of p onto p' (seed 000): in each pair
 * (2i, 2i+1) below 2r the even rank reduces the lower half and the odd
 * rank the upper half at the same time; the odd rank then sends its half
 * to the even rank and leaves.  No-op on ranks >= 2r. */
int mca_coll_rsag_fold_balanced(const char *input, char *work, char *tmp, size_t count,
                                struct ompi_datatype_t *dtype, struct ompi_op_t *op,
                                int tag, struct ompi_communicator_t *comm);
/* Step 2, reduce-scatter by recursive halving along `steps`
 * (mca_coll_rsag_halving_schedule of this rank's vrank). */
int mca_coll_rsag_halving_rs(const char *input, char *work, char *tmp,
                             const mca_coll_rsag_halving_step_t *steps, int nsteps,
                             struct ompi_datatype_t *dtype, struct ompi_op_t *op, int tag,
                             struct ompi_communicator_t *comm);
/* Steps 1 and 2: fold, then reduce-scatter along this rank's halving
 * schedule (returned in steps / *nsteps; *nsteps = 0 on a folded-away
 * rank, which holds nothing afterwards). */
int mca_coll_rsag_rabenseifner_rs(const char *input, char *work, char *tmp, size_t count,
                                  struct ompi_datatype_t *dtype, struct ompi_op_t *op, int tag,
                                  struct ompi_communicator_t *comm,
                                  mca_coll_rsag_halving_step_t *steps, int *nsteps);
/* The temporaries of a folding reduce-scatter over layout `displ`: `work`
 * (displ[p] elements, or none unless need_work) and `tmp`
 * (mca_coll_rsag_rs_recv_count elements), both or neither (on failure both
 * are empty).  Both are requested on every rank, so an allocation failure
 * meets all ranks at the same request. */
int mca_coll_rsag_rs_buffers(mca_coll_rsag_tmp_t *work, mca_coll_rsag_tmp_t *tmp,
                             bool need_work, const size_t *displ, struct ompi_datatype_t *dtype,
                             struct ompi_communicator_t *comm);
/* End of a folding reduce-scatter: `work` holds this vrank's vblock
 * reduced (displ layout); the rank's own block goes to rbuf and an even
 * rank below 2r sends its odd neighbour's block to it (odd ranks below 2r
 * just receive; their `work` is not read). */
int mca_coll_rsag_rs_deliver(const char *work, void *rbuf, const size_t *displ,
                             struct ompi_datatype_t *dtype, int tag,
                             struct ompi_communicator_t *comm);
/* The priority-aware reduce-scatter without its delivery
 * (coll_rsag_reduce_scatter_priority.c), for p >= 2: folds p onto p', then
 * leaves this vrank's vblock of layout `displ` reduced in `work` (n =
 * displ[p] elements, user layout; other ranges hold partial sums).  `tmp`
 * holds mca_coll_rsag_rs_recv_count elements; `input` may be `work`.  The
 * blocks go out in runs of coll_rsag_priority_chunks vblocks.  Every
 * request is complete on return.  Commutative ops. */
int mca_coll_rsag_priority_rs(const char *input, char *work, char *tmp, const size_t *displ,
                              struct ompi_datatype_t *dtype, struct ompi_op_t *op, int tag,
                              struct ompi_communicator_t *comm);
/* Allgather by recursive doubling: the halving steps walked backwards. */
int mca_coll_rsag_doubling_allgather(char *work, const mca_coll_rsag_halving_step_t *steps,
                                     int nsteps, struct ompi_datatype_t *dtype, int tag,
                                     struct ompi_communicator_t *comm);

/*
 * Phases of the ring algorithms (coll_rsag_reduce_scatter_ring.c): p - 1
 * steps, each sending to rank + 1 and receiving from rank - 1, over the
 * blocks of `displ` (any sizes, zeros included), pipelined in segments of
 * coll_rsag_allreduce_ring_segment_size bytes.  Every rank of the
 * communicator must pass the same layout.
 */

/* Reduce-scatter, commutative ops: `input` is this rank's contribution
 * (read only; may be `work` itself), `work` is a vector in user layout
 * that receives the forwarded partial sums (every block but this rank's
 * own and the one before it), and block r reduced over every rank lands at
 * `out` (element 0 of the block; `out` may be work + block r, and must not
 * overlap the input otherwise).  Temporary memory: four segments. */
int mca_coll_rsag_ring_rs(const char *input, char *work, char *out, const size_t *displ,
                          struct ompi_datatype_t *dtype, struct ompi_op_t *op, int tag,
                          struct ompi_communicator_t *comm);
/* Allgather in place: block r of `buf` (this rank's) goes to every rank,
 * the other blocks of `buf` are received.  No temporary memory. */
int mca_coll_rsag_ring_allgather(char *buf, const size_t *displ, struct ompi_datatype_t *dtype,
                                 int tag, struct ompi_communicator_t *comm);

END_C_DECLS

#endif /* MCA_COLL_RSAG_H */
