/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * rsag_check_data.c -- the datatypes, ops and values of rsag_check (see
 * rsag_check_data.h).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <string.h>

#include "rsag_check_data.h"

opdesc ops[NOPS];
edesc elems[NELEM];
ttype types[MAXTYPES];
int ntypes;

typedef struct { float v; int i; } pair_float_int;
typedef struct { double v; int i; } pair_double_int;
typedef struct { long v; int i; } pair_long_int;
typedef struct { int v; int i; } pair_2int;
typedef struct { short v; int i; } pair_short_int;
typedef struct { long double v; int i; } pair_ldouble_int;

static void set_int(int e, const char *name, MPI_Datatype dt, int size, int sgn)
{
    edesc *d = &elems[e];
    d->name = name; d->dt = dt; d->cat = CAT_INT; d->size = size; d->sgn = sgn;
    d->esz = (size_t)size;
}

static void set_flt(int e, const char *name, MPI_Datatype dt, int cat, int fk, size_t esz)
{
    edesc *d = &elems[e];
    d->name = name; d->dt = dt; d->cat = cat; d->fk = fk; d->esz = esz;
    d->size = (int)(cat == CAT_CPLX ? esz / 2 : esz);
}

static void set_pair(int e, const char *name, MPI_Datatype dt, int pval_int, int size,
                     int fk, size_t idx_off, size_t esz)
{
    edesc *d = &elems[e];
    d->name = name; d->dt = dt; d->cat = CAT_PAIR; d->pval_int = pval_int;
    d->sgn = 1; d->size = size; d->fk = fk; d->idx_off = idx_off; d->esz = esz;
}

void init_elems(void)
{
    set_int(E_SCHAR, "MPI_SIGNED_CHAR", MPI_SIGNED_CHAR, sizeof(signed char), 1);
    set_int(E_UCHAR, "MPI_UNSIGNED_CHAR", MPI_UNSIGNED_CHAR, sizeof(unsigned char), 0);
    set_int(E_SHORT, "MPI_SHORT", MPI_SHORT, sizeof(short), 1);
    set_int(E_USHORT, "MPI_UNSIGNED_SHORT", MPI_UNSIGNED_SHORT, sizeof(unsigned short), 0);
    set_int(E_INT, "MPI_INT", MPI_INT, sizeof(int), 1);
    set_int(E_UNSIGNED, "MPI_UNSIGNED", MPI_UNSIGNED, sizeof(unsigned), 0);
    set_int(E_LONG, "MPI_LONG", MPI_LONG, sizeof(long), 1);
    set_int(E_ULONG, "MPI_UNSIGNED_LONG", MPI_UNSIGNED_LONG, sizeof(unsigned long), 0);
    set_int(E_LLONG, "MPI_LONG_LONG", MPI_LONG_LONG, sizeof(long long), 1);
    set_int(E_ULLONG, "MPI_UNSIGNED_LONG_LONG", MPI_UNSIGNED_LONG_LONG,
            sizeof(unsigned long long), 0);
    set_int(E_I8, "MPI_INT8_T", MPI_INT8_T, 1, 1);
    set_int(E_I16, "MPI_INT16_T", MPI_INT16_T, 2, 1);
    set_int(E_I32, "MPI_INT32_T", MPI_INT32_T, 4, 1);
    set_int(E_I64, "MPI_INT64_T", MPI_INT64_T, 8, 1);
    set_int(E_U8, "MPI_UINT8_T", MPI_UINT8_T, 1, 0);
    set_int(E_U16, "MPI_UINT16_T", MPI_UINT16_T, 2, 0);
    set_int(E_U32, "MPI_UINT32_T", MPI_UINT32_T, 4, 0);
    set_int(E_U64, "MPI_UINT64_T", MPI_UINT64_T, 8, 0);
    set_flt(E_FLOAT, "MPI_FLOAT", MPI_FLOAT, CAT_FLT, FK_FLOAT, sizeof(float));
    set_flt(E_DOUBLE, "MPI_DOUBLE", MPI_DOUBLE, CAT_FLT, FK_DOUBLE, sizeof(double));
    set_flt(E_LDOUBLE, "MPI_LONG_DOUBLE", MPI_LONG_DOUBLE, CAT_FLT, FK_LDOUBLE,
            sizeof(long double));
    set_flt(E_CFLOAT, "MPI_C_FLOAT_COMPLEX", MPI_C_FLOAT_COMPLEX, CAT_CPLX, FK_FLOAT,
            2 * sizeof(float));
    set_flt(E_CDOUBLE, "MPI_C_DOUBLE_COMPLEX", MPI_C_DOUBLE_COMPLEX, CAT_CPLX, FK_DOUBLE,
            2 * sizeof(double));
    elems[E_BOOL] = (edesc){ .name = "MPI_C_BOOL", .dt = MPI_C_BOOL, .cat = CAT_BOOL,
                             .size = sizeof(_Bool), .esz = sizeof(_Bool) };
    elems[E_BYTE] = (edesc){ .name = "MPI_BYTE", .dt = MPI_BYTE, .cat = CAT_BYTE,
                             .size = 1, .esz = 1 };
    set_pair(E_FLOAT_INT, "MPI_FLOAT_INT", MPI_FLOAT_INT, 0, sizeof(float), FK_FLOAT,
             offsetof(pair_float_int, i), sizeof(pair_float_int));
    set_pair(E_DOUBLE_INT, "MPI_DOUBLE_INT", MPI_DOUBLE_INT, 0, sizeof(double), FK_DOUBLE,
             offsetof(pair_double_int, i), sizeof(pair_double_int));
    set_pair(E_LONG_INT, "MPI_LONG_INT", MPI_LONG_INT, 1, sizeof(long), 0,
             offsetof(pair_long_int, i), sizeof(pair_long_int));
    set_pair(E_2INT, "MPI_2INT", MPI_2INT, 1, sizeof(int), 0,
             offsetof(pair_2int, i), sizeof(pair_2int));
    set_pair(E_SHORT_INT, "MPI_SHORT_INT", MPI_SHORT_INT, 1, sizeof(short), 0,
             offsetof(pair_short_int, i), sizeof(pair_short_int));
    set_pair(E_LDOUBLE_INT, "MPI_LONG_DOUBLE_INT", MPI_LONG_DOUBLE_INT, 0,
             sizeof(long double), FK_LDOUBLE, offsetof(pair_ldouble_int, i),
             sizeof(pair_ldouble_int));
    /* affine map x -> a*x + b (mod 2^64): two uint64, for the non-commutative op */
    MPI_Datatype aff;
    MPI_Type_contiguous(2, MPI_UINT64_T, &aff);
    MPI_Type_commit(&aff);
    elems[E_AFF] = (edesc){ .name = "affine(2xMPI_UINT64_T)", .dt = aff, .cat = CAT_AFF,
                            .size = 16, .esz = 16 };
}

/* ------------------------------------------------------------------------ */
/* datatypes under test                                                     */

static void finish_type(ttype *t)
{
    MPI_Type_get_extent(t->dt, &t->lb, &t->ext);
    MPI_Type_get_true_extent(t->dt, &t->tlb, &t->text);
}

static ttype *add_plain(int e)
{
    ttype *t = &types[ntypes++];
    memset(t, 0, sizeof(*t));
    snprintf(t->name, sizeof(t->name), "%s", elems[e].name);
    t->dt = elems[e].dt;
    t->el = &elems[e];
    t->nel = 1;
    t->off[0] = 0;
    t->plain = 1;
    t->derived = (e == E_AFF);
    finish_type(t);
    return t;
}

static void add_derived(int e)
{
    const edesc *el = &elems[e];
    MPI_Aint x = (MPI_Aint)el->esz;
    MPI_Datatype base = el->dt, tmp;
    ttype *t;

    /* vector of 3 blocks of 1, stride 2: holes between the elements */
    t = &types[ntypes++];
    memset(t, 0, sizeof(*t));
    snprintf(t->name, sizeof(t->name), "vector(3,1,2,%s)", el->name);
    MPI_Type_vector(3, 1, 2, base, &t->dt);
    t->nel = 3; t->off[0] = 0; t->off[1] = 2 * x; t->off[2] = 4 * x;

    /* one element, extent resized to 3 elements: a hole after the data */
    t = &types[ntypes++];
    memset(t, 0, sizeof(*t));
    snprintf(t->name, sizeof(t->name), "resized(%s,lb=0,extent=%ld)", el->name,
             (long)(3 * x));
    MPI_Type_create_resized(base, 0, 3 * x, &t->dt);
    t->nel = 1; t->off[0] = 0;

    /* lower bound -8: the hole of item 0 is below the buffer origin */
    t = &types[ntypes++];
    memset(t, 0, sizeof(*t));
    snprintf(t->name, sizeof(t->name), "resized(%s,lb=-8,extent=%ld)", el->name,
             (long)(x + 8));
    MPI_Type_create_resized(base, -8, x + 8, &t->dt);
    t->nel = 1; t->off[0] = 0;

    /* hindexed with a negative displacement: true lb < 0, type map not in
     * address order, a hole of one element between the blocks */
    t = &types[ntypes++];
    memset(t, 0, sizeof(*t));
    snprintf(t->name, sizeof(t->name), "hindexed({1,2},{0,%ld},%s)", (long)(-3 * x),
             el->name);
    {
        int bl[2] = { 1, 2 };
        MPI_Aint dp[2] = { 0, -3 * x };
        MPI_Type_create_hindexed(2, bl, dp, base, &tmp);
        t->dt = tmp;
    }
    t->nel = 3; t->off[0] = 0; t->off[1] = -3 * x; t->off[2] = -2 * x;

    for (ttype *d = t - 3; d <= t; d++) {
        d->el = el;
        d->derived = 1;
        MPI_Type_commit(&d->dt);
        finish_type(d);
    }
}

void init_types(void)
{
    for (int e = 0; e < NELEM; e++)
        add_plain(e);
    add_derived(E_INT);
    add_derived(E_DOUBLE);
    add_derived(E_AFF);
}

static const ttype *type_of_handle(MPI_Datatype dt)
{
    for (int i = 0; i < ntypes; i++)
        if (types[i].dt == dt)
            return &types[i];
    return NULL;
}

/* ------------------------------------------------------------------------ */
/* user ops                                                                 */

static void user_sum(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    const ttype *t = type_of_handle(*dt);
    if (t == NULL || (t->el != &elems[E_INT] && t->el != &elems[E_DOUBLE])) {
        fprintf(stderr, "rsag_check: user_sum called with an unknown datatype\n");
        MPI_Abort(MPI_COMM_WORLD, 99);
        return;
    }
    int is_int = (t->el == &elems[E_INT]);
    for (int k = 0; k < *len; k++) {
        for (int j = 0; j < t->nel; j++) {
            MPI_Aint o = (MPI_Aint)k * t->ext + t->off[j];
            char *a = (char *)in + o, *b = (char *)inout + o;
            if (is_int) {
                int x, y;
                memcpy(&x, a, sizeof x);
                memcpy(&y, b, sizeof y);
                y = (int)((long long)x + (long long)y);
                memcpy(b, &y, sizeof y);
            } else {
                double x, y;
                memcpy(&x, a, sizeof x);
                memcpy(&y, b, sizeof y);
                y = x + y;
                memcpy(b, &y, sizeof y);
            }
        }
    }
}

/* (u op v)(x) = v(u(x)): inoutvec = invec op inoutvec, associative, not commutative */
static void user_affine(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    const ttype *t = type_of_handle(*dt);
    if (t == NULL || t->el != &elems[E_AFF]) {
        fprintf(stderr, "rsag_check: user_affine called with an unknown datatype\n");
        MPI_Abort(MPI_COMM_WORLD, 99);
        return;
    }
    for (int k = 0; k < *len; k++) {
        for (int j = 0; j < t->nel; j++) {
            MPI_Aint o = (MPI_Aint)k * t->ext + t->off[j];
            uint64_t u[2], v[2], w[2];
            memcpy(u, (char *)in + o, sizeof u);
            memcpy(v, (char *)inout + o, sizeof v);
            w[0] = v[0] * u[0];
            w[1] = v[0] * u[1] + v[1];
            memcpy((char *)inout + o, w, sizeof w);
        }
    }
}

void init_ops(void)
{
    ops[OP_SUM] = (opdesc){ "MPI_SUM", MPI_SUM, 1 };
    ops[OP_PROD] = (opdesc){ "MPI_PROD", MPI_PROD, 1 };
    ops[OP_MAX] = (opdesc){ "MPI_MAX", MPI_MAX, 1 };
    ops[OP_MIN] = (opdesc){ "MPI_MIN", MPI_MIN, 1 };
    ops[OP_LAND] = (opdesc){ "MPI_LAND", MPI_LAND, 1 };
    ops[OP_LOR] = (opdesc){ "MPI_LOR", MPI_LOR, 1 };
    ops[OP_LXOR] = (opdesc){ "MPI_LXOR", MPI_LXOR, 1 };
    ops[OP_BAND] = (opdesc){ "MPI_BAND", MPI_BAND, 1 };
    ops[OP_BOR] = (opdesc){ "MPI_BOR", MPI_BOR, 1 };
    ops[OP_BXOR] = (opdesc){ "MPI_BXOR", MPI_BXOR, 1 };
    ops[OP_MINLOC] = (opdesc){ "MPI_MINLOC", MPI_MINLOC, 1 };
    ops[OP_MAXLOC] = (opdesc){ "MPI_MAXLOC", MPI_MAXLOC, 1 };
    ops[OP_USUM] = (opdesc){ "user_sum(commutative)", MPI_OP_NULL, 1 };
    ops[OP_UAFF] = (opdesc){ "user_affine(non-commutative)", MPI_OP_NULL, 0 };
    MPI_Op_create(user_sum, 1, &ops[OP_USUM].op);
    MPI_Op_create(user_affine, 0, &ops[OP_UAFF].op);
}

/* is op allowed for the type (MPI 3.1, 5.9.2)?  Open MPI rejects predefined
 * ops on derived datatypes (MPI_ERR_OP), so derived layouts get the user ops. */
int op_valid(const ttype *t, int op)
{
    const edesc *el = t->el;
    if (op == OP_USUM)
        return el == &elems[E_INT] || el == &elems[E_DOUBLE];
    if (op == OP_UAFF)
        return el == &elems[E_AFF];
    if (!t->plain)
        return 0;
    switch (el->cat) {
    case CAT_INT:  return op <= OP_BXOR;
    case CAT_FLT:  return op <= OP_MIN;
    case CAT_CPLX: return op == OP_SUM || op == OP_PROD;
    case CAT_BOOL: return op == OP_LAND || op == OP_LOR || op == OP_LXOR;
    case CAT_BYTE: return op == OP_BAND || op == OP_BOR || op == OP_BXOR;
    case CAT_PAIR: return op == OP_MINLOC || op == OP_MAXLOC;
    default:       return 0;
    }
}


int case_group(const ttype *t, int op)
{
    if (t->plain && t->el->cat == CAT_INT && t->el->size <= 2 && op == OP_SUM)
        return G_SMALLINT;
    if (t->plain && t->el == &elems[E_ULONG] && (op == OP_MIN || op == OP_MAX))
        return G_ULONG;
    return G_MAIN;
}

/* ------------------------------------------------------------------------ */
/* element load / store / arithmetic                                        */

void val_fmt(const edesc *el, const val_t *v, char *s, size_t n)
{
    switch (el->cat) {
    case CAT_INT: case CAT_BYTE:
        if (el->sgn) snprintf(s, n, "%lld", (long long)(int64_t)v->u);
        else snprintf(s, n, "%llu", (unsigned long long)v->u);
        break;
    case CAT_BOOL: snprintf(s, n, "%llu", (unsigned long long)v->u); break;
    case CAT_FLT: snprintf(s, n, "%.17g", v->re); break;
    case CAT_CPLX: snprintf(s, n, "(%.17g,%.17g)", v->re, v->im); break;
    case CAT_PAIR: snprintf(s, n, "(%.17g,%d)", v->re, v->idx); break;
    case CAT_AFF:
        snprintf(s, n, "(a=%#llx,b=%#llx)", (unsigned long long)v->u,
                 (unsigned long long)v->u2);
        break;
    }
}

/* a = a op b, a from the lower rank */
void combine(const edesc *el, int op, val_t *a, const val_t *b)
{
    switch (el->cat) {
    case CAT_INT: case CAT_BYTE: case CAT_BOOL: {
        int size = el->cat == CAT_BOOL ? 8 : el->size;
        int sgn = el->cat == CAT_BOOL ? 0 : el->sgn;
        uint64_t x = a->u, y = b->u, r = 0;
        switch (op) {
        case OP_SUM: case OP_USUM: r = x + y; break;
        case OP_PROD: r = x * y; break;
        case OP_MAX:
            r = sgn ? ((int64_t)x >= (int64_t)y ? x : y) : (x >= y ? x : y);
            break;
        case OP_MIN:
            r = sgn ? ((int64_t)x <= (int64_t)y ? x : y) : (x <= y ? x : y);
            break;
        case OP_LAND: r = (x != 0) && (y != 0); break;
        case OP_LOR: r = (x != 0) || (y != 0); break;
        case OP_LXOR: r = (x != 0) != (y != 0); break;
        case OP_BAND: r = x & y; break;
        case OP_BOR: r = x | y; break;
        case OP_BXOR: r = x ^ y; break;
        }
        a->u = norm_int(size, sgn, r);
        break;
    }
    case CAT_FLT:
        switch (op) {
        case OP_SUM: case OP_USUM: a->re += b->re; break;
        case OP_PROD: a->re *= b->re; break;
        case OP_MAX: if (b->re > a->re) a->re = b->re; break;
        case OP_MIN: if (b->re < a->re) a->re = b->re; break;
        }
        break;
    case CAT_CPLX:
        if (op == OP_PROD) {
            double re = a->re * b->re - a->im * b->im;
            double im = a->re * b->im + a->im * b->re;
            a->re = re;
            a->im = im;
        } else {
            a->re += b->re;
            a->im += b->im;
        }
        break;
    case CAT_PAIR: {
        int better = (op == OP_MINLOC) ? (b->re < a->re) : (b->re > a->re);
        if (better) {
            a->re = b->re;
            a->idx = b->idx;
        } else if (b->re == a->re && b->idx < a->idx) {
            a->idx = b->idx;
        }
        break;
    }
    case CAT_AFF: {
        uint64_t na = b->u * a->u, nb = b->u * a->u2 + b->u2;
        a->u = na;
        a->u2 = nb;
        break;
    }
    }
}
