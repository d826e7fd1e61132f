# rsag cost-model profile written by rsag-calibrate.sh on 2026-11-23 12:53 UTC
# from 2026-11-23-model-validation/shm-raw.txt and 2026-11-23-model-validation/net-1gbit-4x1-raw.txt
#   rsag_calibrate np 2 btl self,vader 2026-11-23 10:32 UTC vm, best of 3 runs
#   rsag_calibrate 4 hosts x 1 rank, rate 1gbit, 2026-11-23 12:16 UTC, load 3.16 4.15 4.22
#   rsag_calibrate 4 hosts x 1 rank, rate 1gbit, 2026-11-23 12:48 UTC, load 3.73 6.33 7.65
name = 1gbit-4x1
shm_alpha = 1.825e-07
shm_beta = 1.414e-10
shm_beta_cache = 4.733e-11
shm_beta_eager = 1.022e-10
shm_eager = 4096
shm_rndv = 2.914e-06
shm_o = 5.062e-08
shm_overlap = 0
net_alpha = 5.4e-05
net_beta = 8.988e-09
net_beta_cache = 8.856e-09
net_beta_eager = 7.534e-09
net_eager = 65536
net_rndv = 0
net_o = 1.383e-05
net_burst = 49152
net_beta_burst = 1.614e-09
net_rndv_pipe = 0.001099
net_exchange = 2.007
net_overlap = 1
nic_share = 1
fabric_bw = 0
node_bw = 0
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
