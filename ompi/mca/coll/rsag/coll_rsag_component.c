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
 *   coll_rsag_allreduce_ring_chunk_size, coll_rsag_reduce_scatter_ring_chunk_size
 *                                       bytes per message of each ring
 *   coll_rsag_priority_aware_run_blocks vblocks per message of priority_aware
 *   coll_rsag_<coll>_hierarchical_inter_algorithm
 *                                       the cross-node step of hierarchical
 *   coll_rsag_hierarchical_chunk_size   the pipeline of hierarchical (chunk bytes)
 *   coll_rsag_exchange_chunk_size       largest message of circulant's and ordered's runs
 *                                       and of exchanges across nodes
 *   coll_rsag_scratch_max_bytes, coll_rsag_test_alloc_fail (coll_rsag_mem.c)
 *   coll_rsag_op_selftest               test the op framework at start-up (coll_rsag_op.c)
 *   coll_rsag_segment_size, coll_rsag_single_copy, coll_rsag_direct_chunk_size,
 *   coll_rsag_direct_cma_min_bytes, coll_rsag_direct_stream,
 *   coll_rsag_direct_stream_min_bytes, coll_rsag_test_node_fail
 *                                       the node path (coll_rsag_segment.c)
 *   coll_rsag_reproducible              off, placement or exact
 *                                       (coll_rsag_reproducible.c)
 *   coll_rsag_persistent_starts_ordered the program's persistent starts are
 *                                       ordered: direct may serve them
 *                                       (coll_rsag_request.c)
 * All of them come from the algorithm tables (coll_rsag_algorithms.h).
 * The algorithm, threshold and class parameters may also be written at run
 * time through MPI_T (they are read on every call; the selector and the
 * algorithms accept any value there).
 *
 * Former names (deprecated synonyms: ompi_info marks them, Open MPI warns
 * once per job when one is set, and they still work):
 *   coll_rsag_<coll>_priority_min_bytes -> coll_rsag_<coll>_priority_aware_min_bytes
 *   coll_rsag_priority_chunks           -> coll_rsag_priority_aware_run_blocks
 *   coll_rsag_allreduce_ring_segment_size -> both rings' chunk sizes (a
 *                                       synonym of the allreduce one; the
 *                                       reduce-scatter ring takes its value
 *                                       unless its own name is set)
 * and the value "priority" of the algorithm enums (= priority_aware).
 *
 * Hostile settings are checked once, at registration: each one that cannot
 * be used is replaced by a safe value and named, with the valid values, in
 * one message per job (help-coll-rsag.txt, coll_rsag_help.h), and the job
 * goes on.
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
#include "coll_rsag_direct.h"
#include "coll_rsag_exact.h"
#include "coll_rsag_fill.h"
#include "coll_rsag_help.h"
#include "coll_rsag_index.h"
#include "coll_rsag_latency.h"
#include "coll_rsag_op.h"
#include "coll_rsag_request.h"
#include "coll_rsag_reproducible.h"

/* Above coll/tuned (30) and coll/han (35 in Open MPI 5.0): installing the
 * component is enough for it to take the reductions. */
#define MCA_COLL_RSAG_DEFAULT_PRIORITY 40
#define MCA_COLL_RSAG_MAX_PRIORITY 100
/* Ring chunks, measured with the ring allreduce and reduce-scatter at
 * np 2 and 4, 1-64 MB: 64 KB chunks took 1.06-1.41x the time of 256 KB;
 * 1 MB ones 0.73-1.37x (a tie within the noise), with four times the
 * receive-slot memory; whole blocks 1.6-2.2x at 64 MB. */
#define MCA_COLL_RSAG_DEFAULT_RING_CHUNK ((size_t) 256 * 1024)
#define MCA_COLL_RSAG_DEFAULT_RUN_BLOCKS 1
/* What a ring chunk size holds while the former name is looked up: a
 * value no one sets (its top bit makes it invalid anyway). */
#define MCA_COLL_RSAG_CHUNK_UNSET (SIZE_MAX - 0x5253)

static int mca_coll_rsag_register(void);
static int mca_coll_rsag_open(void);
static int mca_coll_rsag_close(void);

/* rsag's own version (configure.ac's AC_INIT, as -D flags from configure);
 * PACKAGE_VERSION here would be Open MPI's (opal_config.h). */
#ifndef MCA_COLL_RSAG_MAJOR_VERSION
#error "MCA_COLL_RSAG_*_VERSION come from configure (build with ./configure && make)"
#endif
const char *mca_coll_rsag_component_version_string =
    "Open MPI rsag collective MCA component version " MCA_COLL_RSAG_VERSION;

mca_coll_rsag_component_t mca_coll_rsag_component = {
    .super = {
        .collm_version = {
            MCA_COLL_RSAG_BASE_VERSION,
            .mca_component_name = "rsag",
            MCA_BASE_MAKE_VERSION(component, MCA_COLL_RSAG_MAJOR_VERSION,
                                  MCA_COLL_RSAG_MINOR_VERSION, MCA_COLL_RSAG_RELEASE_VERSION),
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

/* Settings that must be replaced say so, with the valid values: one line
 * each, printed together once per job at the end of registration
 * (coll_rsag_help.h). */
#define MCA_COLL_RSAG_WARN(...) mca_coll_rsag_warn_setting(__VA_ARGS__)

/* Register the former name of variable `index` (coll_rsag_<name>) as a
 * deprecated synonym: ompi_info marks it deprecated, Open MPI warns when
 * it is set (once per job: its show_help aggregation) and it keeps
 * working. */
static void mca_coll_rsag_register_former_name(int index, const char *name)
{
    if (index >= 0) {
        (void) mca_base_var_register_synonym(index, "ompi", "coll", "rsag", name,
                                             MCA_BASE_VAR_SYN_FLAG_DEPRECATED);
    }
}

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

/* The former algorithm names (coll_rsag_algorithms.h), old and current. */
static const struct {
    const char *old, *current;
} mca_coll_rsag_former_names[] = {
#define MCA_COLL_RSAG_FORMER_ROW(old, current) { old, current },
    MCA_COLL_RSAG_DEPRECATED_ALG_NAMES(MCA_COLL_RSAG_FORMER_ROW)
#undef MCA_COLL_RSAG_FORMER_ROW
};
#define MCA_COLL_RSAG_NUM_FORMER_NAMES \
    (sizeof(mca_coll_rsag_former_names) / sizeof(mca_coll_rsag_former_names[0]))
/* Room for an algorithm enum: auto, the table, the former names, the end. */
#define MCA_COLL_RSAG_ENUM_ROOM (MCA_COLL_RSAG_MAX_ALGS + 2 + MCA_COLL_RSAG_NUM_FORMER_NAMES)

/* The former name of algorithm `name`, or NULL. */
static const char *mca_coll_rsag_former_name(const char *name)
{
    for (size_t i = 0; i < MCA_COLL_RSAG_NUM_FORMER_NAMES; ++i) {
        if (0 == strcmp(mca_coll_rsag_former_names[i].current, name)) {
            return mca_coll_rsag_former_names[i].old;
        }
    }
    return NULL;
}

/* Append to the n enum values the former names of those among them (same
 * value, after every current name: a value prints as its current name),
 * and the terminating entry; the help text says they are deprecated. */
static void mca_coll_rsag_add_former_values(mca_base_var_enum_value_t *values, int n,
                                            char *help, size_t len)
{
    size_t used = strlen(help);
    int m = n;

    for (int i = 1; i < n; ++i) {
        const char *old = mca_coll_rsag_former_name(values[i].string);

        if (NULL == old) {
            continue;
        }
        values[m].value = values[i].value;
        values[m].string = old;
        ++m;
        if (used < len) {
            used += (size_t) snprintf(help + used, len - used,
                                      "; %s (%d): deprecated name of %s", old,
                                      values[i].value, values[i].string);
        }
    }
    values[m].value = 0;
    values[m].string = NULL;
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
        MCA_COLL_RSAG_WARN("ignoring the invalid coll_rsag_%s setting; using auto", name);
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
    mca_base_var_enum_value_t values[MCA_COLL_RSAG_ENUM_ROOM];
    char name[128], help[640], enum_name[128];
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
    if (used < sizeof(help)) {
        snprintf(help + used, sizeof(help) - used, ", used when it applies (else auto)");
    }
    mca_coll_rsag_add_former_values(values, n, help, sizeof(help));
    snprintf(enum_name, sizeof(enum_name), "coll_rsag_%s_hierarchical_inter_algorithms",
             desc->name);
    snprintf(name, sizeof(name), "%s_hierarchical_inter_algorithm", desc->name);
    return mca_coll_rsag_register_algorithm_enum(name, enum_name, values, help, OPAL_INFO_LVL_6,
                                                 &mca_coll_rsag_component.hier_inter[coll]);
}

/* coll_rsag_<coll>_<alg>_min_bytes (and the former name's synonym) and
 * the MPI_T counter coll_rsag_<coll>_<alg>_calls. */
static int mca_coll_rsag_register_threshold(mca_coll_rsag_coll_t coll,
                                            const mca_coll_rsag_alg_desc_t *alg)
{
    const mca_base_component_t *c = &mca_coll_rsag_component.super.collm_version;
    const mca_coll_rsag_coll_desc_t *desc = &mca_coll_rsag_colls[coll];
    mca_coll_rsag_tuning_t *tuning = &mca_coll_rsag_component.tuning[coll];
    const char *old = mca_coll_rsag_former_name(alg->name);
    char name[128], help[1024], defaults[160];
    long asked;
    int index;

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
    index = mca_base_component_var_register(c, name, help, MCA_BASE_VAR_TYPE_LONG, NULL, 0,
                                            MCA_BASE_VAR_FLAG_SETTABLE, OPAL_INFO_LVL_6,
                                            MCA_BASE_VAR_SCOPE_ALL_EQ,
                                            &tuning->min_bytes[alg->id]);
    if (index < 0) {
        return index;
    }
    if (NULL != old) {
        char former[128];

        snprintf(former, sizeof(former), "%s_%s_min_bytes", desc->name, old);
        mca_coll_rsag_register_former_name(index, former);
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
    return OPAL_SUCCESS;
}

/* coll_rsag_<coll>_leaders_max_bytes: below it auto takes `leaders`
 * where it applies (coll_rsag_algorithms.h, "Below these sizes"). */
static void mca_coll_rsag_register_max_bytes(mca_coll_rsag_coll_t coll)
{
    const mca_base_component_t *c = &mca_coll_rsag_component.super.collm_version;
    const mca_coll_rsag_coll_desc_t *desc = &mca_coll_rsag_colls[coll];
    mca_coll_rsag_tuning_t *tuning = &mca_coll_rsag_component.tuning[coll];
    char name[128], help[640];

    for (int i = 0; i < desc->nalgs; ++i) {
        long def = tuning->max_bytes[desc->algs[i].id];

        if (def < 0) {
            continue;           /* only rows with a compiled-in bound have one */
        }
        snprintf(name, sizeof(name), "%s_%s_max_bytes", desc->name, desc->algs[i].name);
        snprintf(help, sizeof(help),
                 "auto uses %s for %s messages of fewer than this many bytes (count * type "
                 "size) wherever its restrictions (%s) are met, ahead of the *_min_bytes "
                 "thresholds; 0: never by this rule (default %ld, provisional)",
                 desc->algs[i].name, desc->mpi_name,
                 mca_coll_rsag_restriction_text(desc->algs[i].restrictions), def);
        (void) mca_base_component_var_register(c, name, help, MCA_BASE_VAR_TYPE_LONG, NULL, 0,
                                               MCA_BASE_VAR_FLAG_SETTABLE, OPAL_INFO_LVL_6,
                                               MCA_BASE_VAR_SCOPE_ALL_EQ,
                                               &tuning->max_bytes[desc->algs[i].id]);
        if (tuning->max_bytes[desc->algs[i].id] < 0) {
            MCA_COLL_RSAG_WARN("coll_rsag_%s = %ld is invalid (valid: a byte count >= 0); "
                               "using %ld", name, tuning->max_bytes[desc->algs[i].id], def);
            tuning->max_bytes[desc->algs[i].id] = def;
        }
    }
}

/* Register coll_rsag_<coll>_algorithm (enum built from the table) and one
 * threshold and one MPI_T counter per algorithm, plus the delegation
 * counter. */
static int mca_coll_rsag_register_collective(mca_coll_rsag_coll_t coll)
{
    const mca_coll_rsag_coll_desc_t *desc = &mca_coll_rsag_colls[coll];
    mca_coll_rsag_tuning_t *tuning = &mca_coll_rsag_component.tuning[coll];
    mca_base_var_enum_value_t values[MCA_COLL_RSAG_ENUM_ROOM];
    char name[128], help[2048], enum_name[128];
    size_t used;
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
    mca_coll_rsag_add_former_values(values, desc->nalgs + 1, help, sizeof(help));

    snprintf(enum_name, sizeof(enum_name), "coll_rsag_%s_algorithms", desc->name);
    snprintf(name, sizeof(name), "%s_algorithm", desc->name);
    rc = mca_coll_rsag_register_algorithm_enum(name, enum_name, values, help, OPAL_INFO_LVL_5,
                                               &tuning->forced);
    for (int i = 0; OPAL_SUCCESS == rc && i < desc->nalgs; ++i) {
        rc = mca_coll_rsag_register_threshold(coll, &desc->algs[i]);
    }
    if (OPAL_SUCCESS != rc) {
        return rc;
    }

    snprintf(name, sizeof(name), "%s_delegated_calls", desc->name);
    snprintf(help, sizeof(help),
             "Number of %s calls rsag handed to the previous coll module", desc->mpi_name);
    mca_coll_rsag_register_counter(name, help, &mca_coll_rsag_component.calls[coll][0]);

    mca_coll_rsag_register_max_bytes(coll);
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
    mca_coll_rsag_component.oversubscribed_defaults = true;
    (void) mca_base_component_var_register(
        c, "oversubscribed_defaults",
        "On a node that runs more processes than it has cores (Open MPI then yields the core "
        "when idle: mpirun's choice there, or mpi_yield_when_idle), rsag takes the defaults "
        "measured there: every one-node communicator takes the \"oversubscribed node\" "
        "defaults of the *_min_bytes thresholds (direct at every size), whatever its size, and "
        "direct copies through the node's segment (no CMA, unless coll_rsag_single_copy or "
        "coll_rsag_direct_cma_min_bytes is set). false: the defaults of a node with a core per "
        "process (default true)",
        MCA_BASE_VAR_TYPE_BOOL, NULL, 0, MCA_BASE_VAR_FLAG_SETTABLE, OPAL_INFO_LVL_6,
        MCA_BASE_VAR_SCOPE_ALL_EQ, &mca_coll_rsag_component.oversubscribed_defaults);
}

/* coll_rsag_priority and coll_rsag_verbose. */
static void mca_coll_rsag_register_basics(const mca_base_component_t *c)
{
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
}

/* coll_rsag_<coll>_ring_chunk_size of one ring into *storage; returns the
 * variable's index. */
static int mca_coll_rsag_register_chunk_size(const mca_base_component_t *c, const char *coll,
                                             const char *rings, size_t *storage)
{
    char name[64], help[512];

    snprintf(name, sizeof(name), "%s_ring_chunk_size", coll);
    snprintf(help, sizeof(help),
             "Chunk size in bytes of the %s ring: blocks are sent and reduced in chunks of "
             "this size, pipelined, so the temporary memory is four chunks; 0 sends whole "
             "blocks; sizes below one element send one element per chunk. "
             "coll_rsag_allreduce_ring_segment_size, its former name (deprecated), sets "
             "both rings' chunk sizes", rings);
    *storage = MCA_COLL_RSAG_DEFAULT_RING_CHUNK;
    return mca_base_component_var_register(c, name, help, MCA_BASE_VAR_TYPE_SIZE_T, NULL, 0,
                                           MCA_BASE_VAR_FLAG_SETTABLE, OPAL_INFO_LVL_6,
                                           MCA_BASE_VAR_SCOPE_ALL_EQ, storage);
}

/* A chunk size that is not a size (a negative number) says so and takes
 * the default; `zero` says what 0 means. */
static void mca_coll_rsag_check_chunk(const char *name, const char *zero, size_t dflt,
                                      size_t *storage)
{
    size_t asked = *storage;

    if (mca_coll_rsag_fix_chunk_size(storage, dflt)) {
        MCA_COLL_RSAG_WARN("coll_rsag_%s = %zu is not a size (a negative value?); valid: 0 "
                           "(%s) or a byte count; using %zu",
                           name, asked, zero, dflt);
    }
}

/* The two rings' chunk sizes, and their former common name
 * coll_rsag_allreduce_ring_segment_size.  One synonym aliases one
 * variable, so it is the allreduce one's, looked up with the allreduce
 * value parked on a marker: a value there afterwards came from the former
 * name, and it goes to each ring whose own name is not set. */
static void mca_coll_rsag_register_ring_chunks(const mca_base_component_t *c)
{
    size_t *ar = &mca_coll_rsag_component.allreduce_ring_chunk_size;
    size_t *rs = &mca_coll_rsag_component.rs_ring_chunk_size;
    mca_base_var_source_t ar_source = MCA_BASE_VAR_SOURCE_DEFAULT;
    mca_base_var_source_t rs_source = MCA_BASE_VAR_SOURCE_DEFAULT;
    int ar_index, rs_index;
    size_t ar_value;

    ar_index = mca_coll_rsag_register_chunk_size(c, "allreduce", "MPI_Allreduce", ar);
    rs_index = mca_coll_rsag_register_chunk_size(c, "reduce_scatter",
                                                 "reduce-scatter (MPI_Reduce_scatter and "
                                                 "MPI_Reduce_scatter_block)", rs);
    if (ar_index >= 0) {
        (void) mca_base_var_get_value(ar_index, NULL, &ar_source, NULL);
    }
    if (rs_index >= 0) {
        (void) mca_base_var_get_value(rs_index, NULL, &rs_source, NULL);
    }
    ar_value = *ar;
    *ar = MCA_COLL_RSAG_CHUNK_UNSET;
    mca_coll_rsag_register_former_name(ar_index, "allreduce_ring_segment_size");
    if (MCA_COLL_RSAG_CHUNK_UNSET != *ar) {           /* the former name is set */
        if (MCA_BASE_VAR_SOURCE_DEFAULT == rs_source) {
            *rs = *ar;
        }
        if (MCA_BASE_VAR_SOURCE_DEFAULT == ar_source) {
            ar_value = *ar;
        }
    }
    *ar = ar_value;
    mca_coll_rsag_check_chunk("allreduce_ring_chunk_size", "whole blocks",
                              MCA_COLL_RSAG_DEFAULT_RING_CHUNK, ar);
    mca_coll_rsag_check_chunk("reduce_scatter_ring_chunk_size", "whole blocks",
                              MCA_COLL_RSAG_DEFAULT_RING_CHUNK, rs);
}

/* coll_rsag_priority_aware_run_blocks, formerly coll_rsag_priority_chunks. */
static void mca_coll_rsag_register_run_blocks(const mca_base_component_t *c)
{
    int *storage = &mca_coll_rsag_component.priority_aware_run_blocks;
    int asked, index;

    *storage = MCA_COLL_RSAG_DEFAULT_RUN_BLOCKS;
    index = mca_base_component_var_register(c, "priority_aware_run_blocks",
                                            "Vblocks per message (a run) of the "
                                            "priority-aware reduce-scatter (a power of two "
                                            "from 1 to 65536; others are rounded down or "
                                            "clamped): 1 sends every vblock as its own "
                                            "message as in the paper, larger values group "
                                            "vblocks into fewer, larger messages. Former "
                                            "name (deprecated): coll_rsag_priority_chunks",
                                            MCA_BASE_VAR_TYPE_INT, NULL, 0,
                                            MCA_BASE_VAR_FLAG_SETTABLE, OPAL_INFO_LVL_6,
                                            MCA_BASE_VAR_SCOPE_ALL_EQ, storage);
    mca_coll_rsag_register_former_name(index, "priority_chunks");
    asked = *storage;
    if (mca_coll_rsag_fix_run_blocks(storage)) {
        MCA_COLL_RSAG_WARN("coll_rsag_priority_aware_run_blocks = %d is invalid (valid: a power "
                           "of two from 1 to %d); using %d", asked, MCA_COLL_RSAG_MAX_RUN_BLOCKS,
                           *storage);
    }
}

/* A chunk size of its own (coll_rsag_<name>), checked. */
static void mca_coll_rsag_register_chunk(const mca_base_component_t *c, const char *name,
                                         const char *help, const char *zero, size_t dflt,
                                         size_t *storage)
{
    *storage = dflt;
    (void) mca_base_component_var_register(c, name, help, MCA_BASE_VAR_TYPE_SIZE_T, NULL, 0,
                                           MCA_BASE_VAR_FLAG_SETTABLE, OPAL_INFO_LVL_6,
                                           MCA_BASE_VAR_SCOPE_ALL_EQ, storage);
    mca_coll_rsag_check_chunk(name, zero, dflt, storage);
}

/* coll_rsag_hierarchical_chunk_size (its default,
 * MCA_COLL_RSAG_HIER_DEFAULT_CHUNK, is in coll_rsag_index.h, where the
 * cost model reads it too) and coll_rsag_exchange_chunk_size. */
static void mca_coll_rsag_register_chunks(const mca_base_component_t *c)
{
    mca_coll_rsag_register_chunk(
        c, "hierarchical_chunk_size",
        "Chunk size in bytes of the pipelined hierarchical collectives: the vector is cut "
        "into chunks of about this size (at most 256 of them), and the node phases of one "
        "chunk overlap the cross-node phase of another (doc/hierarchical.md); 0 runs the "
        "phases one after the other on the whole vector (so do in-place reduce-scatters)",
        "not pipelined", MCA_COLL_RSAG_HIER_DEFAULT_CHUNK,
        &mca_coll_rsag_component.hier_chunk_size);
    mca_coll_rsag_register_chunk(
        c, "exchange_chunk_size",
        "Largest message in bytes where an algorithm sends a run of blocks at once "
        "(circulant's rounds, ordered's exchange) and of the exchanges with a peer on "
        "another node (recursive halving and doubling, Rabenseifner): a run travels in "
        "messages of at most this size, all in flight, each reduced as it arrives; below "
        "the transport's eager limit (ob1 over TCP: 64 KB) no message waits for a "
        "rendezvous handshake (doc/parameters.md); 0 sends each run whole",
        "whole runs", MCA_COLL_RSAG_EXCHANGE_DEFAULT_CHUNK,
        &mca_coll_rsag_component.exchange_chunk_size);
}

static int mca_coll_rsag_register(void)
{
    const mca_base_component_t *c = &mca_coll_rsag_component.super.collm_version;
    int rc = OMPI_SUCCESS;

    mca_coll_rsag_help_init();
    mca_coll_rsag_register_basics(c);
    mca_coll_rsag_register_ring_chunks(c);
    mca_coll_rsag_register_run_blocks(c);
    mca_coll_rsag_register_chunks(c);
    mca_coll_rsag_register_classes();
    mca_coll_rsag_mem_register(c);
    mca_coll_rsag_op_register(c);
    mca_coll_rsag_segment_register(c);
    mca_coll_rsag_direct_register(c);
    mca_coll_rsag_request_register(c);
    mca_coll_rsag_latency_register(c);
    mca_coll_rsag_check_register(c);
    mca_coll_rsag_fill_register(c);
    mca_coll_rsag_reproducible_register(c);
    mca_coll_rsag_exact_register(c);

    for (int coll = 0; OMPI_SUCCESS == rc && coll < MCA_COLL_RSAG_NUM_COLLS; ++coll) {
        rc = mca_coll_rsag_register_collective((mca_coll_rsag_coll_t) coll);
    }
    mca_coll_rsag_warn_settings_flush();
    return rc;
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
