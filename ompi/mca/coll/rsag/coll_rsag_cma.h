/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * Single-copy transfers between the ranks of a node with Linux Cross
 * Memory Attach (process_vm_readv / process_vm_writev): one copy from a
 * peer's buffer into ours, no staging.  The kernel may refuse (no ptrace
 * permission, seccomp, another kernel): every call says so with an Open
 * MPI error code, and the segment set-up learns once per communicator
 * whether it works (mca_coll_rsag_cma_probe).
 */
#ifndef MCA_COLL_RSAG_CMA_H
#define MCA_COLL_RSAG_CMA_H

#include "ompi_config.h"

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

BEGIN_C_DECLS

/* Copy `bytes` from address `remote` of process `pid` to `local`. */
int mca_coll_rsag_cma_read(pid_t pid, void *local, uint64_t remote, size_t bytes);
/* Copy `bytes` from `local` to address `remote` of process `pid`. */
int mca_coll_rsag_cma_write(pid_t pid, const void *local, uint64_t remote, size_t bytes);

/* Test-read the 8-byte word at `remote` in `pid` and compare it with
 * `expect`: 0 when CMA works, else the errno of the refusal (EIO when the
 * word read differs). */
int mca_coll_rsag_cma_probe(pid_t pid, uint64_t remote, uint64_t expect);

END_C_DECLS

#endif /* MCA_COLL_RSAG_CMA_H */
