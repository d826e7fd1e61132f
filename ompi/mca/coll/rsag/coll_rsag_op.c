/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * Reductions that stay right where the installed op framework is wrong.
 *
 * Once per process (from init_query, when Open MPI's predefined ops are
 * set up) rsag runs every predefined (datatype, op) pair it has a kernel
 * for through ompi_op_reduce and ompi_3buff_op_reduce, at vector lengths
 * around the SIMD widths, and compares with its own kernels
 * (coll_rsag_op_kernels.c).  Pairs that differ (for instance op/avx's
 * 8/16-bit MPI_SUM in Open MPI 4.1.4, #8045, or MIN/MAX on
 * MPI_UNSIGNED_LONG compared as signed, #10525) get rsag's kernel in a
 * table; mca_coll_rsag_op_reduce / _reduce3 (coll_rsag_op.h) look the pair up
 * once per call and use the kernel or Open MPI's op.
 * coll_rsag_op_selftest=0 skips the test (and with it every replacement).
 */
#include "ompi_config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mpi.h"
#include "opal/mca/base/mca_base_var.h"
#include "opal/util/output.h"
#include "ompi/constants.h"
#include "ompi/datatype/ompi_datatype.h"
#include "ompi/op/op.h"
#include "opal/util/proc.h"

#include "coll_rsag.h"
#include "coll_rsag_op.h"

mca_coll_rsag_opk_fn_t mca_coll_rsag_op_fixes[MCA_COLL_RSAG_OP_PATHS][OMPI_OP_BASE_FORTRAN_OP_MAX]
                                             [OMPI_DATATYPE_MAX_PREDEFINED];

static bool mca_coll_rsag_op_selftest_enabled = true;
static bool mca_coll_rsag_op_tested = false;

/* The predefined datatypes the self-test covers, with the C layout of an
 * element; a type whose extent differs from that layout (a Fortran type
 * of another size, or one Open MPI was built without) is skipped. */
typedef struct {
    MPI_Datatype dtype;
    mca_coll_rsag_opk_kind_t kind;
} mca_coll_rsag_op_type_t;

static const mca_coll_rsag_op_type_t mca_coll_rsag_op_types[] = {
    { MPI_CHAR, CHAR_MIN < 0 ? MCA_COLL_RSAG_OPK_INT8 : MCA_COLL_RSAG_OPK_UINT8 },
    { MPI_SIGNED_CHAR, MCA_COLL_RSAG_OPK_INT8 },
    { MPI_UNSIGNED_CHAR, MCA_COLL_RSAG_OPK_UINT8 },
    { MPI_BYTE, MCA_COLL_RSAG_OPK_UINT8 },
    { MPI_SHORT, MCA_COLL_RSAG_OPK_INT16 },
    { MPI_UNSIGNED_SHORT, MCA_COLL_RSAG_OPK_UINT16 },
    { MPI_INT, MCA_COLL_RSAG_OPK_INT32 },
    { MPI_UNSIGNED, MCA_COLL_RSAG_OPK_UINT32 },
    { MPI_LONG, MCA_COLL_RSAG_OPK_LONG },
    { MPI_UNSIGNED_LONG, MCA_COLL_RSAG_OPK_ULONG },
    { MPI_LONG_LONG, MCA_COLL_RSAG_OPK_INT64 },
    { MPI_UNSIGNED_LONG_LONG, MCA_COLL_RSAG_OPK_UINT64 },
    { MPI_INT8_T, MCA_COLL_RSAG_OPK_INT8 },
    { MPI_UINT8_T, MCA_COLL_RSAG_OPK_UINT8 },
    { MPI_INT16_T, MCA_COLL_RSAG_OPK_INT16 },
    { MPI_UINT16_T, MCA_COLL_RSAG_OPK_UINT16 },
    { MPI_INT32_T, MCA_COLL_RSAG_OPK_INT32 },
    { MPI_UINT32_T, MCA_COLL_RSAG_OPK_UINT32 },
    { MPI_INT64_T, MCA_COLL_RSAG_OPK_INT64 },
    { MPI_UINT64_T, MCA_COLL_RSAG_OPK_UINT64 },
    { MPI_AINT, MCA_COLL_RSAG_OPK_INT64 },
    { MPI_OFFSET, MCA_COLL_RSAG_OPK_INT64 },
    { MPI_COUNT, MCA_COLL_RSAG_OPK_INT64 },
    { MPI_FLOAT, MCA_COLL_RSAG_OPK_FLOAT },
    { MPI_DOUBLE, MCA_COLL_RSAG_OPK_DOUBLE },
    { MPI_LONG_DOUBLE, MCA_COLL_RSAG_OPK_LDOUBLE },
    { MPI_C_BOOL, MCA_COLL_RSAG_OPK_BOOL },
    { MPI_C_FLOAT_COMPLEX, MCA_COLL_RSAG_OPK_CFLOAT },
    { MPI_C_DOUBLE_COMPLEX, MCA_COLL_RSAG_OPK_CDOUBLE },
    { MPI_C_LONG_DOUBLE_COMPLEX, MCA_COLL_RSAG_OPK_CLDOUBLE },
    { MPI_FLOAT_INT, MCA_COLL_RSAG_OPK_PAIR_FLOAT_INT },
    { MPI_DOUBLE_INT, MCA_COLL_RSAG_OPK_PAIR_DOUBLE_INT },
    { MPI_LONG_INT, MCA_COLL_RSAG_OPK_PAIR_LONG_INT },
    { MPI_2INT, MCA_COLL_RSAG_OPK_PAIR_INT_INT },
    { MPI_SHORT_INT, MCA_COLL_RSAG_OPK_PAIR_SHORT_INT },
    { MPI_LONG_DOUBLE_INT, MCA_COLL_RSAG_OPK_PAIR_LDOUBLE_INT },
    /* Fortran types, by the C type of the same size. */
    { MPI_INTEGER, MCA_COLL_RSAG_OPK_INT32 },
    { MPI_LOGICAL, MCA_COLL_RSAG_OPK_INT32 },
    { MPI_REAL, MCA_COLL_RSAG_OPK_FLOAT },
    { MPI_DOUBLE_PRECISION, MCA_COLL_RSAG_OPK_DOUBLE },
    { MPI_COMPLEX, MCA_COLL_RSAG_OPK_CFLOAT },
    { MPI_DOUBLE_COMPLEX, MCA_COLL_RSAG_OPK_CDOUBLE },
    { MPI_2INTEGER, MCA_COLL_RSAG_OPK_PAIR_INT_INT },
    { MPI_2REAL, MCA_COLL_RSAG_OPK_PAIR_FLOAT_FLOAT },
    { MPI_2DOUBLE_PRECISION, MCA_COLL_RSAG_OPK_PAIR_DOUBLE_DOUBLE },
#if OMPI_HAVE_FORTRAN_INTEGER1
    { MPI_INTEGER1, MCA_COLL_RSAG_OPK_INT8 },
#endif
#if OMPI_HAVE_FORTRAN_INTEGER2
    { MPI_INTEGER2, MCA_COLL_RSAG_OPK_INT16 },
#endif
#if OMPI_HAVE_FORTRAN_INTEGER4
    { MPI_INTEGER4, MCA_COLL_RSAG_OPK_INT32 },
#endif
#if OMPI_HAVE_FORTRAN_INTEGER8
    { MPI_INTEGER8, MCA_COLL_RSAG_OPK_INT64 },
#endif
#if OMPI_HAVE_FORTRAN_REAL4
    { MPI_REAL4, MCA_COLL_RSAG_OPK_FLOAT },
#endif
#if OMPI_HAVE_FORTRAN_REAL8
    { MPI_REAL8, MCA_COLL_RSAG_OPK_DOUBLE },
#endif
};

static const struct {
    MPI_Op op;
    mca_coll_rsag_opk_op_t which;
} mca_coll_rsag_op_ops[] = {
#define MCA_COLL_RSAG_OP_PAIR(o) { MPI_##o, MCA_COLL_RSAG_OPK_OP_##o },
    MCA_COLL_RSAG_OPK_OPS(MCA_COLL_RSAG_OP_PAIR)
#undef MCA_COLL_RSAG_OP_PAIR
};

/* Lengths around the SIMD widths (16, 32, 64 bytes of 1-8 byte elements)
 * and one long vector. */
static const size_t mca_coll_rsag_op_lengths[] = { 1, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65,
                                          127, 128, 129, 1031 };
#define MCA_COLL_RSAG_OP_MAX_LENGTH 1031
#define MCA_COLL_RSAG_OP_MAX_ELEMENT 32          /* long double _Complex */

void mca_coll_rsag_op_register(const mca_base_component_t *c)
{
    mca_coll_rsag_op_selftest_enabled = true;
    (void) mca_base_component_var_register(c, "op_selftest",
                                           "Test Open MPI's predefined reduction ops once "
                                           "per process at start-up and reduce the (type, op) "
                                           "pairs that give wrong results with rsag's own "
                                           "kernels (coll_rsag_verbose >= 1 lists them); "
                                           "false trusts the op framework",
                                           MCA_BASE_VAR_TYPE_BOOL, NULL, 0, 0,
                                           OPAL_INFO_LVL_5, MCA_BASE_VAR_SCOPE_READONLY,
                                           &mca_coll_rsag_op_selftest_enabled);
}

/* Runs one (type, op) pair through one path of Open MPI at every test
 * length; true when every result equals rsag's kernel's. */
static bool mca_coll_rsag_op_path_right(int path, struct ompi_op_t *op, struct ompi_datatype_t *dtype,
                               mca_coll_rsag_opk_kind_t kind, mca_coll_rsag_opk_fn_t kernel,
                               char *a, char *b, char *got, char *want)
{
    size_t esize = mca_coll_rsag_opk_size(kind);
    uint64_t state = 0x5eed0000u + (uint64_t) dtype->id * 64 + (uint64_t) op->o_f_to_c_index;

    for (size_t l = 0; l < sizeof(mca_coll_rsag_op_lengths) / sizeof(mca_coll_rsag_op_lengths[0]); ++l) {
        size_t n = mca_coll_rsag_op_lengths[l];
        /* The long vector starts one element in, off the SIMD alignment
         * of malloc's buffers. */
        size_t skip = MCA_COLL_RSAG_OP_MAX_LENGTH == n ? esize : 0;
        char *x = a + skip, *y = b + skip, *g = got + skip, *w = want + skip;

        mca_coll_rsag_opk_fill(kind, x, n, &state);
        mca_coll_rsag_opk_fill(kind, y, n, &state);
        kernel(x, y, w, n);
        if (MCA_COLL_RSAG_OP_2BUFF == path) {
            memcpy(g, y, n * esize);
            ompi_op_reduce(op, x, g, n, dtype);               /* g = x (op) y */
        } else {
            ompi_3buff_op_reduce(op, x, y, g, (int) n, dtype); /* g = x (op) y */
        }
        if (mca_coll_rsag_opk_mismatch(kind, g, w, n) < n) {
            return false;
        }
    }
    return true;
}

/* Tests every pair of mca_coll_rsag_op_types x mca_coll_rsag_op_ops that both Open MPI and
 * rsag implement and fills mca_coll_rsag_op_fixes.  `names` receives the
 * replaced pairs for the verbose line; returns their number, *tested the
 * number of pairs tested. */
static int mca_coll_rsag_op_selftest(char *a, char *b, char *got, char *want, char *names,
                            size_t names_len, int *tested)
{
    /* 0 untested, else 4 | wrong 2-buffer (1) | wrong 3-buffer (2) */
    static unsigned char verdicts[OMPI_OP_BASE_FORTRAN_OP_MAX][OMPI_OP_BASE_TYPE_MAX]
                                 [MCA_COLL_RSAG_OPK_NUM_KINDS];
    size_t used = 0;
    int replaced = 0;

    *tested = 0;
    names[0] = '\0';
    for (size_t t = 0; t < sizeof(mca_coll_rsag_op_types) / sizeof(mca_coll_rsag_op_types[0]); ++t) {
        struct ompi_datatype_t *dtype = (struct ompi_datatype_t *) mca_coll_rsag_op_types[t].dtype;
        mca_coll_rsag_opk_kind_t kind = mca_coll_rsag_op_types[t].kind;
        ptrdiff_t lb, extent;
        int map;

        ompi_datatype_get_extent(dtype, &lb, &extent);
        if (!ompi_datatype_is_predefined(dtype) || dtype->id < 0
            || dtype->id >= OMPI_DATATYPE_MAX_PREDEFINED || 0 != lb
            || (size_t) extent != mca_coll_rsag_opk_size(kind)) {
            continue;
        }
        map = ompi_op_ddt_map[dtype->id];
        if (map < 0 || map >= OMPI_OP_BASE_TYPE_MAX) {
            continue;
        }
        for (size_t o = 0; o < sizeof(mca_coll_rsag_op_ops) / sizeof(mca_coll_rsag_op_ops[0]); ++o) {
            struct ompi_op_t *op = (struct ompi_op_t *) mca_coll_rsag_op_ops[o].op;
            mca_coll_rsag_opk_fn_t kernel = mca_coll_rsag_opk_get(kind, mca_coll_rsag_op_ops[o].which);
            bool wrong[MCA_COLL_RSAG_OP_PATHS];
            unsigned char *verdict;

            /* Only pairs MPI defines: Open MPI has a 2-buffer function. */
            if (NULL == kernel || NULL == op->o_func.intrinsic.fns[map]
                || op->o_f_to_c_index < 0 || op->o_f_to_c_index >= OMPI_OP_BASE_FORTRAN_OP_MAX) {
                continue;
            }
            ++*tested;
            /* Types sharing Open MPI's function and rsag's kernel (MPI_INT
             * and MPI_INT32_T, ...) share the verdict. */
            verdict = &verdicts[op->o_f_to_c_index][map][kind];
            if (0 == *verdict) {
                wrong[MCA_COLL_RSAG_OP_2BUFF] =
                    !mca_coll_rsag_op_path_right(MCA_COLL_RSAG_OP_2BUFF, op, dtype, kind, kernel, a, b,
                                        got, want);
                /* A missing 3-buffer function counts as wrong: rsag would call it. */
                wrong[MCA_COLL_RSAG_OP_3BUFF] =
                    NULL == op->o_3buff_intrinsic.fns[map]
                    || !mca_coll_rsag_op_path_right(MCA_COLL_RSAG_OP_3BUFF, op, dtype, kind, kernel, a,
                                           b, got, want);
                *verdict = (unsigned char) (4 | wrong[0] | wrong[1] << 1);
            }
            wrong[MCA_COLL_RSAG_OP_2BUFF] = 0 != (*verdict & 1);
            wrong[MCA_COLL_RSAG_OP_3BUFF] = 0 != (*verdict & 2);
            if (!wrong[0] && !wrong[1]) {
                continue;
            }
            for (int path = 0; path < MCA_COLL_RSAG_OP_PATHS; ++path) {
                if (wrong[path]) {
                    mca_coll_rsag_op_fixes[path][op->o_f_to_c_index][dtype->id] = kernel;
                }
            }
            ++replaced;
            if (used < names_len) {
                used += (size_t) snprintf(names + used, names_len - used, "%s%s/%s%s",
                                          replaced > 1 ? ", " : "", op->o_name, dtype->name,
                                          wrong[0] && wrong[1] ? ""
                                          : wrong[0]           ? " (2-buffer)"
                                                               : " (3-buffer)");
            }
        }
    }
    return replaced;
}

int mca_coll_rsag_op_init(void)
{
    char *a = NULL, *b = NULL, *got = NULL, *want = NULL, *names = NULL;
    const size_t bytes = (size_t) (MCA_COLL_RSAG_OP_MAX_LENGTH + 1) * MCA_COLL_RSAG_OP_MAX_ELEMENT;
    const size_t names_len = 4096;
    struct timespec t0, t1;
    int replaced, tested, level;
    double ms;

    if (mca_coll_rsag_op_tested) {
        return OMPI_SUCCESS;
    }
    mca_coll_rsag_op_tested = true;
    memset(mca_coll_rsag_op_fixes, 0, sizeof(mca_coll_rsag_op_fixes));
    if (!mca_coll_rsag_op_selftest_enabled) {
        opal_output_verbose(MCA_COLL_RSAG_VERBOSE_MODULE, mca_coll_rsag_component.output,
                            "coll:rsag: op self-test disabled (coll_rsag_op_selftest=0): "
                            "every reduction uses Open MPI's op framework");
        return OMPI_SUCCESS;
    }

    a = malloc(bytes);
    b = malloc(bytes);
    got = malloc(bytes);
    want = malloc(bytes);
    names = malloc(names_len);
    if (NULL == a || NULL == b || NULL == got || NULL == want || NULL == names) {
        /* rsag still works, on Open MPI's ops alone: say so and go on. */
        opal_output(0, "coll:rsag: out of memory for the op self-test; reductions use Open "
                       "MPI's op framework unchecked");
        goto cleanup;
    }
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
    replaced = mca_coll_rsag_op_selftest(a, b, got, want, names, names_len, &tested);
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
    ms = (double) (t1.tv_sec - t0.tv_sec) * 1e3 + (double) (t1.tv_nsec - t0.tv_nsec) / 1e6;

    /* Once per job at level 1 (the process of rank 0), every process at 2. */
    level = 0 == OPAL_PROC_MY_NAME.vpid ? MCA_COLL_RSAG_VERBOSE_DECISIONS
                                         : MCA_COLL_RSAG_VERBOSE_MODULE;
    if (replaced > 0) {
        opal_output_verbose(level, mca_coll_rsag_component.output,
                            "coll:rsag: op self-test: Open MPI's op framework gives wrong "
                            "results for %d of %d (op, type) pairs; rsag reduces them with "
                            "its own kernels: %s (self-test: %.1f ms of CPU)",
                            replaced, tested, names, ms);
    } else {
        opal_output_verbose(level, mca_coll_rsag_component.output,
                            "coll:rsag: op self-test: all %d (op, type) pairs of Open MPI's "
                            "op framework are right (self-test: %.1f ms of CPU)", tested, ms);
    }

cleanup:
    free(a);
    free(b);
    free(got);
    free(want);
    free(names);
    return OMPI_SUCCESS;
}
