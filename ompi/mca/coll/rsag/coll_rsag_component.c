/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * The rsag component: its MCA parameters and MPI_T counters.
 *
 * Parameters (ompi_info --param coll rsag --level 9):
 *   coll_rsag_priority                  selection priority (default above tuned/han)
 *   coll_rsag_verbose                   1: each decision once per comm and size class
 *   coll_rsag_<coll>_algorithm          enum: auto, or one algorithm of the table
 *   coll_rsag_<coll>_<alg>_min_bytes    auto's threshold for that algorithm:
 *                                       -1 the default of the communicator's
 *                                       size class, N >= 0 for every size
 *   coll_rsag_comm_class_<k>_max_size   bounds of those size classes
 *   coll_rsag_<coll>_hierarchical_inter_algorithm
 *                                       the cross-node step of hierarchical
 *   coll_rsag_scratch_max_bytes, coll_rsag_test_alloc_fail (coll_rsag_mem.c)
 *   coll_rsag_op_selftest               test the op framework at start-up (coll_rsag_op.c)
 *   coll_rsag_segment_size, coll_rsag_single_copy, coll_rsag_direct_chunk_size,
 *   coll_rsag_direct_cma_min_bytes, coll_rsag_test_node_fail
 *                                       the node path (coll_rsag_segment.c)
 * All of them come from the algorithm tables (coll_rsag_algorithms.h).
 * The algorithm, threshold and class parameters may also be written at run
 * time through MPI_T (they are read on every call; the selector and the
 * algorithms accept any value there).
 *
 * Hostile settings are checked once, at registration: each one that cannot
 * be used is replaced by a safe value and named in one message on stream 0,
 * with the valid values, and the job goes on.
 */
#include "ompi_config.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "mpi.h"
#include "opal/mca/base/mca_base_pvar.h"
#include "opal/mca/base/mca_base_var.h"
#include "opal/mca/base/mca_base_var_enum.h"
#include "opal/util/output.h"
#include "ompi/constants.h"

#include "coll_rsag.h"
#include "coll_rsag_check.h"
#include "coll_rsag_op.h"
#include "coll_rsag_request.h"

/* Above coll/tuned (30) and coll/han (35 in Open MPI 5.0): installing the
 * component is enough for it to take the reductions. */
#define MCA_COLL_RSAG_DEFAULT_PRIORITY 40
#define MCA_COLL_RSAG_MAX_PRIORITY 100
/* Ring segments, measured with the ring allreduce and reduce-scatter at
 * np 2 and 4, 1-64 MB: 64 KB segments took 1.06-1.41x the time of 256 KB;
 * 1 MB ones 0.73-1.37x (a tie within the noise), with four times the
 * receive-slot memory; whole blocks 1.6-2.2x at 64 MB. */
#define MCA_COLL_RSAG_DEFAULT_RING_SEGMENT ((size_t) 256 * 1024)
#define MCA_COLL_RSAG_DEFAULT_PRIORITY_CHUNKS 1

static int mca_coll_rsag_register(void);
static int mca_coll_rsag_open(void);
static int mca_coll_rsag_close(void);

const char *mca_coll_rsag_component_version_string =
    "Open MPI rsag collective MCA component version " PACKAGE_VERSION;

mca_coll_rsag_component_t mca_coll_rsag_component = {
    .super = {
        .collm_version = {
            MCA_COLL_RSAG_BASE_VERSION,
            .mca_component_name = "rsag",
            MCA_BASE_MAKE_VERSION(component, OMPI_MAJOR_VERSION, OMPI_MINOR_VERSION,
                                  OMPI_RELEASE_VERSION),
            .mca_open_component = mca_coll_rsag_open,
            .mca_close_component = mca_coll_rsag_close,
            .mca_register_component_params = mca_coll_rsag_register,
        },
        .collm_data = {
            MCA_BASE_METADATA_PARAM_CHECKPOINT
        },
        .collm_init_query = mca_coll_rsag_init_query,
        .collm_comm_query = mca_coll_rsag_comm_query,
    },
    .priority = MCA_COLL_RSAG_DEFAULT_PRIORITY,
    .verbose = 0,
    .output = -1,
};

/* An MPI_T counter (class COUNTER, read-only, always running) on `value`. */
static void mca_coll_rsag_register_counter(const char *name, const char *help, unsigned long long *value)
{
    (void) mca_base_component_pvar_register(&mca_coll_rsag_component.super.collm_version, name,
                                            help, OPAL_INFO_LVL_4, MCA_BASE_PVAR_CLASS_COUNTER,
                                            MCA_BASE_VAR_TYPE_UNSIGNED_LONG_LONG, NULL,
                                            MCA_BASE_VAR_BIND_NO_OBJECT,
                                            MCA_BASE_PVAR_FLAG_READONLY
                                                | MCA_BASE_PVAR_FLAG_CONTINUOUS,
                                            NULL, NULL, NULL, value);
}

/* Settings that must be replaced say so, with the valid values. */
#define MCA_COLL_RSAG_WARN(...) opal_output(0, "coll:rsag: " __VA_ARGS__)

/* "p <= 2: 4096, p <= 4: 262144, p > 4: off": the class defaults of one
 * algorithm under the current class bounds. */
static void mca_coll_rsag_class_defaults_text(const mca_coll_rsag_alg_desc_t *alg, char *buf, size_t len)
{
    size_t used = 0;

    buf[0] = '\0';
    for (int k = 0; k < MCA_COLL_RSAG_NUM_COMM_CLASSES && used < len; ++k) {
        char range[32], value[24] = "off";

        mca_coll_rsag_class_text(mca_coll_rsag_component.class_bounds, k, range, sizeof(range));
        if (alg->default_min_bytes[k] < (size_t) MCA_COLL_RSAG_OFF) {
            snprintf(value, sizeof(value), "%zu", alg->default_min_bytes[k]);
        }
        used += (size_t) snprintf(buf + used, len - used, "%s%s: %s", k > 0 ? ", " : "", range,
                                  value);
    }
}

/* One message per range of message sizes the thresholds of `coll` leave
 * to the previous module; "every size" when all classes agree. */
static void mca_coll_rsag_warn_uncovered(mca_coll_rsag_coll_t coll)
{
    const mca_coll_rsag_tuning_t *tuning = &mca_coll_rsag_component.tuning[coll];
    const mca_coll_rsag_coll_desc_t *desc = &mca_coll_rsag_colls[coll];
    size_t below[MCA_COLL_RSAG_NUM_COMM_CLASSES];
    bool same = true;

    for (int k = 0; k < MCA_COLL_RSAG_NUM_COMM_CLASSES; ++k) {
        below[k] = mca_coll_rsag_uncovered_below(coll, tuning, k);
        same &= (below[k] == below[0]);
    }
    for (int k = 0; k < (same ? 1 : MCA_COLL_RSAG_NUM_COMM_CLASSES); ++k) {
        char range[48];

        if (0 == below[k]) {
            continue;
        }
        if (same) {
            snprintf(range, sizeof(range), "every communicator size");
        } else {
            mca_coll_rsag_class_text(tuning->class_bounds, k, range, sizeof(range));
        }
        MCA_COLL_RSAG_WARN("the coll_rsag_%s_*_min_bytes thresholds leave %s messages below "
                           "%zu bytes uncovered (%s): they go to the previous coll module",
                           desc->name, desc->mpi_name, below[k], range);
    }
}

/* Register the algorithm enum parameter coll_rsag_<name> (the values, NULL-
 * terminated, and help text made by the caller) into *storage.  A bad value
 * in the environment or a parameter file keeps rsag in the job on auto:
 * Open MPI has already named the valid values. */
static int mca_coll_rsag_register_algorithm_enum(const char *name, const char *enum_name,
                                                 mca_base_var_enum_value_t *values,
                                                 const char *help, mca_base_var_info_lvl_t level,
                                                 int *storage)
{
    const mca_base_component_t *c = &mca_coll_rsag_component.super.collm_version;
    mca_base_var_enum_t *algorithms = NULL;
    int rc;

    rc = mca_base_var_enum_create(enum_name, values, &algorithms);
    if (OPAL_SUCCESS != rc) {
        return rc;
    }
    rc = mca_base_component_var_register(c, name, help, MCA_BASE_VAR_TYPE_INT, algorithms, 0,
                                         MCA_BASE_VAR_FLAG_SETTABLE, level,
                                         MCA_BASE_VAR_SCOPE_ALL_EQ, storage);
    OBJ_RELEASE(algorithms);
    if (rc < 0) {
        *storage = MCA_COLL_RSAG_AUTO;
        opal_output(0, "coll:rsag: ignoring the invalid coll_rsag_%s setting; using auto", name);
    }
    return OPAL_SUCCESS;
}

/* coll_rsag_<coll>_hierarchical_inter_algorithm: which algorithm of the
 * table the cross-node step of hierarchical runs (auto: the thresholds of
 * the "several nodes" class).  Only the algorithms for a communicator of
 * one rank per node are offered.  MPI_Reduce_scatter's serves both
 * reduce-scatters, so MPI_Reduce_scatter_block has none. */
static int mca_coll_rsag_register_hier_inter(mca_coll_rsag_coll_t coll)
{
    const mca_coll_rsag_coll_desc_t *desc = &mca_coll_rsag_colls[coll];
    mca_base_var_enum_value_t values[MCA_COLL_RSAG_MAX_ALGS + 2];
    char name[128], help[512], enum_name[128];
    size_t used;
    int n = 1;

    mca_coll_rsag_component.hier_inter[coll] = MCA_COLL_RSAG_AUTO;
    if (MCA_COLL_RSAG_REDUCE_SCATTER_BLOCK == coll) {
        return OPAL_SUCCESS;
    }
    values[0].value = MCA_COLL_RSAG_AUTO;
    values[0].string = "auto";
    used = (size_t) snprintf(help, sizeof(help),
                             "Algorithm of the cross-node step of the hierarchical %s%s (the "
                             "ranks of one local index, one per node, %s their slice): auto "
                             "(the thresholds of the \"several nodes\" class), or",
                             desc->mpi_name,
                             MCA_COLL_RSAG_REDUCE_SCATTER == coll
                                 ? " and MPI_Reduce_scatter_block" : "",
                             MCA_COLL_RSAG_ALLREDUCE == coll ? "allreduce"
                             : MCA_COLL_RSAG_REDUCE == coll ? "reduce to the root's node"
                                                             : "reduce-scatter");
    for (int i = 0; i < desc->nalgs; ++i) {
        if (desc->algs[i].restrictions
            & (MCA_COLL_RSAG_NEEDS_SINGLE_NODE | MCA_COLL_RSAG_NEEDS_MULTI_NODE)) {
            continue;
        }
        values[n].value = desc->algs[i].id;
        values[n].string = desc->algs[i].name;
        if (used < sizeof(help)) {
            used += (size_t) snprintf(help + used, sizeof(help) - used, "%s %s",
                                      n > 1 ? "," : "", desc->algs[i].name);
        }
        ++n;
    }
    values[n].value = 0;
    values[n].string = NULL;
    if (used < sizeof(help)) {
        snprintf(help + used, sizeof(help) - used, ", used when it applies (else auto)");
    }
    snprintf(enum_name, sizeof(enum_name), "coll_rsag_%s_hierarchical_inter_algorithms",
             desc->name);
    snprintf(name, sizeof(name), "%s_hierarchical_inter_algorithm", desc->name);
    return mca_coll_rsag_register_algorithm_enum(name, enum_name, values, help, OPAL_INFO_LVL_6,
                                                 &mca_coll_rsag_component.hier_inter[coll]);
}

/* Register coll_rsag_<coll>_algorithm (enum built from the table) and one
 * threshold and one MPI_T counter per algorithm, plus the delegation
 * counter. */
static int mca_coll_rsag_register_collective(mca_coll_rsag_coll_t coll)
{
    const mca_base_component_t *c = &mca_coll_rsag_component.super.collm_version;
    const mca_coll_rsag_coll_desc_t *desc = &mca_coll_rsag_colls[coll];
    mca_coll_rsag_tuning_t *tuning = &mca_coll_rsag_component.tuning[coll];
    mca_base_var_enum_value_t values[MCA_COLL_RSAG_MAX_ALGS + 2];
    char name[128], help[1024], enum_name[128];
    size_t used;
    long asked;
    int rc;

    mca_coll_rsag_tuning_defaults(coll, tuning);
    tuning->class_bounds = mca_coll_rsag_component.class_bounds;

    values[0].value = MCA_COLL_RSAG_AUTO;
    values[0].string = "auto";
    used = (size_t) snprintf(help, sizeof(help),
                             "Algorithm for %s. auto: chosen per call by message size "
                             "from the coll_rsag_%s_*_min_bytes thresholds",
                             desc->mpi_name, desc->name);
    for (int i = 0; i < desc->nalgs; ++i) {
        values[i + 1].value = desc->algs[i].id;
        values[i + 1].string = desc->algs[i].name;
        if (used < sizeof(help)) {
            used += (size_t) snprintf(help + used, sizeof(help) - used, "; %s (%d): %s",
                                      desc->algs[i].name, desc->algs[i].id,
                                      desc->algs[i].description);
        }
    }
    values[desc->nalgs + 1].value = 0;
    values[desc->nalgs + 1].string = NULL;

    snprintf(enum_name, sizeof(enum_name), "coll_rsag_%s_algorithms", desc->name);
    snprintf(name, sizeof(name), "%s_algorithm", desc->name);
    rc = mca_coll_rsag_register_algorithm_enum(name, enum_name, values, help, OPAL_INFO_LVL_5,
                                               &tuning->forced);
    if (OPAL_SUCCESS != rc) {
        return rc;
    }

    for (int i = 0; i < desc->nalgs; ++i) {
        const mca_coll_rsag_alg_desc_t *alg = &desc->algs[i];
        char defaults[160];

        mca_coll_rsag_class_defaults_text(alg, defaults, sizeof(defaults));
        snprintf(name, sizeof(name), "%s_%s_min_bytes", desc->name, alg->name);
        snprintf(help, sizeof(help),
                 "auto uses %s for %s messages of at least this many bytes "
                 "(count * type size) when its restrictions (%s) are met and no "
                 "algorithm with a larger threshold applies. -1: the default of the "
                 "communicator's size class (coll_rsag_comm_class_*_max_size): %s bytes; "
                 "N >= 0: N for every communicator size",
                 alg->name, desc->mpi_name, mca_coll_rsag_restriction_text(alg->restrictions),
                 defaults);
        rc = mca_base_component_var_register(c, name, help, MCA_BASE_VAR_TYPE_LONG, NULL, 0,
                                             MCA_BASE_VAR_FLAG_SETTABLE, OPAL_INFO_LVL_6,
                                             MCA_BASE_VAR_SCOPE_ALL_EQ,
                                             &tuning->min_bytes[alg->id]);
        if (rc < 0) {
            return rc;
        }
        asked = tuning->min_bytes[alg->id];
        if (mca_coll_rsag_fix_min_bytes(&tuning->min_bytes[alg->id])) {
            MCA_COLL_RSAG_WARN("coll_rsag_%s = %ld is invalid (valid: -1 for the size-class "
                      "defaults %s, or a byte count >= 0); using -1", name, asked, defaults);
        }

        snprintf(name, sizeof(name), "%s_%s_calls", desc->name, alg->name);
        snprintf(help, sizeof(help), "Number of %s calls done by rsag's %s algorithm",
                 desc->mpi_name, alg->name);
        mca_coll_rsag_register_counter(name, help, &mca_coll_rsag_component.calls[coll][alg->id]);
    }

    snprintf(name, sizeof(name), "%s_delegated_calls", desc->name);
    snprintf(help, sizeof(help),
             "Number of %s calls rsag handed to the previous coll module", desc->mpi_name);
    mca_coll_rsag_register_counter(name, help, &mca_coll_rsag_component.calls[coll][0]);

    mca_coll_rsag_warn_uncovered(coll);
    return mca_coll_rsag_register_hier_inter(coll);
}

/* coll_rsag_comm_class_<k>_max_size: bounds of the communicator-size
 * classes of the default thresholds. */
static void mca_coll_rsag_register_classes(void)
{
    const mca_base_component_t *c = &mca_coll_rsag_component.super.collm_version;
    char name[64], help[512], valid[128];
    size_t used = 0;

    for (int k = 0; k < MCA_COLL_RSAG_NUM_SIZE_CLASSES - 1; ++k) {
        mca_coll_rsag_component.class_bounds[k] = mca_coll_rsag_default_class_bounds[k];
        snprintf(name, sizeof(name), "comm_class_%d_max_size", k);
        snprintf(help, sizeof(help),
                 "Communicators of at most this many processes (and more than the previous "
                 "class's) take the size-class-%d defaults of the *_min_bytes thresholds; "
                 "larger ones than the last bound take class %d. Bounds must be >= 1 and "
                 "increasing (a communicator on several nodes takes the \"several nodes\" "
                 "defaults instead, whatever its size)", k, MCA_COLL_RSAG_NUM_SIZE_CLASSES - 1);
        (void) mca_base_component_var_register(c, name, help, MCA_BASE_VAR_TYPE_INT, NULL, 0,
                                               MCA_BASE_VAR_FLAG_SETTABLE, OPAL_INFO_LVL_6,
                                               MCA_BASE_VAR_SCOPE_ALL_EQ,
                                               &mca_coll_rsag_component.class_bounds[k]);
        used += (size_t) snprintf(valid + used, sizeof(valid) - used, "%s%d", k > 0 ? " < " : "",
                                  mca_coll_rsag_default_class_bounds[k]);
    }
    if (mca_coll_rsag_fix_class_bounds(mca_coll_rsag_component.class_bounds)) {
        MCA_COLL_RSAG_WARN("coll_rsag_comm_class_*_max_size must be >= 1 and increasing; using the "
                  "defaults %s", valid);
    }
}

static int mca_coll_rsag_register(void)
{
    const mca_base_component_t *c = &mca_coll_rsag_component.super.collm_version;
    size_t seg_asked;
    int chunks_asked, rc;

    mca_coll_rsag_component.priority = MCA_COLL_RSAG_DEFAULT_PRIORITY;
    (void) mca_base_component_var_register(c, "priority",
                                           "Priority of the rsag coll component (default 40, "
                                           "above tuned's 30 and han's 35, so an installed "
                                           "rsag takes the reduction collectives); a negative "
                                           "value disables it; at most 100",
                                           MCA_BASE_VAR_TYPE_INT, NULL, 0, 0, OPAL_INFO_LVL_2,
                                           MCA_BASE_VAR_SCOPE_READONLY,
                                           &mca_coll_rsag_component.priority);
    if (mca_coll_rsag_component.priority > MCA_COLL_RSAG_MAX_PRIORITY) {
        MCA_COLL_RSAG_WARN("coll_rsag_priority = %d is out of range (valid: a negative value "
                  "disables rsag, 0..%d selects it); using %d",
                  mca_coll_rsag_component.priority, MCA_COLL_RSAG_MAX_PRIORITY,
                  MCA_COLL_RSAG_MAX_PRIORITY);
        mca_coll_rsag_component.priority = MCA_COLL_RSAG_MAX_PRIORITY;
    }

    mca_coll_rsag_component.verbose = 0;
    (void) mca_base_component_var_register(c, "verbose",
                                           "Verbosity of the rsag coll component: 0 silent; "
                                           "1 each decision (collective, communicator, bytes, "
                                           "algorithm, or why it delegated) once per "
                                           "communicator and message size class, printed by "
                                           "the communicator's rank 0; 2 also module "
                                           "selection and teardown, on every rank",
                                           MCA_BASE_VAR_TYPE_INT, NULL, 0,
                                           MCA_BASE_VAR_FLAG_SETTABLE, OPAL_INFO_LVL_5,
                                           MCA_BASE_VAR_SCOPE_LOCAL,
                                           &mca_coll_rsag_component.verbose);
    if (mca_coll_rsag_component.verbose < 0) {
        MCA_COLL_RSAG_WARN("coll_rsag_verbose = %d is negative (valid: 0 silent, 1 decisions, "
                  "2 also module life cycle); using 0", mca_coll_rsag_component.verbose);
        mca_coll_rsag_component.verbose = 0;
    }

    mca_coll_rsag_component.ring_segment_size = MCA_COLL_RSAG_DEFAULT_RING_SEGMENT;
    (void) mca_base_component_var_register(c, "allreduce_ring_segment_size",
                                           "Segment size in bytes of the ring algorithms "
                                           "(MPI_Allreduce ring and the reduce-scatter ring): "
                                           "blocks are sent and reduced in segments of this "
                                           "size, pipelined, so the temporary memory is four "
                                           "segments; 0 sends whole blocks; sizes below one "
                                           "element send one element per segment",
                                           MCA_BASE_VAR_TYPE_SIZE_T, NULL, 0,
                                           MCA_BASE_VAR_FLAG_SETTABLE, OPAL_INFO_LVL_6,
                                           MCA_BASE_VAR_SCOPE_ALL_EQ,
                                           &mca_coll_rsag_component.ring_segment_size);
    seg_asked = mca_coll_rsag_component.ring_segment_size;
    if (mca_coll_rsag_fix_segment_size(&mca_coll_rsag_component.ring_segment_size,
                                       MCA_COLL_RSAG_DEFAULT_RING_SEGMENT)) {
        MCA_COLL_RSAG_WARN("coll_rsag_allreduce_ring_segment_size = %zu is not a size (a negative "
                  "value?); valid: 0 (whole blocks) or a byte count; using %zu",
                  seg_asked, MCA_COLL_RSAG_DEFAULT_RING_SEGMENT);
    }

    mca_coll_rsag_component.priority_chunks = MCA_COLL_RSAG_DEFAULT_PRIORITY_CHUNKS;
    (void) mca_base_component_var_register(c, "priority_chunks",
                                           "Blocks per message of the priority-aware "
                                           "reduce-scatter (a power of two from 1 to 65536; "
                                           "others are rounded down or clamped): 1 sends every rank block as its "
                                           "own message as in the paper, larger values group "
                                           "blocks into fewer, larger messages",
                                           MCA_BASE_VAR_TYPE_INT, NULL, 0,
                                           MCA_BASE_VAR_FLAG_SETTABLE, OPAL_INFO_LVL_6,
                                           MCA_BASE_VAR_SCOPE_ALL_EQ,
                                           &mca_coll_rsag_component.priority_chunks);
    chunks_asked = mca_coll_rsag_component.priority_chunks;
    if (mca_coll_rsag_fix_priority_chunks(&mca_coll_rsag_component.priority_chunks)) {
        MCA_COLL_RSAG_WARN("coll_rsag_priority_chunks = %d is invalid (valid: a power of two from 1 "
                  "to %d); using %d", chunks_asked, MCA_COLL_RSAG_MAX_PRIORITY_CHUNKS,
                  mca_coll_rsag_component.priority_chunks);
    }

    mca_coll_rsag_register_classes();
    mca_coll_rsag_mem_register(c);
    mca_coll_rsag_op_register(c);
    mca_coll_rsag_segment_register(c);
    mca_coll_rsag_request_register(c);
    mca_coll_rsag_check_register(c);

    for (int coll = 0; coll < MCA_COLL_RSAG_NUM_COLLS; ++coll) {
        rc = mca_coll_rsag_register_collective((mca_coll_rsag_coll_t) coll);
        if (OPAL_SUCCESS != rc) {
            return rc;
        }
    }
    return OMPI_SUCCESS;
}

static int mca_coll_rsag_open(void)
{
    mca_coll_rsag_component.output = opal_output_open(NULL);
    opal_output_set_verbosity(mca_coll_rsag_component.output,
                              mca_coll_rsag_component.verbose);
    return OMPI_SUCCESS;
}

static int mca_coll_rsag_close(void)
{
    mca_coll_rsag_request_close();
    if (mca_coll_rsag_component.output >= 0) {
        opal_output_close(mca_coll_rsag_component.output);
        mca_coll_rsag_component.output = -1;
    }
    return OMPI_SUCCESS;
}
