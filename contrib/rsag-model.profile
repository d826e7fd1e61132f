# rsag cost-model profile written by rsag-calibrate.sh on 2026-11-23 12:33 UTC
# from 2026-11-23-model-validation/shm-raw.txt and 2026-11-23-model-validation/net-1gbit-raw.txt
#   rsag_calibrate np 2 btl self,vader 2026-11-23 10:32 UTC vm, best of 3 runs
#   rsag_calibrate 2 hosts x 1 rank, rate 1gbit, 2026-11-23 12:10 UTC, load 3.92 4.07 4.26
#   rsag_calibrate 2 hosts x 1 rank, rate 1gbit, 2026-11-23 12:12 UTC, load 3.43 3.81 4.13
name = 1gbit
shm_alpha = 1.825e-07
shm_beta = 1.414e-10
shm_beta_cache = 4.733e-11
shm_beta_eager = 1.022e-10
shm_eager = 4096
shm_rndv = 2.914e-06
shm_o = 5.062e-08
shm_overlap = 0
net_alpha = 1.554e-05
net_beta = 8.93e-09
net_beta_cache = 8.904e-09
net_beta_eager = 9.418e-09
net_eager = 65536
net_rndv = 4.749e-05
net_o = 9e-06
net_burst = 49152
net_beta_burst = 7.164e-10
net_rndv_pipe = 0.000543
net_exchange = 1
net_overlap = 1
nic_share = 1
fabric_bw = 0
cache_bytes = 4194304
cma_alpha = 1.758e-07
cma_beta = 8.2e-11
gamma = 7.083e-11
gamma.BAND.INT64 = 6.133e-11
gamma.LAND.INT32 = 1.515e-10
gamma.MAX.DOUBLE = 7.529e-11
gamma.MAXLOC.PAIR_DOUBLE_INT = 4.26e-10
gamma.MIN.INT32 = 1.391e-10
gamma.PROD.DOUBLE = 7.187e-11
gamma.SUM.CDOUBLE = 4.996e-11
gamma.SUM.DOUBLE = 7.083e-11
gamma.SUM.FLOAT = 1.187e-10
gamma.SUM.INT32 = 1.036e-10
gamma.SUM.INT64 = 6.225e-11
gamma_cache = 5.433e-11
gamma_cache.BAND.INT64 = 4.854e-11
gamma_cache.LAND.INT32 = 1.491e-10
gamma_cache.MAX.DOUBLE = 5.42e-11
gamma_cache.MAXLOC.PAIR_DOUBLE_INT = 4.652e-11
gamma_cache.MIN.INT32 = 1.26e-10
gamma_cache.PROD.DOUBLE = 5.389e-11
gamma_cache.SUM.CDOUBLE = 2.853e-11
gamma_cache.SUM.DOUBLE = 5.433e-11
gamma_cache.SUM.FLOAT = 1.044e-10
gamma_cache.SUM.INT32 = 9.013e-11
gamma_cache.SUM.INT64 = 4.833e-11
memcpy_beta = 2.888e-11
memcpy_cache = 9.116e-12
# the node path's terms (direct) and the node's shared bandwidth: rsag-calibrate.sh
# --runs 5 on a quiet machine, 2026-11-27 (np 2; the median run's figures;
# contrib/results/2026-11-27-direct-model-quiet)
stream_beta = 5.578e-11
stream_cache = 5.124e-11
xcopy = 5.423e-11
xcopy_nt = 7.597e-11
xreduce = 7.171e-11
xreduce_nt = 1.199e-10
handoff = 1.255e-07
handoff_line = 1.414e-08
sync = 2.48e-07
call_alpha = 1.11e-07
node_bw = 3.037e+10
node_mem_bw = 6.809e+10
llc_bytes = 272629760
dram_factor = 1.308
xcopy.2048 = 1.494e-10
xcopy.32768 = 8.792e-11
xcopy_nt.2048 = 1.475e-10
xcopy_nt.32768 = 9.485e-11
xreduce.2048 = 1.978e-10
xreduce.32768 = 1.82e-10
xreduce_nt.2048 = 3.032e-10
xreduce_nt.32768 = 2.764e-10
