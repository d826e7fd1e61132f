/*
 * Copyright (c) 2026 The mca_coll_rsag developers. All rights reserved.
 * SPDX-License-Identifier: BSD-3-Clause
 * See LICENSE at the top of the tree.
 */
/*
 * Single-copy transfers with CMA; see coll_rsag_cma.h.
 *
 * The kernel may move fewer bytes than asked (it stops at a page it
 * cannot take, or at a signal): the rest is asked for again until all is
 * moved or the kernel moves nothing, which is an error.
 */
#include "ompi_config.h"

#include <errno.h>
#include <string.h>
#include <sys/uio.h>

#include "ompi/constants.h"

#include "coll_rsag_cma.h"

/* One direction of a transfer, retried on short counts. */
static int mca_coll_rsag_cma_move(pid_t pid, char *local, uint64_t remote, size_t bytes,
                                  int write, int *err_no)
{
    *err_no = 0;
    while (bytes > 0) {
        struct iovec l = { local, bytes };
        struct iovec r = { (void *) (uintptr_t) remote, bytes };
        ssize_t got = write ? process_vm_writev(pid, &l, 1, &r, 1, 0)
                            : process_vm_readv(pid, &l, 1, &r, 1, 0);

        if (got < 0 && EINTR == errno) {
            continue;
        }
        if (got <= 0) {
            *err_no = (got < 0) ? errno : EIO;
            return OMPI_ERROR;
        }
        local += got;
        remote += (uint64_t) got;
        bytes -= (size_t) got;
    }
    return OMPI_SUCCESS;
}

int mca_coll_rsag_cma_read(pid_t pid, void *local, uint64_t remote, size_t bytes)
{
    int err_no;
    return mca_coll_rsag_cma_move(pid, (char *) local, remote, bytes, 0, &err_no);
}

int mca_coll_rsag_cma_write(pid_t pid, const void *local, uint64_t remote, size_t bytes)
{
    int err_no;
    return mca_coll_rsag_cma_move(pid, (char *) local, remote, bytes, 1, &err_no);
}

int mca_coll_rsag_cma_probe(pid_t pid, uint64_t remote, uint64_t expect)
{
    uint64_t word = ~expect;
    int err_no;

    if (OMPI_SUCCESS != mca_coll_rsag_cma_move(pid, (char *) &word, remote, sizeof(word), 0,
                                               &err_no)) {
        return 0 != err_no ? err_no : EIO;
    }
    return word == expect ? 0 : EIO;
}
